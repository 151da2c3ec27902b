//===--- Summaries.cpp - the --summaries-dir store -------------------------===//

#include "Summaries.h"
#include "FactsReport.h"
#include "CacheDirectory.h"
#include "CacheLayout.h"
#include "Paths.h"
#include "ProgramCache.h"
#include "Compose.h"
#include "Config.h"
#include "llvm/Support/Process.h"
#include <optional>
#include <chrono>
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/STLExtras.h"

namespace rematch::tool {

std::string stampOf(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return {};
  return std::to_string(St.getSize()) + ":" +
         std::to_string(St.getLastModificationTime().time_since_epoch().count());
}

namespace {

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
                        llvm::StringRef Directory, llvm::StringRef Identity) {
  std::string All = Directory.str();
  All += '\0';
  All += Identity;
  for (const std::string &A : Args) {
    All += '\0';
    All += A;
  }
  All += '\0';
  All += std::to_string(clang::tidy::rematch::SummaryFormatVersion);
  return clang::tidy::rematch::hashText(All);
}

std::string SummaryStore::pathFor(llvm::StringRef MainFile) const {
  return Names.summary(MainFile);
}

void SummaryStore::keep(TUSummary S, std::string Body) {
  std::string Main = S.MainFile;
  ByMainFile[Main] = Entry{std::move(S), std::move(Body)};
}

const TUSummary &SummaryStore::full(Entry &E) const {
  if (!E.Body.empty()) {
    if (llvm::Error Err = clang::tidy::rematch::parseSummaryBody(
            E.Body, pathFor(E.S.MainFile), E.S)) {
      llvm::consumeError(std::move(Err));
      E.Broken = true;
    }
    E.Body.clear();
    E.Body.shrink_to_fit();
  }
  return E.S;
}

void SummaryStore::reload(const std::set<std::string> &MainFiles) {
  for (const std::string &Main : MainFiles) {
    std::lock_guard<std::mutex> Lock(Mutex);
    ByMainFile.erase(Main);
    auto Buf = llvm::MemoryBuffer::getFile(pathFor(Main));
    if (!Buf)
      continue;
    llvm::StringRef Body;
    llvm::Expected<TUSummary> S = clang::tidy::rematch::parseSummaryHead(
        (*Buf)->getBuffer(), pathFor(Main), Body);
    if (!S) {
      llvm::consumeError(S.takeError());
      continue;
    }
    if (S->MainFile == Main)
      keep(std::move(*S), Body.str());
  }
}

void SummaryStore::adopt(llvm::StringRef Text) {
  llvm::Expected<TUSummary> S =
      clang::tidy::rematch::parseSummary(Text, "<this run>");
  if (!S) {
    llvm::consumeError(S.takeError());
    return;
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  keep(std::move(*S));
}

std::string tuIdentity(const TUSummary &S) {
  std::string All = S.CommandHash + "\n" + S.SystemInputsKey + "\n";
  for (const auto &[File, Hash] : S.Inputs)
    All += File + "\t" + Hash + "\n";
  return clang::tidy::rematch::hashText(All);
}

std::string
SummaryStore::stamp(const std::vector<std::string> &RunFiles) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string All;
  for (const auto &[Main, E] : ByMainFile)
    if (counts(Main))
      All += Main + "\t" + tuIdentity(E.S) + "\n";
  for (const std::string &F : RunFiles)
    All += "run\t" + F + "\n";
  return clang::tidy::rematch::hashText(All);
}

const TUSummary *SummaryStore::find(llvm::StringRef MainFile) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByMainFile.find(MainFile.str());
  if (It == ByMainFile.end())
    return nullptr;
  const TUSummary &S = full(It->second);
  return It->second.Broken ? nullptr : &S;
}

const TUSummary *SummaryStore::head(llvm::StringRef MainFile) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByMainFile.find(MainFile.str());
  return It == ByMainFile.end() ? nullptr : &It->second.S;
}

