//===--- FactsReport.h - findings a link adds, without parsing --*- C++ -*-===//
//
// A file's findings were made, when it was summarized, against a program
// that held no other file. When the link changes only what other files'
// functions do and which globals they write, the findings that adds are
// made here from facts alone: the file's checkpointed callables (Summary.h,
// SummaryCallable) composed with the program (composeCallables), filtered
// as the analysis filters them, worded by the checks themselves
// (RematchCheck::wordFacts), and dropped where the file's NOLINT comments
// drop them (NoLint.h). Where that could differ from what a parse with the
// program would report, the file is parsed again: a finding a change would
// move or remove, one in the callable's own body (fix-its), one through a
// virtual call or a value that holds callables.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_FACTSREPORT_H
#define REMATCH_TOOL_FACTSREPORT_H

#include "CommandLine.h"
#include "Finding.h"
#include "Scheduler.h"
#include "Summaries.h"
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy {
class ClangTidyCheck;
class ClangTidyContext;
class GlobList;
namespace rematch {
struct CallableEffect;
class RematchCheck;
} // namespace rematch
} // namespace clang::tidy

namespace rematch::tool {

using clang::tidy::rematch::CallableEffect;
using clang::tidy::rematch::SummaryCallable;

class FactsReporter {
public:
  // The checks O enables, worded with O's options.
  explicit FactsReporter(const CliOptions &O);
  ~FactsReporter();

  // Adds to Out, the outcome of S's file alone, the findings the file has
  // with the program P shows, with their fix-its (paths as S gives them);
  // its conditional findings are then settled. False (Out unchanged) when
  // only a parse can tell.
  bool complete(const TUSummary &S, FileOutcome &Out, ProgramView &P) const;

private:
  // What complete() adds; Conditional: the outcome's findings that hold if
  // a global is written.
  struct Added {
    std::vector<Finding> Findings;
    std::vector<clang::tooling::Replacement> Fixes;
  };
  std::optional<Added>
  added(const TUSummary &S, const std::vector<ConditionalFinding> &Conditional,
        ProgramView &P) const;
  // E as its check words it: an empty finding when the check is not
  // enabled, nullopt when the facts lack what it needs.
  std::optional<Finding> worded(const CallableEffect &E,
                                const SummaryCallable &C,
                                const TUSummary &S) const;

  std::unique_ptr<clang::tidy::ClangTidyContext> Context;
  std::vector<std::unique_ptr<clang::tidy::ClangTidyCheck>> Checks;
  std::map<int, const clang::tidy::rematch::RematchCheck *> ByKind;
  std::unique_ptr<clang::tidy::GlobList> AsErrors;
  // The inline chain names an override where the notes name the method.
  bool InlineChains = false;
};

} // namespace rematch::tool

#endif
