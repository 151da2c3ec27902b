//===--- Scheduler.h - parallel analysis, failures per file -----*- C++ -*-===//
//
// -j, --timeout-per-file and --memory-per-file: the driver hands over the
// files it has checked and a function analysing one; the scheduler runs them
// up to N at once and turns a crash, a timeout or an exhausted memory bound
// into that file's error, so the other files are still analysed and reported.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_SCHEDULER_H
#define REMATCH_TOOL_SCHEDULER_H

#include "CommandLine.h"
#include "Finding.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <mutex>
#include <string>
#include <vector>

namespace rematch::tool {

// What the analysis of one file produced.
// A finding that holds only if some file writes a global the program's
// facts judged constant (AnalysisHost::ConditionalSink): kept apart, for a
// report that finds it written (FactsReport.h).
struct ConditionalFinding {
  std::string IfWritten; // the dependency key
  Finding F;
  std::vector<clang::tooling::Replacement> Fixes;
};

struct FileOutcome {
  FileStatus Status;
  std::vector<Finding> Findings;
  std::vector<clang::tooling::Replacement> Fixes;
  std::vector<ConditionalFinding> Conditional;
  // A whole-program run's phase one: the file's summary as written (the run
  // keeps it whether or not the cache could), and why the cache could not
  // keep it, if so.
  std::string Summary;
  std::string CacheError;
  // What the findings were computed with (FindingsCache.h), one
  // "key<US>hash" per line; and whether they came from that cache.
  std::string Dependencies;
  bool FromCache = false;
  // Function bodies the parse skipped, their recorded facts standing in
  // (BodyReplay.h): for --verbose, not kept by the cache or a worker.
  size_t BodiesReused = 0;
  // Why the file was due a precompiled preamble and has none (Preamble.h):
  // for --verbose, likewise.
  std::string PreambleFailure;
  bool PreambleUsed = false; // parsed with a precompiled preamble
  // Parsed again with every body, no preamble: the skipping parse left out
  // a body the analysis needed, or failed with the preamble.
  bool ParsedWhole = false;
  // A whole-program run parsed the file a second time: its first parse's
  // findings were computed without facts another file of the same run
  // gave (for --verbose, likewise).
  bool ParsedAgain = false;
};

// The outcome as bytes (a worker's pipe, the findings cache) and back; false
// when Data is not a whole encoding.
std::string encodeOutcome(const FileOutcome &O);
bool decodeOutcome(llvm::StringRef Data, const std::string &File,
                   FileOutcome &O);

struct ScheduleOptions {
  unsigned Jobs = 1;         // files analysed at once, >= 1
  double TimeoutSeconds = 0; // per file; 0: no bound
  unsigned MemoryMiB = 0;    // address space per file; 0: no bound
  bool Progress = false;     // a progress line on stderr (a terminal)
};

// Without a bound, files are analysed on threads of this process, each under
// a CrashRecoveryContext. With a timeout or a memory bound, each file is
// analysed in a forked child process that the parent kills when its time is
// up: Clang cannot be interrupted in-process. The parent then runs no thread
// of its own, so fork() copies a single-threaded process.
// Returns the outcomes in the order of Files, whatever the scheduling.
std::vector<FileOutcome>
analyseFiles(const std::vector<std::string> &Files, const ScheduleOptions &S,
             llvm::function_ref<FileOutcome(const std::string &)> Analyse);

// The files of --shard=i/n: those whose index k (from 0) has k % n == i - 1.
std::vector<std::string> shardOf(const CliOptions &O);

// A test-only seam: a function run inside each file's analysis, before it,
// where a crash or a delay counts as the analysis'. Only the test build of
// the program (rematch-testhooks, tool/TestHooks.cpp) installs one; the
// shipped program never does.
using AnalysisHook = void (*)(const std::string &File);
void setAnalysisHook(AnalysisHook Hook);

// -j (or the number of cores), the bounds per file, and a progress line when
// stderr is a terminal.
ScheduleOptions scheduleOptions(const CliOptions &O);

// The default of -j: the number of hardware threads.
unsigned defaultJobs();

// A compilation database shared by analysis threads: lookups are serialised,
// since the databases' lookup structures are not documented as thread-safe.
class SerializedDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit SerializedDatabase(const clang::tooling::CompilationDatabase &Inner)
      : Inner(Inner) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override;

private:
  const clang::tooling::CompilationDatabase &Inner;
  mutable std::mutex Mutex;
};

} // namespace rematch::tool

#endif
