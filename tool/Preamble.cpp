//===--- Preamble.cpp - precompiled preambles of edited files -------------===//

#include "Preamble.h"
#include "CacheDirectory.h"
#include "SkipBodies.h"
#include "Summaries.h"
#include "analysis/Summary.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>
#include <chrono>

namespace rematch::tool {

namespace fs = llvm::sys::fs;
using clang::tidy::rematch::hashText;

namespace {

constexpr llvm::StringLiteral ManifestHeader = "rematch-preamble 2";

using clang::tidy::rematch::UnreadBodies;

// The files a preamble build read, with whether each is a system header.
// (The invocation owns and destroys the action: the list is the caller's.)
class BuildPreambleAction : public clang::GeneratePCHAction {
public:
  BuildPreambleAction(std::vector<std::pair<std::string, bool>> &Read,
                      const UnreadBodies *Unread)
      : Read(Read), Unread(Unread) {}

private:
  std::vector<std::pair<std::string, bool>> &Read;
  const UnreadBodies *Unread;

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef In) override {
    std::unique_ptr<clang::ASTConsumer> Writer =
        GeneratePCHAction::CreateASTConsumer(CI, In);
    if (!Writer || !Unread)
      return Writer;
    CI.getFrontendOpts().SkipFunctionBodies = true;
    std::vector<std::unique_ptr<clang::ASTConsumer>> Both;
    // First: the multiplexer skips a body only when every consumer would
    // (the PCH writer would skip all).
    Both.push_back(skippingConsumer(nullptr, Unread, CI));
    Both.push_back(std::move(Writer));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Both));
  }

  // The output is already a temporary (PendingEntry), removed if the run is
  // interrupted; the compiler's own would be left behind.
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.getFrontendOpts().UseTemporary = false;
    return GeneratePCHAction::BeginInvocation(CI);
  }

  void EndSourceFileAction() override {
    const clang::SourceManager &SM = getCompilerInstance().getSourceManager();
    for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
      const clang::SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
      if (!Entry.isFile())
        continue;
      const clang::SrcMgr::FileInfo &FI = Entry.getFile();
      clang::OptionalFileEntryRef FE = FI.getContentCache().OrigEntry;
      if (!FE || Entry.getFile().getIncludeLoc().isInvalid())
        continue; // the preamble's own header is the entry's key
      Read.emplace_back(
          clang::tidy::rematch::inputPath(FE->getName(), SM.getFileManager()),
          clang::SrcMgr::isSystem(FI.getFileCharacteristic()));
    }
    llvm::sort(Read);
    Read.erase(llvm::unique(Read), Read.end());
    GeneratePCHAction::EndSourceFileAction();
  }
};

// The arguments ClangTool would give the parse of Command's file, without
// the file itself and what makes it a compile: the preamble is compiled
// with the same options. Extra goes where clang-tidy puts ExtraArgsBefore.
std::vector<std::string> preambleArgs(const clang::tooling::CompileCommand &C,
                                      llvm::ArrayRef<std::string> Extra) {
  using namespace clang::tooling;
  std::vector<std::string> Args = C.CommandLine;
  Args = getClangStripOutputAdjuster()(Args, C.Filename);
  Args = getClangStripDependencyFileAdjuster()(Args, C.Filename);
  llvm::SmallString<256> Abs(C.Filename);
  if (!llvm::sys::path::is_absolute(Abs))
    fs::make_absolute(C.Directory, Abs);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (I > 0 && (A == "-c" || A == "-fsyntax-only" || A == "--"))
      continue;
    llvm::SmallString<256> P(A);
    if (I > 0 && !A.starts_with("-")) {
      if (!llvm::sys::path::is_absolute(P))
        fs::make_absolute(C.Directory, P);
      if (P == Abs)
        continue;
    }
    Out.push_back(Args[I]);
  }
  if (Out.empty())
    return Out;
  auto At = Out.begin() + (llvm::StringRef(Out[0]).starts_with("-") ? 0 : 1);
  Out.insert(At, Extra.begin(), Extra.end());
  // As ClangTool does: the builtin headers beside this program's Clang.
  static int Anchor;
  if (llvm::none_of(Out, [](llvm::StringRef A) {
        return A.starts_with("-resource-dir");
      }))
    Out.insert(Out.begin() + 1,
               "-resource-dir=" +
                   clang::CompilerInvocation::GetResourcesPath(
                       fs::getMainExecutable("clang_tool", &Anchor).c_str(),
                       &Anchor));
  return Out;
}

// The first error of a preamble build, for --verbose and the .failed file.
class FirstError : public clang::DiagnosticConsumer {
public:
  std::string Text;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    if (Level < clang::DiagnosticsEngine::Error || !Text.empty())
      return;
    llvm::SmallString<256> Message;
    Info.FormatDiagnostic(Message);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      clang::PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Text = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
               ": ";
    }
    Text += Message.str();
  }
};

