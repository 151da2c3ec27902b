//===--- Summaries.cpp - the --summaries-dir store -------------------------===//

#include "Summaries.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/STLExtras.h"

namespace rematch::tool {

namespace {

// "size:mtime" of a file, or empty: a cheap first look before hashing.
std::string stampOf(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return {};
  return std::to_string(St.getSize()) + ":" +
         std::to_string(St.getLastModificationTime().time_since_epoch().count());
}

// An input is unchanged when its stamp is (a header nobody touched is not
// read again), or else when its content hash is.
bool unchanged(llvm::StringRef Path, llvm::StringRef Recorded) {
  auto [Hash, Stamp] = Recorded.split('@');
  if (Hash.empty())
    return false;
  if (!Stamp.empty() && Stamp == stampOf(Path))
    return true;
  return hashFile(Path) == Hash;
}

} // namespace

std::string hashFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return {};
  return clang::tidy::rematch::hashText((*Buf)->getBuffer());
}

std::string hashCommand(const std::vector<std::string> &Args,
                        llvm::StringRef Directory) {
  std::string All = Directory.str();
  for (const std::string &A : Args) {
    All += '\0';
    All += A;
  }
  All += '\0';
  All += std::to_string(clang::tidy::rematch::SummaryFormatVersion);
  return clang::tidy::rematch::hashText(All);
}

std::string SummaryStore::pathFor(llvm::StringRef MainFile) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, llvm::sys::path::filename(MainFile) + "." +
                                 clang::tidy::rematch::hashText(MainFile) +
                                 ".summary.json");
  return std::string(P);
}

bool SummaryStore::load(llvm::raw_ostream &Err) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Err << Dir << ": error: cannot create the summaries directory: "
        << EC.message() << "\n";
    return false;
  }
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Path = It->path();
    if (!Path.ends_with(".summary.json"))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      Err << Path << ": warning: cannot read summary; it will be rebuilt\n";
      continue;
    }
    llvm::Expected<TUSummary> S =
        clang::tidy::rematch::parseSummary((*Buf)->getBuffer(), Path);
    if (!S) {
      Err << llvm::toString(S.takeError())
          << " (ignored; it will be rebuilt)\n";
      continue;
    }
    if (pathFor(S->MainFile) != Path) {
      Err << Path << ": warning: summary names another file ("
          << S->MainFile << "); ignored\n";
      continue;
    }
    ByMainFile[S->MainFile] = std::move(*S);
  }
  if (EC) {
    Err << Dir << ": error: cannot read the summaries directory: "
        << EC.message() << "\n";
    return false;
  }
  return true;
}

// What a summary was computed with still holds: the other TUs' functions it
// called, the globals it judged, and, for every function it defines with
// effects, the calls of other TUs that checkpoint it (recorded or, when
// there were none, implied: a new one makes the summary stale).
static bool dependenciesHold(const TUSummary &S,
                             const ExternalSummaries &With) {
  llvm::StringMap<const std::string *> Recorded;
  for (const auto &[Usr, Hash] : S.Dependencies) {
    if (With.hashOf(Usr) != Hash)
      return false;
    Recorded[Usr] = &Hash;
  }
  for (const clang::tidy::rematch::FunctionEffects &F : S.Functions) {
    std::string Key = clang::tidy::rematch::checkpointDependency(F.Usr);
    if (!Recorded.count(Key) && With.hashOf(Key) != "none")
      return false;
  }
  return true;
}

bool SummaryStore::isFresh(llvm::StringRef MainFile,
                           llvm::StringRef CommandHash,
                           const ExternalSummaries &Current) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByMainFile.find(MainFile.str());
  if (It == ByMainFile.end() || It->second.CommandHash != CommandHash)
    return false;
  for (const auto &[File, Hash] : It->second.Inputs)
    if (!unchanged(File, Hash))
      return false;
  if (!systemInputsUnchanged(It->second.SystemInputsKey))
    return false;
  return dependenciesHold(It->second, Current);
}

bool SummaryStore::computedWith(llvm::StringRef MainFile,
                                const ExternalSummaries &With) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByMainFile.find(MainFile.str());
  if (It == ByMainFile.end())
    return false;
  return dependenciesHold(It->second, With);
}

