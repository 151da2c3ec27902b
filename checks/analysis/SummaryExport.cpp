//===--- SummaryExport.cpp - the summary a TU gives the others ----------===//
//
// What another translation unit needs of this one, written as a TUSummary
// (Summary.h): the inputs that make it stale, the checkpoint sites whose
// callables are defined elsewhere, and the facts of the functions defined
// here that others may call, with only the calls that may lead to effects.
//
//===----------------------------------------------------------------------===//

#include "AnalysisHost.h"
#include "CallReach.h"
#include "CallableText.h"
#include "EffectAnalysis.h"
#include "NestedLambdas.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <tuple>

namespace clang::tidy::rematch {

namespace {

// A class and every class it derives from, by USR.
std::vector<std::string> classAndBases(const CXXRecordDecl *RD) {
  std::vector<std::string> Out;
  if (!RD)
    return Out;
  Out.push_back(usrOf(*RD));
  if (RD->hasDefinition())
    RD->forallBases([&](const CXXRecordDecl *Base) {
      Out.push_back(usrOf(*Base));
      return true;
    });
  return Out;
}

} // namespace

// Absolute file:line:column of a location, with one path computed per file
// (EffectAnalysis::exportFunction).
class PlainLocations {
public:
  explicit PlainLocations(const SourceManager &SM) : SM(SM) {}
  PlainLocation operator()(SourceLocation L) {
    PlainLocation P;
    PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(L));
    if (PL.isInvalid())
      return P;
    auto [It, Inserted] = Paths.try_emplace(PL.getFilename());
    if (Inserted)
      It->second = plainLocation(L, SM).File;
    P.File = It->second;
    P.Line = PL.getLine();
    P.Column = PL.getColumn();
    return P;
  }

private:
  const SourceManager &SM;
  llvm::DenseMap<const char *, std::string> Paths;
};

void EffectAnalysis::describeInputs(TUSummary &S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  S.MainFile = plainMainFile(SM);
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
    if (!Entry.isFile())
      continue;
    const SrcMgr::FileInfo &FI = Entry.getFile();
    OptionalFileEntryRef FE = FI.getContentCache().OrigEntry;
    if (!FE)
      continue;
    std::string Path = inputPath(FE->getName(), SM.getFileManager());
    if (SrcMgr::isSystem(FI.getFileCharacteristic()))
      S.SystemInputs.push_back(std::move(Path));
    else
      S.Inputs.emplace_back(std::move(Path), std::string());
  }
  // What a precompiled preamble read (tool/Preamble.h): loaded from it, so
  // not among the entries above.
  if (Host)
    for (const auto &[Path, System] : Host->PreambleInputs) {
      if (System)
        S.SystemInputs.push_back(Path);
      else
        S.Inputs.emplace_back(Path, std::string());
    }
  // The project's models the effects came from and the configuration
  // (entry points, function lists): a change to either makes the summary
  // stale like a changed header. The built-in models are the same for every
  // file: the front end keeps them in the analysis' identity instead.
  const std::string Builtin = builtinModelsDir();
  for (const std::string &P : Known->models().paths())
    if (Builtin.empty() ||
        !llvm::StringRef(P).starts_with(Builtin + std::string(1, '/')))
      S.Inputs.emplace_back(P, std::string());
  if (!Cfg.Path.empty()) {
    llvm::SmallString<256> P(Cfg.Path);
    SM.getFileManager().makeAbsolutePath(P);
    S.Inputs.emplace_back(std::string(P), std::string());
  }
  // A header included twice has two entries.
  llvm::sort(S.SystemInputs);
  S.SystemInputs.erase(llvm::unique(S.SystemInputs), S.SystemInputs.end());
  llvm::sort(S.Inputs);
  S.Inputs.erase(llvm::unique(S.Inputs), S.Inputs.end());
}

