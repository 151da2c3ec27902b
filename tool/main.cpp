//===--- main.cpp - the rematch command-line program ----------------------===//
//
// Parses the command line and runs the analysis; everything else lives in
// the rematch_cli library, which the unit tests link as well.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "Driver.h"
#include "GitHook.h"
#include "Steps.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace rematch::tool;

int main(int argc, char **argv) {
  llvm::InitLLVM Init(argc, argv);
  // A crash while analysing one file is reported for that file alone.
  llvm::CrashRecoveryContext::Enable();
  std::vector<std::string> Args(argv + 1, argv + argc);
  llvm::Expected<CliOptions> Options = parseCommandLine(Args);
  if (!Options) {
    llvm::errs() << "rematch: error: " << llvm::toString(Options.takeError())
                 << "\n";
    return UsageError;
  }
  if (Options->Help) {
    llvm::outs() << usageText(Options->Command);
    return NoFindings;
  }
  if (Options->Version) {
    llvm::outs() << "rematch " << REMATCH_VERSION << " (LLVM 19)\n";
    return NoFindings;
  }
  switch (Options->Command) {
  case Step::Summarize:
    return runSummarize(*Options, llvm::errs());
  case Step::Link:
    return runLink(*Options, llvm::errs());
  case Step::Report:
    return runReport(*Options, llvm::errs());
  case Step::Default:
    break;
  }
  if (Options->InstallGitHook)
    return installGitHook(*Options, llvm::outs(), llvm::errs());
  if (Options->ListChecks) {
    llvm::Expected<std::vector<std::string>> Checks =
        enabledChecks(Options->Checks);
    if (!Checks) {
      llvm::errs() << "rematch: error: " << llvm::toString(Checks.takeError())
                   << "\n";
      return UsageError;
    }
    for (const std::string &C : *Checks)
      llvm::outs() << C << "\n";
    return NoFindings;
  }
  return runRematch(*Options, llvm::errs());
}