namespace {

// The summaries of another format version a load found: an upgrade of
// rematch finds a whole directory of them, said in one line, not one per
// file. They are removed: this build never reads them, and one of a file
// no longer analysed would be found again on every run.
class OtherFormatSummaries {
public:
  void add(llvm::StringRef Path, int Version) {
    Paths.push_back(Path.str());
    Versions.insert(Version);
  }
  void removeAndSay(llvm::StringRef Dir, llvm::raw_ostream &Err) {
    if (Paths.empty())
      return;
    for (const std::string &P : Paths) {
      llvm::sys::fs::remove(P);
      llvm::sys::fs::remove(
          clang::tidy::rematch::CacheLayout::bodiesOfSummary(P));
    }
    std::string Listed;
    for (int V : Versions)
      Listed += (Listed.empty() ? "" : ", ") + std::to_string(V);
    if (Paths.size() == 1)
      Err << Paths.front() << ": warning: a summary";
    else
      Err << Dir << ": warning: " << Paths.size() << " summaries";
    Err << " of format version " << Listed
        << ", written by another build of rematch (this one reads version "
        << clang::tidy::rematch::SummaryFormatVersion
        << "), removed; "
        << (Paths.size() == 1 ? "rebuilt when its file is analysed"
                              : "rebuilt as their files are analysed")
        << "\n";
  }

private:
  std::vector<std::string> Paths;
  std::set<int> Versions;
};

} // namespace

bool SummaryStore::load(llvm::raw_ostream &Err) {
  if (InMemory)
    return true;
  if (std::error_code EC = llvm::sys::fs::create_directories(Names.dir())) {
    Err << Names.dir() << ": error: cannot create the summaries directory: "
        << EC.message() << "\n";
    return false;
  }
  std::error_code EC;
  OtherFormatSummaries OtherFormat;
  for (llvm::sys::fs::directory_iterator It(Names.dir(), EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Path = It->path();
    if (!clang::tidy::rematch::CacheLayout::isSummary(Path))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      Err << Path << ": warning: cannot read summary; it will be rebuilt\n";
      continue;
    }
    llvm::StringRef Body;
    llvm::Expected<TUSummary> S = clang::tidy::rematch::parseSummaryHead(
        (*Buf)->getBuffer(), Path, Body);
    if (!S) {
      std::string Why;
      int Version = -1;
      llvm::handleAllErrors(
          S.takeError(),
          [&](const clang::tidy::rematch::SummaryError &E) {
            Why = E.what();
            Version = E.otherVersion();
          },
          [&](const llvm::ErrorInfoBase &E) { Why = E.message(); });
      if (Version >= 0) {
        // Another build's format: this one never reads it, so it goes
        // (with its bodies' records), said once for the directory below.
        OtherFormat.add(Path, Version);
        continue;
      }
      // Damaged or half-written (a run killed while writing): never
      // trusted, rebuilt; a warning, since nothing is lost.
      Err << Path << ": warning: " << Why << " (ignored; it will be rebuilt)\n";
      continue;
    }
    if (pathFor(S->MainFile) != Path) {
      Err << Path << ": warning: summary names another file ("
          << S->MainFile << "); ignored\n";
      continue;
    }
    keep(std::move(*S), Body.str());
  }
  if (EC) {
    Err << Names.dir() << ": error: cannot read the summaries directory: "
        << EC.message() << "\n";
    return false;
  }
  OtherFormat.removeAndSay(Names.dir(), Err);
  return true;
}

// What the findings of the run that wrote S were computed with still holds
// in the composition With: the other TUs' functions it inherited from, the
// globals it judged, the overrides it considered, and, for every function it
// lists, the calls of other TUs that checkpoint it (recorded or, when there
// were none, implied: a new one changes the findings).
namespace {

// Whether a fact S's analysis found absent from the other files (a cold
// run's first phase composes them without S) is one that S alone provides,
// exactly as the whole program has it: S's own held callables, overrides,
// checkpoint sites or writes of a global, which its analysis saw in its own
// translation unit. Then what it was computed with still holds, and the
// file is not parsed again for it. Which file owns a header callable is not
// such a fact: it depends on the other files.
class OwnFacts {
public:
  explicit OwnFacts(const TUSummary &S) : S(S) {}
  bool provideAlone(llvm::StringRef Key, llvm::StringRef Recorded,
                    llvm::StringRef Now) {
    if (clang::tidy::rematch::isOwnerDependency(Key) ||
        Recorded != clang::tidy::rematch::ExternalSummaries().hashOf(Key))
      return false;
    if (!Alone) { // the program of S alone, as any program is viewed
      Alone = SummaryStore::ofLink();
      Alone->add(S);
      View.emplace(*Alone, std::vector<std::string>());
    }
    return View->hashOf(Key) == Now;
  }

private:
  const TUSummary &S;
  std::unique_ptr<SummaryStore> Alone;
  std::optional<ProgramView> View;
};

} // namespace

