//===--- CommandLine.cpp - the rematch command-line contract --------------===//

#include "CommandLine.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <set>

namespace rematch::tool {

namespace {

const char *stepUsage(Step S) {
  switch (S) {
  case Step::Summarize:
    return R"(USAGE: rematch summarize -p <dir> [--root=<dir>] <file> -o <out>.rsum
       rematch summarize [--root=<dir>] <file> -o <out>.rsum -- <compiler args>

Parses one file once and writes its facts: its whole-program summary, its
findings analysed alone, and what they depended on. The file is the same,
byte for byte, for the same source content, flags and build of rematch,
wherever the checkout is: paths are relative to the root.

OPTIONS:
  -p <dir>                        directory holding compile_commands.json
  --root=<dir>                    paths are written relative to <dir>
                                  (default: -p's directory, else the current
                                  directory)
  -o <file>, --output=<file>      the .rsum to write
  --checkpoint-functions=<names>, --checks=<globs>, --config-file=<path>,
  --chain=notes|inline, --warnings-as-errors=<globs>
                                  as for rematch; recorded in the .rsum, and
                                  every file of a link must share them

EXIT CODES:
  0 written, 2 usage or configuration error (nothing written), 3 the file
  could not be parsed (the .rsum is written and carries its errors)
)";
  case Step::Link:
    return R"(USAGE: rematch link [<in>.rsum|<in>.rlink...] -o <out>.rlink

Joins the facts of files (and of earlier links) into one program: each file
once, in path order, without parsing. A link of links equals the link of all
their files; a link of nothing (a target without sources) is empty.

EXIT CODES:
  0 written, 2 a damaged, foreign or conflicting input, or a usage error
)";
  case Step::Report:
    return R"(USAGE: rematch report <in>.rlink [<file>.rsum...] [options]

Reports the findings of the files whose .rsum is given (all files of the
link when none is), with the whole program of the link: the same report
`rematch -p` gives. A file whose findings depended on another file's facts
is parsed again with its recorded compile command; the others are not.

OPTIONS:
  --root=<dir>                    where the files are (default: the current
                                  directory)
  --format=<format>, --output=<file>, --baseline=<file.sarif>,
  --write-baseline=<file>, --changed-lines=<git rev>, --line-filter=<json>,
  -j <n>, --timeout-per-file=<seconds>, --memory-per-file=<MiB>, --fix,
  --verbose                       as for rematch

EXIT CODES:
  0 no findings, 1 findings, 2 usage error or a damaged, foreign or
  conflicting input, 3 a file could not be analysed
)";
  case Step::Default:
    break;
  }
  return nullptr;
}

} // namespace

