//===--- Compose.cpp - the whole program's effects from its summaries ----===//

#include "Compose.h"
#include "CacheLayout.h"
#include "Components.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include <deque>
#include <mutex>
#include <optional>

namespace clang::tidy::rematch {

namespace {

bool samePlace(const PlainLocation &A, const PlainLocation &B) {
  return A.Line == B.Line && A.Column == B.Column && A.File == B.File;
}

// One effect per call, kind and target however many paths lead there (and
// per global for reads), as in one TU's analysis.
uint64_t inheritedKey(const SummaryEffect &E, const PlainLocation &Call) {
  return llvm::hash_combine(
      int(E.Kind), Call.File, Call.Line, Call.Column, int(E.Target.K),
      E.Target.Index,
      E.Kind == EffectKind::GlobalRead ? llvm::StringRef(E.VarUsr)
                                       : llvm::StringRef());
}

// What a callable's report needs besides an effect (CallableEffect).
struct Extra {
  PlainLocation LastAliasAt;
  bool Held = false, OtherTU = false;
};

struct Node {
  const FunctionFacts *F;
  // What each call may run, flattened: the targets of Calls[I] are
  // Targets[TargetBegin[I] .. TargetBegin[I + 1]).
  std::vector<const FunctionFacts *> Targets;
  std::vector<unsigned> TargetBegin;
  // The composed effects, own first; for each, the root of the callee's
  // effect it was inherited from (Local for an own effect), and whether
  // that effect was a read only taking what the callee returns.
  std::vector<SummaryEffect> Effects;
  std::vector<Extra> Extras; // composeCallables' view of each
  std::vector<Root> Origin;
  std::vector<bool> OriginReturnedRead;
  llvm::DenseSet<uint64_t> Seen;
  // Own effects through what a call returns, resolved as the callees'
  // returns are; the composed returns; the calls written through.
  std::vector<const SummaryEffect *> Through;
  std::vector<SummaryReturn> Returns;
  llvm::DenseSet<unsigned> WrittenThrough; // call indices
};

bool sameReturn(const SummaryReturn &A, const SummaryReturn &B) {
  return A.R == B.R && A.VarUsr == B.VarUsr;
}

// The note the analysis of one TU adds at the end of a chain whose last
// step is E: an own effect's alias here (Local), or the alias of another
// TU's effect, which its summary wrote only for an effect of its own.
PlainLocation lastAliasAt(const SummaryEffect &E, bool Local) {
  bool Noted = Local ? !E.Via.empty() : E.Chain.size() == 1;
  return Noted && E.AliasAt.Line ? E.AliasAt : PlainLocation();
}

class Composer {
public:
  // Program: a call to a function none of TUs lists inherits what it says
  // of the callee (composeCallables).
  explicit Composer(llvm::ArrayRef<const TUSummary *> TUs,
                    const ExternalSummaries *Program = nullptr)
      : Out(std::make_shared<ExternalSummaries>()), Program(Program) {
    for (const TUSummary *S : TUs) {
      Out->add(*S);
      for (const FunctionFacts &F : S->Functions)
        if (Facts.try_emplace(F.Usr, &F).second)
          Roots.push_back(&F);
    }
  }

  // Composes From and what it reaches (default: every function).
  void solveAll(std::optional<llvm::ArrayRef<const FunctionFacts *>> From =
                    std::nullopt) {
    forEachComponent<const FunctionFacts *>(
        From ? *From : llvm::ArrayRef<const FunctionFacts *>(Roots),
        [&](const FunctionFacts *F) { return discover(F); },
        [&](unsigned V) -> llvm::ArrayRef<const FunctionFacts *> {
          return Nodes[V].Targets;
        },
        [&](llvm::ArrayRef<unsigned> SCC) { solve(SCC); });
  }

