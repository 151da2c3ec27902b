//===--- TestHooks.cpp - the test build's analysis hook ---------------------===//
//
// Linked into rematch-testhooks only, the program tests/cli/test_parallel.py
// runs to see a crash or a hang inside one file's analysis handled:
// REMATCH_TEST_CRASH_ON=<base name> aborts in that file's analysis,
// REMATCH_TEST_SLEEP_ON=<base name> makes it take a minute. The shipped
// rematch has no such hook.
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"
#include "llvm/Support/Path.h"
#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

void crashOrSleep(const std::string &File) {
  llvm::StringRef Base = llvm::sys::path::filename(File);
  if (const char *Crash = std::getenv("REMATCH_TEST_CRASH_ON");
      Crash && Base == Crash)
    std::abort();
  if (const char *Sleep = std::getenv("REMATCH_TEST_SLEEP_ON");
      Sleep && Base == Sleep)
    std::this_thread::sleep_for(std::chrono::seconds(60));
}

// Installed before main() runs.
const bool Installed = (rematch::tool::setAnalysisHook(&crashOrSleep), true);

} // namespace
