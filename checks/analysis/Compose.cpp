//===--- Compose.cpp - the whole program's effects from its summaries ----===//

#include "Compose.h"
#include "Components.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
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

struct Node {
  const FunctionFacts *F;
  // What each call may run, flattened: the targets of Calls[I] are
  // Targets[TargetBegin[I] .. TargetBegin[I + 1]).
  std::vector<const FunctionFacts *> Targets;
  std::vector<unsigned> TargetBegin;
  // The composed effects, own first; for each, the root of the callee's
  // effect it was inherited from (Local for an own effect).
  std::vector<SummaryEffect> Effects;
  std::vector<Root::Kind> Origin;
  llvm::DenseSet<uint64_t> Seen;
};

class Composer {
public:
  explicit Composer(llvm::ArrayRef<const TUSummary *> TUs)
      : Out(std::make_shared<ExternalSummaries>()) {
    for (const TUSummary *S : TUs) {
      Out->add(*S);
      for (const FunctionFacts &F : S->Functions)
        if (Facts.try_emplace(F.Usr, &F).second)
          Roots.push_back(&F);
    }
  }

  std::shared_ptr<ExternalSummaries> run() {
    forEachComponent<const FunctionFacts *>(
        Roots, [&](const FunctionFacts *F) { return discover(F); },
        [&](unsigned V) -> llvm::ArrayRef<const FunctionFacts *> {
          return Nodes[V].Targets;
        },
        [&](llvm::ArrayRef<unsigned> SCC) { solve(SCC); });
    for (Node &N : Nodes) {
      FunctionEffects F;
      F.Usr = N.F->Usr;
      F.Name = N.F->Name;
      for (SummaryEffect &E : N.Effects)
        if (E.Target.K != Root::Capture) // no caller can map it
          F.Effects.push_back(std::move(E));
      if (!F.Effects.empty())
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
                  std::vector<const FunctionFacts *> &Targets) const {
    auto It = Facts.find(C.Callee);
    if (It != Facts.end())
      Targets.push_back(It->second);
    if (!C.Virtual)
      return;
    for (const SummaryOverride &O : Out->overridesOf(C.Callee)) {
      if (O.Override == C.Callee ||
          (!C.StaticClass.empty() && !llvm::is_contained(O.Classes, C.StaticClass)))
        continue;
      auto OIt = Facts.find(O.Override);
      if (OIt != Facts.end())
        Targets.push_back(OIt->second);
    }
  }

  void solve(llvm::ArrayRef<unsigned> SCC) {
    bool Recursive = SCC.size() > 1;
    for (unsigned V : SCC) {
      Node &N = Nodes[V];
      for (const SummaryEffect &E : N.F->Effects) {
        N.Effects.push_back(E);
        N.Origin.push_back(Root::Local);
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

  // Appends what the calls of node V bring in; true if it grew.
  bool inherit(unsigned V) {
    bool Grew = false;
    const FunctionFacts &F = *Nodes[V].F;
    for (unsigned CI = 0; CI < F.Calls.size(); ++CI) {
      const SummaryCall &C = F.Calls[CI];
      for (unsigned TI = Nodes[V].TargetBegin[CI];
           TI < Nodes[V].TargetBegin[CI + 1]; ++TI) {
        const FunctionFacts *T = Nodes[V].Targets[TI];
        const unsigned TV = NodeOf.find(T)->second;
        const bool Override = T->Usr != C.Callee;
        // By index, re-read each time: T may be F itself and grow.
        for (unsigned I = 0; I < Nodes[TV].Effects.size(); ++I) {
          const SummaryEffect &From = Nodes[TV].Effects[I];
          std::optional<Root> R = mapRoot(From.Target, C);
          if (!R)
            continue;
          SummaryEffect E;
          E.Kind = From.Kind;
          E.Target = *R;
          E.VarUsr = From.VarUsr;
          if (!Nodes[V].Seen.insert(inheritedKey(E, C.Loc)).second)
            continue;
          static_cast<EffectFacts &>(E) = From;
          E.Virtual = C.Virtual || From.Virtual || Override;
          E.Chain.reserve(From.Chain.size() + 1);
          E.Chain.push_back({F.Name, C.CalleeName, C.Loc});
          E.Chain.insert(E.Chain.end(), From.Chain.begin(), From.Chain.end());
          Root::Kind Origin = From.Target.K;
          Nodes[V].Effects.push_back(std::move(E));
          Nodes[V].Origin.push_back(Origin);
          Grew = true;
        }
      }
    }
    return Grew;
  }

  // `g_stats.record(x)`, where record() changes its object: the read of
  // g_stats is part of that change and reported with it, not on its own.
  static void dropReadsPartOfChange(Node &N) {
    std::vector<bool> Drop(N.Effects.size(), false);
    bool Any = false;
    for (unsigned I = 0; I < N.F->Effects.size(); ++I) {
      const SummaryEffect &R = N.Effects[I];
      if (R.Kind != EffectKind::GlobalRead || !R.MutatedAt.Line)
        continue;
      for (unsigned M = N.F->Effects.size(); M < N.Effects.size(); ++M) {
        const SummaryEffect &Change = N.Effects[M];
        if (N.Origin[M] == Root::This && Change.Target.K == Root::Static &&
            Change.Kind != EffectKind::GlobalRead &&
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
        N.Origin[Kept++] = N.Origin[I];
      }
    N.Effects.resize(Kept);
    N.Origin.resize(Kept);
  }

  std::shared_ptr<ExternalSummaries> Out;
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

} // namespace clang::tidy::rematch
