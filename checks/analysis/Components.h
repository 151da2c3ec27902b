//===--- Components.h - strongly connected components, callees first -*- C++ -*-===//
//
// The summaries are computed one strongly connected component of the call
// graph at a time, each once the components it calls are final. The graph
// is discovered as it is walked: a function's calls are known only once its
// body has been read.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_COMPONENTS_H
#define REMATCH_CHECKS_COMPONENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <vector>

namespace clang::tidy::rematch {

// Tarjan's algorithm with an explicit stack, so a call chain thousands deep
// cannot overflow the native stack. Nodes are numbered in discovery order:
// Discover(K) is called once for each new node K and returns its number (the
// caller keeps per-node data in a vector indexed by it); Successors(V) gives
// the nodes V leads to, and is asked again at each step (it may be stored in
// a vector that grows); Component(ArrayRef<unsigned>) is called once per
// component, every component it leads to having been reported before.
template <class Key, class DiscoverFn, class SuccessorsFn, class ComponentFn>
void forEachComponent(llvm::ArrayRef<Key> Roots, DiscoverFn Discover,
                      SuccessorsFn Successors, ComponentFn Component) {
  llvm::DenseMap<Key, unsigned> Index;
  std::vector<unsigned> Low;
  std::vector<bool> OnStack;
  std::vector<unsigned> Stack;
  struct Frame {
    unsigned V;
    size_t Pos = 0; // the next successor of V to look at
  };
  std::vector<Frame> Work;
  auto Enter = [&](Key K) {
    unsigned V = Discover(K);
    Index[K] = V;
    if (Low.size() <= V) {
      Low.resize(V + 1);
      OnStack.resize(V + 1);
    }
    Low[V] = V;
    OnStack[V] = true;
    Stack.push_back(V);
    Work.push_back({V});
  };
  std::vector<unsigned> SCC;
  for (const Key &Root : Roots) {
    if (Index.count(Root))
      continue;
    Enter(Root);
    while (!Work.empty()) {
      Frame &F = Work.back();
      llvm::ArrayRef<Key> Next = Successors(F.V);
      if (F.Pos < Next.size()) {
        Key W = Next[F.Pos++];
        auto It = Index.find(W);
        if (It == Index.end())
          Enter(W); // invalidates F
        else if (OnStack[It->second])
          Low[F.V] = std::min(Low[F.V], It->second);
        continue;
      }
      const unsigned V = F.V;
      Work.pop_back();
      if (!Work.empty())
        Low[Work.back().V] = std::min(Low[Work.back().V], Low[V]);
      if (Low[V] != V)
        continue;
      SCC.clear();
      unsigned W;
      do {
        W = Stack.back();
        Stack.pop_back();
        OnStack[W] = false;
        SCC.push_back(W);
      } while (W != V);
      Component(llvm::ArrayRef<unsigned>(SCC));
    }
  }
}

} // namespace clang::tidy::rematch

#endif
