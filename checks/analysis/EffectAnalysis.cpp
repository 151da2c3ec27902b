//===--- EffectAnalysis.cpp - effects of checkpointed code, per TU --------===//

#include "EffectAnalysis.h"
#include "AnalysisHost.h"
#include "Components.h"
#include "CallReach.h"
#include "Compose.h"
#include "EffectCollector.h"
#include "GlobalWrites.h"
#include "HeldCallables.h"
#include "TUWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>

namespace clang::tidy::rematch {

namespace {

std::string mainFilePath(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID()))
    return FE->getName().str();
  return {};
}

using EffectKey = uint64_t;

// The finaliser of splitmix64: every bit of the result depends on every bit
// of X.
uint64_t mix(uint64_t X) {
  X ^= X >> 30;
  X *= 0xbf58476d1ce4e5b9ULL;
  X ^= X >> 27;
  X *= 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

// Own effects: one per expression, kind and subject. Inherited effects: one
// per call, kind and target, however many paths lead there; global reads
// one per global too, since which globals can change is decided after the
// summaries and one that cannot must not hide one that can. A hash serves:
// a collision would only merge two findings at one location.
EffectKey keyOf(EffectKind Kind, Root Target, SourceLocation Loc,
                llvm::StringRef Subject, const VarDecl *Global,
                llvm::StringRef GlobalUsr, bool PartOfChange) {
  uint64_t H = mix((uint64_t(Kind) << 56) ^ (uint64_t(Target.K) << 48) ^
                   (uint64_t(Target.Index) << 32) ^ Loc.getRawEncoding());
  if (!Subject.empty())
    H = mix(H ^ llvm::xxh3_64bits(Subject));
  if (Global)
    H = mix(H ^ reinterpret_cast<uintptr_t>(Global->getCanonicalDecl()));
  if (!GlobalUsr.empty())
    H = mix(H ^ llvm::xxh3_64bits(GlobalUsr));
  return PartOfChange ? mix(H ^ 1) : H;
}

// An effect inherited at a call: the global and whether the read is part of
// a change count for global reads only.
EffectKey inheritedKey(EffectKind Kind, Root Target, SourceLocation Loc,
                       const VarDecl *Var, llvm::StringRef VarUsr,
                       bool PartOfChange) {
  if (Kind != EffectKind::GlobalRead)
    return keyOf(Kind, Target, Loc, {}, nullptr, {}, false);
  return keyOf(Kind, Target, Loc, {}, Var, VarUsr, PartOfChange);
}

EffectKey keyOf(const Effect &E) {
  if (!E.inherited())
    return keyOf(E.Kind, E.Target, E.Loc, E.facts().Subject, nullptr, {},
                 false);
  return inheritedKey(E.Kind, E.Target, E.Loc, E.Var, E.varUsr(),
                      E.PartOfChange);
}


} // namespace

EffectAnalysis::EffectAnalysis(ASTContext &Ctx, const AnalysisSettings &S)
    : Ctx(Ctx), Host(S.Host) {
  std::shared_ptr<const ModelSet> Models = configure(S);
  if (!ConfigError.empty())
    return; // the checks report the error and nothing else
  Known = std::make_unique<KnownFunctions>(std::move(Models));
  // What the program running the checks hands this TU; the plugin's
  // summaries come from its option.
  SummarySink Sink;
  std::function<void(std::string)> BodySink;
  if (Host) {
    External = Host->Summaries;
    Sink = Host->Sink;
    Replay = Host->Bodies.get();
    BodySink = Host->BodySink;
  }
  if (!External && !S.SummariesDir.empty())
    External = readSummariesDir(S.SummariesDir);
  // A parse that skipped bodies is used only when what they say can stand
  // in for them; otherwise the front end parses again (BodyReplay.h).
  if (Replay)
    Replay->verify(Ctx);
  if (Replay && Replay->failed())
    return;
  if (Sink && BodySink)
    Recorder = std::make_unique<BodyRecorder>();
  walk(/*Exporting=*/bool(Sink));
  if (Replay && (needsSkippedBody() || Replay->failed())) {
    Sites.clear();
    return;
  }
  // What this TU tells the others is what its functions do by themselves
  // and whom they call, read by the one walk of each body (Prefetched),
  // which the analysis below then takes over.
  TUSummary Local;
  if (Sink)
    Local = exportSummary();
  solve();
  computeFindings();
  if (!Sink && !(Host && Host->DependencySink))
    return;
  std::vector<std::pair<std::string, std::string>> Used(UsedExternal.begin(),
                                                         UsedExternal.end());
  if (Host && Host->DependencySink)
    Host->DependencySink(Used);
  if (Sink) {
    Local.Dependencies = std::move(Used);
    Sink(std::move(Local));
  }
  if (Recorder)
    BodySink(Recorder->text(Ctx, Replay));
}

DirectFacts EffectAnalysis::factsOf(const FunctionDecl &FD) {
  const FunctionDecl *Def = FD.getDefinition();
  if (Replay && Def && Replay->isSkipped(Def))
    return Replay->facts(*Def, Ctx, Pool);
  return collectDirectFacts(FD, Ctx, *Known, Pool);
}

