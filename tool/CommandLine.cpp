//===--- CommandLine.cpp - the rematch command-line contract --------------===//

#include "CommandLine.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace rematch::tool {

const char *usageText() {
  return R"(USAGE: rematch [options] <file>... [-- <compiler args>]

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

} // namespace

// One branch per option, in the order of the usage text: a flat list (over
// 80 lines) that is read option by option, not as one algorithm.
llvm::Expected<CliOptions>
parseCommandLine(const std::vector<std::string> &Args) {
  CliOptions O;
  for (size_t I = 0; I < Args.size(); ++I) {
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

    llvm::Error E = llvm::Error::success();
    std::string Format, Chain, Number;
    if (Name == "p")
      E = Take(O.BuildPath);
    else if (Name == "checkpoint-functions")
      E = Take(O.CheckpointFunctions);
    else if (Name == "checks")
      E = Take(O.Checks);
    else if (Name == "summaries-dir")
      E = Take(O.SummariesDir);
    else if (Name == "summaries-only")
      E = Flag(O.SummariesOnly);
    else if (Name == "no-summaries")
      E = Flag(O.NoSummaries);
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
      !O.InstallGitHook)
    return usageError("no input files; see rematch --help");
  return O;
}

} // namespace rematch::tool
