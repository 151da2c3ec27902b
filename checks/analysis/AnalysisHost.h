//===--- AnalysisHost.h - what a front end hands the checks -*- C++ -*-===//
//
// The seam between a program that runs the rematch checks itself (the
// `rematch` program, tool/) and the checks. clang-tidy creates a check from
// its name and its context only, so nothing else can reach it through the
// constructor: the program fills an AnalysisHost for each translation unit
// and installs it, with ScopedAnalysisHost, on the thread that runs
// clang-tidy on that file. The analysis of that translation unit reads it
// there, once. Nothing is process-wide: analysis threads, and the phases of
// a whole-program run, each see their own.
//
// The clang-tidy plugin installs nothing: the checks then analyse each file
// alone, or with the summaries their RematchSummariesDir option names, and
// leave clang-tidy's traversal alone (other checks may need it).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_ANALYSISHOST_H
#define REMATCH_CHECKS_ANALYSIS_ANALYSISHOST_H

#include "BodyReplay.h"
#include "ExternalSummaries.h"
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::rematch {

struct AnalysisHost {
  // The other translation units' summaries, composed: calls into them are
  // followed. Null: the file is analysed alone.
  std::shared_ptr<const ExternalSummaries> Summaries;
  // Receives this translation unit's summary. Empty: none is made.
  SummarySink Sink;
  // The program enables no check but rematch's ("-*," + globs). The checks
  // then end clang-tidy's matcher traversal once they have run on the
  // translation unit's root: they need no other match, and the traversal
  // would visit every node a second time for nothing.
  bool RematchChecksOnly = false;
  // The files a precompiled preamble the parse uses has read (true: a
  // system header): the parse itself does not list them among its inputs.
  std::vector<std::pair<std::string, bool>> PreambleInputs;
  // Receives what the findings were computed with: the other TUs' facts
  // looked up, with their hashes (TUSummary::Dependencies), so that the
  // front end can keep the findings while those stay the same.
  std::function<void(const std::vector<std::pair<std::string, std::string>> &)>
      DependencySink;
  // The bodies this parse may skip (BodyReplay.h): the front end installs
  // it with the parse that skips them and, when it failed(), parses again
  // without it.
  std::shared_ptr<BodyReplay> Bodies;
  // Receives the records of this TU's bodies (BodyRecorder::text()) after
  // its summary went to Sink. Empty: none are made.
  std::function<void(std::string)> BodySink;
};

// Installs Host for the current thread until destroyed (nesting restores
// the outer one). Host must outlive the scope.
class ScopedAnalysisHost {
public:
  explicit ScopedAnalysisHost(const AnalysisHost &Host);
  ~ScopedAnalysisHost();
  ScopedAnalysisHost(const ScopedAnalysisHost &) = delete;
  ScopedAnalysisHost &operator=(const ScopedAnalysisHost &) = delete;

private:
  const AnalysisHost *Outer;
};

// The host installed on this thread, or null (the plugin).
const AnalysisHost *currentAnalysisHost();

} // namespace clang::tidy::rematch

#endif