// A checkpointed function's own body is read by the checks (fix-its): one
// the parse skipped is rejected, and the file parsed again.
bool EffectAnalysis::needsSkippedBody() {
  if (!Replay->skippedCount())
    return false;
  bool Needs = false;
  for (const CheckpointSite &Site : Sites)
    for (const Callable &C : Site.Callables)
      if (C.Body)
        if (const FunctionDecl *Def = C.Body->getDefinition();
            Def && Replay->isSkipped(Def)) {
          Replay->reject(*Def);
          Needs = true;
        }
  return Needs;
}

// The configuration (.rematch.yaml, the options) and the models it names;
// null, with ConfigError set, when either cannot be read.
std::shared_ptr<const ModelSet>
EffectAnalysis::configure(const AnalysisSettings &S) {
  std::optional<std::string> File;
  if (!S.ConfigFile.empty())
    File = S.ConfigFile;
  else
    File = findConfigFile(mainFilePath(Ctx));
  if (File) {
    llvm::Expected<Config> Loaded = loadConfigFile(*File);
    if (Loaded)
      Cfg = std::move(*Loaded);
    else
      ConfigError = llvm::toString(Loaded.takeError());
  }
  if (llvm::Error E = addCheckpointFunctions(S.CheckpointFunctions, Cfg))
    if (ConfigError.empty())
      ConfigError = "rematch: error: CheckpointFunctions: " +
                    llvm::toString(std::move(E));
  llvm::SmallVector<llvm::StringRef, 4> Paths;
  llvm::StringRef(S.Models).split(Paths, ',', -1, false);
  for (llvm::StringRef P : Paths) {
    llvm::SmallString<256> Abs(P.trim());
    llvm::sys::fs::make_absolute(Abs);
    if (!Abs.empty() && !llvm::is_contained(Cfg.Models, Abs.str()))
      Cfg.Models.push_back(std::string(Abs));
  }
  llvm::Expected<std::shared_ptr<const ModelSet>> Models = modelsFor(Cfg);
  if (!Models) {
    if (ConfigError.empty())
      ConfigError = llvm::toString(Models.takeError());
    else
      llvm::consumeError(Models.takeError());
    return nullptr;
  }
  return std::move(*Models);
}

// The one walk of the translation unit (TUWalk.h): its sites, those of
// other TUs that checkpoint what it defines, and the facts of every body
// checkpointed code reaches or (Exporting) another TU may need.
void EffectAnalysis::walk(bool Exporting) {
  const SourceManager &SM = Ctx.getSourceManager();
  EntryPoints EP(Known->models());
  GlobalUseCollector Uses;
  std::vector<const FunctionDecl *> Candidates;
  std::optional<CallReacher> Reach; // what another TU needs, transitively
  // What a function's facts make wanted: its callees, as the summaries
  // below follow them (Reached) or as the export does (Exported).
  auto Expand = [&](TUWalk &Walk, const FunctionDecl &, const DirectFacts &F,
                    uint8_t Why) {
    std::vector<const FunctionDecl *> Targets;
    for (const CallSite &C : F.Calls) {
      if (Why & Reached) {
        Targets.clear();
        addTargets(C, Targets);
        for (const FunctionDecl *T : Targets)
          Walk.want(T, Reached);
      }
      const FunctionDecl *Local = nullptr;
      if ((Why & Exported) && Reach && (*Reach)(C, Local) == CallReach::Local)
        Walk.want(Local, Exported);
    }
  };
  Held = std::make_unique<HeldCallables>(Known->models());
  TUWalk Walk(Ctx, *Known, Pool, EP, External.get(),
              {Sites, Overrides, Exporting ? &Definitions : nullptr, Uses,
               FunctionsWithBody, Candidates, Prefetched, *Held, Replay,
               Recorder.get()},
              Expand);
  Walk.declarations();
  std::vector<CheckpointSite> Remote = remoteSites(Candidates);
  for (const CheckpointSite &Site : Remote)
    for (const Callable &C : Site.Callables)
      Walk.want(C.Body, Reached);
  if (Exporting) {
    Reach.emplace(Definitions, *Known, SM);
    for (const FunctionDecl *FD : Definitions)
      if (exportSeed(*FD, SM))
        Walk.want(FD, Exported);
  }
  size_t Declared = Candidates.size();
  Walk.bodies();
  ModifiableGlobals = Uses.result();
  // Local classes' methods, found in the bodies.
  std::vector<CheckpointSite> Nested =
      remoteSites(llvm::ArrayRef(Candidates).drop_front(Declared));
  for (CheckpointSite &Site : Remote)
    Sites.push_back(std::move(Site));
  for (CheckpointSite &Site : Nested)
    Sites.push_back(std::move(Site));
  resolveHeldSites();
  remoteHeldSites();
}

// The summaries of everything the sites' callables reach.
void EffectAnalysis::solve() {
  std::vector<const FunctionDecl *> Roots;
  for (const CheckpointSite &Site : Sites)
    for (const Callable &C : Site.Callables)
      Roots.push_back(C.Body);
  computeSummaries(Roots);
  Prefetched.clear();
}

EffectAnalysis::~EffectAnalysis() = default;

PlainLocation plainLocation(SourceLocation L, const SourceManager &SM) {
  PlainLocation P;
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (PL.isInvalid())
    return P;
  llvm::SmallString<256> Path(PL.getFilename());
  // Relative to the compile command's directory (the file manager's), not
  // the process's: `rematch -p build` may run anywhere.
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, true);
  P.File = std::string(Path);
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  return P;
}

