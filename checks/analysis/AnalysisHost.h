//===--- AnalysisHost.h - what a front end hands the checks -*- C++ -*-===//
//
// The seam between a program that runs the rematch checks itself (the
// `rematch` program, tool/) and the checks. clang-tidy creates a check from
// its name and its options only, and a front-end plugin from the command
// line, which clang-tidy strips of plugin arguments: what reaches both is
// the parse's file system. So the program fills an AnalysisHost for each
// translation unit and parses it on a HostedFileSystem that carries it; the
// checks and the skip-bodies plugin find it there (hostOf), once. No thread
// or process state says which host is current: each parse has its own file
// system, on whichever thread clang-tidy runs it.
//
// The clang-tidy plugin parses on clang-tidy's file system, which carries
// no host: the checks then analyse each file alone, or with the summaries
// their RematchSummariesDir option names, and leave clang-tidy's traversal
// alone (other checks may need it).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_ANALYSISHOST_H
#define REMATCH_CHECKS_ANALYSIS_ANALYSISHOST_H

#include "BodyReplay.h"
#include "ExternalSummaries.h"
#include "UnreadBodies.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <functional>
#include <memory>
#include <string>
#include <tuple>
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
  // The library bodies this parse may skip, which the analysis does not
  // read (UnreadBodies.h): the skip-bodies plugin skips them. Null: none.
  std::shared_ptr<const UnreadBodies> Unread;
  // Called when the analysis needs a body the parse skipped that no record
  // stands in for (a library's: Unread, or left out of the precompiled
  // preamble). It then reports and sinks nothing; the front end parses the
  // file again with every body.
  std::function<void()> UnparsedBodyNeeded;
  // Receives the records of this TU's bodies (BodyRecorder::text()) after
  // its summary went to Sink. Empty: none are made.
  std::function<void(std::string)> BodySink;
  // Set: the checks also report the reads of globals that only the
  // program's facts judged constant, as if some TU wrote them, and this
  // receives where those findings are (effect kind, location) and the
  // dependency key each holds under ("written"). The front end keeps them
  // apart, for a report that finds the global written (tool/FactsReport.h).
  std::function<void(
      const std::vector<std::tuple<std::string, PlainLocation, std::string>> &)>
      ConditionalSink;
};

// The real file system, as an overlay the parse may add files to, with the
// host of the analysis that runs on it. Host must outlive it.
class HostedFileSystem
    : public llvm::RTTIExtends<HostedFileSystem, llvm::vfs::OverlayFileSystem> {
public:
  static const char ID;
  HostedFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                   const AnalysisHost &Host)
      : RTTIExtends(std::move(Base)), Host(Host) {}
  const AnalysisHost &host() const { return Host; }

private:
  const AnalysisHost &Host;
};

// The host of the parse whose file system is FS (or wraps a
// HostedFileSystem, as clang's tools wrap the one they are given); null
// when none does (the plugin).
const AnalysisHost *hostOf(llvm::vfs::FileSystem &FS);

} // namespace clang::tidy::rematch

#endif
