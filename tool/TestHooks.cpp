//===--- TestHooks.cpp - the test build's analysis hook ---------------------===//
//
// Linked into rematch-testhooks only, the program tests/cli/test_parallel.py
// runs to see a crash or a hang inside one file's analysis handled:
// REMATCH_TEST_CRASH_ON=<base name> aborts in that file's analysis,
// REMATCH_TEST_SLEEP_ON=<base name> makes it take a minute; and the one
// tests/cli/test_summaries.py runs to count the parses of a whole-program
// run: REMATCH_TEST_LOG_ANALYSES=<file> appends each analysed file's base
// name to that file. The shipped rematch has no such hook.
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
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
  if (const char *Log = std::getenv("REMATCH_TEST_LOG_ANALYSES")) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Log, EC, llvm::sys::fs::OF_Append);
    if (!EC)
      OS << (Base + "\n").str(); // one write: lines of parallel runs stay whole
  }
}

// Installed before main() runs.
const bool Installed = (rematch::tool::setAnalysisHook(&crashOrSleep), true);

} // namespace
