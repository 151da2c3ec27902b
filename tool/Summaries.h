//===--- Summaries.h - the --summaries-dir store ----------------*- C++ -*-===//
//
// One summary file per translation unit in a directory the user names. A
// summary is reused while its compile command and the content of every file
// the TU read are unchanged; a stale, corrupt or older-format file is
// ignored with a warning and rebuilt, never trusted.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_SUMMARIES_H
#define REMATCH_TOOL_SUMMARIES_H

#include "AnalysisHost.h"
#include "CacheLayout.h"
#include "ExternalSummaries.h"
#include "Scheduler.h"
#include "Summary.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace rematch::tool {

using clang::tidy::rematch::ExternalSummaries;
using clang::tidy::rematch::TUSummary;

// Content hash of a file (hex); empty when it cannot be read.
std::string hashFile(llvm::StringRef Path);

// "size:mtime" of a file, or empty: a cheap first look before hashing.
std::string stampOf(llvm::StringRef Path);
// A summary is reused only under the same compile command (Args run in
// Directory) and the same analysis (Identity: rematch's build and the
// settings that change what a summary says).
std::string hashCommand(const std::vector<std::string> &Args,
                        llvm::StringRef Directory, llvm::StringRef Identity);

// The translation unit as its summary knows it: compile command (with the
// analysis' identity) and every file read, each with its hash. Equal
// identities, equal summaries.
std::string tuIdentity(const TUSummary &S);

class ProgramView;
class ProgramCache;
class FactsReporter;

// Whether what S's findings were computed with (its Dependencies, and the
// checkpoint calls of other TUs for every function it lists) still holds in
// the program P shows.
// MayChange: the keys whose change is tolerated.
bool dependenciesHold(
    const TUSummary &S, ProgramView &P,
    llvm::function_ref<bool(llvm::StringRef)> MayChange = nullptr);

class SummaryStore {
public:
  // InMemory: the directory cannot be used; summaries live in this run only.
  explicit SummaryStore(std::string Dir, bool InMemory = false)
      : Names(std::move(Dir)), InMemory(InMemory) {}

  // A store of the summaries a link holds (rematch report): nothing on the
  // disk, and a summary counts whether or not its file is there.
  static std::unique_ptr<SummaryStore> ofLink() {
    auto S = std::make_unique<SummaryStore>("", /*InMemory=*/true);
    S->FilesMayBeAbsent = true;
    return S;
  }
  // Keeps S for this run.
  void add(TUSummary S) {
    std::lock_guard<std::mutex> Lock(Mutex);
    keep(std::move(S));
  }

  // Creates the directory and reads every summary in it; unreadable ones
  // are reported on Err (warnings) and left out. False when the directory
  // is unusable.
  bool load(llvm::raw_ostream &Err);
  // Reads again the stored summaries of these files (absolute paths), as
  // they are on disk now: the ones a phase just wrote (here or in a child
  // process), or another run wrote over them. Problems are not reported.
  void reload(const std::set<std::string> &MainFiles);
  // Keeps the summary Text (as store() returned it) for this run, whatever
  // the directory holds.
  void adopt(llvm::StringRef Text);
  // The summary kept for MainFile (absolute), or null (none, or a body
  // that cannot be parsed). Valid until the store changes.
  const TUSummary *find(llvm::StringRef MainFile) const;
  // The same with its head only (serializeSummary): what names the TU and
  // its inputs, without parsing the rest when it was read from the disk.
  const TUSummary *head(llvm::StringRef MainFile) const;

  // The stored summary of MainFile (absolute) is valid for CommandHash: the
  // command and every file the TU read are unchanged. A summary depends on
  // its own TU alone. ButMainFile: every file but MainFile itself (an
  // edited file whose bodies may be replayed, BodyReplay.h).
  bool isFresh(llvm::StringRef MainFile, llvm::StringRef CommandHash,
               bool ButMainFile = false) const;

  // Whether the stored summary of MainFile was written by the run Writer
  // and the findings that run computed for it still hold in P (every
  // dependency has the hash P gives it).
  bool findingsHold(llvm::StringRef MainFile, llvm::StringRef Writer,
                    ProgramView &P) const;

  // A name for the composition of all stored summaries (those composed()
  // takes) with these run files' ownership: the same stamp, the same
  // composition.
  std::string stamp(const std::vector<std::string> &RunFiles) const;

  // All stored summaries but those of the files in Exclude (and of files
  // that no longer exist), composed (Compose.h); with Compose false, only
  // what each says of the program (ExternalSummaries::add), which costs
  // little.
  std::shared_ptr<ExternalSummaries>
  composed(const std::set<std::string> &Exclude, bool Compose = true) const;

  // Gives each header callable that a stored summary of Files (absolute, in
  // order) lists its owner, the first of those files (RunFiles).
  void assignOwners(ExternalSummaries &To,
                    const std::vector<std::string> &Files) const;