std::string plainMainFile(const SourceManager &SM) {
  return plainLocation(SM.getLocForStartOfFile(SM.getMainFileID()), SM).File;
}

// A callable defined here and checkpointed by a call in another TU: a site
// without a call here, whose findings are reported here, at the effects,
// with a note at the call there.
std::vector<CheckpointSite> EffectAnalysis::remoteSites(
    llvm::ArrayRef<const FunctionDecl *> Candidates) {
  std::vector<CheckpointSite> Sites;
  for (const FunctionDecl *FD : Candidates) {
    std::string Usr = usrOf(*FD);
    if (Usr.empty())
      continue;
    std::string Key = checkpointDependency(Usr);
    UsedExternal.try_emplace(Key, External->hashOf(Key));
    for (const SummaryCheckpoint &C : External->checkpointsOf(Usr)) {
      if (C.Kind == "value") // what a getter returns (remoteHeldSites)
        continue;
      CheckpointSite Site;
      Site.RemoteCall = C.Call;
      Site.EntryPoint = C.EntryPoint;
      Site.Replays = C.Replays;
      Site.ArgumentsFresh = C.ArgumentsFresh;
      Callable Target;
      Target.K = C.Kind == "functor"  ? Callable::Functor
                 : C.Kind == "module" ? Callable::Module
                                      : Callable::Function;
      Target.Body = FD;
      Target.Name = C.Name;
      Site.Callables.push_back(std::move(Target));
      Sites.push_back(std::move(Site));
    }
  }
  return Sites;
}

bool EffectAnalysis::claimConfigErrorReport() {
  if (ConfigErrorClaimed)
    return false;
  ConfigErrorClaimed = true;
  return true;
}

const FunctionSummary *
EffectAnalysis::summary(const FunctionDecl *FD) const {
  auto It = Summaries.find(FD);
  return It == Summaries.end() ? nullptr : It->second.get();
}

// One strongly connected component of the call graph at a time, callees
// first (Components.h); each is iterated to a fixed point once its callees
// are final (a function that calls nothing of its own component needs one
// pass). Per-function state lives in a vector indexed by discovery order.
// computeSummaries' state: the call graph's nodes as they are discovered,
// and what solving one strongly connected component needs.
class EffectAnalysis::SummarySolver {
public:
  explicit SummarySolver(EffectAnalysis &A)
      : A(A) {
    Nodes.reserve(A.FunctionsWithBody);
    A.Summaries.reserve(A.FunctionsWithBody);
  }

  // A function's node: its direct facts and what each of its calls may run.
  unsigned discover(const FunctionDecl *FD);
  llvm::ArrayRef<const FunctionDecl *> targets(unsigned V) const {
    return Nodes[V]->Targets;
  }
  // The summaries of one component, whose callees' summaries are final.
  void solveComponent(llvm::ArrayRef<unsigned> SCC);

private:
  struct Node {
    const FunctionDecl *FD;
    DirectFacts Facts;
    // What each call may run, flattened: the targets of Calls[I] are
    // Targets[TargetBegin[I] .. TargetBegin[I + 1]).
    std::vector<const FunctionDecl *> Targets;
    std::vector<unsigned> TargetBegin;
    // Own effects through what a call returns (Root::Returned), resolved
    // into the summary as the callees' summaries say.
    std::vector<Effect> Through;
    // The calls (by location) whose returned alias is written through.
    llvm::DenseSet<unsigned> WrittenThrough;
  };

  bool inherit(Node &N, FunctionSummary &S, llvm::DenseSet<EffectKey> &Seen);
  template <class From>
  bool append(Node &N, unsigned CI, const From &F, unsigned I,
              const FunctionDecl *Callee, bool External,
              const std::string *OverrideUsr, FunctionSummary &S,
              llvm::DenseSet<EffectKey> &Seen);
  template <class From>
  bool appendAt(Node &N, unsigned CI, const From &F, unsigned I,
                const FunctionDecl *Callee, bool External,
                const std::string *OverrideUsr, Root R, FunctionSummary &S,
                llvm::DenseSet<EffectKey> &Seen);
  // What call CI of N returns an alias of, in N's roots.
  void returnedBy(const Node &N, unsigned CI,
                  llvm::SmallVectorImpl<ReturnedAlias> &Out,
                  unsigned Depth = 0) const;
  // E, an own effect through what call CI returns, once per root.
  bool resolveThrough(Node &N, const Effect &E, FunctionSummary &S,
                      llvm::DenseSet<EffectKey> &Seen);

  EffectAnalysis &A;
  // By discovery order; a node is dropped once its component is solved
  // (what its callers need is in its summary then), so that only the
  // functions being solved hold their facts.
  std::vector<std::unique_ptr<Node>> Nodes;
  std::vector<llvm::DenseSet<EffectKey>> Seen; // reused across components
  std::vector<FunctionSummary *> Out;
};

const FunctionDecl *
EffectAnalysis::analysable(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || Known->isModelled(*Def, Ctx.getSourceManager()))
    return nullptr;
  return Def;
}

