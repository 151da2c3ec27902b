//===--- Filters.h - which findings a run reports ---------------*- C++ -*-===//
//
// --baseline, --changed-lines and --line-filter drop findings after the
// analysis and before the report and the exit code; --write-baseline saves
// every finding first. A finding is reported when it passes all of them.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_FILTERS_H
#define REMATCH_TOOL_FILTERS_H

#include "CommandLine.h"
#include "Finding.h"
#include "LineFilter.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <set>

namespace rematch::tool {

class FindingFilters {
public:
  // Reads the baseline, parses the line filter, checks the revision in the
  // inputs' repositories and that --write-baseline is writable, before any
  // analysis. Every error is a configuration error (exit code 2), formatted
  // as a complete diagnostic line.
  static llvm::Expected<FindingFilters> create(const CliOptions &O);

  // Fixes every finding's fingerprint over the whole run, writes
  // --write-baseline, then drops the findings a filter rejects and says on
  // Err how many. The error is a baseline that could not be written.
  llvm::Error apply(Results &R, llvm::raw_ostream &Err);

private:
  std::string WriteBaseline;
  std::optional<std::set<std::string>> Baseline;
  std::optional<JsonLineFilter> Lines;
  std::optional<ChangedLines> Changed;
};

} // namespace rematch::tool

#endif
