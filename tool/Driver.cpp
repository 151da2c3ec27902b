//===--- Driver.cpp - run the checks over files, gather results -----------===//

#include "Driver.h"
#include "FactsReport.h"
#include "ProgramCache.h"
#include "Analyzer.h"
#include "Paths.h"
#include "Config.h"
#include "ModelSet.h"
#include "DocLinks.h"
#include "Filters.h"
#include "Output.h"
#include "RematchCheck.h"
#include "RematchOptions.h"
#include "Scheduler.h"
#include "SkipBodies.h"
#include "Summaries.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/GlobList.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>
#include <map>
#include <mutex>

extern volatile int RematchModuleAnchorSource;
// Keeps the check module, and its registration, in the program.
[[maybe_unused]] static int RematchModuleAnchorDestination =
    RematchModuleAnchorSource;

namespace rematch::tool {

using namespace clang;
using namespace clang::tidy;

std::vector<RuleInfo> ruleTable() {
  std::vector<RuleInfo> Rules;
#define REMATCH_CHECK(Name, Class, Stem, Kind, Description)                    \
  Rules.push_back({Name, Description, checkDocUri(Stem, programDocLocations())});
#include "Checks.def"
  std::sort(Rules.begin(), Rules.end(),
            [](const RuleInfo &A, const RuleInfo &B) { return A.Id < B.Id; });
  return Rules;
}

std::vector<std::string> allCheckNames() {
  std::vector<std::string> Names;
  for (const RuleInfo &R : ruleTable())
    Names.push_back(R.Id);
  return Names;
}

llvm::Expected<std::vector<std::string>> enabledChecks(llvm::StringRef Globs) {
  if (std::string Problem = clang::tidy::rematch::checkGlobsProblem(Globs);
      !Problem.empty())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--checks: %s", Problem.c_str());
  GlobList List(Globs);
  std::vector<std::string> Enabled;
  for (const std::string &N : allCheckNames())
    if (List.contains(N))
      Enabled.push_back(N);
  return Enabled;
}

// Step 1, options: everything a flag or an explicit configuration can get
// wrong, before any work.
llvm::Error checkOptions(const CliOptions &O) {
  if (llvm::Expected<std::vector<std::string>> Checks = enabledChecks(O.Checks);
      !Checks)
    return llvm::createStringError("rematch: error: " +
                                   llvm::toString(Checks.takeError()));
  if (std::string Problem =
          clang::tidy::rematch::unknownCheckProblem(O.WarningsAsErrors);
      !Problem.empty())
    return llvm::createStringError("rematch: error: --warnings-as-errors: " +
                                   Problem);
  clang::tidy::rematch::Config Scratch;
  if (llvm::Error E = clang::tidy::rematch::addCheckpointFunctions(
          O.CheckpointFunctions, Scratch))
    return llvm::createStringError("rematch: error: --checkpoint-functions: " +
                                   llvm::toString(std::move(E)));
  // The built-in models, and those of an explicit configuration: a broken
  // model file is a configuration error.
  if (O.ConfigFile.empty()) {
    if (auto Models =
            clang::tidy::rematch::modelsFor(clang::tidy::rematch::Config());
        !Models)
      return Models.takeError();
    return llvm::Error::success();
  }
  return checkConfigFile(O.ConfigFile);
}

llvm::Error checkConfigFile(llvm::StringRef Path) {
  llvm::Expected<clang::tidy::rematch::Config> C =
      clang::tidy::rematch::loadConfigFile(Path);
  if (!C)
    return C.takeError();
  if (auto Models = clang::tidy::rematch::modelsFor(*C); !Models)
    return Models.takeError(); // its Models:
  return llvm::Error::success();
}

namespace {


// Applies the fix-its file by file; overlapping ones are skipped.
void applyFixes(const std::vector<tooling::Replacement> &All,
                llvm::raw_ostream &Err) {
  std::map<std::string, tooling::Replacements> PerFile;
  for (const tooling::Replacement &R : All) {
    tooling::Replacements &Set = PerFile[R.getFilePath().str()];
    if (llvm::Error E = Set.add(R))
      llvm::consumeError(std::move(E)); // a duplicate or a conflict
  }
  for (auto &[Path, Set] : PerFile) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      Err << Path << ": error: cannot read file to apply fixes\n";
      continue;
    }
    llvm::Expected<std::string> New =
        tooling::applyAllReplacements((*Buf)->getBuffer(), Set);
    if (!New) {
      Err << Path << ": error: " << llvm::toString(New.takeError()) << "\n";
      continue;
    }
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC) {
      Err << Path << ": error: cannot write fixes: " << EC.message() << "\n";
      continue;
    }
    OS << *New;
  }
}


