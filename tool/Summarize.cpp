//===--- Summarize.cpp - rematch summarize: one file's facts --------------===//
//
// One parse of one file, analysed as the first phase of a cold
// whole-program run analyses it: with no other file's facts. What it
// writes depends on the file's content, its flags and this build of
// rematch alone (Steps.h, FactsFile.h).
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"
#include "CacheDirectory.h"
#include "Compose.h"
#include "Config.h"
#include "Driver.h"
#include "Steps.h"
#include "StepsShared.h"
#include "Summaries.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace rematch::tool {

namespace {

using clang::tidy::rematch::TUSummary;

// The summary as a .rsum holds it: paths relative to Root, inputs by
// content, no system-header list, no writer.
std::string portableSummary(TUSummary T, const FileFacts &F,
                            llvm::StringRef Root) {
  for (auto &[File, Hash] : T.Inputs)
    Hash = hashFile(File);
  T.SystemInputs.clear();
  T.SystemInputsKey.clear();
  T.Writer.clear();
  std::string Identity = F.Settings.Tool;
  for (const std::string *Part :
       {&F.Settings.CheckpointFunctions, &F.Settings.ConfigFile})
    Identity += '\0' + *Part;
  T.CommandHash = hashCommand(F.Arguments, F.Directory, Identity);
  clang::tidy::rematch::forEachPath(
      T, [&](std::string &P) { P = relativeTo(P, Root); });
  return clang::tidy::rematch::serializeSummary(T);
}

// The outcome as a .rsum holds it: paths relative to Root, nothing about
// how this run got it.
std::string portableOutcome(FileOutcome Out, llvm::StringRef Root) {
  std::string Prefix = (Root + "/").str();
  forEachOutcomePath(
      Out, [&](std::string &P) { P = relativeTo(P, Root); },
      [&](std::string &Text) {
        for (size_t At; (At = Text.find(Prefix)) != std::string::npos;)
          Text.erase(At, Prefix.size());
      });
  Out.Summary.clear();
  Out.CacheError.clear();
  Out.Dependencies.clear();
  Out.FromCache = false;
  Out.BodiesReused = 0;
  Out.PreambleFailure.clear();
  Out.PreambleUsed = false;
  Out.ParsedWhole = false;
  return encodeOutcome(Out);
}

} // namespace

int runSummarize(const CliOptions &O, llvm::raw_ostream &Err) {
  if (llvm::Error E = checkOptions(O)) {
    Err << llvm::toString(std::move(E)) << "\n";
    return UsageError;
  }
  std::unique_ptr<clang::tooling::CompilationDatabase> DB = makeDatabase(O, Err);
  if (!DB)
    return UsageError;
  const std::string &File = O.Files.front();
  const std::string Abs = absolutePath(File);
  const std::string Root = absolutePath(
      !O.Root.empty() ? O.Root : !O.BuildPath.empty() ? O.BuildPath : ".");
  if (!llvm::sys::fs::is_regular_file(Abs)) {
    Err << File << ": error: no such source file\n";
    return UsageError;
  }
  std::vector<clang::tooling::CompileCommand> Cmds =
      DB->getCompileCommands(Abs);
  if (Cmds.empty()) {
    Err << File
        << ": error: no compile command for this file in the compilation "
           "database\n";
    return UsageError;
  }
  // A discovered .rematch.yaml that cannot be read is a configuration error
  // of this file, as for the default command.
  if (std::optional<std::string> Cfg =
          O.ConfigFile.empty() ? clang::tidy::rematch::findConfigFile(Abs)
                               : std::nullopt)
    if (llvm::Error E = checkConfigFile(*Cfg)) {
      Err << llvm::toString(std::move(E)) << "\n";
      return UsageError;
    }

  FileFacts F;
  F.File = relativeTo(Abs, Root);
  F.Settings = settingsOf(O, Root);
  F.Directory = relativeTo(absolutePath(Cmds.front().Directory), Root);
  for (const std::string &Arg : Cmds.front().CommandLine)
    F.Arguments.push_back(hideRoot(Arg, Root));
  // Flags after `--` come with a made-up compiler beside rematch's program,
  // which nothing runs: its name alone, wherever rematch is installed.
  if (O.CompileArgs && !F.Arguments.empty())
    F.Arguments.front() =
        llvm::sys::path::filename(F.Arguments.front()).str();

  // Analysed as phase one of a cold run: the program holds no other file.
  SourceCache Src;
  PathNamer Names(O.Files);
  Analyzer A(O, *DB, Src, Names);
  std::optional<TUSummary> Summary;
  clang::tidy::rematch::AnalysisHost Host;
  Host.Summaries = clang::tidy::rematch::composeSummaries({});
  Host.Sink = [&](TUSummary T) { Summary = std::move(T); };
  ScheduleOptions One;
  std::vector<FileOutcome> Outs =
      analyseFiles({File}, One, [&](const std::string &Path) {
        return A.analyse(Path, Host);
      });
  FileOutcome &Out = Outs.front();
  bool Failed = Out.Status.Status == FileStatus::State::Failed;
  if (Summary && !Failed)
    F.Summary = portableSummary(std::move(*Summary), F, Root);
  for (const std::string &E : Out.Status.Errors)
    Err << E << "\n";
  F.Outcome = portableOutcome(std::move(Out), Root);

  if (std::error_code EC = writeAtomically(O.OutputPath, writeFileFacts(F))) {
    Err << O.OutputPath << ": error: cannot write: " << EC.message() << "\n";
    return UsageError;
  }
  return Failed ? AnalysisFailed : NoFindings;
}

} // namespace rematch::tool
