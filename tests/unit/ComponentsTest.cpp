// forEachComponent: components reported callees first, each once, and a
// chain deeper than any native stack.

#include "Components.h"
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace clang::tidy::rematch;

namespace {

// Runs the walk over a graph given as adjacency lists of ints; returns the
// components as sets of keys, in the order they were reported.
std::vector<std::set<int>> components(const std::map<int, std::vector<int>> &G,
                                      std::vector<int> Roots) {
  std::vector<int> KeyOf;
  std::vector<std::set<int>> Out;
  forEachComponent<int>(
      Roots,
      [&](int K) {
        KeyOf.push_back(K);
        return unsigned(KeyOf.size() - 1);
      },
      [&](unsigned V) -> llvm::ArrayRef<int> {
        auto It = G.find(KeyOf[V]);
        return It == G.end() ? llvm::ArrayRef<int>()
                             : llvm::ArrayRef<int>(It->second);
      },
      [&](llvm::ArrayRef<unsigned> SCC) {
        std::set<int> C;
        for (unsigned V : SCC)
          C.insert(KeyOf[V]);
        Out.push_back(C);
      });
  return Out;
}

TEST(Components, CalleesFirstAndCyclesTogether) {
  // 1 -> 2 -> 3 -> 2 (a cycle), 2 -> 4, 1 -> 5 -> 5 (a self-loop).
  std::map<int, std::vector<int>> G = {
      {1, {2, 5}}, {2, {3, 4}}, {3, {2}}, {5, {5}}};
  std::vector<std::set<int>> C = components(G, {1});
  ASSERT_EQ(C.size(), 4u);
  auto At = [&](int K) {
    for (size_t I = 0; I < C.size(); ++I)
      if (C[I].count(K))
        return I;
    return C.size();
  };
  EXPECT_EQ(C[At(2)], (std::set<int>{2, 3}));
  EXPECT_EQ(C[At(5)], (std::set<int>{5}));
  EXPECT_LT(At(4), At(2)); // a callee before its caller
  EXPECT_LT(At(2), At(1));
  EXPECT_LT(At(5), At(1));
  EXPECT_EQ(At(1), 3u);
}

TEST(Components, EachNodeOnceAcrossRoots) {
  std::map<int, std::vector<int>> G = {{1, {3}}, {2, {3}}, {3, {}}};
  std::vector<std::set<int>> C = components(G, {1, 2, 3, 1});
  EXPECT_EQ(C, (std::vector<std::set<int>>{{3}, {1}, {2}}));
}

TEST(Components, ChainDeeperThanTheStack) {
  constexpr int Depth = 200000; // recursion this deep overflows 8 MiB
  std::map<int, std::vector<int>> G;
  for (int I = 0; I < Depth; ++I)
    G[I] = {I + 1};
  G[Depth] = {0}; // and one cycle through all of them
  std::vector<std::set<int>> C = components(G, {0});
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].size(), size_t(Depth) + 1);
}

} // namespace
