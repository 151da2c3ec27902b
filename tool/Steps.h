//===--- Steps.h - summarize, link, report ----------------------*- C++ -*-===//
//
// The whole-program analysis as three pure steps, for a build system that
// runs each as an action with declared inputs and caches it by content
// (bazel/rematch.bzl):
//
//   rematch summarize  one parse of one file -> its facts (.rsum)
//   rematch link       .rsum and .rlink files -> one program (.rlink)
//   rematch report     a .rlink and the .rsum of the files to report ->
//                      the findings, in every output format
//
// Each reads only what it is given and writes only its -o; FactsFile.h says
// what the files hold.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_STEPS_H
#define REMATCH_TOOL_STEPS_H

#include "CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace rematch::tool {

int runSummarize(const CliOptions &O, llvm::raw_ostream &Err);
int runLink(const CliOptions &O, llvm::raw_ostream &Err);
int runReport(const CliOptions &O, llvm::raw_ostream &Err);

} // namespace rematch::tool

#endif