bool SummaryStore::systemInputsUnchanged(const std::string &Key) const {
  // Called with Mutex held.
  auto [It, Inserted] = SystemListFresh.try_emplace(Key, false);
  if (!Inserted)
    return It->second;
  if (Key.empty())
    return It->second = true; // a TU that read no system header
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "system-" + Key + ".list");
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return false;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    auto [Stamp, File] = Line.split('\t');
    if (File.empty() || stampOf(File) != Stamp)
      return false;
  }
  return It->second = true;
}

std::shared_ptr<ExternalSummaries>
SummaryStore::merged(const std::set<std::string> &Exclude) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Out = std::make_shared<ExternalSummaries>();
  for (const auto &[Main, S] : ByMainFile)
    if (!Exclude.count(Main))
      Out->add(S);
  return Out;
}

namespace {

// Writes Text to a temporary file of a name no other writer uses (runs in
// other processes or threads write the same summary at the same time), then
// renames it over Path: a reader sees the old file or the new one, never a
// part. The temporary name does not end in ".summary.json", so a reader
// listing the directory never takes one for a summary.
std::error_code writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Path + ".tmp-%%%%%%%%%%%%", FD, Temp))
    return EC;
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      EC = OS.error();
      OS.clear_error();
    }
  }
  if (!EC)
    EC = llvm::sys::fs::rename(Temp, Path);
  if (EC)
    llvm::sys::fs::remove(Temp);
  return EC;
}

} // namespace

void SummaryStore::store(TUSummary S, llvm::StringRef CommandHash,
                         llvm::raw_ostream &Err) {
  S.CommandHash = CommandHash.str();
  for (auto &[File, Hash] : S.Inputs) {
    Hash = hashFile(File);
    if (!Hash.empty())
      Hash += "@" + stampOf(File);
  }
  // The system headers' list goes to a file shared by every TU that read
  // the same headers in the same state: "stamp<TAB>path" per line.
  std::string List;
  for (const std::string &File : S.SystemInputs)
    List += stampOf(File) + "\t" + File + "\n";
  if (!S.SystemInputs.empty()) {
    S.SystemInputsKey = clang::tidy::rematch::hashText(List);
    llvm::SmallString<256> ListPath(Dir);
    llvm::sys::path::append(ListPath, "system-" + S.SystemInputsKey + ".list");
    if (!llvm::sys::fs::exists(ListPath)) {
      if (std::error_code EC = writeAtomically(ListPath, List)) {
        std::lock_guard<std::mutex> Lock(Mutex);
        Err << ListPath << ": warning: cannot write the system-header list: "
            << EC.message() << "\n";
        S.SystemInputsKey = "unwritten"; // never fresh
      }
    }
  }
  std::string Path = pathFor(S.MainFile);
  std::string Text = clang::tidy::rematch::serializeSummary(S);
  if (std::error_code EC = writeAtomically(Path, Text)) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Err << Path << ": warning: cannot write summary: " << EC.message()
        << "\n";
    return;
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  ByMainFile[S.MainFile] = std::move(S);
}

namespace {

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

// Installs the summaries (and a sink) for the duration of one phase.
class PhaseScope {
public:
  PhaseScope(std::shared_ptr<ExternalSummaries> S,
             clang::tidy::rematch::SummarySink Sink) {
    clang::tidy::rematch::setExternalSummaries(std::move(S));
    clang::tidy::rematch::setSummarySink(std::move(Sink));
  }
  ~PhaseScope() {
    clang::tidy::rematch::setExternalSummaries(nullptr);
    clang::tidy::rematch::setSummarySink(nullptr);
  }
};

} // namespace