  // Fills in the hashes and writes the summary (atomically), replacing the
  // stored one; returns its text. The run keeps it even when it cannot be
  // written: Error then says why. Thread-safe.
  std::string store(TUSummary S, llvm::StringRef CommandHash,
                    std::string &Error);

  std::string pathFor(llvm::StringRef MainFile) const;

private:
  // Whether the system-header list stored under Key is unchanged (every
  // file's size and mtime as recorded); computed once per key.
  bool systemInputsUnchanged(const std::string &Key) const;

  // Whether a summary whose file no longer exists still counts.
  bool counts(const std::string &MainFile) const;

  clang::tidy::rematch::CacheLayout Names; // its dir() is the directory
  bool InMemory;
  bool FilesMayBeAbsent = false;
  mutable std::mutex Mutex;
  // A summary read from the disk has its head parsed and keeps its body's
  // text until something asks for it (find, composed, assignOwners); a body
  // that cannot be parsed (its hash matched: another build of the same
  // format) leaves the summary stale and out of the program.
  struct Entry {
    TUSummary S;
    std::string Body; // not parsed yet
    bool Broken = false;
  };
  // Called with Mutex held.
  const TUSummary &full(Entry &E) const;
  void keep(TUSummary S, std::string Body = "");

  mutable std::map<std::string, Entry> ByMainFile; // bodies parsed lazily
  mutable std::map<std::string, bool> SystemListFresh;
};

// The program all stored summaries describe, with the owners of RunFiles,
// built only as far as the questions asked need: the facts each summary
// states (globals written, overrides, checkpoint calls, held callables,
// owners) or, once a function's effects are asked for, the composition.
// Findings that depend on no other file's effects compose nothing: on a
// file of thousands of functions composing costs as much as parsing it.
// For one thread.
class ProgramView {
public:
  ProgramView(const SummaryStore &Store, std::vector<std::string> RunFiles)
      : Store(Store), RunFiles(std::move(RunFiles)) {}

  // The hash of a dependency key (ExternalSummaries::hashOf).
  std::string hashOf(llvm::StringRef Key);
  // The composition, made on the first call.
  const std::shared_ptr<ExternalSummaries> &composed();
  // The whole stored summary of MainFile (SummaryStore::find).
  const TUSummary *summaryOf(llvm::StringRef MainFile);

private:
  const SummaryStore &Store;
  std::vector<std::string> RunFiles;
  std::shared_ptr<ExternalSummaries> Facts, Composed;
};

// What one whole-program run is given.
struct SummariesRun {
  std::string Dir;      // where the summaries are kept
  std::string Identity; // see hashCommand
  bool SummariesOnly = false; // write them, report nothing
  bool IsDefault = false;     // the cache no option named
  // The default place cannot be created (a read-only build directory): the
  // run keeps its summaries in memory, and reports all the same.
  bool InMemory = false;
  // --no-cache: every file parsed again, no findings kept from earlier
  // runs used.
  bool NoCache = false;
  // What shapes a file's report besides its translation unit and the
  // summaries (FindingsCache): checks, chain style, warnings as errors.
  std::string ReportOptions;
  // A sharded run: the files of all its shards, in command-line order. The
  // first of them whose summary lists a header callable owns it: only that
  // file's analysis reports the findings in it, in whichever shard.
  std::vector<std::string> RunFiles;
  // Makes the findings a file's phase-one parse could not see from facts,
  // where it can (FactsReport.h): that file is not parsed again. Null:
  // every such file is.
  const FactsReporter *Facts = nullptr;
};

// Analyses one file with what its phase hands the checks: the composed
// summaries of the other files and, in phase one, the sink for its own.
using AnalyseWithHost = llvm::function_ref<FileOutcome(
    const std::string &, const clang::tidy::rematch::AnalysisHost &)>;

// A whole-program run. Phase one parses the files whose summary is
// missing or stale, once, with the composition of the other summaries
// installed, and stores their new summaries; phase two composes all
// summaries and parses the files not parsed yet, and those whose phase-one
// findings depended on something the composition changed (rare: a callee
// summarised in the same phase). A cold run parses each file about once; a
// run where one file changed (the pre-commit case) parses it once. Outcomes
// are in Files' order; nothing when the directory cannot be used (reported
// on Err). Run.SummariesOnly: phase one alone, and no findings (a file with a
// fresh summary is not parsed at all).
std::optional<std::vector<FileOutcome>>
analyseWithSummaries(const SummariesRun &Run, ProgramCache &Cache,
                     const std::vector<std::string> &Files,
                     const ScheduleOptions &S,
                     const clang::tooling::CompilationDatabase &DB,
                     AnalyseWithHost Analyse, llvm::raw_ostream &Err);

} // namespace rematch::tool

#endif