// The fields that order findings and make two of them the same, once.
auto findingKey(const Finding &F) {
  return std::tie(F.Loc.File, F.Loc.Line, F.Loc.Column, F.Check, F.Message);
}


// Step 3, files: the shard's files, each either ready to analyse or failed
// with its reason (missing, a directory, a broken .rematch.yaml or model,
// no compile command).
struct FileSet {
  std::vector<std::string> ToAnalyse;
  std::vector<size_t> Pending;         // their places in Results::Files
  std::map<std::string, size_t> Order; // command-line order, for the report
  bool ConfigFailed = false;
};

FileSet collectFiles(const CliOptions &O, const tooling::CompilationDatabase &DB,
                     const PathNamer &Names, Results &R) {
  FileSet Set;
  // A discovered .rematch.yaml serves every file below it: read it once.
  std::map<std::string, std::string> ConfigProblem; // path -> error or ""
  auto ProblemOf = [&](const std::string &Cfg) -> const std::string & {
    auto [It, Inserted] = ConfigProblem.try_emplace(Cfg);
    if (Inserted)
      if (llvm::Error E = checkConfigFile(Cfg))
        It->second = llvm::toString(std::move(E));
    return It->second;
  };
  for (const std::string &Path : shardOf(O)) {
    Set.Order.try_emplace(Path, Set.Order.size());
    FileStatus Status;
    Status.File = Path;
    auto Fail = [&](std::string Error) {
      Status.Status = FileStatus::State::Failed;
      Status.Errors.push_back(std::move(Error));
    };
    llvm::sys::fs::file_status St;
    if (std::error_code EC = llvm::sys::fs::status(Path, St)) {
      Fail(Path + ": error: " + EC.message());
    } else if (llvm::sys::fs::is_directory(St)) {
      Fail(Path + ": error: is a directory, not a file");
    } else if (O.ConfigFile.empty()) {
      // A malformed .rematch.yaml is a configuration error for its files.
      if (std::optional<std::string> Cfg =
              clang::tidy::rematch::findConfigFile(Names.absolute(Path)))
        if (const std::string &Problem = ProblemOf(*Cfg); !Problem.empty()) {
          Fail(Problem);
          Set.ConfigFailed = true;
        }
    }
    if (Status.Status != FileStatus::State::Failed) {
      std::vector<tooling::CompileCommand> Cmds =
          DB.getCompileCommands(Names.absolute(Path));
      if (Cmds.empty())
        Fail(Path + ": error: no compile command for this file in the "
                    "compilation database");
      else if (!llvm::sys::fs::is_directory(Cmds.front().Directory))
        // Clang would abort on the chdir; say which entry is wrong instead.
        Fail(Path + ": error: the compile command's directory '" +
             Cmds.front().Directory + "' does not exist");
    }
    if (Status.Status == FileStatus::State::Failed) {
      R.Files.push_back(std::move(Status));
      continue;
    }
    Set.Pending.push_back(R.Files.size());
    R.Files.emplace_back();
    Set.ToAnalyse.push_back(Path);
  }
  return Set;
}