// What a call may run: the callee, and for a virtual call every override
// defined here.
void EffectAnalysis::addTargets(const CallSite &C,
                                std::vector<const FunctionDecl *> &Out) const {
  if (C.Callee && Held && Held->runs(*C.Callee)) {
    addHeldTargets(C, Out);
    return;
  }
  if (const FunctionDecl *Def = analysable(C.Callee))
    Out.push_back(Def);
  if (!C.Virtual)
    return;
  auto It = Overrides.find(C.Callee->getCanonicalDecl());
  if (It == Overrides.end())
    return;
  for (const FunctionDecl *O : It->second) {
    const auto *RD = cast<CXXMethodDecl>(O)->getParent();
    if (C.StaticClass && RD != C.StaticClass &&
        !RD->isDerivedFrom(C.StaticClass))
      continue;
    if (const FunctionDecl *Def = analysable(O))
      Out.push_back(Def);
  }
}

// Effect I of a callee, seen at call CI of N: mapped to N's roots, once per
// key. F is an Effect of a summary of this TU, or a SummaryEffect of another
// TU's (External; of an override there when OverrideUsr is set). Mapped
// onto what another call returns (`stats().record(x)`), it lands on what
// that returns an alias of.
template <class From>
bool EffectAnalysis::SummarySolver::append(
    Node &N, unsigned CI, const From &F, unsigned I,
    const FunctionDecl *Callee, bool External, const std::string *OverrideUsr,
    FunctionSummary &S, llvm::DenseSet<EffectKey> &Seen) {
  const CallSite &C = N.Facts.Calls[CI];
  std::optional<Root> R = mapRoot(F.Target, C);
  // A callable run through a holder: what it captured, or its object (a
  // module held by a Sequential), lives as long as the holder does.
  bool IsHeld = A.isHeld(C.Loc, External ? nullptr : Callee,
                         External ? OverrideUsr : nullptr);
  if (IsHeld && (F.Target.K == Root::Capture || F.Target.K == Root::This))
    R = C.Object.isOutside() ? std::optional<Root>(C.Object) : std::nullopt;
  if (!R)
    return false;
  if (R->K != Root::Returned)
    return appendAt(N, CI, F, I, Callee, External, OverrideUsr, *R, S, Seen);
  llvm::SmallVector<ReturnedAlias, 2> Roots;
  returnedBy(N, R->Index, Roots);
  bool Grew = false;
  for (const ReturnedAlias &RA : Roots) {
    Grew |= appendAt(N, CI, F, I, Callee, External, OverrideUsr, RA.R, S, Seen);
    if (F.Kind != EffectKind::GlobalRead)
      N.WrittenThrough.insert(N.Facts.Calls[R->Index].Loc.getRawEncoding());
  }
  return Grew;
}

// The effect F inherited at call CI with its target mapped to R. The
// effect is complete before it is appended: F may be in S itself
// (recursion).
template <class From>
bool EffectAnalysis::SummarySolver::appendAt(
    Node &N, unsigned CI, const From &F, unsigned I,
    const FunctionDecl *Callee, bool External, const std::string *OverrideUsr,
    Root R, FunctionSummary &S, llvm::DenseSet<EffectKey> &Seen) {
  const CallSite &C = N.Facts.Calls[CI];
  const VarDecl *Var = nullptr;
  bool PartOfChange = false;
  const std::string *VarUsr = nullptr;
  if constexpr (std::is_same_v<From, Effect>) {
    Var = F.Var;
    PartOfChange = F.PartOfChange;
    VarUsr = F.VarUsr;
  } else if (!F.VarUsr.empty()) {
    VarUsr = &F.VarUsr;
  }
  if (!Seen.insert(inheritedKey(F.Kind, R, C.Loc, Var, textOf(VarUsr),
                                PartOfChange))
           .second)
    return false;
  // A read that only takes what the callee returns stays one while this
  // function returns that too.
  bool ReturnedRead =
      F.ReturnedRead &&
      llvm::any_of(N.Facts.Returns, [&](const ReturnedAlias &RA) {
        return RA.R == Root::of(Root::Returned, CI);
      });
  // In place when there is room: F may be in S itself (recursion), and only
  // a reallocation would move it.
  std::optional<Effect> Local;
  bool InPlace = S.Effects.size() < S.Effects.capacity();
  Effect &E = InPlace ? S.Effects.emplace_back() : Local.emplace();
  if constexpr (std::is_same_v<From, Effect>)
    E.setFacts(F.Facts);
  else // a SummaryEffect, held by the other TUs' summaries
    E.setFacts(&F);
  E.From = External ? Effect::Origin::OtherTU : Effect::Origin::Callee;
  E.Target = R;
  E.Loc = C.Loc;
  E.Callee = Callee;
  E.VarUsr = VarUsr;
  E.Var = Var;
  E.PartOfChange = PartOfChange;
  E.ReturnedRead = ReturnedRead;
  E.CalleeEffect = I;
  E.Called = C.Callee;
  E.ExternalUsr = OverrideUsr;
  E.Held = A.isHeld(C.Loc, External ? nullptr : Callee,
                         External ? OverrideUsr : nullptr);
  // The statically named function's own effect is definite; one an
  // override brings (here or in another TU) may happen.
  bool StaticTarget = External ? !OverrideUsr
                               : Callee && C.Callee &&
                                     Callee->getCanonicalDecl() ==
                                         C.Callee->getCanonicalDecl();
  E.Virtual = (C.Virtual && !StaticTarget) || F.Virtual ||
              (OverrideUsr && !E.Held);
  if (!InPlace)
    S.Effects.push_back(std::move(*Local));
  return true;
}

