//===--- Report.cpp - rematch report: findings from a link ----------------===//
//
// The findings of files from their facts and the program of a link. A
// file's findings were computed, when it was summarized, against a program
// that held no other file; they are reported as they are while every fact
// of other files they depended on (TUSummary::Dependencies) is still absent
// from the link's program. Otherwise (a checkpointed callable calls into
// another file, a global another file writes) the file is parsed again with
// its recorded compile command and the composition of the link installed,
// as the second phase of a whole-program run does.
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"
#include "Driver.h"
#include "FactsFile.h"
#include "FactsReport.h"
#include "Paths.h"
#include "Steps.h"
#include "StepsShared.h"
#include "Summaries.h"
#include "llvm/ADT/StringMap.h"

namespace rematch::tool {

namespace {

using clang::tidy::rematch::TUSummary;

// The compile commands the facts recorded, under the report's root.
class RecordedCommands : public clang::tooling::CompilationDatabase {
public:
  void add(const FileFacts &F, llvm::StringRef Root) {
    clang::tooling::CompileCommand C;
    C.Directory = underRoot(F.Directory, Root);
    C.Filename = underRoot(F.File, Root);
    for (const std::string &Arg : F.Arguments)
      C.CommandLine.push_back(showRoot(Arg, Root));
    Commands[C.Filename] = std::move(C);
  }
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    auto It = Commands.find(absolutePath(File));
    if (It == Commands.end())
      return {};
    return {It->second};
  }

private:
  std::map<std::string, clang::tooling::CompileCommand> Commands;
};

// Every file's summary, under Root, in Store; their commands in Commands.
// False (said on Err) when a summary cannot be read.
bool loadProgram(const std::vector<FileFacts> &All, llvm::StringRef Root,
                 SummaryStore &Store, RecordedCommands &Commands,
                 llvm::raw_ostream &Err) {
  for (const FileFacts &F : All) {
    Commands.add(F, Root);
    if (F.Summary.empty())
      continue; // the file could not be parsed: its errors are its report
    llvm::Expected<TUSummary> S =
        clang::tidy::rematch::parseSummary(F.Summary, F.File);
    if (!S) {
      Err << llvm::toString(S.takeError()) << "\n";
      return false;
    }
    clang::tidy::rematch::forEachPath(
        *S, [&](std::string &P) { P = underRoot(P, Root); });
    Store.add(std::move(*S));
  }
  return true;
}

// The files at the indices Again parsed with the program installed, as the
// second phase of a run parses them; their outcomes replace the recorded.
void parseAgain(const CliOptions &R, const RecordedCommands &Commands,
                ProgramView &Program, const std::vector<std::string> &Paths,
                const std::vector<size_t> &Again,
                std::vector<FileOutcome> &Outcomes) {
  if (Again.empty())
    return;
  std::vector<std::string> Files;
  for (size_t I : Again)
    Files.push_back(Paths[I]);
  SourceCache Src;
  PathNamer Names(Files);
  Analyzer A(R, Commands, Src, Names);
  clang::tidy::rematch::AnalysisHost Host;
  Host.Summaries = Program.composed();
  std::vector<FileOutcome> Parsed =
      analyseFiles(Files, scheduleOptions(R), [&](const std::string &Path) {
        return A.analyse(Path, Host);
      });
  for (size_t K = 0; K < Again.size(); ++K)
    Outcomes[Again[K]] = std::move(Parsed[K]);
}

} // namespace

int runReport(const CliOptions &O, llvm::raw_ostream &Err) {
  std::vector<size_t> Named;
  llvm::Expected<std::vector<FileFacts>> All = gatherFacts(O.Files, &Named);
  if (!All) {
    Err << llvm::toString(All.takeError()) << "\n";
    return UsageError;
  }
  if (!All->empty() && All->front().Settings.Tool != toolIdentity()) {
    Err << O.Files.front()
        << ": error: summarized by another build of rematch ("
        << All->front().Settings.Tool << "); summarize again\n";
    return UsageError;
  }
  // --baseline, --output and the like: errors before any work.
  std::optional<ReportDestination> To = prepareReport(O, Err);
  if (!To)
    return UsageError;
  const std::string Root = absolutePath(O.Root.empty() ? "." : O.Root);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);

  // The analysis the files were summarized with, and this report's output.
  CliOptions R = O;
  if (!All->empty()) {
    const FactsSettings &S = All->front().Settings;
    R.CheckpointFunctions = S.CheckpointFunctions;
    R.ConfigFile = S.ConfigFile.empty() ? "" : underRoot(S.ConfigFile, Root);
    R.Checks = S.Checks;
    R.Chain = S.Chain;
    R.WarningsAsErrors = S.WarningsAsErrors;
  }

  // The program: every file's summary, under this root.
  std::unique_ptr<SummaryStore> Store = SummaryStore::ofLink();
  RecordedCommands Commands;
  if (!loadProgram(*All, Root, *Store, Commands, Err))
    return UsageError;
  ProgramView Program(*Store, {});

  // The files to report: those of the .rsum inputs, else all, in order;
  // named as the default command names them, from this directory.
  if (Named.empty())
    for (size_t I = 0; I < All->size(); ++I)
      Named.push_back(I);
  std::vector<std::string> Paths;
  std::vector<FileOutcome> Outcomes;
  std::vector<size_t> Again;
  const FactsReporter Facts(R);
  size_t FromFacts = 0; // files whose findings the link changed
  for (size_t I : Named) {
    const FileFacts &F = (*All)[I];
    const std::string &File = F.File;
    std::string Abs = underRoot(File, Root);
    Paths.push_back(relativeTo(Abs, Cwd));
    FileOutcome Out;
    if (!decodeOutcome(F.Outcome, Paths.back(), Out)) {
      Err << File << ": error: the .rsum's outcome cannot be decoded\n";
      return UsageError;
    }
    forEachOutcomePath(
        Out,
        [&](std::string &P) {
          if (!P.empty())
            P = underRoot(P, Root);
        },
        [](std::string &) {});
    Out.Status.File = Paths.back();
    const TUSummary *S = Store->find(Abs);
    if (S && !dependenciesHold(*S, Program)) {
      if (Facts.complete(*S, Out, Program))
        ++FromFacts;
      else
        Again.push_back(Outcomes.size());
    }
    Outcomes.push_back(std::move(Out));
  }

  parseAgain(R, Commands, Program, Paths, Again, Outcomes);
  if (O.Verbose)
    Err << "rematch: " << Outcomes.size() << " file"
        << (Outcomes.size() == 1 ? "" : "s") << ": "
        << Outcomes.size() - Again.size() << " from their summaries ("
        << FromFacts << " with findings the link adds), " << Again.size()
        << " parsed again\n";
  return reportOutcomes(R, *To, Paths, std::move(Outcomes), Err);
}

} // namespace rematch::tool
