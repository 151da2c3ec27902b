//===--- Git.h - running git for the line filters and the hook --*- C++ -*-===//
//
// rematch asks git, the program, rather than reading .git itself: worktrees,
// submodules, hooks paths and index locations are git's business.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_GIT_H
#define REMATCH_TOOL_GIT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace rematch::tool {

struct GitResult {
  int ExitCode = -1; // -1: git could not be run (Error says why)
  std::string Output;
  std::string Error; // git's stderr, trimmed
};

// Runs `git -C <Dir> <Args...>` without a shell and captures both streams.
GitResult runGit(llvm::StringRef Dir, const std::vector<std::string> &Args);

// The top-level directory of the work tree holding Dir, or nothing when Dir
// is not inside one.
std::optional<std::string> gitTopLevel(llvm::StringRef Dir);

} // namespace rematch::tool

#endif