void EffectAnalysis::describeCheckpoints(TUSummary &S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CheckpointSite &Site : Sites) {
    if (!Site.Call)
      continue;
    ++S.CheckpointSites;
    for (const Callable &C : Site.Callables) {
      if (std::string Id = headerCallableIdentity(C);
          !Id.empty() && !llvm::is_contained(S.HeaderCallables, Id))
        S.HeaderCallables.push_back(std::move(Id));
      if (C.Body || !C.Declared)
        continue;
      SummaryCheckpoint X;
      X.Usr = usrOf(*C.Declared);
      if (X.Usr.empty())
        continue;
      X.Kind = C.K == Callable::Functor  ? "functor"
               : C.K == Callable::Module ? "module"
                                         : "function";
      X.Name = C.Name;
      X.EntryPoint = Site.EntryPoint;
      X.Replays = Site.Replays;
      X.ArgumentsFresh = Site.ArgumentsFresh;
      X.Call = plainLocation(Site.Call->getExprLoc(), SM);
      S.Checkpoints.push_back(std::move(X));
    }
    // A value whose callables another TU stores: that TU reports them.
    for (const NamedDecl *P : Site.HeldElsewhere) {
      SummaryCheckpoint X;
      X.Usr = usrOf(*P);
      if (X.Usr.empty())
        continue;
      X.Kind = "value";
      X.Name = canonicalName(*P);
      X.EntryPoint = Site.EntryPoint;
      X.Replays = Site.Replays;
      X.ArgumentsFresh = Site.ArgumentsFresh;
      X.Call = plainLocation(Site.Call->getExprLoc(), SM);
      S.Checkpoints.push_back(std::move(X));
    }
  }
}

// The facts of the functions defined here that another TU may need: those
// of the main file, every virtual method (a virtual call anywhere may run
// it), explicit instantiations, and what they call here (a header's inline
// function or template instance that nothing here calls is summarised by a
// TU that calls it).
// Of those, a function that has no effect another TU can see, itself or
// through its calls (a pure leaf, or one that calls only such leaves), is
// left out, and so are calls to it. The facts are kept in Prefetched for
// the analysis.
namespace {
// The functions a summary describes, with their facts, by index.
struct ExportedFunctions {
  std::vector<const FunctionDecl *> Defs;
  std::vector<DirectFacts> Facts;
  llvm::DenseMap<const FunctionDecl *, unsigned> IndexOf;
  unsigned indexOf(const FunctionDecl *FD) const {
    return IndexOf.find(FD)->second;
  }
};

// Where a call leads, for the summary (CallReacher, and held places).
using ReachOf =
    llvm::function_ref<CallReach(const CallSite &, const FunctionDecl *&)>;

// An effect another TU can see: on something outside the function, not on
// a lambda's capture.
bool exportedEffect(const Effect &E) {
  return E.Target.isOutside() && E.Target.K != Root::Capture;
}

// Marks every caller (transitively, through Callers) of the functions in
// Work, which are marked already.
void markCallers(std::vector<bool> &Marked,
                 const std::vector<std::vector<unsigned>> &Callers,
                 std::vector<unsigned> Work) {
  while (!Work.empty()) {
    unsigned I = Work.back();
    Work.pop_back();
    for (unsigned Caller : Callers[I])
      if (!Marked[Caller]) {
        Marked[Caller] = true;
        Work.push_back(Caller);
      }
  }
}

// An effect as a summary records it; Usr: the USR of a declaration.
template <class UsrOf>
SummaryEffect exportEffect(const Effect &E, const std::string &Function,
                           PlainLocations &Where, UsrOf Usr) {
  SummaryEffect X;
  static_cast<EffectFacts &>(X) = E.facts();
  X.Target = E.Target;
  X.VarUsr = E.Var ? Usr(E.Var->getCanonicalDecl()) : E.varUsr().str();
  X.Chain.push_back({Function, "", Where(E.Loc)});
  if (E.MutatedAt.isValid()) {
    X.MutatedAt = Where(E.MutatedAt);
    X.MutatedSlot = E.MutatedSlot;
  }
  if (E.AliasAt.isValid())
    X.AliasAt = Where(E.AliasAt);
  X.ReturnedRead = E.ReturnedRead;
  return X;
}

// A root that names a call (Root::Returned) by its place among the calls a
// summary keeps (Kept: -1 when not kept); nothing when that call is not.
std::optional<Root> keptRoot(Root R, llvm::ArrayRef<int> Kept) {
  if (R.K != Root::Returned)
    return R;
  if (R.Index >= Kept.size() || Kept[R.Index] < 0)
    return std::nullopt;
  return Root::of(Root::Returned, unsigned(Kept[R.Index]));
}

// A call as a summary records it; none when its callee has no USR.
template <class UsrOf>
std::optional<SummaryCall> exportCall(const CallSite &C, PlainLocations &Where,
                                      UsrOf Usr) {
  SummaryCall X;
  X.Callee = Usr(C.Callee->getCanonicalDecl());
  if (X.Callee.empty())
    return std::nullopt;
  X.CalleeName = displayName(C.Callee);
  X.Loc = Where(C.Loc);
  X.Object = C.Object;
  X.Args.assign(C.Args.begin(), C.Args.end());
  while (!X.Args.empty() && !X.Args.back().isOutside())
    X.Args.pop_back();
  X.Virtual = C.Virtual;
  if (C.Virtual && C.StaticClass)
    X.StaticClass = Usr(C.StaticClass);
  return X;
}
// The functions that may have effects another TU can see: those with their
// own or an external call, or that return an alias (a caller may write
// through it), then every caller of one, up the local call graph.
std::vector<bool> mayHaveEffects(const ExportedFunctions &L,
                                 ReachOf Reach) {
  std::vector<bool> May(L.Defs.size(), false);
  std::vector<std::vector<unsigned>> Callers(L.Defs.size());
  std::vector<unsigned> Work;
  for (unsigned I = 0; I < L.Defs.size(); ++I) {
    May[I] = llvm::any_of(L.Facts[I].Effects, exportedEffect) ||
             !L.Facts[I].Returns.empty();
    for (const CallSite &C : L.Facts[I].Calls) {
      const FunctionDecl *Local = nullptr;
      CallReach R = Reach(C, Local);
      if (R == CallReach::External)
        May[I] = true;
      else if (R == CallReach::Local)
        Callers[L.indexOf(Local)].push_back(I);
    }
    if (May[I])
      Work.push_back(I);
  }
  markCallers(May, Callers, std::move(Work));
  return May;
}

// The call operator of a lambda written outside system headers that C
// calls, when its body was parsed; null otherwise.
const FunctionDecl *lambdaOperator(const CallSite &C, const SourceManager &SM) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.Callee);
  if (!MD || !MD->getParent()->isLambda() || C.Virtual)
    return nullptr;
  const FunctionDecl *Def = MD->getDefinition();
  if (!Def || !Def->getBody() || Def->isDependentContext() ||
      SM.isInSystemHeader(Def->getLocation()))
    return nullptr;
  return Def;
}