// Step 5, findings: in command-line file order, then by position, check and
// message; the same header finding reached from two files is one.
void orderFindings(std::vector<Finding> &Findings,
                   const std::map<std::string, size_t> &Order) {
  auto Rank = [&](const Finding &F) {
    auto It = Order.find(F.Loc.File);
    return It == Order.end() ? Order.size() : It->second;
  };
  std::stable_sort(Findings.begin(), Findings.end(),
                   [&](const Finding &A, const Finding &B) {
                     return std::make_pair(Rank(A), findingKey(A)) <
                            std::make_pair(Rank(B), findingKey(B));
                   });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [](const Finding &A, const Finding &B) {
                               return findingKey(A) == findingKey(B);
                             }),
                 Findings.end());
}

// Step 6, output.
void writeReport(llvm::raw_ostream &Out, const Results &R, Format F) {
  switch (F) {
  case Format::Text:
    writeText(Out, R);
    break;
  case Format::Json:
    writeJson(Out, R);
    break;
  case Format::Sarif:
    writeSarif(Out, R, ruleTable());
    break;
  case Format::CodeClimate: {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    writeCodeClimate(Out, R, Cwd);
    break;
  }
  case Format::Html:
    writeHtml(Out, R, ruleTable(), readSourceFile);
    break;
  }
}

// The directory of the compile_commands.json this run reads: -p's, or the
// nearest one above the first file (where Clang's auto-detection looks); none
// with `--` flags or a compile_flags.txt.
std::optional<std::string> compileCommandsDir(const CliOptions &O) {
  auto Holds = [](llvm::StringRef Dir, llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return llvm::sys::fs::exists(P);
  };
  if (!O.BuildPath.empty())
    return Holds(O.BuildPath, "compile_commands.json")
               ? std::optional<std::string>(O.BuildPath)
               : std::nullopt;
  if (O.CompileArgs || O.Files.empty())
    return std::nullopt;
  llvm::SmallString<256> Dir(O.Files.front());
  llvm::sys::fs::make_absolute(Dir);
  for (llvm::StringRef D = llvm::sys::path::parent_path(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    if (Holds(D, "compile_commands.json"))
      return D.str();
    if (Holds(D, "compile_flags.txt"))
      return std::nullopt;
  }
  return std::nullopt;
}

// What makes a stored summary stale besides its inputs: another build of
// rematch (an upgrade, or a rebuild under the same version number), other
// built-in models, other entry points or another --config-file. A project's
// configuration and models are inputs of each summary.
std::string analysisIdentity(const CliOptions &O) {
  std::string Id = "rematch " REMATCH_VERSION " LLVM " LLVM_VERSION_STRING
                   " " +
                   stampOf(llvm::sys::fs::getMainExecutable(nullptr, nullptr));
  // The built-in models (a project's models are inputs of each summary).
  for (const std::string &Model : clang::tidy::rematch::builtinModelFiles(
           clang::tidy::rematch::builtinModelsDir()))
    Id += '\0' + Model + '\0' + hashFile(Model);
  Id += '\0';
  Id += O.CheckpointFunctions;
  Id += '\0';
  Id += O.ConfigFile;
  return Id;
}

// What shapes a file's findings besides its translation unit and the
// summaries: the findings cache keeps them under these.
std::string reportOptions(const CliOptions &O) {
  std::string Key = O.Checks + '\0' + O.Chain + '\0' + O.WarningsAsErrors;
  if (O.CompileArgs && !O.BuildPath.empty())
    for (const std::string &A : *O.CompileArgs)
      Key += '\0' + A;
  return Key;
}

// Step 3, where the summaries live: --summaries-dir, else (whole program by
// default) .rematch-cache beside the compile_commands.json in use. None with
// --no-summaries or without such a database; a default place that cannot be
// created costs a warning, and the run keeps its summaries in memory: the
// same findings, the next run parses everything again.
llvm::Expected<std::optional<SummariesRun>>
chooseSummaries(const CliOptions &O, llvm::raw_ostream &Err) {
  SummariesRun Run{O.SummariesDir, analysisIdentity(O), O.SummariesOnly};
  Run.NoCache = O.NoCache;
  Run.ReportOptions = reportOptions(O);
  if (O.ShardCount > 1)
    Run.RunFiles = O.Files;
  if (!O.SummariesDir.empty())
    return Run;
  std::optional<std::string> DBDir =
      O.NoSummaries ? std::nullopt : compileCommandsDir(O);
  if (!DBDir) {
    if (O.SummariesOnly)
      return llvm::createStringError(
          "rematch: error: --summaries-only needs --summaries-dir=<dir>, or a "
          "compile_commands.json whose directory holds the default cache");
    return std::nullopt;
  }
  llvm::SmallString<256> Dir(*DBDir);
  llvm::sys::path::append(Dir, ".rematch-cache");
  std::error_code EC = llvm::sys::fs::create_directories(Dir);
  if (!EC && !llvm::sys::fs::is_directory(Dir))
    EC = std::make_error_code(std::errc::not_a_directory);
  if (!EC)
    EC = llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write);
  if (EC) {
    if (O.SummariesOnly)
      return llvm::createStringError(Dir + ": error: cannot create the "
                                           "summaries cache: " +
                                     EC.message());
    Err << Dir << ": warning: cannot create the summaries cache ("
        << EC.message()
        << "); this run keeps the summaries in memory and reports every "
           "finding, the next run analyses every file again\n";
    Run.InMemory = true;
  }
  Run.Dir = std::string(Dir);
  Run.IsDefault = true;
  return Run;
}