const char *usageText(Step S) {
  if (const char *Text = stepUsage(S))
    return Text;
  return R"(USAGE: rematch [options] <file>... [-- <compiler args>]
       rematch summarize|link|report ...  (the steps of a build system;
                                           rematch <step> --help)

Finds effects in activation-checkpointed code that make the recomputation in
backward differ from the original forward.

OPTIONS:
  -p <dir>                        directory holding compile_commands.json
  --checkpoint-functions=<names>  extra checkpoint entry points (qualified,
                                  comma-separated; name[source;source]: what
                                  one replays; name+fresh: its callable gets
                                  fresh copies of its arguments)
  --checks=<globs>                checks to run, clang-tidy syntax
                                  (default: rematch-*)
  --config-file=<path>            use this .rematch.yaml instead of the one
                                  found upward from each source file
  --summaries-dir=<dir>           keep the whole-program summaries (one per
                                  translation unit, reused while the file and
                                  its includes are unchanged) in <dir>
                                  (default, with a compile_commands.json:
                                  .rematch-cache in its directory)
  --no-summaries                  analyse each file alone: no summaries, no
                                  chain that crosses files
  --preamble-cache-size=<MiB>     keep precompiled preambles (the leading
                                  #include block of a file analysed again,
                                  <torch/torch.h> and the like) beside the
                                  summaries, up to <MiB> (default 4096; 0:
                                  none)
  --parse-library-bodies          parse the function bodies of system headers
                                  that the analysis does not read (skipped
                                  by default: the findings are the same)
  --summaries-only                write the summaries of the files (of this
                                  --shard) and report nothing: phase one of a
                                  CI matrix
  --format=<format>               output format: text (default), json, sarif,
                                  codeclimate (GitLab Code Quality), html (a
                                  self-contained page, with --output)
  --output=<file>                 write the report to <file> (default: stdout)
  --chain=notes|inline            call chains as notes, or inline in the
                                  message (default: notes)
  --warnings-as-errors=<globs>    report matching checks as errors
  --baseline=<file.sarif>         report only findings whose fingerprints are
                                  not in this earlier SARIF report
  --write-baseline=<file>         also write the SARIF of every finding (before
                                  any filtering) to <file>
  --changed-lines=<git rev>       report only findings on lines changed since
                                  <git rev> (untracked files: every line)
  --line-filter=<json>            report only findings on these lines, as
                                  clang-tidy: [{"name":"a.cpp","lines":[[1,3]]}]
  --install-git-hook              install a git pre-commit hook running rematch
                                  on the staged files (-p <dir> sets its build
                                  directory); --force replaces another hook
  -j <n>, --jobs=<n>              analyse <n> files at once (default: the
                                  number of cores)
  --shard=<i>/<n>                 analyse only the i-th of n slices of the
                                  files (file k, from 0, is in slice k % n + 1)
  --timeout-per-file=<seconds>    give up on a file after this long (each
                                  file then runs in a child process)
  --memory-per-file=<MiB>         give up on a file whose analysis needs more
                                  address space (also a child process each)
  --no-cache                      analyse every file afresh: no findings,
                                  summary, preamble or body record of an
                                  earlier run is reused (they are written
                                  again)
  --verbose                       say on stderr how many files were analysed,
                                  how many came from the findings cache and
                                  how many unchanged bodies were not parsed
  --fix                           apply the safe fix-its in place
  --list-checks                   print the enabled checks and exit
  --version                       print the version and exit
  --help                          print this help and exit

EXIT CODES:
  0 no findings, 1 findings, 2 usage or configuration error,
  3 a file could not be analysed (the others are still analysed and reported)
)";
}

namespace {

llvm::Error usageError(const llvm::Twine &Msg) {
  return llvm::createStringError(Msg);
}

llvm::Error parsePositive(llvm::StringRef Option, llvm::StringRef Value,
                          unsigned &Into) {
  if (Value.getAsInteger(10, Into) || Into == 0)
    return usageError("option '" + Option +
                      "' needs a positive integer, not '" + Value + "'");
  return llvm::Error::success();
}

// --shard=i/n: the i-th (1-based) of n slices of the input files.
llvm::Error parseShard(llvm::StringRef Value, CliOptions &O) {
  auto [I, N] = Value.split('/');
  if (I.getAsInteger(10, O.ShardIndex) || N.getAsInteger(10, O.ShardCount) ||
      O.ShardCount == 0 || O.ShardIndex == 0 || O.ShardIndex > O.ShardCount)
    return usageError("--shard needs i/n with 1 <= i <= n, not '" + Value +
                      "'");
  return llvm::Error::success();
}

constexpr Step Steps[] = {Step::Summarize, Step::Link, Step::Report};

// The word that names a step on the command line.
const char *stepName(Step S) {
  switch (S) {
  case Step::Summarize:
    return "summarize";
  case Step::Link:
    return "link";
  case Step::Report:
    return "report";
  case Step::Default:
    break;
  }
  return "";
}

// What each step takes: its inputs, its output, and only its options.
llvm::Error checkStep(const CliOptions &O,
                      const std::vector<std::pair<std::string, std::string>> &Seen) {
  const char *Name = stepName(O.Command);
  auto Only = [&](const llvm::Twine &What) {
    return usageError(llvm::Twine("rematch ") + Name + " takes " + What +
                      "; see rematch " + Name + " --help");
  };
  std::set<std::string> Allowed{"output", "o", "help", "h"};
  switch (O.Command) {
  case Step::Summarize:
    Allowed.insert({"p", "root", "checkpoint-functions", "checks",
                    "config-file", "chain", "warnings-as-errors"});
    if (O.Files.size() != 1)
      return Only("one source file");
    if (!O.BuildPath.empty() && O.CompileArgs)
      return Only("-p <dir> or -- <compiler args>, not both");
    break;
  case Step::Link:
    if (O.CompileArgs)
      return Only("no compiler arguments");
    break;
  case Step::Report:
    Allowed.insert({"root", "format", "baseline", "write-baseline",
                    "changed-lines", "line-filter", "j", "jobs",
                    "timeout-per-file", "memory-per-file", "fix", "verbose",
                    "v"});
    if (O.Files.empty())
      return Only("a .rlink file (and the .rsum files to report)");
    if (O.CompileArgs)
      return Only("no compiler arguments (each .rsum records its own)");
    break;
  case Step::Default:
    break;
  }
  for (const auto &[Option, Spelled] : Seen)
    if (!Allowed.count(Option))
      return usageError(llvm::Twine("rematch ") + Name +
                        " does not take option '" + Spelled + "'; see rematch " +
                        Name + " --help");
  if (O.Command != Step::Report && O.OutputPath.empty())
    return Only(O.Command == Step::Link ? "-o <out>.rlink" : "-o <out>.rsum");
  return llvm::Error::success();
}

} // namespace