  std::vector<CallableEffect> effectsOf(const FunctionFacts *F) {
    std::vector<CallableEffect> Found;
    auto It = NodeOf.find(F);
    if (It == NodeOf.end())
      return Found;
    Node &N = Nodes[It->second];
    for (unsigned I = 0; I < N.Effects.size(); ++I)
      Found.push_back({N.Effects[I], N.Extras[I].LastAliasAt,
                       N.Extras[I].Held, N.Extras[I].OtherTU});
    return Found;
  }

  std::shared_ptr<ExternalSummaries> run() {
    solveAll();
    for (Node &N : Nodes) {
      FunctionEffects F;
      F.Usr = N.F->Usr;
      F.Name = N.F->Name;
      for (SummaryEffect &E : N.Effects)
        if (E.Target.K != Root::Capture) // no caller can map it
          F.Effects.push_back(std::move(E));
      F.Returns = std::move(N.Returns);
      if (!F.Effects.empty() || !F.Returns.empty())
        Out->addFunction(std::move(F));
    }
    return Out;
  }

private:
  unsigned discover(const FunctionFacts *F) {
    unsigned V = Nodes.size();
    NodeOf[F] = V;
    Node N;
    N.F = F;
    N.TargetBegin.reserve(F->Calls.size() + 1);
    for (const SummaryCall &C : F->Calls) {
      N.TargetBegin.push_back(N.Targets.size());
      addTargets(C, N.Targets);
    }
    N.TargetBegin.push_back(N.Targets.size());
    Nodes.push_back(std::move(N));
    return V;
  }

  void addTargets(const SummaryCall &C,
                  std::vector<const FunctionFacts *> &Targets) {
    if (!C.HeldPlace.empty()) { // what the value holds, not its call operator
      for (const SummaryHeld &H : Out->heldIn(C.HeldPlace))
        if (auto It = Facts.find(H.Callable); It != Facts.end())
          Targets.push_back(It->second);
      return;
    }
    if (const FunctionFacts *F = find(C.Callee))
      Targets.push_back(F);
    if (!C.Virtual)
      return;
    if (Program)
      Asked.insert(overridesDependency(C.Callee));
    for (const SummaryOverride &O :
         (Program ? Program : Out.get())->overridesOf(C.Callee)) {
      if (O.Override == C.Callee ||
          (!C.StaticClass.empty() && !llvm::is_contained(O.Classes, C.StaticClass)))
        continue;
      if (const FunctionFacts *F = find(O.Override))
        Targets.push_back(F);
    }
  }

  // The facts of the function with this USR: of the TUs composed, or made
  // of what Program says of it.
  const FunctionFacts *find(llvm::StringRef Usr) {
    auto It = Facts.find(Usr);
    if (It != Facts.end())
      return It->second;
    if (!Program)
      return nullptr;
    Asked.insert(Usr);
    const FunctionEffects *X = Program->lookup(Usr);
    if (!X)
      return nullptr;
    FunctionFacts &F = Outside.emplace_back();
    F.Usr = X->Usr;
    F.Name = X->Name;
    F.Effects = X->Effects;
    F.Returns = X->Returns;
    Facts[Usr] = &F;
    OutsideFacts.insert(&F);
    return &F;
  }

  void solve(llvm::ArrayRef<unsigned> SCC) {
    bool Recursive = SCC.size() > 1;
    for (unsigned V : SCC) {
      Node &N = Nodes[V];
      for (const SummaryEffect &E : N.F->Effects) {
        if (E.Target.K == Root::Returned) {
          N.Through.push_back(&E);
          continue;
        }
        if (E.Kind == EffectKind::GlobalRead && !E.VarUsr.empty())
          GlobalsRead.insert(E.VarUsr);
        N.Effects.push_back(E);
        // Program's function: composed already, in another TU.
        const bool Outside = OutsideFacts.contains(N.F);
        N.Extras.push_back({lastAliasAt(E, !Outside), false, Outside});
        N.Origin.push_back(Root::local());
        N.OriginReturnedRead.push_back(false);
      }
      Recursive |= llvm::is_contained(N.Targets, N.F);
    }
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (unsigned V : SCC)
        Changed |= inherit(V);
      if (!Recursive)
        break; // the callees' effects were final already
    }
    for (unsigned V : SCC) {
      dropReadsPartOfChange(Nodes[V]);
      Nodes[V].Seen = {};
    }
  }