// Step 4: every pending file, alone or with the summaries of the others;
// nothing when the summaries directory cannot be used.
std::optional<std::vector<FileOutcome>>
analyseAll(const CliOptions &O, const std::optional<SummariesRun> &Summaries,
           ProgramCache *Cache, Analyzer &A, const FileSet &Files,
           const SerializedDatabase &DB, llvm::raw_ostream &Err) {
  if (!Summaries || !Cache)
    return analyseFiles(
        Files.ToAnalyse, scheduleOptions(O),
        [&](const std::string &Path) { return A.analyse(Path); });
  return analyseWithSummaries(
      *Summaries, *Cache, Files.ToAnalyse, scheduleOptions(O), DB,
      [&](const std::string &Path,
          const clang::tidy::rematch::AnalysisHost &Host) {
        return A.analyse(Path, Host);
      },
      Err);
}

// Each outcome's status and findings into the results, in the files' order;
// returns the fixes.
std::vector<tooling::Replacement>
collectOutcomes(std::vector<FileOutcome> &Outcomes, const FileSet &Files,
                const PathNamer &Names, Results &R) {
  std::vector<tooling::Replacement> Fixes;
  for (size_t I = 0; I < Outcomes.size(); ++I) {
    FileOutcome &Outcome = Outcomes[I];
    R.Files[Files.Pending[I]] = std::move(Outcome.Status);
    for (Finding &F : Outcome.Findings) {
      F.Loc.File = Names.name(F.Loc.File);
      for (Note &N : F.Notes)
        N.Loc.File = Names.name(N.Loc.File);
      R.Findings.push_back(std::move(F));
    }
    Fixes.insert(Fixes.end(), Outcome.Fixes.begin(), Outcome.Fixes.end());
  }
  return Fixes;
}

// Configuration errors, then files that failed, then findings.
int exitCode(const Results &R, const FileSet &Files) {
  if (Files.ConfigFailed)
    return UsageError;
  for (const FileStatus &S : R.Files)
    if (S.Status == FileStatus::State::Failed)
      return AnalysisFailed;
  return R.Findings.empty() ? NoFindings : HasFindings;
}

// The --output file, if one is named; false (said on Err) when it cannot be
// written.
bool openOutput(const CliOptions &O,
                std::unique_ptr<llvm::raw_fd_ostream> &File,
                llvm::raw_ostream &Err) {
  if (O.OutputPath.empty())
    return true;
  std::error_code EC;
  File = std::make_unique<llvm::raw_fd_ostream>(O.OutputPath, EC);
  if (!EC)
    return true;
  Err << O.OutputPath << ": error: cannot write output: " << EC.message()
      << "\n";
  return false;
}

