//===--- EffectAnalysis.cpp - effects of checkpointed code, per TU --------===//

#include "EffectAnalysis.h"
#include "AnalysisHost.h"
#include "CallReach.h"
#include "Compose.h"
#include "EffectCollector.h"
#include "GlobalWrites.h"
#include "HeldCallables.h"
#include "NestedLambdas.h"
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
#include <map>
#include <mutex>
#include <tuple>

namespace clang::tidy::rematch {

namespace {

std::string mainFilePath(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID()))
    return FE->getName().str();
  return {};
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
  if (needsUnparsedBody()) {
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
  if (needsUnparsedBody()) {
    Sites.clear();
    Findings.clear();
    return;
  }
  if (Host && Host->ConditionalSink) {
    std::vector<std::tuple<std::string, PlainLocation, std::string>> Places;
    for (const Finding &F : Findings)
      if (!F.IfWritten.empty())
        Places.emplace_back(effectKindName(F.E->Kind),
                            plainLocation(F.E->Loc, Ctx.getSourceManager()),
                            F.IfWritten);
    Host->ConditionalSink(Places);
  }
  if (!Sink && !(Host && Host->DependencySink))
    return;
  std::vector<std::pair<std::string, std::string>> Used(UsedExternal.begin(),
                                                         UsedExternal.end());
  if (Host && Host->DependencySink)
    Host->DependencySink(Used);
  if (Sink) {
    Local.Dependencies = std::move(Used);
    Local.FromFacts &= !ConditionalClash;
    if (Local.FromFacts) {
      const SourceManager &SM = Ctx.getSourceManager();
      for (const Finding &F : Findings)
        if (F.IfWritten.empty())
          Local.Reported.emplace_back(effectKindName(F.E->Kind),
                                      plainLocation(F.E->Loc, SM));
      if (!Local.Callables.empty())
        Local.ReplayedBy = Known->models().replayers();
    }
    Sink(std::move(Local));
  }
  if (Recorder)
    BodySink(Recorder->text(Ctx, Replay));
}

DirectFacts EffectAnalysis::factsOf(const FunctionDecl &FD) {
  const FunctionDecl *Def = FD.getDefinition();
  if (Replay && Def && Replay->isSkipped(Def))
    return Replay->facts(*Def, Ctx, Pool);
  if (Def && Def->hasSkippedBody())
    UnparsedBody = true;
  return collectDirectFacts(FD, Ctx, *Known, Pool);
}

bool EffectAnalysis::needsUnparsedBody() {
  if (!UnparsedBody)
    for (const CheckpointSite &Site : Sites)
      for (const Callable &C : Site.Callables)
        if (const FunctionDecl *Def =
                C.Body ? C.Body->getDefinition() : nullptr;
            Def && Def->hasSkippedBody() &&
            !(Replay && Replay->isSkipped(Def)))
          UnparsedBody = true;
  if (UnparsedBody && Host && Host->UnparsedBodyNeeded)
    Host->UnparsedBodyNeeded();
  return UnparsedBody;
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


bool reportedAtSite(Root Target, EffectKind K, llvm::StringRef RngSource,
                    bool ArgumentsFresh, llvm::ArrayRef<std::string> Replays) {
  if (!Target.isOutside())
    return false;
  // A write to an argument the entry point copies for each run.
  if (ArgumentsFresh && Target.K == Root::Param)
    return false;
  // A draw from a source the entry point saves and restores.
  return !(K == EffectKind::UnreplayedRng && !RngSource.empty() &&
           llvm::is_contained(Replays, RngSource));
}

std::string EffectAnalysis::globalKey(const Effect &E) const {
  if (!External)
    return {};
  if (!E.Var)
    return E.VarUsr ? globalDependency(*E.VarUsr) : std::string();
  const VarDecl *Canon = E.Var->getCanonicalDecl();
  if (ModifiableGlobals.contains(Canon))
    return {};
  std::string Usr = usrOf(*Canon);
  return Usr.empty() ? std::string() : globalDependency(Usr);
}

void EffectAnalysis::computeFindings() {
  std::set<std::pair<int, unsigned>> Reported;
  // Reads judged constant by the program's facts, reported as if written
  // (AnalysisHost::ConditionalSink), by place.
  const bool Conditional = Host && Host->ConditionalSink;
  std::map<std::pair<int, unsigned>, std::string> IfWritten;
  for (const CheckpointSite &Site : Sites)
    for (const Callable &C : Site.Callables) {
      const FunctionSummary *S = summary(C.Body);
      if (!S || !reportedHere(C))
        continue;
      for (const Effect &E : S->Effects) {
        if (!reportedAtSite(E.Target, E.Kind, E.facts().RngSource,
                            Site.ArgumentsFresh, Site.Replays))
          continue;
        const std::pair<int, unsigned> Place{int(E.Kind),
                                             E.Loc.getRawEncoding()};
        if (E.Kind == EffectKind::GlobalRead && E.PartOfChange)
          continue;
        if (E.Kind == EffectKind::GlobalRead &&
            globalChange(E) == GlobalChange::Constant) {
          std::string Key = Conditional ? globalKey(E) : std::string();
          if (Key.empty() || Reported.count(Place))
            continue;
          auto [It, New] = IfWritten.try_emplace(Place, Key);
          if (!New) {
            ConditionalClash |= It->second != Key;
            continue;
          }
          Findings.push_back({&E, &Site, &C, std::move(Key)});
          continue;
        }
        if (IfWritten.count(Place))
          ConditionalClash = true; // the conditional one would come first
        if (!Reported.insert({int(E.Kind), E.Loc.getRawEncoding()}).second)
          continue;
        Findings.push_back({&E, &Site, &C});
      }
    }
  // A conditional finding where a parse could keep another: none is made
  // (the front end could not tell the two apart), nor a report from facts.
  if (ConditionalClash)
    llvm::erase_if(Findings,
                   [](const Finding &F) { return !F.IfWritten.empty(); });
  dropInlineTwins();
}

// A lambda written inside a callable is walked where it is written
// (NestedLambdas.h); when it is handed to a function this TU follows, which
// runs it, a finding through that call passes where the lambda's own
// finding starts (the effect, or the lambda's call that leads to it). That
// one stays: it names the call that runs the lambda. FactsReport.cpp drops
// the same twins from facts (SummaryCallable::Nested).
void EffectAnalysis::dropInlineTwins() {
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<std::pair<int, unsigned>> Passed; // kind, a step after the first
  for (const Finding &F : Findings) {
    if (F.E->From != Effect::Origin::Callee)
      continue;
    EffectChain Ch = chain(F.Target->Body, *F.E);
    for (size_t I = 1; I < Ch.Steps.size(); ++I)
      if (const ChainStep::Here *H = Ch.Steps[I].here())
        Passed.insert({int(F.E->Kind), H->E->Loc.getRawEncoding()});
  }
  if (Passed.empty())
    return;
  llvm::DenseMap<const FunctionDecl *, std::vector<SourceRange>> Nested;
  llvm::erase_if(Findings, [&](const Finding &F) {
    if (!Passed.count({int(F.E->Kind), F.E->Loc.getRawEncoding()}))
      return false;
    auto [It, New] = Nested.try_emplace(F.Target->Body);
    if (New)
      It->second = nestedLambdaBodies(*F.Target->Body, SM);
    return insideAny(It->second, F.E->Loc, SM);
  });
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