bool dependenciesHold(const TUSummary &S, ProgramView &P,
                      llvm::function_ref<bool(llvm::StringRef)> MayChange) {
  llvm::StringMap<const std::string *> Recorded;
  OwnFacts Own(S);
  for (const auto &[Usr, Hash] : S.Dependencies) {
    std::string Now = P.hashOf(Usr);
    if (Now != Hash && !Own.provideAlone(Usr, Hash, Now) &&
        !(MayChange && MayChange(Usr)))
      return false;
    Recorded[Usr] = &Hash;
  }
  for (const clang::tidy::rematch::FunctionFacts &F : S.Functions) {
    std::string Key = clang::tidy::rematch::checkpointDependency(F.Usr);
    if (Recorded.count(Key))
      continue;
    std::string Now = P.hashOf(Key);
    if (Now != "none" && !Own.provideAlone(Key, "none", Now))
      return false;
  }
  return true;
}

std::string ProgramView::hashOf(llvm::StringRef Key) {
  if (Composed || !clang::tidy::rematch::isProgramFactKey(Key))
    return composed()->hashOf(Key);
  if (!Facts) {
    Facts = Store.composed({}, /*Compose=*/false);
    Store.assignOwners(*Facts, RunFiles);
  }
  return Facts->hashOf(Key);
}

const TUSummary *ProgramView::summaryOf(llvm::StringRef MainFile) {
  return Store.find(MainFile);
}

const std::shared_ptr<ExternalSummaries> &ProgramView::composed() {
  if (!Composed) {
    Composed = Store.composed({});
    Store.assignOwners(*Composed, RunFiles);
  }
  return Composed;
}

bool SummaryStore::isFresh(llvm::StringRef MainFile,
                           llvm::StringRef CommandHash,
                           bool ButMainFile) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByMainFile.find(MainFile.str());
  if (It == ByMainFile.end() || It->second.Broken ||
      It->second.S.CommandHash != CommandHash)
    return false;
  for (const auto &[File, Hash] : It->second.S.Inputs)
    if (!(ButMainFile && File == MainFile) && !unchanged(File, Hash))
      return false;
  return systemInputsUnchanged(It->second.S.SystemInputsKey);
}

bool SummaryStore::findingsHold(llvm::StringRef MainFile,
                                llvm::StringRef Writer, ProgramView &P) const {
  const TUSummary *S = find(MainFile);
  return S && S->Writer == Writer && dependenciesHold(*S, P);
}

bool SummaryStore::systemInputsUnchanged(const std::string &Key) const {
  // Called with Mutex held.
  auto [It, Inserted] = SystemListFresh.try_emplace(Key, false);
  if (!Inserted)
    return It->second;
  if (Key.empty())
    return It->second = true; // a TU that read no system header
  std::string Path = Names.systemList(Key);
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
SummaryStore::composed(const std::set<std::string> &Exclude,
                       bool Compose) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<const TUSummary *> All;
  for (auto &[Main, E] : ByMainFile)
    // A file deleted (or renamed) since says nothing about the program.
    if (!Exclude.count(Main) && counts(Main) &&
        (full(E), !E.Broken))
      All.push_back(&E.S);
  if (!Compose) {
    auto Facts = std::make_shared<ExternalSummaries>();
    for (const TUSummary *S : All)
      Facts->add(*S);
    return Facts;
  }
  return clang::tidy::rematch::composeSummaries(All);
}

bool SummaryStore::counts(const std::string &MainFile) const {
  return FilesMayBeAbsent || llvm::sys::fs::exists(MainFile);
}

void SummaryStore::assignOwners(ExternalSummaries &To,
                                const std::vector<std::string> &Files) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (const std::string &F : Files) {
    auto It = ByMainFile.find(F);
    if (It == ByMainFile.end())
      continue;
    const TUSummary &S = full(It->second);
    if (It->second.Broken)
      continue;
    for (const std::string &Callable : S.HeaderCallables)
      To.setOwner(Callable, S.MainFile);
  }
}

std::string SummaryStore::store(TUSummary S, llvm::StringRef CommandHash,
                                std::string &Error) {
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
    std::string ListPath =
        Names.systemList(S.SystemInputsKey);
    if (!InMemory && !llvm::sys::fs::exists(ListPath))
      if (std::error_code EC = writeAtomically(ListPath, List)) {
        Error = EC.message();
        S.SystemInputsKey = "unwritten"; // never fresh
      }
  }
  std::string Path = pathFor(S.MainFile);
  std::string Text = clang::tidy::rematch::serializeSummary(S);
  if (!InMemory)
    if (std::error_code EC = writeAtomically(Path, Text))
      Error = EC.message();
  std::lock_guard<std::mutex> Lock(Mutex);
  keep(std::move(S));
  return Text;
}

