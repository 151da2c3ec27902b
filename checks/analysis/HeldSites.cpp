//===--- HeldSites.cpp - checkpoints and calls of values holding callables ===//
//
// What the values that hold callables (HeldCallables.h) mean to the
// analysis of a translation unit: a checkpoint call handed one checkpoints
// every callable stored into it, and a call that runs one (`act_(x)`,
// `seq_->forward(x)`) may run any of them. Stores made in other TUs come
// from their summaries (SummaryHeld), for places those TUs can name.
//
//===----------------------------------------------------------------------===//

#include "EffectAnalysis.h"
#include "BodyReplay.h"
#include "ExternalSummaries.h"
#include "HeldCallables.h"
#include "KnownFunctions.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::rematch {

// The callables held values are, each with where it was stored and how many
// the value may hold.
std::vector<Callable>
EffectAnalysis::callablesHeld(llvm::ArrayRef<HeldValue> Values) const {
  std::vector<Callable> Found;
  for (const HeldValue &V : Values) {
    size_t Before = Found.size();
    collectCallables(V.Value, Known->models(), Found);
    for (size_t I = Before; I < Found.size(); ++I) {
      Found[I].StoredIn = V.In;
      Found[I].StoredAt = V.At;
    }
  }
  for (Callable &C : Found)
    C.Alternatives = Found.size();
  return Found;
}

// What the values handed to checkpoint calls hold, now that every store of
// the translation unit is known: each callable stored, "may" when there
// are several.
void EffectAnalysis::resolveHeldSites() {
  for (CheckpointSite &Site : Sites)
    for (const Expr *Arg : Site.HeldArgs) {
      llvm::SmallVector<HeldValue, 4> Values;
      Held->valuesOf(Arg, Values);
      for (Callable &C : callablesHeld(Values)) {
        C.Arg = Arg;
        Site.Callables.push_back(std::move(C));
      }
      if (Values.empty())
        if (const NamedDecl *P = HeldCallables::placeOf(Arg))
          Site.HeldElsewhere.push_back(P);
    }
}

// The values this TU stores callables into that a checkpoint call of
// another TU hands over: a site here without a call, as remoteSites().
void EffectAnalysis::remoteHeldSites() {
  if (!External)
    return;
  for (const auto &[Place, Stored] : Held->stores()) {
    if (!HeldCallables::isShared(Place))
      continue;
    std::string Usr = usrOf(*Place);
    if (Usr.empty())
      continue;
    std::string Key = checkpointDependency(Usr);
    UsedExternal.try_emplace(Key, External->hashOf(Key));
    llvm::ArrayRef<SummaryCheckpoint> Remote = External->checkpointsOf(Usr);
    if (Remote.empty())
      continue;
    llvm::SmallVector<HeldValue, 4> Values;
    Held->valuesIn(Place, Values);
    std::vector<Callable> Found = callablesHeld(Values);
    for (const SummaryCheckpoint &X : Remote) {
      CheckpointSite Site;
      Site.RemoteCall = X.Call;
      Site.EntryPoint = X.EntryPoint;
      Site.Replays = X.Replays;
      Site.ArgumentsFresh = X.ArgumentsFresh;
      Site.Callables = Found;
      Sites.push_back(std::move(Site));
    }
  }
}

// A call that runs what its object holds (`fn(x)` on a std::function,
// `seq->forward(x)`): every callable stored into that object, remembered
// with where it was stored (heldAt).
void EffectAnalysis::addHeldTargets(
    const CallSite &C, std::vector<const FunctionDecl *> &Out) const {
  llvm::SmallVector<HeldValue, 4> Values;
  Held->valuesOf(HeldCallables::objectOf(C.Call), Values);
  std::vector<Callable> Found;
  for (const HeldValue &V : Values) {
    Found.clear();
    collectCallables(V.Value, Known->models(), Found);
    // The body that runs, even where a model describes calls to it (a
    // module's forward): the model speaks of a call's arguments, which a
    // held call does not name.
    for (const Callable &X : Found)
      if (const FunctionDecl *Def = X.Body && hasBodyHere(*X.Body)
                                        ? X.Body
                                        : analysable(X.Body)) {
        Out.push_back(Def);
        HeldTargets.try_emplace({C.Loc.getRawEncoding(), Def}, V);
      }
  }
}

