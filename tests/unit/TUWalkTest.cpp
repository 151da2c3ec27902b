// TUWalk: each body of the translation unit is walked once, by the effect
// walk when checkpointed code can reach it and by the scan otherwise; the
// sites and the globals anything writes are found either way, and the sites
// keep the order of the translation unit although the units are read from
// last to first.

#include "Config.h"
#include "HeldCallables.h"
#include "ModelSet.h"
#include "TUWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <set>
#include <string>

using namespace clang;
using namespace clang::tidy::rematch;

namespace {

const char *Prelude = R"cpp(
namespace rematch {
struct Segment {
  template <class F>
  decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F &&f) {
    return f();
  }
};
} // namespace rematch
)cpp";

// One translation unit walked: what the walk found.
struct Walked {
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<KnownFunctions> Known;
  std::unique_ptr<HeldCallables> Held;
  FactsPool Pool;
  std::vector<CheckpointSite> Sites;
  OverrideMap Overrides;
  GlobalUseCollector Uses;
  unsigned FunctionsWithBody = 0;
  std::vector<const FunctionDecl *> Candidates;
  llvm::DenseMap<const FunctionDecl *, DirectFacts> Facts;
  unsigned Units = 0, WalkedTwice = 0;

  explicit Walked(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(Prelude + Code, {"-std=c++17", "-Wno-unevaluated-expression"});
    auto Models = modelsFor(Config());
    EXPECT_TRUE(bool(Models));
    Known = std::make_unique<KnownFunctions>(std::move(*Models));
    EntryPoints EP(Known->models());
    // Callees are wanted as the summaries follow them: direct calls only.
    auto Expand = [](TUWalk &W, const FunctionDecl &, const DirectFacts &F,
                     uint8_t) {
      for (const CallSite &C : F.Calls)
        if (const FunctionDecl *Def = C.Callee->getDefinition())
          W.want(Def, Reached);
    };
    Held = std::make_unique<HeldCallables>(Known->models());
    TUWalk Walk(AST->getASTContext(), *Known, Pool, EP, nullptr,
                {Sites, Overrides, nullptr, Uses, FunctionsWithBody,
                 Candidates, Facts, *Held},
                Expand);
    Walk.declarations();
    Walk.bodies();
    Units = Walk.units();
    WalkedTwice = Walk.unitsWalkedTwice();
  }

  // The qualified names of the functions the effect walk read.
  std::set<std::string> read() const {
    std::set<std::string> Names;
    for (const auto &[FD, F] : Facts)
      Names.insert(FD->getQualifiedNameAsString());
    return Names;
  }
  std::set<std::string> written() const {
    std::set<std::string> Names;
    for (const VarDecl *VD : Uses.result())
      Names.insert(VD->getNameAsString());
    return Names;
  }
  unsigned line(const CheckpointSite &S) const {
    return AST->getSourceManager().getPresumedLineNumber(
        S.Call->getBeginLoc());
  }
};

TEST(TUWalk, ReachedBodiesAreReadOnceAndTheOthersOnlyScanned) {
  Walked W(R"cpp(
int g = 0, h = 0;
int leaf(int x) { ++h; return x + g; }
int mid(int x) { return leaf(x) * 2; }
int unused(int x) { g = x; return x; }
int declared_later; // nothing to traverse after a body
float step(rematch::Segment &s, int x) {
  return s.forward([&] { return mid(x); });
}
)cpp");
  ASSERT_EQ(W.Sites.size(), 1u);
  // One unit per body outside a function: forward (the template and its
  // instance), leaf, mid, unused and step.
  EXPECT_EQ(W.Units, 6u);
  // The lambda, what it calls, and the entry point's instance it runs in.
  std::set<std::string> Read = W.read();
  EXPECT_TRUE(Read.count("mid"));
  EXPECT_TRUE(Read.count("leaf"));
  EXPECT_FALSE(Read.count("unused"));
  EXPECT_FALSE(Read.count("step"));
  EXPECT_EQ(W.WalkedTwice, 0u);
  // g is written in a body only scanned, h in one only read by the effect
  // walk: both walks find the writes.
  EXPECT_EQ(W.written(), (std::set<std::string>{"g", "h"}));
}

TEST(TUWalk, ABodyWantedAfterItsScanIsCounted) {
  Walked W(R"cpp(
int later(int);
float step(rematch::Segment &s, int x) {
  return s.forward([&] { return later(x); });
}
int later(int x) { return x; }
)cpp");
  ASSERT_EQ(W.Sites.size(), 1u);
  // later() comes after its caller: scanned before the site was met.
  EXPECT_EQ(W.WalkedTwice, 1u);
  EXPECT_FALSE(W.read().count("later"));
}

TEST(TUWalk, SitesKeepTheOrderOfTheTranslationUnit) {
  Walked W(R"cpp(
int g = 0;
int first(rematch::Segment &s) { return s.forward([] { return 1; }); }
int second(rematch::Segment &s) {
  int a = s.forward([] { return 2; });
  return a + s.forward([] { return 3; });
}
int third(rematch::Segment &s) {
  // A site inside checkpointed code: found by the effect walk.
  return s.forward([&] { return s.forward([] { return 4; }); });
}
)cpp");
  ASSERT_EQ(W.Sites.size(), 5u);
  std::vector<unsigned> Lines;
  for (const CheckpointSite &S : W.Sites)
    Lines.push_back(W.line(S));
  EXPECT_TRUE(std::is_sorted(Lines.begin(), Lines.end()));
  EXPECT_LT(Lines.front(), Lines.back());
}

TEST(TUWalk, WhatTheEffectWalkLeavesOutIsStillScanned) {
  Walked W(R"cpp(
int g1 = 0, g2 = 0, g3 = 0;
int reached(int x) {
  if constexpr (false) { g1 = x; }
  static int once = (g2 = 2);
  (void)sizeof(g3 = 1);
  return x + once;
}
int plain(int x) { return x; }
float step(rematch::Segment &s, int x) {
  return s.forward([&] { return reached(x) + plain(x); });
}
)cpp");
  EXPECT_TRUE(W.read().count("reached"));
  // Discarded branches, static locals' initialisers and unevaluated operands
  // are no effect of the body, but they are uses the scan counted.
  EXPECT_EQ(W.written(), (std::set<std::string>{"g1", "g2", "g3"}));
  EXPECT_EQ(W.WalkedTwice, 0u);
}

} // namespace