std::error_code touch(const std::string &Path) {
  int FD;
  if (std::error_code EC = fs::openFileForWrite(Path, FD, fs::CD_OpenExisting,
                                                fs::OF_Append))
    return EC;
  std::error_code EC =
      fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return EC;
}

} // namespace

PreambleCache::PreambleCache(std::string Directory, uint64_t CapBytes)
    : CapBytes(CapBytes) {
  llvm::SmallString<256> Abs(Directory);
  fs::make_absolute(Abs); // parses run in their commands' directories
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  Dir = std::string(Abs);
}

std::string PreambleCache::path(const std::string &Key, const char *Ext) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key + Ext);
  return std::string(P);
}

namespace {

// The part of a file a preamble covers: its leading #include block.
struct PreambleText {
  std::string File; // absolute
  std::string Text;
  clang::PreambleBounds Bounds{0, false};
};

// None for a C file, a file that cannot be read, or a leading block
// without an #include (nothing worth precompiling).
std::optional<PreambleText>
preambleTextOf(const clang::tooling::CompileCommand &Command) {
  llvm::SmallString<256> File(Command.Filename);
  if (!llvm::sys::path::is_absolute(File))
    fs::make_absolute(Command.Directory, File);
  if (llvm::sys::path::extension(File) == ".c")
    return std::nullopt;
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return std::nullopt;
  clang::LangOptions LO;
  LO.CPlusPlus = true;
  PreambleText P;
  P.Bounds = clang::Lexer::ComputePreamble((*Buf)->getBuffer(), LO);
  P.Text = (*Buf)->getBuffer().take_front(P.Bounds.Size).str();
  if (!llvm::StringRef(P.Text).contains("#include"))
    return std::nullopt;
  P.File = std::string(File);
  return P;
}

} // namespace

std::optional<std::vector<std::pair<std::string, bool>>>
PreambleCache::builtInputs(PreambleUse &Use) {
  const std::string &Key = Use.Key;
  auto M = llvm::MemoryBuffer::getFile(path(Key, ".deps"));
  if (!M)
    return std::nullopt;
  std::vector<std::pair<std::string, bool>> Inputs;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*M)->getBuffer().split(Lines, '\n', -1, false);
  bool Valid = Lines.size() >= 2 && Lines[0] == ManifestHeader &&
               Lines[1] == clang::getClangFullVersion() &&
               fs::exists(path(Key, ".pch"));
  // "<S|U> <hash> <path>": every file the preamble read, unchanged.
  for (size_t I = 2; Valid && I < Lines.size(); ++I) {
    auto [Kind, Rest] = Lines[I].split(' ');
    auto [Hash, Path] = Rest.split(' ');
    Valid = (Kind == "S" || Kind == "U") && hashFile(Path) == Hash;
    Inputs.emplace_back(Path.str(), Kind == "S");
  }
  if (!Valid) { // stale: forget it, parse as usual, build next time
    drop(Use);
    fs::remove(path(Key, ".seen"));
    return std::nullopt;
  }
  return Inputs;
}

bool PreambleCache::seenBefore(const std::string &Key) {
  std::string Seen = path(Key, ".seen");
  std::lock_guard<std::mutex> Lock(SeenMutex);
  if (SeenHere.count(Key))
    return false;
  if (fs::exists(Seen))
    return true;
  SeenHere.insert(Key);
  if (!fs::create_directories(Dir))
    writeAtomically(Seen, "");
  return false;
}

PreambleUse PreambleCache::prepare(const clang::tooling::CompileCommand &Command,
                                   llvm::ArrayRef<std::string> Extra,
                                   const UnreadBodies *Unread) {
  PreambleUse Use;
  if (CapBytes == 0)
    return Use;
  std::optional<PreambleText> P = preambleTextOf(Command);
  if (!P)
    return Use;
  std::vector<std::string> Args = preambleArgs(Command, Extra);
  if (Args.empty())
    return Use;
  std::string Identity = ManifestHeader.str() + "\n" +
                         clang::getClangFullVersion() + "\n" +
                         Command.Directory + "\n" + P->File + "\n" +
                         (Unread ? Unread->identity() : "") + "\n";
  for (const std::string &A : Args)
    Identity += A + '\0';
  Identity += P->Text;
  Use.Key = hashText(Identity);
  const std::string &Key = Use.Key;

  std::optional<std::vector<std::pair<std::string, bool>>> Inputs =
      builtInputs(Use);
  if (Inputs) {
    touch(path(Key, ".pch")); // most recently used
  } else {
    // A build that failed before fails again: said, not tried again.
    if (auto Failed = llvm::MemoryBuffer::getFile(path(Key, ".failed"))) {
      Use.Failure = (*Failed)->getBuffer().rtrim().str() +
                    " (an earlier run's; remove " + path(Key, ".failed") +
                    " to try again)";
      return Use;
    }
    // First sighting: remember it and parse as usual. Built when another
    // run sees it again.
    if (!seenBefore(Key))
      return {};
    std::string Failure;
    Inputs = build(Key, P->File, P->Text, Args, Command.Directory, Unread,
                   Failure);
    if (!Inputs) {
      PreambleUse None;
      None.Failure = std::move(Failure);
      return None;
    }
  }
  Use.Inputs = std::move(*Inputs);
  Use.Header = path(Key, ".h");
  Use.Args = {"-include-pch", path(Key, ".pch"), "-D__clang_analyzer__",
              "-Xclang",
              "-preamble-bytes=" + std::to_string(P->Bounds.Size) + "," +
                  (P->Bounds.PreambleEndsAtStartOfLine ? "1" : "0")};
  return Use;
}

