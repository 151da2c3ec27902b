//===--- Paths.h - one way to make a path absolute --------------*- C++ -*-===//
#ifndef REMATCH_TOOL_PATHS_H
#define REMATCH_TOOL_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace rematch::tool {

// Path made absolute against Base (the current directory when empty), with
// `.` and `..` taken out: the one spelling the run compares files by.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base = {});

} // namespace rematch::tool

#endif
