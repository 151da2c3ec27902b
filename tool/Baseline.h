//===--- Baseline.h - --baseline and --write-baseline -----------*- C++ -*-===//
//
// A baseline is an earlier SARIF report of rematch: findings whose
// fingerprint (partialFingerprints["rematch/v1"]) it holds are known and not
// reported again, so a project can adopt rematch and gate on new findings.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_BASELINE_H
#define REMATCH_TOOL_BASELINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <set>
#include <string>

namespace rematch::tool {

// The fingerprints of every result of every rematch run in the SARIF file.
// A file that cannot be read, is not JSON, or holds no rematch run is an
// error naming the file.
llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path);

// The same from the text of a SARIF log; Path only names it in errors.
llvm::Expected<std::set<std::string>> parseBaseline(llvm::StringRef Sarif,
                                                    llvm::StringRef Path);

} // namespace rematch::tool

#endif