namespace {
// A returned alias as another TU's summary records it, for this TU's
// solver.
ReturnedAlias returnedAliasOf(const SummaryReturn &X) {
  ReturnedAlias RA;
  RA.R = X.R;
  if (X.R.K == Root::Static) {
    RA.VarUsr = &X.VarUsr;
    RA.VarName = &X.VarName;
  }
  return RA;
}
} // namespace

void EffectAnalysis::SummarySolver::returnedBy(
    const Node &N, unsigned CI, llvm::SmallVectorImpl<ReturnedAlias> &Out,
    unsigned Depth) const {
  if (CI >= N.Facts.Calls.size() || Depth > 8)
    return;
  const CallSite &C = N.Facts.Calls[CI];
  auto MapOne = [&](const ReturnedAlias &RA) {
    std::optional<Root> R = mapRoot(RA.R, C);
    if (!R)
      return;
    if (R->K == Root::Returned) // pick(buf()): what buf() returns
      return returnedBy(N, R->Index, Out, Depth + 1);
    ReturnedAlias M = R->K == Root::Static ? RA : ReturnedAlias();
    M.R = *R;
    if (!llvm::is_contained(Out, M))
      Out.push_back(M);
  };
  for (unsigned TI = N.TargetBegin[CI]; TI < N.TargetBegin[CI + 1]; ++TI)
    if (auto It = A.Summaries.find(N.Targets[TI]); It != A.Summaries.end())
      for (const ReturnedAlias &RA : It->second->Returns)
        MapOne(RA);
  if (const FunctionEffects *Ext = A.externalEffects(C.Callee))
    for (const SummaryReturn &X : Ext->Returns)
      MapOne(returnedAliasOf(X));
  for (const SummaryOverride *O : A.remoteOverrides(C))
    if (const FunctionEffects *Ext = A.External->lookup(O->Override))
      for (const SummaryReturn &X : Ext->Returns)
        MapOne(returnedAliasOf(X));
}

bool EffectAnalysis::SummarySolver::resolveThrough(
    Node &N, const Effect &E, FunctionSummary &S,
    llvm::DenseSet<EffectKey> &Seen) {
  llvm::SmallVector<ReturnedAlias, 2> Roots;
  returnedBy(N, E.Target.Index, Roots);
  bool Grew = false;
  for (const ReturnedAlias &RA : Roots) {
    Effect X = E;
    X.Target = RA.R;
    // Named by the global the callee returns (`stats()` returns
    // 's_stats'), through the call when no alias is named.
    std::string Name = RA.Var       ? canonicalName(*RA.Var)
                       : RA.VarName ? *RA.VarName
                                    : std::string();
    if (!Name.empty() && Name != E.facts().Subject) {
      EffectFacts F = E.facts();
      F.Subject = std::move(Name);
      if (const Expr *Call = N.Facts.Calls[E.Target.Index].Call;
          F.Via.empty() && Call)
        F.Via = describeExpr(Call, A.Ctx);
      X.setFacts(A.Pool.intern(std::move(F)));
    }
    if (!Seen.insert(keyOf(X)).second)
      continue;
    S.Effects.push_back(X);
    Grew = true;
  }
  if (!Roots.empty())
    N.WrittenThrough.insert(
        N.Facts.Calls[E.Target.Index].Loc.getRawEncoding());
  return Grew;
}

// Appends to N's summary what its calls bring in; true if it grew.
bool EffectAnalysis::SummarySolver::inherit(Node &N, FunctionSummary &S,
                                            llvm::DenseSet<EffectKey> &Seen) {
  bool Grew = false;
  const std::vector<CallSite> &Calls = N.Facts.Calls;
  for (unsigned CI = 0; CI < Calls.size(); ++CI) {
    const CallSite &C = Calls[CI];
    for (unsigned TI = N.TargetBegin[CI]; TI < N.TargetBegin[CI + 1]; ++TI) {
      const FunctionDecl *Def = N.Targets[TI];
      auto It = A.Summaries.find(Def);
      if (It == A.Summaries.end())
        continue;
      // By index, re-read each time: the callee may be N itself and grow
      // (and move) while we append to it.
      const std::vector<Effect> &CalleeEffects = It->second->Effects;
      for (unsigned I = 0, Count = CalleeEffects.size(); I < Count; ++I)
        Grew |= append(N, CI, CalleeEffects[I], I, Def, /*External=*/false,
                       nullptr, S, Seen);
    }
    auto AppendAll = [&](const FunctionEffects &Ext,
                         const std::string *OverrideUsr) {
      for (unsigned I = 0; I < Ext.Effects.size(); ++I)
        Grew |= append(N, CI, Ext.Effects[I], I, C.Callee, /*External=*/true,
                       OverrideUsr, S, Seen);
    };
    if (const FunctionEffects *Ext = A.externalEffects(C.Callee))
      AppendAll(*Ext, nullptr);
    for (const SummaryOverride *O : A.remoteOverrides(C))
      if (const FunctionEffects *Ext = A.External->lookup(O->Override))
        AppendAll(*Ext, &O->Override);
    for (const SummaryHeld *H : A.remoteHeld(C))
      if (const FunctionEffects *Ext = A.External->lookup(H->Callable))
        AppendAll(*Ext, &H->Callable);
  }
  // Own changes through what a call returns, and what the function itself
  // returns an alias of.
  for (const Effect &E : N.Through)
    Grew |= resolveThrough(N, E, S, Seen);
  for (const ReturnedAlias &RA : N.Facts.Returns) {
    llvm::SmallVector<ReturnedAlias, 2> Roots;
    if (RA.R.K == Root::Returned)
      returnedBy(N, RA.R.Index, Roots);
    else
      Roots.push_back(RA);
    for (const ReturnedAlias &R : Roots)
      if (!llvm::is_contained(S.Returns, R)) {
        S.Returns.push_back(R);
        Grew = true;
      }
  }
  return Grew;
}