std::optional<std::vector<FileOutcome>>
analyseWithSummaries(const std::string &Dir,
                     const std::vector<std::string> &Files,
                     const ScheduleOptions &S,
                     const clang::tooling::CompilationDatabase &DB,
                     llvm::function_ref<FileOutcome(const std::string &)> Analyse,
                     llvm::raw_ostream &Err) {
  // Loaded once; read again only after a round wrote summaries (possibly
  // from forked children, which do not share this process's memory).
  auto Store = std::make_unique<SummaryStore>(Dir);
  if (!Store->load(Err))
    return std::nullopt;
  bool Written = false;
  llvm::raw_null_ostream Quiet; // load problems were reported once above
  auto Fresh = [&]() -> SummaryStore & {
    if (Written) {
      Store = std::make_unique<SummaryStore>(Dir);
      Store->load(Quiet);
      Written = false;
    }
    return *Store;
  };

  std::map<std::string, std::string> CommandOf; // absolute path -> hash
  std::vector<std::string> Abs;
  for (const std::string &F : Files) {
    Abs.push_back(absolutePath(F));
    std::vector<clang::tooling::CompileCommand> Cmds =
        DB.getCompileCommands(Abs.back());
    CommandOf[Abs.back()] =
        Cmds.empty() ? std::string()
                     : hashCommand(Cmds.front().CommandLine,
                                   Cmds.front().Directory);
  }

  std::vector<FileOutcome> Out(Files.size());
  std::vector<bool> Done(Files.size(), false);
  // The summaries each file's outcome was computed with.
  std::vector<std::shared_ptr<ExternalSummaries>> AnalysedWith(Files.size());
  auto Run = [&](const std::vector<size_t> &Which) {
    std::vector<std::string> Paths;
    for (size_t I : Which)
      Paths.push_back(Files[I]);
    std::vector<FileOutcome> Outcomes = analyseFiles(Paths, S, Analyse);
    for (size_t K = 0; K < Which.size() && K < Outcomes.size(); ++K) {
      Out[Which[K]] = std::move(Outcomes[K]);
      Done[Which[K]] = true;
    }
  };

  // Summaries bake in the effects of the other TUs' functions they call, so
  // a change travels up a cross-file call chain one round at a time: each
  // round re-summarises the files whose inputs or dependencies changed,
  // until none did. A file summarised in the last round it was stale has
  // its final findings from that round. One changed file whose callers are
  // not on the command line (the pre-commit case) takes one round.
  constexpr int MaxRounds = 16;
  for (int Round = 0; Round < MaxRounds; ++Round) {
    SummaryStore &Store = Fresh();
    std::shared_ptr<ExternalSummaries> Current = Store.merged({});
    std::vector<size_t> Stale;
    for (size_t I = 0; I < Files.size(); ++I) {
      if (CommandOf[Abs[I]].empty() ||
          !Store.isFresh(Abs[I], CommandOf[Abs[I]], *Current)) {
        Stale.push_back(I);
        continue;
      }
      // Another run sharing the directory may have replaced the summary
      // this run wrote with one computed from other summaries (it knew a
      // callee this run did not yet): this run's findings for the file are
      // then not those of its fresh summary, and it is analysed again.
      if (Done[I] && !Store.computedWith(Abs[I], *AnalysedWith[I]))
        Stale.push_back(I);
    }
    // A file without a compile command fails the same way every round.
    if (Stale.empty() ||
        llvm::all_of(Stale, [&](size_t I) {
          return Done[I] && CommandOf[Abs[I]].empty();
        }))
      break;
    // The sink may run in a forked child (--timeout-per-file): it writes
    // the file itself, and the store is read again next round.
    PhaseScope Phase(Current, [&](TUSummary T) {
      auto It = CommandOf.find(T.MainFile);
      Store.store(std::move(T),
                  It == CommandOf.end() ? llvm::StringRef() : It->second, Err);
    });
    Run(Stale);
    for (size_t I : Stale)
      AnalysedWith[I] = Current;
    Written = true;
    // Alone on the command line, a file's findings are final after one
    // round: its own summary changes no other file analysed here.
    if (Files.size() == 1)
      break;
    if (Round + 1 == MaxRounds)
      Err << Dir << ": warning: summaries did not settle after " << MaxRounds
          << " rounds; findings may miss effects of long cross-file chains\n";
  }

  std::vector<size_t> Rest;
  for (size_t I = 0; I < Files.size(); ++I)
    if (!Done[I])
      Rest.push_back(I);
  if (!Rest.empty()) {
    PhaseScope Phase(Fresh().merged({}), nullptr);
    Run(Rest);
  }
  return Out;
}

} // namespace rematch::tool