// Steps 5 and 6: the findings through their filters, the report, the
// fix-its, and the exit code.
int finishReport(const CliOptions &O, Results &R, const FileSet &Files,
                 const std::vector<tooling::Replacement> &Fixes,
                 FindingFilters &Filters, llvm::raw_fd_ostream &Out,
                 bool ToFile, llvm::raw_ostream &Err) {
  // Step 5, the findings and their filters.
  orderFindings(R.Findings, Files.Order);
  if (llvm::Error E = Filters.apply(R, Err)) {
    Err << llvm::toString(std::move(E)) << "\n";
    return UsageError;
  }

  // Step 6, the report.
  writeReport(Out, R, O.OutputFormat);
  Out.flush();
  if (Out.has_error()) {
    // A full disk or a closed pipe: the report is lost, which is no "1".
    Err << (O.OutputPath.empty() ? "<stdout>" : O.OutputPath)
        << ": error: cannot write output: " << Out.error().message() << "\n";
    Out.clear_error();
    return UsageError;
  }
  if (O.Fix)
    applyFixes(Fixes, Err);

  // Compiler errors also go to stderr in machine formats, so a CI log shows
  // why a file was not analysed.
  if (O.OutputFormat != Format::Text || ToFile)
    for (const FileStatus &S : R.Files)
      for (const std::string &E : S.Errors)
        Err << E << "\n";

  return exitCode(R, Files);
}

// What --verbose says about a run: how many files were analysed or came
// from the findings cache, bodies not parsed again, preambles used, and the
// files due a preamble that have none.
std::string runStatistics(const std::vector<FileOutcome> &Outcomes,
                          const PathNamer &Names) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  size_t Cached = llvm::count_if(
      Outcomes, [](const FileOutcome &X) { return X.FromCache; });
  OS << "rematch: " << Outcomes.size() << " file"
     << (Outcomes.size() == 1 ? "" : "s") << ": " << Outcomes.size() - Cached
     << " analysed, " << Cached << " from the findings cache\n";
  size_t Reused = 0;
  for (const FileOutcome &X : Outcomes)
    Reused += X.BodiesReused;
  if (Reused)
    OS << "rematch: " << Reused << " unchanged function bod"
       << (Reused == 1 ? "y" : "ies") << " not parsed again\n";
  size_t Again = llvm::count_if(
      Outcomes, [](const FileOutcome &X) { return X.ParsedAgain; });
  if (Again)
    OS << "rematch: " << Again << " file" << (Again == 1 ? "" : "s")
       << " parsed again with the whole program's summaries\n";
  size_t WithPreamble = llvm::count_if(
      Outcomes, [](const FileOutcome &X) { return X.PreambleUsed; });
  if (WithPreamble)
    OS << "rematch: " << WithPreamble << " file"
       << (WithPreamble == 1 ? "" : "s")
       << " parsed with a precompiled preamble\n";
  size_t Whole = llvm::count_if(
      Outcomes, [](const FileOutcome &X) { return X.ParsedWhole; });
  if (Whole)
    OS << "rematch: " << Whole << " file" << (Whole == 1 ? "" : "s")
       << " parsed again with every library body (one the analysis needed, "
          "or a parse that failed without them)\n";
  for (const FileOutcome &X : Outcomes)
    if (!X.PreambleFailure.empty())
      OS << "rematch: " << Names.name(X.Status.File)
         << ": no precompiled preamble: " << X.PreambleFailure << "\n";
  return Text;
}

} // namespace