void EffectAnalysis::SummarySolver::solveComponent(
    llvm::ArrayRef<unsigned> SCC) {
  if (Seen.size() < SCC.size())
    Seen.resize(SCC.size());
  for (unsigned I = 0; I < SCC.size(); ++I)
    Seen[I].clear();
  Out.assign(SCC.size(), nullptr);
  bool Recursive = SCC.size() > 1;
  for (unsigned I = 0; I < SCC.size(); ++I) {
    Node &N = *Nodes[SCC[I]];
    auto S = std::make_unique<FunctionSummary>();
    S->Effects = std::move(N.Facts.Effects);
    // Changes through what a call returns wait for the callees' summaries.
    auto Through = llvm::partition(S->Effects, [](const Effect &E) {
      return E.Target.K != Root::Returned;
    });
    N.Through.assign(std::make_move_iterator(Through),
                     std::make_move_iterator(S->Effects.end()));
    S->Effects.erase(Through, S->Effects.end());
    for (const Effect &E : S->Effects)
      Seen[I].insert(keyOf(E));
    // Room for what the callees can bring, so that appending does not move
    // the effects again and again.
    size_t Room = S->Effects.size();
    for (const FunctionDecl *Def : N.Targets)
      if (auto It = A.Summaries.find(Def); It != A.Summaries.end())
        Room += It->second->Effects.size();
    S->Effects.reserve(Room);
    Out[I] = S.get();
    A.Summaries[N.FD] = std::move(S);
    if (!Recursive)
      Recursive = llvm::is_contained(N.Targets, N.FD);
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned I = 0; I < SCC.size(); ++I)
      Changed |= inherit(*Nodes[SCC[I]], *Out[I], Seen[I]);
    if (!Recursive)
      break; // the callees' summaries were final already
  }
  for (unsigned I = 0; I < SCC.size(); ++I)
    A.markReadsPartOfChange(*Out[I], Nodes[SCC[I]]->WrittenThrough);
  for (unsigned I : SCC) // what the callers need is in the summaries now
    Nodes[I].reset();
}

unsigned EffectAnalysis::SummarySolver::discover(const FunctionDecl *FD) {
  unsigned V = Nodes.size();
  // Read by the walk of the TU (TUWalk.h), under its definition; once.
  const FunctionDecl *Def = FD->getDefinition();
  auto Pre = A.Prefetched.find(Def ? Def : FD);
  auto N = std::make_unique<Node>(Node{FD, {}, {}, {}});
  if (Pre != A.Prefetched.end()) {
    N->Facts = std::move(Pre->second);
    A.Prefetched.erase(Pre);
  } else {
    N->Facts = A.factsOf(*FD);
  }
  N->TargetBegin.reserve(N->Facts.Calls.size() + 1);
  for (const CallSite &C : N->Facts.Calls) {
    N->TargetBegin.push_back(N->Targets.size());
    A.addTargets(C, N->Targets);
  }
  N->TargetBegin.push_back(N->Targets.size());
  Nodes.push_back(std::move(N));
  return V;
}

void EffectAnalysis::computeSummaries(
    const std::vector<const FunctionDecl *> &Roots) {
  SummarySolver Solver(*this);
  std::vector<const FunctionDecl *> Starts;
  for (const FunctionDecl *Root : Roots)
    if (Root && hasBodyHere(*Root))
      Starts.push_back(Root);
  forEachComponent<const FunctionDecl *>(
      Starts, [&](const FunctionDecl *FD) { return Solver.discover(FD); },
      [&](unsigned V) { return Solver.targets(V); },
      [&](llvm::ArrayRef<unsigned> SCC) { Solver.solveComponent(SCC); });
}

// A global whose value cannot change between the passes is no hazard. Alone,
// a translation unit can prove that only of what no other one can name
// (internal linkage, function-local statics) and that it neither writes nor
// lets escape; the whole program's summaries prove it of any global.
EffectAnalysis::GlobalChange
EffectAnalysis::globalChange(const Effect &E) const {
  // Decided by the other TUs' summaries: this TU's findings depend on them.
  auto Program = [&](llvm::StringRef Usr) {
    std::string Key = globalDependency(Usr);
    std::string Value = External->hashOf(Key);
    bool Written = Value == "written";
    UsedExternal.try_emplace(std::move(Key), std::move(Value));
    return Written ? GlobalChange::Written : GlobalChange::Constant;
  };
  const VarDecl *VD = E.Var;
  if (!VD) {
    // Read in another TU: only the program-wide sets can tell.
    if (!External || !E.VarUsr)
      return GlobalChange::Written;
    return Program(*E.VarUsr);
  }
  const VarDecl *Canon = VD->getCanonicalDecl();
  if (ModifiableGlobals.contains(Canon))
    return GlobalChange::Written;
  if (External) {
    std::string Usr = usrOf(*Canon);
    return Usr.empty() ? GlobalChange::Written : Program(Usr);
  }
  if (Canon->isStaticLocal() || !Canon->isExternallyVisible())
    return GlobalChange::Constant;
  return GlobalChange::OtherTUMayWrite;
}