// The calls of F whose result the function changes, passes on or returns
// (Root::Returned): a summary keeps them whatever they reach.
std::vector<bool> namedCalls(const DirectFacts &F) {
  std::vector<bool> Named(F.Calls.size(), false);
  auto Name = [&](Root R) {
    if (R.K == Root::Returned && R.Index < Named.size())
      Named[R.Index] = true;
  };
  for (const Effect &E : F.Effects)
    Name(E.Target);
  for (const ReturnedAlias &RA : F.Returns)
    Name(RA.R);
  for (const CallSite &C : F.Calls) {
    Name(C.Object);
    llvm::for_each(C.Args, Name);
  }
  return Named;
}
} // namespace

void EffectAnalysis::describeFunctions(
    TUSummary &S, llvm::ArrayRef<const FunctionDecl *> Seeds) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CallReacher Reacher(Definitions, *Known, SM);
  auto Reach = [&](const CallSite &C, const FunctionDecl *&Local) {
    // A call that runs what a shared place holds reaches what any TU
    // stores there (SummaryCall::HeldPlace).
    if (sharedHeldPlace(C))
      return CallReach::External;
    CallReach R = Reacher(C, Local);
    // A call of a lambda written in a body of this file (a template it is
    // handed to runs it) leads to its call operator, which the walk reads
    // as part of that body: its facts are read here, so that a report from
    // facts follows the call as the analysis does (dropInlineTwins).
    if (R == CallReach::Nothing && (Local = lambdaOperator(C, SM)))
      return CallReach::Local;
    return R;
  };
  ExportedFunctions L;
  auto Discover = [&](const FunctionDecl *FD) {
    if (L.IndexOf.try_emplace(FD, L.Defs.size()).second) {
      L.Defs.push_back(FD);
      auto Pre = Prefetched.find(FD); // read by the walk of the TU
      L.Facts.push_back(Pre != Prefetched.end() ? std::move(Pre->second)
                                                : factsOf(*FD));
    }
  };
  for (const FunctionDecl *FD : Definitions)
    if (exportSeed(*FD, SM))
      Discover(FD);
  for (const FunctionDecl *FD : Seeds)
    Discover(FD);
  // Facts grows while its calls are read: by index.
  auto Close = [&](unsigned From) {
    for (unsigned I = From; I < L.Defs.size(); ++I)
      for (unsigned CI = 0; CI < L.Facts[I].Calls.size(); ++CI) {
        const FunctionDecl *Local = nullptr;
        if (Reach(L.Facts[I].Calls[CI], Local) == CallReach::Local)
          Discover(Local);
      }
  };
  Close(0);
  // The checkpointed callables (describeCallables), and what they reach; a
  // body found only so is not a function other TUs call (a callable's
  // facts keep its effects on captures, a function's do not).
  const std::vector<CallableAt> Reportable = reportableCallables(S);
  const unsigned Functions = L.Defs.size();
  llvm::DenseSet<const FunctionDecl *> CallableOnly;
  for (const auto &[Site, C] : Reportable)
    if (!L.IndexOf.count(C->Body)) {
      CallableOnly.insert(C->Body);
      Discover(C->Body);
    }
  Close(Functions);
  const std::vector<bool> May = mayHaveEffects(L, Reach);
  // A call is kept when it may lead to effects (or when it is named).
  auto Keep = [&](const CallSite &C) {
    const FunctionDecl *Local = nullptr;
    CallReach R = Reach(C, Local);
    return R == CallReach::External ||
           (R == CallReach::Local && May[L.indexOf(Local)]);
  };
  PlainLocations Where(SM);
  for (unsigned I = 0; I < L.Defs.size(); ++I)
    if (May[I] && !CallableOnly.contains(L.Defs[I]))
      if (std::optional<FunctionFacts> Out =
              exportFunction(*L.Defs[I], L.Facts[I], Keep, Where))
        S.Functions.push_back(std::move(*Out));
  std::vector<const DirectFacts *> Exported;
  for (unsigned I = 0; I < L.Defs.size(); ++I)
    if (May[I])
      Exported.push_back(&L.Facts[I]);
  describeCallables(
      S, Reportable, Exported,
      [&](const FunctionDecl *FD) -> const DirectFacts & {
        return L.Facts[L.indexOf(FD)];
      },
      Keep, Where);
  for (unsigned I = 0; I < L.Defs.size(); ++I)
    Prefetched[L.Defs[I]] = std::move(L.Facts[I]);
}

