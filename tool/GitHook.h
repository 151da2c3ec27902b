//===--- GitHook.h - rematch --install-git-hook -----------------*- C++ -*-===//
//
// Writes scripts/pre-commit-hook.sh (embedded at build time) as the
// pre-commit hook of the repository holding the working directory, with this
// rematch program, and -p's directory, as its defaults.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_GITHOOK_H
#define REMATCH_TOOL_GITHOOK_H

#include "CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace rematch::tool {

// The hook's text with Program and BuildDir as its defaults (empty: keep the
// script's own, `rematch` on PATH and `build`).
std::string preCommitHookText(llvm::StringRef Program,
                              llvm::StringRef BuildDir);

// Exit code 0: installed, or the same hook is already there. 2: not in a git
// work tree, another hook is there (and no --force), or it cannot be written.
int installGitHook(const CliOptions &O, llvm::raw_ostream &Out,
                   llvm::raw_ostream &Err);

} // namespace rematch::tool

#endif