// `g_stats.record(x)`, where record() changes its object: reading g_stats
// only to change it is part of the change, which its own check reports; so
// is reading g_buf to pass it (or an alias of it) to `fill(p, n)`, which
// writes through its parameter, and reading s_stats in `Stats &stats() {
// return s_stats; }` when the caller writes through what stats() returns.
// A read through a call whose callee leaves the object as it was stays a
// read. Run on a complete summary, before any caller inherits from it.
void EffectAnalysis::markReadsPartOfChange(
    FunctionSummary &S, const llvm::DenseSet<unsigned> &WrittenThrough) const {
  // The callee's own effect that an inherited effect M comes from.
  auto Origin = [&](const Effect &M) -> std::optional<Root> {
    if (M.From == Effect::Origin::OtherTU) {
      const FunctionEffects *Ext = externalOf(M);
      if (Ext && M.CalleeEffect < Ext->Effects.size())
        return Ext->Effects[M.CalleeEffect].Target;
    } else if (const FunctionSummary *CS = summary(M.Callee)) {
      if (M.CalleeEffect < CS->Effects.size())
        return CS->Effects[M.CalleeEffect].Target;
    }
    return std::nullopt;
  };
  auto ReturnedRead = [&](const Effect &M) {
    if (M.From == Effect::Origin::OtherTU) {
      const FunctionEffects *Ext = externalOf(M);
      return Ext && M.CalleeEffect < Ext->Effects.size() &&
             Ext->Effects[M.CalleeEffect].ReturnedRead;
    }
    const FunctionSummary *CS = summary(M.Callee);
    return CS && M.CalleeEffect < CS->Effects.size() &&
           CS->Effects[M.CalleeEffect].ReturnedRead;
  };
  for (Effect &R : S.Effects) {
    if (R.Kind != EffectKind::GlobalRead || R.PartOfChange)
      continue;
    if (R.inherited()) {
      if (WrittenThrough.contains(R.Loc.getRawEncoding()) && ReturnedRead(R))
        R.PartOfChange = true;
      continue;
    }
    if (R.MutatedAt.isInvalid())
      continue;
    // The object of the call (slot 0), or argument MutatedSlot - 1.
    Root Changed = R.MutatedSlot == 0
                       ? Root::of(Root::This)
                       : Root::of(Root::Param, R.MutatedSlot - 1);
    for (const Effect &M : S.Effects) {
      if (!M.inherited() || M.Loc != R.MutatedAt ||
          M.Kind == EffectKind::GlobalRead || M.Target.K != Root::Static)
        continue;
      // The callee's own effect was on what the call maps to g.
      if (Origin(M) == Changed) {
        R.PartOfChange = true;
        break;
      }
    }
  }
}

void EffectAnalysis::computeFindings() {
  std::set<std::pair<int, unsigned>> Reported;
  for (const CheckpointSite &Site : Sites)
    for (const Callable &C : Site.Callables) {
      const FunctionSummary *S = summary(C.Body);
      if (!S || !reportedHere(C))
        continue;
      for (const Effect &E : S->Effects) {
        if (!E.Target.isOutside())
          continue;
        // A write to an argument the entry point copies for each run.
        if (Site.ArgumentsFresh && E.Target.K == Root::Param)
          continue;
        if (E.Kind == EffectKind::GlobalRead &&
            (globalChange(E) == GlobalChange::Constant ||
             E.PartOfChange))
          continue;
        // A draw from a source the entry point saves and restores.
        if (E.Kind == EffectKind::UnreplayedRng &&
            !E.facts().RngSource.empty() &&
            llvm::is_contained(Site.Replays, E.facts().RngSource))
          continue;
        if (!Reported.insert({int(E.Kind), E.Loc.getRawEncoding()}).second)
          continue;
        Findings.push_back({&E, &Site, &C});
      }
    }
}

EffectChain EffectAnalysis::chain(const FunctionDecl *Body,
                                  const Effect &E) const {
  EffectChain Chain;
  const FunctionDecl *In = Body;
  const Effect *Cur = &E;
  // Each step's effect was added before the effect that inherits it, so the
  // walk ends; the bound only guards against a broken summary.
  while (Cur && Chain.Steps.size() < 1000000) {
    Chain.Steps.push_back({ChainStep::Here{In, Cur}});
    Chain.Last = Cur->Facts;
    if (Cur->From == Effect::Origin::Own)
      break;
    if (Cur->From == Effect::Origin::OtherTU) {
      const FunctionEffects *Ext = externalOf(*Cur);
      if (!Ext || Cur->CalleeEffect >= Ext->Effects.size())
        break;
      const SummaryEffect &X = Ext->Effects[Cur->CalleeEffect];
      for (const SummaryStep &Step : X.Chain)
        Chain.Steps.push_back({&Step});
      if (!X.Chain.empty())
        Chain.Last = &X;
      if (X.AliasAt.Line)
        Chain.LastAliasAt = &X.AliasAt;
      break;
    }
    const FunctionSummary *S = summary(Cur->Callee);
    if (!S || Cur->CalleeEffect >= S->Effects.size())
      break;
    In = Cur->Callee;
    Cur = &S->Effects[Cur->CalleeEffect];
  }
  return Chain;
}