namespace {

// A token naming this run among the runs that may share the directory.
std::string runToken() {
  return std::to_string(llvm::sys::Process::getProcessId()) + "-" +
         std::to_string(std::chrono::steady_clock::now()
                            .time_since_epoch()
                            .count()) +
         "-" + std::to_string(llvm::sys::Process::GetRandomNumber());
}

// One run over the summaries: the files' command hashes, phase one over the
// stale files, phase two over the files whose findings need a parse.
class WholeProgramRun {
public:
  WholeProgramRun(const SummariesRun &R, ProgramCache &Cache,
                  const std::vector<std::string> &Files,
                  const ScheduleOptions &S, AnalyseWithHost Analyse,
                  llvm::raw_ostream &Err)
      : R(R), Cache(Cache), Store(Cache.summaries()), Files(Files), S(S),
        Analyse(Analyse), Err(Err), Out(Files.size()),
        Done(Files.size(), false), Token(runToken()) {
    for (const std::string &F : Files)
      Abs.push_back(absolutePath(F));
    for (const std::string &F : R.RunFiles)
      RunFiles.push_back(absolutePath(F));
  }

  std::optional<std::vector<FileOutcome>>
  run(const clang::tooling::CompilationDatabase &DB) {
    if (!Store.load(Err))
      return std::nullopt;
    hashCommands(DB);
    summariseStale();
    if (R.SummariesOnly)
      return withoutFindings();
    reportRest();
    return std::move(Out);
  }

private:
  // What each file's summary must have been written for: its compile
  // command and the analysis' identity. A .rematch.yaml that appears above
  // the file changes its analysis (an edited one is among the inputs).
  void hashCommands(const clang::tooling::CompilationDatabase &DB) {
    for (const std::string &A : Abs) {
      std::vector<clang::tooling::CompileCommand> Cmds =
          DB.getCompileCommands(A);
      std::string Identity =
          R.Identity + '\0' +
          clang::tidy::rematch::findConfigFile(A).value_or(std::string());
      CommandOf[A] = Cmds.empty()
                         ? std::string()
                         : hashCommand(Cmds.front().CommandLine,
                                       Cmds.front().Directory, Identity);
    }
  }

  // The stored summaries but Exclude's, composed, with their owners.
  std::shared_ptr<ExternalSummaries>
  compose(const std::set<std::string> &Exclude) const {
    std::shared_ptr<ExternalSummaries> C = Store.composed(Exclude);
    Store.assignOwners(*C, RunFiles);
    return C;
  }

  // A file analysed before has its bodies recorded; they are replayed when
  // the records were made with the summary the store holds and every other
  // file that summary read is as it was. The summary this run writes must
  // then have been made with the same files, or the parse is done again.
  clang::tidy::rematch::AnalysisHost
  withBodies(const std::string &Path,
             const clang::tidy::rematch::AnalysisHost &Host) const {
    clang::tidy::rematch::AnalysisHost H = Host;
    if (Cache.inMemory())
      return H;
    std::string A = absolutePath(Path);
    const TUSummary *Old = Store.head(A);
    if (!Old)
      return H; // a first sighting: nothing is recorded
    H.BodySink = [this, A](std::string Text) {
      if (const TUSummary *Now = Store.head(A))
        Cache.keepBodies(*Now, Text);
    };
    auto Cmd = CommandOf.find(A);
    if (Cmd == CommandOf.end() ||
        !Store.isFresh(A, Cmd->second, /*ButMainFile=*/true))
      return H;
    std::string Expected;
    H.Bodies = Cache.bodies(*Old, Expected);
    if (!H.Bodies || !Host.Sink)
      return H; // phase two writes no summary: the records' key held above
    H.Sink = [this, Inner = Host.Sink, Replay = H.Bodies, Expected,
              A](TUSummary T) {
      Inner(std::move(T));
      const TUSummary *Now = Store.head(A);
      // The parse read other files than the records were made with (a
      // retry() would too).
      if (!Now || ProgramCache::bodiesKey(*Now) != Expected)
        Replay->failAll();
    };
    return H;
  }

