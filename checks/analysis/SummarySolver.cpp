//===--- SummarySolver.cpp - each reached function's transitive effects ---===//
//
// The solve stage of one translation unit's analysis (docs/architecture.md):
// the summary of every function the sites' callables reach, callees first,
// one strongly connected component of the call graph at a time, each
// iterated to a fixed point once its callees are final. An effect of a
// callee is mapped onto the caller's roots at each call; a call into
// another file inherits that file's composed effects (ExternalSummaries).
//
//===----------------------------------------------------------------------===//

#include "Components.h"
#include "EffectAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"
#include <type_traits>

namespace clang::tidy::rematch {

namespace {

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
  // So does what a lambda called directly captured (`next()` on a closure
  // made outside, a mutable one's copies included): it lives in, or is
  // reached from, the closure object the call is made on.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  bool LambdaCall = Method && Method->getParent()->isLambda();
  if ((IsHeld && (F.Target.K == Root::Capture || F.Target.K == Root::This)) ||
      (LambdaCall && F.Target.K == Root::Capture))
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

} // namespace clang::tidy::rematch
