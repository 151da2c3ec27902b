//===--- CommandLine.h - the rematch command-line contract ------*- C++ -*-===//
//
// rematch [options] <file>... [-- <compiler args>]
// Option names are a contract: scripts and CI configurations depend on them.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_COMMANDLINE_H
#define REMATCH_TOOL_COMMANDLINE_H

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace rematch::tool {

enum class Format { Text, Json, Sarif, CodeClimate, Html };

// The default command, or one step of the whole-program pipeline as a build
// system runs it (Steps.h): summarize one file, link facts, report.
enum class Step { Default, Summarize, Link, Report };

struct CliOptions {
  Step Command = Step::Default;
  // --root: what the paths of .rsum and .rlink files are relative to.
  std::string Root;
  std::vector<std::string> Files;
  std::optional<std::vector<std::string>> CompileArgs; // after `--`
  std::string BuildPath;                                // -p
  std::string CheckpointFunctions;
  std::string Checks = "rematch-*";
  std::string ConfigFile;
  // --summaries-dir: whole-program summaries. Empty: with a
  // compile_commands.json, <its directory>/.rematch-cache (the driver picks
  // it), unless --no-summaries.
  std::string SummariesDir;
  bool NoSummaries = false;   // --no-summaries: each file alone
  bool SummariesOnly = false; // --summaries-only: write them, report nothing
  Format OutputFormat = Format::Text;
  std::string OutputPath; // empty: stdout
  std::string Chain = "notes";
  std::string WarningsAsErrors;
  std::string Baseline;      // --baseline: SARIF of findings not to report
  std::string WriteBaseline; // --write-baseline: SARIF of all findings
  std::string ChangedLines;  // --changed-lines: a git revision
  std::string LineFilter;    // --line-filter: clang-tidy's JSON
  bool InstallGitHook = false;
  bool Force = false; // --force: --install-git-hook may replace a hook
  unsigned Jobs = 0;          // -j: files analysed at once; 0: the cores
  unsigned ShardIndex = 1;    // --shard=i/n, 1-based
  unsigned ShardCount = 1;
  double TimeoutPerFile = 0;  // --timeout-per-file, seconds; 0: none
  unsigned MemoryPerFile = 0; // --memory-per-file, MiB; 0: none
  // --preamble-cache-size: MiB of precompiled preambles kept beside the
  // summaries (Preamble.h); 0: none built or used.
  unsigned PreambleCacheMiB = 4096;
  // --parse-library-bodies: parse every function body of the system
  // headers, which by default are skipped but for those the analysis reads
  // (UnreadBodies.h).
  bool ParseLibraryBodies = false;
  bool Fix = false;
  bool NoCache = false; // --no-cache: no findings, summary or preamble reused
  bool Verbose = false; // --verbose: how many files came from the cache
  bool ListChecks = false;
  bool Help = false;
  bool Version = false;
};

// Parses argv[1..]; the error names the offending argument.
llvm::Expected<CliOptions> parseCommandLine(const std::vector<std::string> &Args);

const char *usageText(Step S = Step::Default);

} // namespace rematch::tool

#endif