// options -> database -> files -> analysis -> filters -> output.
int runRematch(const CliOptions &O, llvm::raw_ostream &Err) {
  if (llvm::Error E = checkOptions(O)) {
    Err << llvm::toString(std::move(E)) << "\n";
    return UsageError;
  }
  // --baseline, --changed-lines, --line-filter: errors before any work.
  llvm::Expected<FindingFilters> Filters = FindingFilters::create(O);
  if (!Filters) {
    Err << llvm::toString(Filters.takeError()) << "\n";
    return UsageError;
  }

  // Step 2, the database.
  std::unique_ptr<tooling::CompilationDatabase> DB = makeDatabase(O, Err);
  if (!DB)
    return UsageError;

  // An --output that cannot be written fails before any work is done.
  std::unique_ptr<llvm::raw_fd_ostream> File;
  if (!openOutput(O, File, Err))
    return UsageError;
  llvm::raw_fd_ostream &Out = File ? *File : llvm::outs();

  // Step 3, the summaries' place.
  llvm::Expected<std::optional<SummariesRun>> Summaries =
      chooseSummaries(O, Err);
  if (!Summaries) {
    Err << llvm::toString(Summaries.takeError()) << "\n";
    return UsageError;
  }

  // The findings a file's first parse could not see, made from facts.
  std::optional<FactsReporter> Facts;
  if (*Summaries) {
    Facts.emplace(O);
    Summaries->value().Facts = &*Facts;
  }

  // The cache, with the preambles kept beside (not inside: CI jobs copy
  // it whole) the summaries' directory; a --summaries-only run (phase one
  // of a CI matrix) parses each file once and builds no preamble. What
  // interrupted runs left in it goes first.
  std::optional<ProgramCache> Cache;
  if (*Summaries) {
    Cache.emplace(**Summaries, O.SummariesOnly || O.NoCache
                                   ? 0
                                   : uint64_t(O.PreambleCacheMiB) << 20);
    if (unsigned N = Cache->repair(); N && O.Verbose)
      Err << "rematch: removed " << N << " temporary file"
          << (N == 1 ? "" : "s") << " that interrupted runs left in "
          << Summaries->value().Dir << "\n";
  }

  SourceCache Src;
  PathNamer Names(O.Files);
  SerializedDatabase SharedDB(*DB);
  Results R;
  if (*Summaries && Summaries->value().IsDefault)
    R.SummariesCache = Summaries->value().Dir;
  FileSet Files = collectFiles(O, *DB, Names, R);

  // Step 4, the analysis: file by file, or over the summaries.
  Analyzer A(O, SharedDB, Src, Names, Cache ? Cache->preambles() : nullptr);
  std::optional<std::vector<FileOutcome>> Outcomes =
      analyseAll(O, *Summaries, Cache ? &*Cache : nullptr, A, Files, SharedDB,
                 Err);
  if (!Outcomes)
    return UsageError;
  // Said under --verbose, worded before the statuses move into the results.
  std::string Statistics = O.Verbose ? runStatistics(*Outcomes, Names) : "";
  std::vector<tooling::Replacement> Fixes =
      collectOutcomes(*Outcomes, Files, Names, R);
  Err << Statistics;

  return finishReport(O, R, Files, Fixes, *Filters, Out, File != nullptr, Err);
}

std::optional<ReportDestination> prepareReport(const CliOptions &O,
                                              llvm::raw_ostream &Err) {
  llvm::Expected<FindingFilters> Filters = FindingFilters::create(O);
  if (!Filters) {
    Err << llvm::toString(Filters.takeError()) << "\n";
    return std::nullopt;
  }
  ReportDestination To{std::move(*Filters), nullptr};
  if (!openOutput(O, To.File, Err))
    return std::nullopt;
  return To;
}

int reportOutcomes(const CliOptions &O, ReportDestination &To,
                   const std::vector<std::string> &Paths,
                   std::vector<FileOutcome> Outcomes, llvm::raw_ostream &Err) {
  llvm::raw_fd_ostream &Out = To.File ? *To.File : llvm::outs();
  PathNamer Names(Paths);
  Results R;
  FileSet Files;
  for (const std::string &Path : Paths) {
    Files.Order.try_emplace(Path, Files.Order.size());
    Files.Pending.push_back(R.Files.size());
    R.Files.emplace_back();
    Files.ToAnalyse.push_back(Path);
  }
  std::vector<tooling::Replacement> Fixes =
      collectOutcomes(Outcomes, Files, Names, R);
  return finishReport(O, R, Files, Fixes, To.Filters, Out, To.File != nullptr,
                      Err);
}

} // namespace rematch::tool