// One branch per option, in the order of the usage text: a flat list (over
// 80 lines) that is read option by option, not as one algorithm.
llvm::Expected<CliOptions>
parseCommandLine(const std::vector<std::string> &Args) {
  CliOptions O;
  for (Step S : Steps)
    if (!Args.empty() && Args[0] == stepName(S))
      O.Command = S;
  size_t First = O.Command == Step::Default ? 0 : 1;
  std::vector<std::pair<std::string, std::string>> Seen; // name, as given
  for (size_t I = First; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--") {
      O.CompileArgs.emplace(Args.begin() + I + 1, Args.end());
      break;
    }
    if (!A.starts_with("-") || A == "-") {
      O.Files.push_back(A.str());
      continue;
    }
    // Long options take one or two dashes, as clang-tidy's do.
    llvm::StringRef Name = A.drop_front(A.starts_with("--") ? 2 : 1);
    llvm::StringRef Value;
    bool HasValue = false;
    if (size_t Eq = Name.find('='); Eq != llvm::StringRef::npos) {
      Value = Name.substr(Eq + 1);
      Name = Name.substr(0, Eq);
      HasValue = true;
    }
    // -j4, as make and ninja spell it.
    if (!A.starts_with("--") && Name.size() > 1 && Name[0] == 'j' &&
        llvm::isDigit(Name[1]) && !HasValue) {
      Value = Name.drop_front();
      Name = "j";
      HasValue = true;
    }
    auto Take = [&](std::string &Into) -> llvm::Error {
      if (!HasValue) {
        if (I + 1 >= Args.size())
          return usageError("option '" + A + "' needs a value");
        Value = Args[++I];
      }
      Into = Value.str();
      return llvm::Error::success();
    };
    auto Flag = [&](bool &Into) -> llvm::Error {
      if (HasValue)
        return usageError("option '" + Name + "' takes no value");
      Into = true;
      return llvm::Error::success();
    };

    Seen.emplace_back(Name.str(), A.str());
    llvm::Error E = llvm::Error::success();
    std::string Format, Chain, Number;
    if (Name == "p")
      E = Take(O.BuildPath);
    else if (Name == "checkpoint-functions")
      E = Take(O.CheckpointFunctions);
    else if (Name == "checks")
      E = Take(O.Checks);
    else if (Name == "root")
      E = Take(O.Root);
    else if (Name == "summaries-dir")
      E = Take(O.SummariesDir);
    else if (Name == "summaries-only")
      E = Flag(O.SummariesOnly);
    else if (Name == "no-summaries")
      E = Flag(O.NoSummaries);
    else if (Name == "parse-library-bodies")
      E = Flag(O.ParseLibraryBodies);
    else if (Name == "config-file")
      E = Take(O.ConfigFile);
    else if (Name == "output" || Name == "o")
      E = Take(O.OutputPath);
    else if (Name == "warnings-as-errors")
      E = Take(O.WarningsAsErrors);
    else if (Name == "baseline")
      E = Take(O.Baseline);
    else if (Name == "write-baseline")
      E = Take(O.WriteBaseline);
    else if (Name == "changed-lines")
      E = Take(O.ChangedLines);
    else if (Name == "line-filter")
      E = Take(O.LineFilter);
    else if (Name == "install-git-hook")
      E = Flag(O.InstallGitHook);
    else if (Name == "force")
      E = Flag(O.Force);
    else if (Name == "j" || Name == "jobs") {
      if (!(E = Take(Number)))
        E = parsePositive("jobs", Number, O.Jobs);
    } else if (Name == "shard") {
      if (!(E = Take(Number)))
        E = parseShard(Number, O);
    } else if (Name == "timeout-per-file") {
      if (!(E = Take(Number)) &&
          (llvm::StringRef(Number).getAsDouble(O.TimeoutPerFile) ||
           !(O.TimeoutPerFile > 0 && O.TimeoutPerFile <= 1e6)))
        E = usageError("--timeout-per-file needs a positive number of "
                       "seconds, not '" +
                       Number + "'");
    } else if (Name == "preamble-cache-size") {
      if (!(E = Take(Number)) &&
          llvm::StringRef(Number).getAsInteger(10, O.PreambleCacheMiB))
        E = usageError("option 'preamble-cache-size' needs a number of MiB, "
                       "not '" + Number + "'");
    } else if (Name == "memory-per-file") {
      if (!(E = Take(Number)))
        E = parsePositive("memory-per-file", Number, O.MemoryPerFile);
    } else if (Name == "format") {
      E = Take(Format);
      if (!E) {
        if (Format == "text")
          O.OutputFormat = Format::Text;
        else if (Format == "json")
          O.OutputFormat = Format::Json;
        else if (Format == "sarif")
          O.OutputFormat = Format::Sarif;
        else if (Format == "codeclimate")
          O.OutputFormat = Format::CodeClimate;
        else if (Format == "html")
          O.OutputFormat = Format::Html;
        else
          return usageError(
              "unknown --format '" + Format +
              "' (expected text, json, sarif, codeclimate or html)");
      }
    } else if (Name == "chain") {
      E = Take(Chain);
      if (!E) {
        if (Chain != "notes" && Chain != "inline")
          return usageError("unknown --chain '" + Chain +
                            "' (expected notes or inline)");
        O.Chain = Chain;
      }
    } else if (Name == "fix")
      E = Flag(O.Fix);
    else if (Name == "no-cache")
      E = Flag(O.NoCache);
    else if (Name == "verbose" || Name == "v")
      E = Flag(O.Verbose);
    else if (Name == "list-checks")
      E = Flag(O.ListChecks);
    else if (Name == "help" || Name == "h")
      E = Flag(O.Help);
    else if (Name == "version")
      E = Flag(O.Version);
    else
      return usageError("unknown option '" + A + "'; see rematch --help");
    if (E)
      return std::move(E);
  }
  if (O.Command != Step::Default && !O.Help)
    if (llvm::Error E = checkStep(O, Seen))
      return std::move(E);
  if (O.Command == Step::Default && !O.Root.empty())
    return usageError("--root applies only to rematch summarize and rematch "
                      "report");
  if (O.Force && !O.InstallGitHook)
    return usageError("--force applies only to --install-git-hook");
  if (O.NoSummaries && !O.SummariesDir.empty())
    return usageError("--no-summaries and --summaries-dir contradict each "
                      "other");
  if (O.SummariesOnly && O.NoSummaries)
    return usageError("--summaries-only writes summaries, which "
                      "--no-summaries turns off");
  if (O.SummariesOnly && O.Fix)
    return usageError("--summaries-only reports nothing, so --fix has nothing "
                      "to apply");
  if (O.Files.empty() && !O.Help && !O.Version && !O.ListChecks &&
      !O.InstallGitHook && O.Command != Step::Link)
    return usageError("no input files; see rematch --help");
  return O;
}

} // namespace rematch::tool
