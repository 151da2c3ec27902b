//===--- Output.h - text, JSON and SARIF writers ----------------*- C++ -*-===//
#ifndef REMATCH_TOOL_OUTPUT_H
#define REMATCH_TOOL_OUTPUT_H

#include "Finding.h"
#include "llvm/Support/raw_ostream.h"

namespace rematch::tool {

// clang style: "file:line:col: warning: message [check]", the source line and
// a caret, then each note as "file:line:col: note: message".
void writeText(llvm::raw_ostream &OS, const Results &R);

// {"version":1,"files":[...],"findings":[...]}, see docs/output.md.
void writeJson(llvm::raw_ostream &OS, const Results &R);

// SARIF 2.1.0, one run, tool.driver.name "rematch".
void writeSarif(llvm::raw_ostream &OS, const Results &R,
                const std::vector<RuleInfo> &Rules);

// A fingerprint that survives unrelated edits above the finding: it hashes
// the check, the file, the message and the whitespace-normalised source line,
// plus the occurrence index among identical keys in the same file.
// Fills one fingerprint per finding, in order; a finding whose Fingerprint is
// already set keeps it.
std::vector<std::string> fingerprints(const std::vector<Finding> &Findings);

// A file name as SARIF's artifactLocation.uri wants it: a relative path stays
// a relative reference, an absolute one becomes a file:// URI; bytes outside
// the URI path alphabet (spaces, non-ASCII, '%', '#', ...) are percent-encoded.
std::string pathToUri(llvm::StringRef Path);

} // namespace rematch::tool

#endif