  // What call CI of node V returns an alias of, in V's roots.
  void returnedBy(unsigned V, unsigned CI, std::vector<SummaryReturn> &Out,
                  unsigned Depth = 0) const {
    const FunctionFacts &F = *Nodes[V].F;
    if (CI >= F.Calls.size() || Depth > 8)
      return;
    const SummaryCall &C = F.Calls[CI];
    for (unsigned TI = Nodes[V].TargetBegin[CI];
         TI < Nodes[V].TargetBegin[CI + 1]; ++TI) {
      const Node &T = Nodes[NodeOf.find(Nodes[V].Targets[TI])->second];
      for (const SummaryReturn &X : T.Returns) {
        std::optional<Root> R = mapRoot(X.R, C);
        if (!R)
          continue;
        if (R->K == Root::Returned) { // pick(buf()): what buf() returns
          returnedBy(V, R->Index, Out, Depth + 1);
          continue;
        }
        SummaryReturn M;
        M.R = *R;
        if (R->K == Root::Static) {
          M.VarUsr = X.VarUsr;
          M.VarName = X.VarName;
        }
        if (llvm::none_of(Out, [&](const SummaryReturn &Y) {
              return sameReturn(M, Y);
            }))
          Out.push_back(std::move(M));
      }
    }
  }

  // Appends E (from the callee's effect From, at call C, or own when C is
  // null) with its target mapped to R; true if new. Virtual: the call runs
  // an override; ReturnedRead: E's, which may differ from From's.
  bool add(unsigned V, const SummaryEffect &From, Extra X,
           const SummaryCall *C, Root R, Root Origin, bool OriginReturnedRead,
           bool Virtual, bool ReturnedRead) {
    const FunctionFacts &F = *Nodes[V].F;
    SummaryEffect E;
    E.Kind = From.Kind;
    E.Target = R;
    E.VarUsr = From.VarUsr;
    if (!Nodes[V].Seen.insert(inheritedKey(E, C ? C->Loc : From.Chain.front().Loc))
             .second)
      return false;
    static_cast<EffectFacts &>(E) = From;
    E.ReturnedRead = ReturnedRead;
    if (!C) { // an own effect through a returned alias
      E.Virtual = Virtual;
      E.Chain = From.Chain;
      E.MutatedAt = From.MutatedAt;
      E.MutatedSlot = From.MutatedSlot;
      E.AliasAt = From.AliasAt;
    } else {
      E.Virtual = Virtual; // an override's, not the named function's own
      E.Chain.reserve(From.Chain.size() + 1);
      E.Chain.push_back({F.Name, C->CalleeName, C->Loc});
      E.Chain.insert(E.Chain.end(), From.Chain.begin(), From.Chain.end());
    }
    if (C)
      X.Held |= !C->HeldPlace.empty();
    else
      X.LastAliasAt = lastAliasAt(E, /*Local=*/true);
    Nodes[V].Effects.push_back(std::move(E));
    Nodes[V].Extras.push_back(std::move(X));
    Nodes[V].Origin.push_back(Origin);
    Nodes[V].OriginReturnedRead.push_back(OriginReturnedRead);
    return true;
  }