// One function's facts as a summary records them: the calls it keeps (Keep,
// or named), the effects and returned aliases on what those calls return.
std::optional<FunctionFacts>
EffectAnalysis::exportFunction(const FunctionDecl &FD, const DirectFacts &F,
                               llvm::function_ref<bool(const CallSite &)> Keep,
                               PlainLocations &Where, bool Captures) const {
  FunctionFacts Out;
  Out.Usr = cachedUsr(&FD);
  if (Out.Usr.empty())
    return std::nullopt;
  Out.Name = displayName(&FD);
  auto Usr = [this](const Decl *D) { return cachedUsr(D); };
  const std::vector<bool> Named = namedCalls(F);
  std::vector<int> Kept(F.Calls.size(), -1);
  for (unsigned CI = 0; CI < F.Calls.size(); ++CI) {
    const CallSite &C = F.Calls[CI];
    if (!Named[CI] && !Keep(C))
      continue;
    if (std::optional<SummaryCall> X = exportCall(C, Where, Usr)) {
      if (const NamedDecl *P = sharedHeldPlace(C)) {
        X->HeldPlace = cachedUsr(P);
        X->CalleeName = canonicalName(*P);
      }
      Kept[CI] = Out.Calls.size();
      Out.Calls.push_back(std::move(*X));
    }
  }
  for (SummaryCall &X : Out.Calls) {
    X.Object = keptRoot(X.Object, Kept).value_or(Root::local());
    for (Root &A : X.Args)
      A = keptRoot(A, Kept).value_or(Root::local());
  }
  for (const Effect &E : F.Effects)
    if (Captures ? E.Target.isOutside() : exportedEffect(E))
      if (std::optional<Root> R = keptRoot(E.Target, Kept)) {
        SummaryEffect &X =
            Out.Effects.emplace_back(exportEffect(E, Out.Name, Where, Usr));
        X.Target = *R;
        if (R->K == Root::Returned && F.Calls[E.Target.Index].Call)
          X.ViaCall = describeExpr(F.Calls[E.Target.Index].Call, Ctx);
      }
  for (const ReturnedAlias &RA : F.Returns) {
    std::optional<Root> R = keptRoot(RA.R, Kept);
    if (!R)
      continue;
    SummaryReturn X;
    X.R = *R;
    if (R->K == Root::Static) {
      if (!RA.Var)
        continue;
      X.VarUsr = cachedUsr(RA.Var->getCanonicalDecl());
      X.VarName = canonicalName(*RA.Var);
    }
    Out.Returns.push_back(std::move(X));
  }
  return Out;
}