  // The host of one file's analysis, whose sinks put what they stored in
  // Kept: the outcome carries it back (from a forked worker too).
  using HostFor =
      std::function<clang::tidy::rematch::AnalysisHost(FileOutcome &Kept)>;

  void analyse(const std::vector<size_t> &Which, const HostFor &Make,
               bool Bodies = false) {
    std::vector<std::string> Paths;
    for (size_t I : Which)
      Paths.push_back(Files[I]);
    std::vector<FileOutcome> Outcomes =
        analyseFiles(Paths, S, [&](const std::string &Path) {
          FileOutcome Kept;
          clang::tidy::rematch::AnalysisHost Host = Make(Kept);
          FileOutcome O =
              Analyse(Path, Bodies ? withBodies(Path, Host) : Host);
          O.Summary = std::move(Kept.Summary);
          O.CacheError = std::move(Kept.CacheError);
          O.Dependencies = std::move(Kept.Dependencies);
          return O;
        });
    for (size_t K = 0; K < Which.size() && K < Outcomes.size(); ++K) {
      Outcomes[K].ParsedAgain = Done[Which[K]];
      Out[Which[K]] = std::move(Outcomes[K]);
      Done[Which[K]] = true;
    }
  }

  // Phase one parses each file whose summary is missing or stale, once: it
  // writes the file's summary, which depends on that file alone, and
  // reports with what the other files' stored summaries compose to.
  void summariseStale() {
    std::vector<size_t> Stale;
    std::set<std::string> StaleFiles;
    for (size_t I = 0; I < Files.size(); ++I) {
      const std::string &Hash = CommandOf[Abs[I]];
      if (Hash.empty() || R.NoCache || !Store.isFresh(Abs[I], Hash)) {
        Stale.push_back(I);
        StaleFiles.insert(Abs[I]);
      }
    }
    if (Stale.empty())
      return;
    {
      // The sink may run in a forked child (--timeout-per-file): it writes
      // the file itself, and the store is read again below.
      std::shared_ptr<const ExternalSummaries> Others = compose(StaleFiles);
      auto Make = [&](FileOutcome &Kept) {
        clang::tidy::rematch::AnalysisHost Host;
        Host.Summaries = Others;
        Host.Sink = [this, &Kept](TUSummary T) {
          T.Writer = Token;
          auto It = CommandOf.find(T.MainFile);
          std::string Error;
          std::string Text = Store.store(
              std::move(T),
              It == CommandOf.end() ? llvm::StringRef() : It->second, Error);
          Kept.Summary = std::move(Text);
          Kept.CacheError = std::move(Error);
        };
        return Host;
      };
      analyse(Stale, Make, /*Bodies=*/true);
    }
    // The summaries this phase wrote, as it wrote them: kept in memory, so
    // that a cache that cannot hold them loses nothing. On threads the sink
    // put them in the store already; a forked worker's come back as text.
    std::set<std::string> NotReturned;
    std::string CacheError;
    for (size_t I : Stale) {
      const TUSummary *Own = Store.head(Abs[I]);
      bool StoredHere = Own && Own->Writer == Token;
      if (!StoredHere && Out[I].Summary.empty())
        NotReturned.insert(Abs[I]);
      else if (!StoredHere)
        Store.adopt(Out[I].Summary);
      if (CacheError.empty())
        CacheError = Out[I].CacheError;
      Out[I].Summary.clear();
      Out[I].CacheError.clear();
    }
    Store.reload(NotReturned);
    if (!CacheError.empty())
      Err << R.Dir << ": warning: cannot write the summaries cache ("
          << CacheError
          << "); this run keeps the summaries in memory and reports every "
             "finding, the next run analyses these files again\n";
  }