  // Appends what the calls of node V bring in; true if it grew.
  bool inherit(unsigned V) {
    bool Grew = false;
    const FunctionFacts &F = *Nodes[V].F;
    auto ReturnsCall = [&](unsigned CI) {
      return llvm::any_of(F.Returns, [&](const SummaryReturn &X) {
        return X.R == Root::of(Root::Returned, CI);
      });
    };
    for (unsigned CI = 0; CI < F.Calls.size(); ++CI) {
      const SummaryCall &C = F.Calls[CI];
      for (unsigned TI = Nodes[V].TargetBegin[CI];
           TI < Nodes[V].TargetBegin[CI + 1]; ++TI) {
        const FunctionFacts *T = Nodes[V].Targets[TI];
        const unsigned TV = NodeOf.find(T)->second;
        const bool Override = C.HeldPlace.empty() && T->Usr != C.Callee;
        // By index, re-read each time: T may be F itself and grow.
        for (unsigned I = 0; I < Nodes[TV].Effects.size(); ++I) {
          // Copied when T is F: adding may move F's effects.
          std::optional<SummaryEffect> Own;
          if (TV == V)
            Own = Nodes[TV].Effects[I];
          const SummaryEffect &From = Own ? *Own : Nodes[TV].Effects[I];
          std::optional<Root> R = mapRoot(From.Target, C);
          // One TU's analysis maps what a lambda captured onto the closure
          // it calls (SummarySolver::append); the summaries do not say
          // which callee is a lambda.
          if (!R && From.Target.K == Root::Capture && C.Object.isOutside())
            CapturesDropped = true;
          if (!R)
            continue;
          std::vector<SummaryReturn> Roots;
          if (R->K == Root::Returned) { // `stats().record(x)`
            returnedBy(V, R->Index, Roots);
            if (!Roots.empty() && From.Kind != EffectKind::GlobalRead)
              Nodes[V].WrittenThrough.insert(R->Index);
          } else {
            Roots.push_back({*R, {}, {}});
          }
          const bool Read = From.ReturnedRead;
          const Extra FromExtra = Nodes[TV].Extras[I];
          for (const SummaryReturn &X : Roots)
            Grew |= add(V, From, FromExtra, &C, X.R, From.Target, Read,
                        Override || From.Virtual, Read && ReturnsCall(CI));
        }
      }
    }
    // Own changes through what a call returns, named by the global it is.
    for (const SummaryEffect *E : Nodes[V].Through) {
      std::vector<SummaryReturn> Roots;
      returnedBy(V, E->Target.Index, Roots);
      if (!Roots.empty())
        Nodes[V].WrittenThrough.insert(E->Target.Index);
      for (const SummaryReturn &X : Roots) {
        SummaryEffect Named = *E;
        if (!X.VarName.empty()) {
          Named.Subject = X.VarName;
          if (Named.Via.empty())
            Named.Via = Named.ViaCall;
        }
        // What a call returns may be another TU's.
        Grew |= add(V, Named, {{}, false, /*OtherTU=*/true}, nullptr, X.R,
                    Root::local(), false, Named.Virtual, Named.ReturnedRead);
      }
    }
    for (const SummaryReturn &X : F.Returns) {
      std::vector<SummaryReturn> Roots;
      if (X.R.K == Root::Returned)
        returnedBy(V, X.R.Index, Roots);
      else
        Roots.push_back(X);
      for (SummaryReturn &R : Roots)
        if (llvm::none_of(Nodes[V].Returns, [&](const SummaryReturn &Y) {
              return sameReturn(R, Y);
            })) {
          Nodes[V].Returns.push_back(std::move(R));
          Grew = true;
        }
    }
    return Grew;
  }