// The callables of this TU's checkpoint calls whose findings `rematch
// report` can make from facts, in the order the analysis reports them; S's
// FromFacts says whether those are all of them.
std::vector<EffectAnalysis::CallableAt>
EffectAnalysis::reportableCallables(TUSummary &S) const {
  std::vector<CallableAt> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  // The NOLINT comments go with the facts, unless a stray NOLINTBEGIN or
  // NOLINTEND makes clang-tidy report an error of its own; a #line changes
  // what a location is called. Both are left to a parse.
  llvm::StringRef Main = SM.getBufferData(SM.getMainFileID());
  S.NoLints = noLintComments(Main);
  S.FromFacts = !Cfg.Checks && noLintBlocksPair(S.NoLints) &&
                !Main.contains("#line");
  for (const CheckpointSite &Site : Sites) {
    if (!S.FromFacts)
      break;
    if (!Site.Call || Site.Call->getExprLoc().isMacroID()) {
      S.FromFacts = false;
      break;
    }
    for (const Callable &C : Site.Callables) {
      if (!C.Body)
        continue; // its TU reports it
      if (!C.Body->getDefinition() ||
          !SM.isInMainFile(SM.getExpansionLoc(C.Body->getLocation())) ||
          C.StoredAt.isMacroID() || !reportedHere(C)) {
        S.FromFacts = false;
        break;
      }
      Out.emplace_back(&Site, &C);
    }
  }
  if (!S.FromFacts)
    Out.clear();
  return Out;
}

void EffectAnalysis::describeCallables(
    TUSummary &S, llvm::ArrayRef<CallableAt> Reportable,
    llvm::ArrayRef<const DirectFacts *> Exported,
    llvm::function_ref<const DirectFacts &(const FunctionDecl *)> FactsOf,
    llvm::function_ref<bool(const CallSite &)> Keep,
    PlainLocations &Where) const {
  S.FromFacts &= llvm::none_of(Exported, [&](const DirectFacts *F) {
    return locatedInMacro(*F, Keep);
  });
  for (const auto &[Site, C] : Reportable) {
    if (!S.FromFacts)
      break;
    std::optional<SummaryCallable> X = describeCallable(
        *Site, *C, FactsOf(C->Body), Keep, Where, S.Callables.size());
    if (X)
      S.Callables.push_back(std::move(*X));
    else
      S.FromFacts = false;
  }
  if (!S.FromFacts || S.Callables.empty()) {
    S.Callables.clear();
    S.NoLints.clear();
  }
}