  // Phase two composes every summary, without parsing, and parses again
  // only the files whose findings need it: those with a fresh summary (not
  // parsed yet) whose findings the cache does not hold, and those of phase
  // one whose findings were computed with something the whole composition
  // now says otherwise (a callee in a file summarised in the same phase). A
  // file that failed stays failed. Every outcome is kept for the next run.
  void reportRest() {
    // Composed once, and only when needed: a run where every file's
    // findings are kept for these very summaries composes nothing.
    ProgramView Program(Store, RunFiles);
    const std::string Stamp = Store.stamp(RunFiles);
    const FindingsCache *Kept = R.NoCache ? nullptr : Cache.findings();
    const FindingsCache *Keep = Cache.findings();
    std::vector<size_t> Rest;
    for (size_t I = 0; I < Files.size(); ++I) {
      const TUSummary *Own = Store.head(Abs[I]);
      if (!Done[I]) {
        if (std::optional<FileOutcome> Found =
                Own && Kept ? Kept->lookup(*Own, Stamp, Program)
                            : std::nullopt) {
          Out[I] = std::move(*Found);
          Out[I].Status.File = Files[I];
          Done[I] = true;
        } else {
          Rest.push_back(I);
        }
      } else if (Out[I].Status.Status != FileStatus::State::Failed &&
                 !Store.findingsHold(Abs[I], Token, Program)) {
        if (!completeFromFacts(I, Program))
          Rest.push_back(I);
        else if (Own && Keep)
          Keep->store(*Own, Out[I], Out[I].Dependencies, Stamp);
      } else if (Own && Keep) { // phase one's findings are final
        Keep->store(*Own, Out[I],
                    dependencyText(Store.find(Abs[I])->Dependencies), Stamp);
      }
    }
    if (Rest.empty())
      return;
    // The bodies a file's last analysis recorded are replayed here too: a
    // file parsed again for what the program changed, or not parsed yet
    // (its findings were not kept), parses only what the records cannot
    // stand in for.
    std::shared_ptr<const ExternalSummaries> All = Program.composed();
    analyse(
        Rest,
        [&](FileOutcome &Kept) {
          clang::tidy::rematch::AnalysisHost Host;
          Host.Summaries = All;
          Host.DependencySink =
              [&Kept](
                  const std::vector<std::pair<std::string, std::string>> &Used) {
                Kept.Dependencies = dependencyText(Used);
              };
          return Host;
        },
        /*Bodies=*/true);
    if (Keep)
      for (size_t I : Rest)
        if (const TUSummary *Own = Store.head(Abs[I]))
          Keep->store(*Own, Out[I], Out[I].Dependencies, Stamp);
  }

  // Adds to phase one's outcome of file I the findings the whole program
  // adds, made from facts (FactsReport.h), with what they now depend on;
  // false when the file must be parsed again.
  bool completeFromFacts(size_t I, ProgramView &Program) {
    const TUSummary *S = Store.find(Abs[I]);
    if (!R.Facts || !S || S->Writer != Token)
      return false;
    if (!R.Facts->complete(*S, Out[I], Program))
      return false;
    // What a parse would have looked up: the same keys, and the overrides a
    // virtual call may now run (every override of the method: a parse
    // keeps those of the static class, fewer, so the findings are kept no
    // longer than theirs would be).
    std::map<std::string, std::string> Now;
    for (const auto &[Key, Hash] : S->Dependencies) {
      Now.emplace(Key, Program.hashOf(Key));
      if (llvm::StringRef Method = clang::tidy::rematch::overriddenMethod(Key);
          !Method.empty())
        for (const auto &O : Program.composed()->overridesOf(Method))
          Now.emplace(O.Override, Program.hashOf(O.Override));
    }
    Out[I].Dependencies = dependencyText(
        std::vector<std::pair<std::string, std::string>>(Now.begin(),
                                                         Now.end()));
    return true;
  }

  // --summaries-only: the statuses of phase one, no findings.
  std::vector<FileOutcome> withoutFindings() {
    for (size_t I = 0; I < Files.size(); ++I) {
      Out[I].Findings.clear();
      Out[I].Fixes.clear();
      if (!Done[I])
        Out[I].Status.File = Files[I];
    }
    return std::move(Out);
  }

  const SummariesRun &R;
  ProgramCache &Cache;
  SummaryStore &Store; // the cache's summaries
  const std::vector<std::string> &Files;
  const ScheduleOptions &S;
  AnalyseWithHost Analyse;
  llvm::raw_ostream &Err;
  std::vector<std::string> Abs, RunFiles; // absolute paths
  std::map<std::string, std::string> CommandOf; // absolute path -> hash
  std::vector<FileOutcome> Out;
  std::vector<bool> Done;
  const std::string Token;
};

} // namespace

std::optional<std::vector<FileOutcome>>
analyseWithSummaries(const SummariesRun &R, ProgramCache &Cache,
                     const std::vector<std::string> &Files,
                     const ScheduleOptions &S,
                     const clang::tooling::CompilationDatabase &DB,
                     AnalyseWithHost Analyse, llvm::raw_ostream &Err) {
  return WholeProgramRun(R, Cache, Files, S, Analyse, Err).run(DB);
}

} // namespace rematch::tool