const FunctionEffects *
EffectAnalysis::externalEffects(const FunctionDecl *FD) const {
  if (!External || !FD || FD->getDefinition())
    return nullptr;
  if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
    return nullptr;
  // A modelled function is what its model says, wherever it is defined.
  if (Known->lookup(*FD).Modelled)
    return nullptr;
  std::string Usr = usrOf(*FD);
  if (Usr.empty())
    return nullptr;
  UsedExternal.try_emplace(Usr, External->hashOf(Usr));
  return External->lookup(Usr);
}

const FunctionEffects *EffectAnalysis::externalOf(const Effect &E) const {
  if (!E.ExternalUsr)
    return externalEffects(E.Callee);
  return External ? External->lookup(*E.ExternalUsr) : nullptr;
}

// The overrides in other TUs that a virtual call may run: of the called
// method, in its static class or a class derived from it. What was found
// (or that nothing was) is a dependency of this TU's summary.
std::vector<const SummaryOverride *>
EffectAnalysis::remoteOverrides(const CallSite &C) const {
  std::vector<const SummaryOverride *> Out;
  // Asked even while no summary lists an override: that, too, may change.
  if (!C.Virtual || !External || !C.Callee)
    return Out;
  const std::string Method = cachedUsr(C.Callee->getCanonicalDecl());
  if (Method.empty())
    return Out;
  std::string Key = overridesDependency(Method);
  UsedExternal.try_emplace(Key, External->hashOf(Key));
  const std::string Static = C.StaticClass ? cachedUsr(C.StaticClass) : "";
  for (const SummaryOverride &O : External->overridesOf(Method)) {
    if (!Static.empty() && !llvm::is_contained(O.Classes, Static))
      continue;
    UsedExternal.try_emplace(O.Override, External->hashOf(O.Override));
    Out.push_back(&O);
  }
  return Out;
}

std::string EffectAnalysis::cachedUsr(const Decl *D) const {
  auto [It, Inserted] = UsrCache.try_emplace(D);
  if (Inserted)
    It->second = usrOf(*D);
  return It->second;
}


// What names a callable whose body is in a header the same way in every TU
// that runs it; empty for a body in the main file (no other TU has it). A
// lambda is named by where it is and by the function it is in, with that
// function's template arguments: two instantiations are two callables.
std::string EffectAnalysis::headerCallableIdentity(const Callable &C) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!C.Body || SM.isInMainFile(SM.getExpansionLoc(C.Body->getLocation())))
    return {};
  if (C.K != Callable::Lambda || !C.Expr)
    return "function:" + cachedUsr(C.Body);
  PlainLocation At = plainLocation(C.Expr->getBeginLoc(), SM);
  std::string Id = "lambda:" + At.File + ":" + std::to_string(At.Line) + ":" +
                   std::to_string(At.Column);
  if (const auto *In = dyn_cast<FunctionDecl>(
          Decl::castFromDeclContext(C.Body->getParent())->getDeclContext()))
    Id += "@" + cachedUsr(In);
  return Id;
}

// Whether this TU reports the findings in C's body: always, but in a sharded
// run where C's body is in a header that an earlier file of the run (the
// owner) also checkpoints. The decision is a dependency of the findings.
bool EffectAnalysis::reportedHere(const Callable &C) const {
  if (!External)
    return true;
  std::string Id = headerCallableIdentity(C);
  if (Id.empty())
    return true;
  std::string Key = ownerDependency(Id, plainMainFile(Ctx.getSourceManager()));
  auto [It, Inserted] = UsedExternal.try_emplace(Key);
  if (Inserted)
    It->second = External->hashOf(Key);
  return It->second == "yes";
}


// One analysis per translation unit and settings: checks given the same
// settings (the usual case, and always in the rematch program) share it; a
// check given its own (`rematch-logging.CheckpointFunctions`) gets its own.
std::shared_ptr<EffectAnalysis> getSharedAnalysis(ASTContext &Ctx,
                                                  const AnalysisSettings &S) {
  static std::mutex Mutex;
  using Key = std::tuple<const ASTContext *, std::string, std::string,
                         std::string, std::string, const AnalysisHost *>;
  static std::map<Key, std::weak_ptr<EffectAnalysis>> Cache;
  const Key K{&Ctx,    S.CheckpointFunctions, S.ConfigFile,
              S.Models, S.SummariesDir,        S.Host};
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (auto It = Cache.begin(); It != Cache.end();)
      It = It->second.expired() ? Cache.erase(It) : std::next(It);
    auto It = Cache.find(K);
    if (It != Cache.end())
      if (std::shared_ptr<EffectAnalysis> Existing = It->second.lock())
        return Existing;
  }
  // Computed outside the lock: other threads analyse other contexts, and
  // the checks of one context run on one thread.
  auto Fresh = std::make_shared<EffectAnalysis>(Ctx, S);
  std::lock_guard<std::mutex> Lock(Mutex);
  Cache[K] = Fresh;
  return Fresh;
}

} // namespace clang::tidy::rematch
