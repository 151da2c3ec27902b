//===--- skip_bodies_probe.cpp - a parse with or without function bodies --===//
//
// The floor of re-analysing an edited file whose unchanged bodies are not
// parsed again: Clang parses the file with FrontendOptions::
// SkipFunctionBodies on (every body skipped) or off, and with -w, as rematch
// parses; nothing else. cache_bench.py --probe times the skipping parse
// against clang++-19 -fsyntax-only; the test runs both.
//
//   skip_bodies_probe [--skip] <file> [-- <compiler flags>]
//
// Exits 0 when the parse has no error, 1 otherwise.
//
//===----------------------------------------------------------------------===//
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

class ParseAction : public clang::SyntaxOnlyAction {
public:
  explicit ParseAction(bool Skip) : Skip(Skip) {}

  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.getFrontendOpts().SkipFunctionBodies = Skip;
    return true;
  }

private:
  bool Skip;
};

} // namespace

int main(int argc, char **argv) {
  bool Skip = false;
  std::string File;
  std::vector<std::string> Args{"clang++-19", "-fsyntax-only", "-w"};
  int I = 1;
  for (; I < argc && std::strcmp(argv[I], "--") != 0; ++I) {
    if (!std::strcmp(argv[I], "--skip"))
      Skip = true;
    else if (File.empty())
      File = argv[I];
    else {
      llvm::errs() << "skip_bodies_probe: one file only\n";
      return 2;
    }
  }
  if (File.empty()) {
    llvm::errs() << "usage: skip_bodies_probe [--skip] <file> [-- <flags>]\n";
    return 2;
  }
  for (++I; I < argc; ++I)
    Args.push_back(argv[I]);
  Args.push_back(File);
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions());
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<ParseAction>(Skip), Files.get());
  return Invocation.run() ? 0 : 1;
}
