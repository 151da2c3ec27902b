//===--- ClangFlags.h - compile commands clang accepts ----------*- C++ -*-===//
//
// A compile command written for GCC may hold flags clang's driver does not
// know (-fno-canonical-system-headers, which Bazel's GCC toolchain passes on
// every compile), and clang then refuses the whole file. rematch analyses
// with clang's front end only: such a flag is dropped, as if the compiler
// were clang, and every other one kept.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_CLANGFLAGS_H
#define REMATCH_TOOL_CLANGFLAGS_H

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <string>
#include <vector>

namespace rematch::tool {

// The command line (compiler first) without the arguments clang's driver
// does not know.
std::vector<std::string>
withoutUnknownFlags(const std::vector<std::string> &CommandLine);

// Inner's commands through withoutUnknownFlags.
std::unique_ptr<clang::tooling::CompilationDatabase>
clangFlagsOnly(std::unique_ptr<clang::tooling::CompilationDatabase> Inner);

} // namespace rematch::tool

#endif
