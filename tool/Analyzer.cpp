//===--- Analyzer.cpp - one file through clang-tidy and rematch's checks --===//

#include "Analyzer.h"
#include "CacheLayout.h"
#include "Config.h"
#include "ClangFlags.h"
#include "RematchOptions.h"
#include "SkipBodies.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/GlobList.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace rematch::tool {

using namespace clang;
using namespace clang::tidy;

namespace {

std::string formatError(const tooling::DiagnosticMessage &M, SourceCache &Src,
                        const PathNamer &Names, llvm::StringRef Level) {
  unsigned Line = 0, Col = 0;
  std::string Out;
  if (!M.FilePath.empty() && Src.locate(M.FilePath, M.FileOffset, Line, Col))
    Out = Names.name(M.FilePath) + ":" + std::to_string(Line) + ":" +
          std::to_string(Col) + ": ";
  else if (!M.FilePath.empty())
    Out = Names.name(M.FilePath) + ": ";
  return Out + Level.str() + ": " + M.Message;
}

// Rewrites every path of E (its message, its notes, its fix-its).
void rewritePaths(ClangTidyError &E,
                  llvm::function_ref<void(std::string &)> Rewrite) {
  Rewrite(E.Message.FilePath);
  for (tooling::DiagnosticMessage &N : E.Notes)
    Rewrite(N.FilePath);
  llvm::StringMap<tooling::Replacements> Fix;
  for (const auto &FileFix : E.Message.Fix)
    for (const tooling::Replacement &R : FileFix.second) {
      std::string Path = R.getFilePath().str();
      Rewrite(Path);
      llvm::consumeError(Fix[Path].add(tooling::Replacement(
          Path, R.getOffset(), R.getLength(), R.getReplacementText())));
    }
  E.Message.Fix = std::move(Fix);
}

// Clang names a file as its compile command did: relative to the command's
// directory, which need not be ours under -p.
void resolvePaths(ClangTidyError &E) {
  rewritePaths(E, [&](std::string &Path) {
    if (Path.empty() || E.BuildDirectory.empty() ||
        llvm::sys::path::is_absolute(Path))
      return;
    llvm::SmallString<256> P(E.BuildDirectory);
    llvm::sys::path::append(P, Path);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    Path = std::string(P);
  });
}

// Whether Path names the header of the preamble Header: the one the
// precompiled header records is where it was built, which may be another
// path to the same directory (a symbolic link) or a copy of the cache made
// elsewhere. Its name is the preamble's key: a hash of what it holds.
bool isPreambleHeader(llvm::StringRef Path, llvm::StringRef Header) {
  namespace path = llvm::sys::path;
  return Path == Header ||
         (path::filename(Path) == path::filename(Header) &&
          clang::tidy::rematch::CacheLayout::isPreambles(
              path::parent_path(Path)));
}

// A location in the header a preamble was compiled from (a macro defined in
// the file's leading block) is the same offset in the file itself.
void moveIntoFile(ClangTidyError &E, llvm::StringRef Header,
                  llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  rewritePaths(E, [&](std::string &Path) {
    if (isPreambleHeader(Path, Header))
      Path = std::string(Abs);
  });
}

// The bodies a preamble of File may skip, by the configuration its
// analysis reads (EffectAnalysis::configure): none when that cannot be
// read, which its analysis then reports.
std::optional<clang::tidy::rematch::UnreadBodies>
unreadBodiesFor(const std::string &ConfigFile, const std::string &File) {
  namespace rm = clang::tidy::rematch;
  std::optional<std::string> Path =
      ConfigFile.empty() ? rm::findConfigFile(File) : ConfigFile;
  rm::Config C;
  if (Path) {
    llvm::Expected<rm::Config> Loaded = rm::loadConfigFile(*Path);
    if (!Loaded) {
      llvm::consumeError(Loaded.takeError());
      return std::nullopt;
    }
    C = std::move(*Loaded);
  }
  llvm::Expected<std::shared_ptr<const rm::ModelSet>> Models = rm::modelsFor(C);
  if (!Models) {
    llvm::consumeError(Models.takeError());
    return std::nullopt;
  }
  return rm::UnreadBodies(std::move(*Models));
}

} // namespace

FileOutcome Analyzer::analyse(const std::string &File,
                    clang::tidy::rematch::AnalysisHost Host) {
  // The library bodies the analysis does not read are not parsed
  // (UnreadBodies.h), unless asked (--parse-library-bodies).
  if (!O.ParseLibraryBodies)
    if (std::optional<clang::tidy::rematch::UnreadBodies> Unread =
            unreadBodiesFor(O.ConfigFile, Names.absolute(File)))
      Host.Unread = std::make_shared<const clang::tidy::rematch::UnreadBodies>(
          std::move(*Unread));
  // A parse that skipped recorded bodies, unless the analysis could not
  // use it (BodyReplay.h): then one that skips only the bodies that were
  // not rejected, and at last (or when the parse failed) one of them all.
  for (int Attempt = 0; Host.Bodies && Attempt < 2; ++Attempt) {
    FileOutcome Out = analyseParsing(File, Host);
    if (Out.ParsedWhole || (!Host.Bodies->failed() &&
                            Out.Status.Status != FileStatus::State::Failed)) {
      if (!Out.ParsedWhole)
        Out.BodiesReused = Host.Bodies->skippedCount();
      return Out;
    }
    Host.Bodies = Out.Status.Status == FileStatus::State::Failed
                      ? nullptr
                      : Host.Bodies->retry();
  }
  Host.Bodies = nullptr;
  return analyseParsing(File, Host);
}