std::optional<std::vector<std::pair<std::string, bool>>>
PreambleCache::build(const std::string &Key, const std::string &File,
                     const std::string &Text, std::vector<std::string> Args,
                     const std::string &WorkingDir, const UnreadBodies *Unread,
                     std::string &Failure) {
  std::string Header = path(Key, ".h"), Pch = path(Key, ".pch");
  if (fs::create_directories(Dir) || writeAtomically(Header, Text)) {
    Failure = "cannot write in " + Dir;
    return std::nullopt;
  }
  llvm::Expected<PendingEntry> Out = PendingEntry::create(Pch);
  if (!Out) {
    llvm::consumeError(Out.takeError());
    Failure = "cannot write in " + Dir;
    return std::nullopt;
  }
  // The preamble's own #include "x.h" searches the file's directory first,
  // as it does in the file.
  for (const char *A : {"-D__clang_analyzer__", "-w", "-fpch-instantiate-templates",
                        "-iquote"})
    Args.push_back(A);
  Args.push_back(std::string(llvm::sys::path::parent_path(File)));
  for (const std::string &A : {std::string("-x"), std::string("c++-header"),
                               Header, std::string("-o"), Out->temporary()})
    Args.push_back(A);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS(
      llvm::vfs::createPhysicalFileSystem().release());
  FS->setCurrentWorkingDirectory(WorkingDir);
  clang::FileSystemOptions FSO;
  FSO.WorkingDir = WorkingDir;
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(FSO, FS));
  std::vector<std::pair<std::string, bool>> Read;
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<BuildPreambleAction>(Read, Unread), Files.get());
  FirstError Errors;
  Invocation.setDiagnosticConsumer(&Errors);
  // An error in the preamble may leave run() true and no output written.
  if (!Invocation.run() || !Errors.Text.empty()) {
    // The same key fails the same way: remembered, not tried on every run.
    Failure = "building the preamble failed: " +
              (Errors.Text.empty() ? std::string("the compiler gave up")
                                   : Errors.Text);
    writeAtomically(path(Key, ".failed"), Failure + "\n");
    return std::nullopt;
  }
  if (Out->commit()) {
    Failure = "cannot write " + Pch;
    return std::nullopt;
  }
  std::string Manifest = ManifestHeader.str() + "\n" +
                         clang::getClangFullVersion() + "\n";
  for (const auto &[Path, System] : Read) {
    std::string Hash = hashFile(Path);
    if (Hash.empty()) {
      fs::remove(Pch);
      Failure = "cannot read " + Path;
      return std::nullopt;
    }
    Manifest += (System ? "S " : "U ") + Hash + " " + Path + "\n";
  }
  // Last: an entry is whole once its manifest is there.
  if (writeAtomically(path(Key, ".deps"), Manifest)) {
    fs::remove(Pch);
    Failure = "cannot write in " + Dir;
    return std::nullopt;
  }
  evict(Key);
  return Read;
}

void PreambleCache::drop(const PreambleUse &Use) {
  if (Use.Key.empty())
    return;
  for (const char *Ext : {".deps", ".pch", ".h"})
    fs::remove(path(Use.Key, Ext));
}

// Beyond the cap, the least recently used entries go (not Keep, the one
// just built): their manifest first, so that a reader never sees an entry
// without its precompiled header.
void PreambleCache::evict(const std::string &Keep) {
  struct Entry {
    std::string Key;
    uint64_t Size;
    std::chrono::system_clock::time_point Used;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (fs::directory_iterator I(Dir, EC), End; I != End && !EC; I.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(I->path());
    if (!Name.ends_with(".pch"))
      continue;
    fs::file_status St;
    if (fs::status(I->path(), St))
      continue;
    Entries.push_back({Name.drop_back(4).str(), St.getSize(),
                       St.getLastModificationTime()});
    Total += St.getSize();
  }
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return A.Used < B.Used;
  });
  for (const Entry &E : Entries) {
    if (Total <= CapBytes)
      break;
    if (E.Key == Keep)
      continue;
    for (const char *Ext : {".deps", ".pch", ".h", ".seen", ".failed"})
      fs::remove(path(E.Key, Ext));
    Total -= E.Size;
  }
}

} // namespace rematch::tool