// Whether a call or an effect a summary keeps of F is in a macro: clang
// notes where the macro came from, which a report from facts cannot.
bool EffectAnalysis::locatedInMacro(
    const DirectFacts &F,
    llvm::function_ref<bool(const CallSite &)> Keep) const {
  for (const CallSite &C : F.Calls)
    if (C.Loc.isMacroID() && Keep(C))
      return true;
  for (const Effect &E : F.Effects)
    if (E.Target.isOutside() &&
        (E.Loc.isMacroID() || E.AliasAt.isMacroID()))
      return true;
  return false;
}

std::optional<SummaryCallable> EffectAnalysis::describeCallable(
    const CheckpointSite &Site, const Callable &C, const DirectFacts &F,
    llvm::function_ref<bool(const CallSite &)> Keep, PlainLocations &Where,
    size_t Index) const {
  std::optional<FunctionFacts> Facts =
      exportFunction(*C.Body, F, Keep, Where, /*Captures=*/true);
  if (!Facts)
    return std::nullopt;
  SummaryCallable X;
  X.Facts = std::move(*Facts);
  X.Facts.Usr = "callable:" + std::to_string(Index);
  X.Text = callableText(C);
  X.EntryPoint = Site.EntryPoint;
  X.Replays = Site.Replays;
  X.ArgumentsFresh = Site.ArgumentsFresh;
  X.Call = Where(Site.Call->getExprLoc());
  if (C.StoredIn && C.StoredAt.isValid()) {
    X.StoredAt = Where(C.StoredAt);
    X.StoredNote = storedNoteText(C);
  }
  // The lines a finding at one of its calls is printed with.
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Main = SM.getBufferData(SM.getMainFileID());
  std::map<unsigned, std::string> Lines;
  for (const CallSite &Call : F.Calls) {
    auto [FID, Offset] = SM.getDecomposedLoc(Call.Loc);
    if (FID != SM.getMainFileID() || Call.Loc.isMacroID())
      continue;
    unsigned Line = SM.getLineNumber(FID, Offset);
    if (Lines.count(Line))
      continue;
    size_t Start = Main.rfind('\n', Offset);
    Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
    Lines[Line] = Main.slice(Start, Main.find('\n', Start)).rtrim("\r").str();
  }
  for (auto &[Line, Text] : Lines)
    X.Lines.emplace_back(std::to_string(Line), std::move(Text));
  for (const SourceRange &R : nestedLambdaBodies(*C.Body, SM))
    X.Nested.emplace_back(Where(R.getBegin()), Where(R.getEnd()));
  return X;
}

TUSummary EffectAnalysis::exportSummary() {
  TUSummary S;
  describeInputs(S);
  describeCheckpoints(S);
  describeFunctions(S, describeHeld(S));
  for (const VarDecl *VD : ModifiableGlobals) {
    std::string Usr = usrOf(*VD);
    if (!Usr.empty())
      S.GlobalsWritten.push_back(std::move(Usr));
  }
  llvm::sort(S.GlobalsWritten);
  // Only overrides that may have effects: one without adds nothing at a
  // call, and once it may, its summary lists it.
  llvm::StringSet<> Listed;
  for (const FunctionFacts &F : S.Functions)
    Listed.insert(F.Usr);
  for (const auto &[Method, Defs] : Overrides) {
    std::string MethodUsr;
    for (const FunctionDecl *O : Defs) {
      SummaryOverride X;
      X.Override = cachedUsr(O);
      if (X.Override.empty() || !Listed.contains(X.Override))
        continue;
      if (MethodUsr.empty())
        MethodUsr = cachedUsr(Method);
      X.Method = MethodUsr;
      X.Classes = classAndBases(cast<CXXMethodDecl>(O)->getParent());
      if (!X.Method.empty())
        S.Overrides.push_back(std::move(X));
    }
  }
  llvm::erase_if(S.Held, [&](const SummaryHeld &H) {
    return !Listed.contains(H.Callable);
  });
  // In a fixed order: the map's is the pointers'.
  llvm::sort(
      S.Overrides, [](const SummaryOverride &A, const SummaryOverride &B) {
        return std::tie(A.Method, A.Override) < std::tie(B.Method, B.Override);
      });
  return S;
}

} // namespace clang::tidy::rematch