FileOutcome Analyzer::analyseParsing(const std::string &File,
                           const clang::tidy::rematch::AnalysisHost &Host) {
  PreambleUse Pre;
  // A database keys its commands by absolute path; the file may be named
  // relative to this directory (the pre-commit hook's `src/a.cpp`).
  if (Preambles)
    if (std::vector<tooling::CompileCommand> Cmds =
            DB.getCompileCommands(Names.absolute(File));
        !Cmds.empty())
      Pre = Preambles->prepare(Cmds.front(), baseArgs(), Host.Unread.get());
  // The parse and the preamble left out the library bodies the analysis
  // does not read; one it needs after all (a library's function the file
  // checkpoints) takes a parse of every body, without the preamble, whose
  // entry stays.
  bool Unparsed = false;
  clang::tidy::rematch::AnalysisHost Skipping = Host;
  Skipping.UnparsedBodyNeeded = [&Unparsed] { Unparsed = true; };
  FileOutcome Out = analyseWith(File, Skipping, Pre);
  if (Unparsed)
    return analyseWhole(File, Host);
  // A parse that failed with the preamble (a damaged entry) or skipping
  // bodies is done again without: neither ever changes a report.
  if (Out.Status.Status == FileStatus::State::Failed &&
      (!Pre.Args.empty() || Host.Unread)) {
    if (!Pre.Args.empty())
      Preambles->drop(Pre);
    FileOutcome Whole = analyseWhole(File, Host);
    Whole.PreambleFailure = Pre.Failure;
    return Whole;
  }
  Out.PreambleFailure = Pre.Failure;
  Out.PreambleUsed = !Pre.Args.empty();
  return Out;
}

// Every body parsed, no preamble: a fresh parse, whatever the one before
// it skipped (the recorded bodies' state belongs to that parse).
FileOutcome Analyzer::analyseWhole(const std::string &File,
                                   clang::tidy::rematch::AnalysisHost Host) {
  Host.Bodies = nullptr;
  Host.Unread = nullptr;
  FileOutcome Out = analyseWith(File, Host, PreambleUse());
  Out.ParsedWhole = true;
  return Out;
}

std::vector<std::string> Analyzer::baseArgs() const {
  std::vector<std::string> Args{"-fno-caret-diagnostics", "-w"};
  if (!O.BuildPath.empty() && O.CompileArgs)
    Args.insert(Args.end(), O.CompileArgs->begin(), O.CompileArgs->end());
  return Args;
}

ClangTidyOptions Analyzer::tidyOptions(const PreambleUse &Pre,
                                       bool SkipBodies) const {
  ClangTidyOptions Opts = ClangTidyOptions::getDefaults();
  Opts.Checks = "-*," + O.Checks;
  Opts.WarningsAsErrors = O.WarningsAsErrors;
  Opts.HeaderFilterRegex = "";
  Opts.SystemHeaders = false;
  auto &CO = Opts.CheckOptions;
  namespace keys = clang::tidy::rematch::options;
  CO[keys::CheckpointFunctions] = {O.CheckpointFunctions, 0};
  CO[keys::ConfigFile] = {O.ConfigFile, 0};
  CO[keys::Chain] = {O.Chain, 0};
  // Diagnostics are formatted here, without clang's caret lines. Of the
  // compiler's diagnostics only errors are reported, so -w spares
  // computing its warnings (the CFG-based ones cost 5-7 % of a parse) and
  // keeps a -Werror in the compile command from turning a warning into an
  // error that would fail the file.
  // Inserted right after the compiler name: a database command may end
  // with `-- file`, after which anything appended would be an input.
  Opts.ExtraArgsBefore = baseArgs();
  Opts.ExtraArgsBefore->insert(Opts.ExtraArgsBefore->end(), Pre.Args.begin(),
                               Pre.Args.end());
  if (SkipBodies) {
    std::vector<std::string> Skip = skipBodiesArgs();
    Opts.ExtraArgsBefore->insert(Opts.ExtraArgsBefore->end(), Skip.begin(),
                                 Skip.end());
  }
  return Opts;
}

