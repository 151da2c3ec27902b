//===--- Driver.h - run the checks over files, gather results --*- C++ -*-===//
#ifndef REMATCH_TOOL_DRIVER_H
#define REMATCH_TOOL_DRIVER_H

#include "CommandLine.h"
#include "Filters.h"
#include "Finding.h"
#include "Scheduler.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>

namespace rematch::tool {

enum ExitCode : int {
  NoFindings = 0,
  HasFindings = 1,
  UsageError = 2,
  AnalysisFailed = 3,
};

// The rule table: one entry per check, from checks/Checks.def.
std::vector<RuleInfo> ruleTable();

// Every check name known to rematch, sorted.
std::vector<std::string> allCheckNames();

// Checks the --checks globs: an unknown name or a list that enables nothing
// is an error naming it. Returns the enabled checks.
llvm::Expected<std::vector<std::string>> enabledChecks(llvm::StringRef Globs);

// Everything a flag or an explicit configuration can get wrong, checked
// before any work: an error says what (exit code 2).
llvm::Error checkOptions(const CliOptions &O);

// A .rematch.yaml, and the model files it names, can be read: otherwise a
// configuration error of the files below it.
llvm::Error checkConfigFile(llvm::StringRef Path);

// Where a report goes and what filters it (--baseline, --changed-lines,
// --line-filter, --write-baseline, --output), made before any work: a
// problem is said on Err (exit code 2) and gives none.
struct ReportDestination {
  FindingFilters Filters;
  std::unique_ptr<llvm::raw_fd_ostream> File; // --output; null: stdout
};
std::optional<ReportDestination> prepareReport(const CliOptions &O,
                                              llvm::raw_ostream &Err);

// The report of outcomes computed elsewhere (rematch report), for Files in
// this order, exactly as the default command reports them: filters, format,
// exit code.
int reportOutcomes(const CliOptions &O, ReportDestination &To,
                   const std::vector<std::string> &Files,
                   std::vector<FileOutcome> Outcomes, llvm::raw_ostream &Err);

// Analyses every file, reports to the --output destination in the chosen
// format, diagnostics about the run itself to Err; returns the exit code.
int runRematch(const CliOptions &Options, llvm::raw_ostream &Err);

} // namespace rematch::tool

#endif