const HeldValue *EffectAnalysis::heldAt(SourceLocation Call,
                                        const FunctionDecl *Target) const {
  if (HeldTargets.empty())
    return nullptr;
  auto It = HeldTargets.find({Call.getRawEncoding(), Target});
  return It == HeldTargets.end() ? nullptr : &It->second;
}

const NamedDecl *EffectAnalysis::sharedHeldPlace(const CallSite &C) const {
  if (!C.Callee || !Held || !Held->runs(*C.Callee))
    return nullptr;
  return Held->sharedPlace(
      HeldCallables::placeOf(HeldCallables::objectOf(C.Call)));
}

// What other TUs store into the place a call runs the callables of: their
// composed effects are this call's, with where each was stored. What was
// found (or that nothing was) is a dependency of this TU's summary.
std::vector<const SummaryHeld *>
EffectAnalysis::remoteHeld(const CallSite &C) const {
  std::vector<const SummaryHeld *> Out;
  if (!External)
    return Out;
  const NamedDecl *P = sharedHeldPlace(C);
  if (!P)
    return Out;
  const std::string Place = cachedUsr(P);
  if (Place.empty())
    return Out;
  std::string Key = heldDependency(Place);
  UsedExternal.try_emplace(Key, External->hashOf(Key));
  for (const SummaryHeld &H : External->heldIn(Place)) {
    UsedExternal.try_emplace(H.Callable, External->hashOf(H.Callable));
    RemoteHeldTargets.try_emplace({C.Loc.getRawEncoding(), &H.Callable}, &H);
    Out.push_back(&H);
  }
  return Out;
}

const SummaryHeld *
EffectAnalysis::remoteHeldAt(SourceLocation Call,
                             const std::string *Callable) const {
  if (RemoteHeldTargets.empty() || !Callable)
    return nullptr;
  auto It = RemoteHeldTargets.find({Call.getRawEncoding(), Callable});
  return It == RemoteHeldTargets.end() ? nullptr : It->second;
}

// Every callable this TU stores into a place other TUs can name, for the
// calls there that run what it holds; the summary keeps those whose body
// it lists (exportSummary), as it does overrides.
std::vector<const FunctionDecl *>
EffectAnalysis::describeHeld(TUSummary &S) const {
  std::vector<const FunctionDecl *> Bodies;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &[Place, Stored] : Held->stores()) {
    if (!HeldCallables::isShared(Place))
      continue;
    std::string PlaceUsr = cachedUsr(Place);
    if (PlaceUsr.empty())
      continue;
    llvm::SmallVector<HeldValue, 4> Values;
    Held->valuesIn(Place, Values);
    for (const Callable &C : callablesHeld(Values)) {
      const FunctionDecl *Body = C.Body ? C.Body->getDefinition() : nullptr;
      if (!Body)
        continue;
      SummaryHeld X;
      X.Place = PlaceUsr;
      X.PlaceName = Place->getNameAsString();
      X.Callable = cachedUsr(Body);
      if (X.Callable.empty())
        continue;
      X.Name = displayName(Body);
      const auto *MD = dyn_cast<CXXMethodDecl>(Body);
      X.Lambda = MD && MD->getParent()->isLambda();
      X.StoredAt = plainLocation(C.StoredAt, SM);
      S.Held.push_back(std::move(X));
      Bodies.push_back(Body);
    }
  }
  // In a fixed order: the map's is the pointers'.
  llvm::sort(S.Held, [](const SummaryHeld &A, const SummaryHeld &B) {
    return std::tie(A.Place, A.Callable, A.StoredAt.File, A.StoredAt.Line,
                    A.StoredAt.Column) < std::tie(B.Place, B.Callable,
                                                  B.StoredAt.File,
                                                  B.StoredAt.Line,
                                                  B.StoredAt.Column);
  });
  return Bodies;
}

} // namespace clang::tidy::rematch