Finding Analyzer::findingOf(const ClangTidyError &E,
                            const GlobList &AsErrors) const {
  llvm::StringRef Check = E.DiagnosticName;
  Finding F;
  F.Check = Check.str();
  F.Level =
      E.IsWarningAsError || AsErrors.contains(Check) ? "error" : "warning";
  F.Message = E.Message.Message;
  // Absolute until the report (collectOutcomes): the findings cache keeps
  // them for runs from other directories.
  F.Loc.File = Names.absolute(E.Message.FilePath);
  Src.locate(E.Message.FilePath, E.Message.FileOffset, F.Loc.Line,
             F.Loc.Column, &F.SourceLine);
  for (const tooling::DiagnosticMessage &N : E.Notes) {
    Note Nt;
    Nt.Message = N.Message;
    Nt.Loc.File = Names.absolute(N.FilePath);
    Src.locate(N.FilePath, N.FileOffset, Nt.Loc.Line, Nt.Loc.Column);
    F.Notes.push_back(std::move(Nt));
  }
  return F;
}

FileOutcome Analyzer::analyseWith(const std::string &File,
                        clang::tidy::rematch::AnalysisHost Host,
                        const PreambleUse &Pre) {
  FileOutcome Out;
  Out.Status.File = File;
  Host.PreambleInputs = Pre.Inputs;
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), tidyOptions(Pre, Host.Bodies || Host.Unread)));

  // Only rematch's checks run ("-*," in tidyOptions): they may end the
  // matcher traversal early.
  Host.RematchChecksOnly = true;
  // A physical file system of its own: the real one's working directory
  // is the process's, which ClangTool changes to each command's directory,
  // under the feet of the other analysis threads. It carries the host to
  // the checks and the skip-bodies plugin (AnalysisHost.h).
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new clang::tidy::rematch::HostedFileSystem(
          llvm::vfs::createPhysicalFileSystem(), Host));
  // A summarizing parse keeps apart the findings that hold only if some
  // file writes a global (AnalysisHost::ConditionalSink).
  std::vector<std::tuple<std::string, clang::tidy::rematch::PlainLocation,
                         std::string>>
      Conditional;
  if (Host.Sink)
    Host.ConditionalSink = [&](const auto &Places) { Conditional = Places; };
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, DB, {File}, FS, O.Fix);

  GlobList AsErrors(O.WarningsAsErrors);
  for (ClangTidyError &E : Errors) {
    resolvePaths(E);
    if (!Pre.Header.empty())
      moveIntoFile(E, Pre.Header, File);
    if (!llvm::StringRef(E.DiagnosticName).starts_with("rematch-")) {
      if (E.DiagLevel == ClangTidyError::Error) {
        Out.Status.Status = FileStatus::State::Failed;
        Out.Status.Errors.push_back(
            formatError(E.Message, Src, Names, "error"));
      }
      continue;
    }
    Finding F = findingOf(E, AsErrors);
    std::vector<tooling::Replacement> Fixes;
    for (const auto &FileFix : E.Message.Fix)
      for (const tooling::Replacement &R : FileFix.second)
        Fixes.push_back(R);
    llvm::StringRef Kind = F.Check;
    Kind.consume_front("rematch-");
    auto If = llvm::find_if(Conditional, [&](const auto &C) {
      const auto &[CKind, At, Key] = C;
      return CKind == Kind && At.Line == F.Loc.Line &&
             At.Column == F.Loc.Column &&
             llvm::sys::path::filename(At.File) ==
                 llvm::sys::path::filename(F.Loc.File);
    });
    if (If != Conditional.end()) { // each place holds one (computeFindings)
      Out.Conditional.push_back({std::get<2>(*If), std::move(F),
                                 std::move(Fixes)});
      Conditional.erase(If);
      continue;
    }
    Out.Findings.push_back(std::move(F));
    Out.Fixes.insert(Out.Fixes.end(), Fixes.begin(), Fixes.end());
  }
  if (Out.Status.Status == FileStatus::State::Failed &&
      Out.Status.Errors.empty())
    Out.Status.Errors.push_back(File + ": error: file could not be analysed");
  return Out;
}

std::unique_ptr<tooling::CompilationDatabase>
makeDatabase(const CliOptions &O, llvm::raw_ostream &Err) {
  std::string Message;
  if (!O.BuildPath.empty()) {
    auto DB = tooling::CompilationDatabase::loadFromDirectory(O.BuildPath,
                                                              Message);
    if (!DB) {
      Err << O.BuildPath << ": error: cannot load compile_commands.json: "
          << Message << "\n";
      return nullptr;
    }
    return clangFlagsOnly(tooling::inferMissingCompileCommands(std::move(DB)));
  }
  std::vector<std::string> Args =
      O.CompileArgs ? *O.CompileArgs : std::vector<std::string>{};
  if (!O.CompileArgs) {
    if (auto DB = tooling::CompilationDatabase::autoDetectFromSource(
            O.Files.front(), Message))
      return clangFlagsOnly(tooling::inferMissingCompileCommands(std::move(DB)));
    Err << "rematch: warning: no compilation database found and no `--`: "
           "analysing without compiler flags\n";
  }
  return clangFlagsOnly(
      std::make_unique<tooling::FixedCompilationDatabase>(".", Args));
}

} // namespace rematch::tool
