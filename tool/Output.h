//===--- Output.h - the report writers --------------------------*- C++ -*-===//
#ifndef REMATCH_TOOL_OUTPUT_H
#define REMATCH_TOOL_OUTPUT_H

#include "Finding.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <optional>

namespace rematch::tool {

// clang style: "file:line:col: warning: message [check]", the source line and
// a caret, then each note as "file:line:col: note: message".
void writeText(llvm::raw_ostream &OS, const Results &R);

// {"version":1,"files":[...],"findings":[...]}, see docs/output.md.
void writeJson(llvm::raw_ostream &OS, const Results &R);

// SARIF 2.1.0, one run, tool.driver.name "rematch".
void writeSarif(llvm::raw_ostream &OS, const Results &R,
                const std::vector<RuleInfo> &Rules);

// GitLab Code Quality (Code Climate issues): a JSON array with type,
// check_name, description, categories, severity, fingerprint (SARIF's) and
// location.path / location.lines.begin. Absolute paths under BaseDir (the
// directory rematch ran in) become relative to it, as GitLab wants.
void writeCodeClimate(llvm::raw_ostream &OS, const Results &R,
                      llvm::StringRef BaseDir = "");
// The pieces of it the tests pin down.
std::string codeClimatePath(llvm::StringRef File, llvm::StringRef BaseDir);
std::string codeClimateSeverity(llvm::StringRef Level);

// The contents of a file named as in the results, or nullopt.
using SourceReader =
    std::function<std::optional<std::string>(llvm::StringRef File)>;

// One self-contained HTML page (inline style and script, no network):
// counts and a filter per check, then the findings by file and checkpoint
// call, each with the code around it and its call chain with the code of
// each step, read through Read.
void writeHtml(llvm::raw_ostream &OS, const Results &R,
               const std::vector<RuleInfo> &Rules, const SourceReader &Read);
// The SourceReader of the program: the file on disk, relative names from the
// current directory (where the run named them).
std::optional<std::string> readSourceFile(llvm::StringRef File);

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
