//===--- LineFilter.h - --line-filter and --changed-lines -------*- C++ -*-===//
//
// Both options keep only the findings whose primary location is on selected
// lines: --line-filter takes the lines from clang-tidy's JSON, and
// --changed-lines from `git diff -U0 <rev>` in each file's repository.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_LINEFILTER_H
#define REMATCH_TOOL_LINEFILTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rematch::tool {

// Inclusive 1-based line ranges.
using LineRanges = std::vector<std::pair<unsigned, unsigned>>;

// clang-tidy's --line-filter: [{"name":"a.cpp","lines":[[1,3],[5,5]]}, ...].
// As in clang-tidy, an entry matches a file whose name ends with "name"; the
// first matching entry decides; an entry without "lines" passes the whole
// file; a file no entry matches is not reported; an empty list passes all.
class JsonLineFilter {
public:
  static llvm::Expected<JsonLineFilter> parse(llvm::StringRef Json);
  // File as reported; AbsoluteFile is tried too.
  bool passes(llvm::StringRef File, llvm::StringRef AbsoluteFile,
              unsigned Line) const;

private:
  struct Entry {
    std::string Name;
    LineRanges Lines; // empty: every line
  };
  std::vector<Entry> Entries;
};

// The new-side line ranges of the @@ hunks of a `git diff -U0` output, by the
// path after "+++ b/" (unquoted); deleted files and pure deletions add none.
std::map<std::string, LineRanges> parseUnifiedDiff(llvm::StringRef Diff);

// --changed-lines=<rev>: the lines changed since Rev, from the work tree.
class ChangedLines {
public:
  // Checks that every input's directory is in a git work tree where Rev
  // names a commit; the error names the file or the revision.
  static llvm::Expected<ChangedLines>
  create(llvm::StringRef Rev, const std::vector<std::string> &Inputs);

  // Runs git once per repository for these files (absolute, real paths);
  // a file outside any work tree has no changed line, an untracked file has
  // all lines changed. Problems are warnings written to Warnings.
  void load(const std::vector<std::string> &Files, std::string &Warnings);

  bool passes(llvm::StringRef RealFile, unsigned Line) const;

private:
  std::string Rev;
  struct FileLines {
    bool All = false;
    LineRanges Lines;
  };
  std::map<std::string, FileLines> Files; // by real path
};

} // namespace rematch::tool

#endif