  // `g_stats.record(x)`, where record() changes its object: the read of
  // g_stats is part of that change and reported with it, not on its own;
  // so is reading g_buf to pass it to `fill(p, n)`, which writes its
  // parameter, and a callee's read that only takes the alias it returns
  // when this function writes through it.
  void dropReadsPartOfChange(Node &N) {
    std::vector<bool> Drop(N.Effects.size(), false);
    bool Any = false;
    const FunctionFacts &F = *N.F;
    for (unsigned I = 0; I < N.Effects.size(); ++I) {
      const SummaryEffect &R = N.Effects[I];
      if (R.Kind != EffectKind::GlobalRead)
        continue;
      if (N.Origin[I].K != Root::Local) {
        // Inherited at a call whose returned alias this function writes.
        if (N.OriginReturnedRead[I])
          for (unsigned CI : N.WrittenThrough)
            if (samePlace(F.Calls[CI].Loc, R.Chain.front().Loc)) {
              Drop[I] = Any = true;
              break;
            }
        continue;
      }
      if (!R.MutatedAt.Line)
        continue;
      Root Changed = R.MutatedSlot == 0
                         ? Root::of(Root::This)
                         : Root::of(Root::Param, R.MutatedSlot - 1);
      for (unsigned M = 0; M < N.Effects.size(); ++M) {
        const SummaryEffect &Change = N.Effects[M];
        if (N.Origin[M] == Changed && Change.Target.K == Root::Static &&
            Change.Kind != EffectKind::GlobalRead &&
            Change.Chain.size() > 1 &&
            samePlace(Change.Chain.front().Loc, R.MutatedAt)) {
          Drop[I] = Any = true;
          break;
        }
      }
    }
    if (!Any)
      return;
    unsigned Kept = 0;
    for (unsigned I = 0; I < N.Effects.size(); ++I)
      if (!Drop[I]) {
        N.Effects[Kept] = std::move(N.Effects[I]);
        N.Extras[Kept] = std::move(N.Extras[I]);
        N.Origin[Kept] = N.Origin[I];
        N.OriginReturnedRead[Kept++] = N.OriginReturnedRead[I];
      }
    N.Effects.resize(Kept);
    N.Extras.resize(Kept);
    N.Origin.resize(Kept);
    N.OriginReturnedRead.resize(Kept);
  }

public:
  bool CapturesDropped = false; // see inherit()
  llvm::StringSet<> Asked;      // the dependency keys looked up in Program
  llvm::StringSet<> GlobalsRead; // USRs of the globals read, dropped or not

private:
  std::shared_ptr<ExternalSummaries> Out;
  const ExternalSummaries *Program;
  std::deque<FunctionFacts> Outside; // Program's functions called
  llvm::DenseSet<const FunctionFacts *> OutsideFacts;
  llvm::StringMap<const FunctionFacts *> Facts;
  std::vector<const FunctionFacts *> Roots;
  std::vector<Node> Nodes;
  llvm::DenseMap<const FunctionFacts *, unsigned> NodeOf;
};

} // namespace

std::shared_ptr<ExternalSummaries>
composeSummaries(llvm::ArrayRef<const TUSummary *> TUs) {
  return Composer(TUs).run();
}

std::optional<ComposedCallables>
composeCallables(const TUSummary &S, const ExternalSummaries &Program) {
  Composer C({&S}, &Program);
  std::vector<const FunctionFacts *> Callables;
  for (const SummaryCallable &X : S.Callables)
    Callables.push_back(&X.Facts);
  C.solveAll(Callables);
  if (C.CapturesDropped)
    return std::nullopt;
  ComposedCallables Out;
  for (const FunctionFacts *F : Callables)
    Out.Effects.push_back(C.effectsOf(F));
  Out.Asked = std::move(C.Asked);
  for (const auto &G : C.GlobalsRead)
    Out.Asked.insert(globalDependency(G.getKey()));
  return Out;
}

std::shared_ptr<const ExternalSummaries> readSummariesDir(llvm::StringRef Dir) {
  static std::mutex ReadMutex;
  static llvm::StringMap<std::shared_ptr<const ExternalSummaries>> Read;
  std::lock_guard<std::mutex> Lock(ReadMutex);
  auto [It, Inserted] = Read.try_emplace(Dir);
  if (!Inserted)
    return It->second;
  std::vector<TUSummary> Summaries;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator F(Dir, EC), End; F != End && !EC;
       F.increment(EC)) {
    if (!CacheLayout::isSummary(F->path()))
      continue;
    llvm::Expected<TUSummary> S = readSummaryFile(F->path());
    if (!S) {
      llvm::consumeError(S.takeError());
      continue;
    }
    if (llvm::sys::fs::exists(S->MainFile))
      Summaries.push_back(std::move(*S));
  }
  if (Summaries.empty())
    return nullptr;
  std::vector<const TUSummary *> All;
  for (const TUSummary &S : Summaries)
    All.push_back(&S);
  It->second = composeSummaries(All);
  return It->second;
}

} // namespace clang::tidy::rematch
