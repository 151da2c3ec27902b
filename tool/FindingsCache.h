//===--- FindingsCache.h - findings of unchanged files ----------*- C++ -*-===//
//
// A whole-program run keeps, beside each file's summary, the outcome of its
// last analysis (findings, fix-its) with what it was computed with: the
// translation unit as its summary describes it (compile command, every file
// it read with its hash, the analysis' identity) and the hashes of every
// fact of other files it looked up (its dependencies). While all of them
// are the same, and the options that shape a report (checks, chain style,
// warnings as errors) too, the file's findings come from here without
// parsing it: the same text, JSON, SARIF and exit code as a fresh analysis.
// An entry that cannot be read or decoded is ignored and replaced.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_FINDINGSCACHE_H
#define REMATCH_TOOL_FINDINGSCACHE_H

#include "Scheduler.h"
#include "Summaries.h"
#include <optional>
#include <string>

namespace rematch::tool {

class FindingsCache {
public:
  // Dir: the summaries' directory. Options: what else shapes an outcome.
  FindingsCache(std::string Dir, std::string Options)
      : Names(std::move(Dir)), Options(std::move(Options)) {}

  // The outcome kept for the file of Summary (its head is enough), if it was computed for this
  // very translation unit and options and what it depended on holds: at
  // once when it was computed with the program's summaries as they are
  // (Stamp, SummaryStore::stamp()), else in Program.
  std::optional<FileOutcome> lookup(const TUSummary &Summary,
                                    llvm::StringRef Stamp,
                                    ProgramView &Program) const;
  // Keeps O (not a failed analysis) for the file of Summary, computed with
  // the summaries Stamp names; Dependencies as FileOutcome::Dependencies
  // says them. Nothing when it cannot be written: the summaries' warning
  // covers the directory.
  void store(const TUSummary &Summary, const FileOutcome &O,
             llvm::StringRef Dependencies, llvm::StringRef Stamp) const;

private:
  std::string pathFor(llvm::StringRef MainFile) const;

  clang::tidy::rematch::CacheLayout Names;
  std::string Options;
};

// Dependencies (TUSummary::Dependencies, AnalysisHost::DependencySink) as
// FileOutcome::Dependencies writes them.
std::string dependencyText(
    llvm::ArrayRef<std::pair<std::string, std::string>> Dependencies);

} // namespace rematch::tool

#endif
