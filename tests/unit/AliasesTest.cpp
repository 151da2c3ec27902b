// Aliases (checks/analysis/Aliases.h) as the effect walk uses them: a write
// through a local alias lands on every root any of its bindings reaches,
// wherever the binding is; chains and cycles of bindings end; the read
// that took the alias is part of the write; what a call returns stays a
// Root::Returned for the summary to resolve; what a function returns an
// alias of is in its direct facts.

#include "Config.h"
#include "EffectCollector.h"
#include "ModelSet.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::rematch;

namespace {

struct Collected {
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<KnownFunctions> Known;
  FactsPool Pool;
  DirectFacts Facts;

  Collected(const std::string &Code, const std::string &Function) {
    AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"});
    auto Models = modelsFor(Config());
    EXPECT_TRUE(bool(Models));
    Known = std::make_unique<KnownFunctions>(std::move(*Models));
    auto Found = match(functionDecl(hasName(Function), isDefinition())
                           .bind("f"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u);
    if (Found.empty())
      return;
    const auto *FD = Found[0].getNodeAs<FunctionDecl>("f");
    Facts = collectDirectFacts(*FD, AST->getASTContext(), *Known, Pool);
  }

  // The effects of one kind, as "subject/via@line".
  std::vector<std::string> effects(EffectKind K) const {
    std::vector<std::string> Out;
    const SourceManager &SM = AST->getSourceManager();
    for (const Effect &E : Facts.Effects)
      if (E.Kind == K)
        Out.push_back(E.facts().Subject + "/" + E.facts().Via + "@" +
                      std::to_string(SM.getSpellingLineNumber(E.Loc)));
    return Out;
  }
};

using Strings = std::vector<std::string>;

TEST(Aliases, AnyBindingCountsWhereverItIs) {
  Collected C(R"cpp(
float g[4];
void f(float x) {
  float local[4];
  float *p = local;
  for (int i = 0; i < 2; ++i) {
    p[0] = x;
    p = g;
  }
}
)cpp",
              "f");
  EXPECT_EQ(C.effects(EffectKind::StateWrite), (Strings{"g/p@7"}));
  // The read of g that took the alias is part of the write.
  EXPECT_TRUE(C.effects(EffectKind::GlobalRead).empty());
}

TEST(Aliases, ChainsAndCyclesOfBindingsEnd) {
  Collected C(R"cpp(
int g;
void f(bool b) {
  int *p = &g;
  int *q = p;
  p = q;
  q = b ? q : p;
  ++*q;
}
)cpp",
              "f");
  EXPECT_EQ(C.effects(EffectKind::CounterUpdate), (Strings{"g/q@8"}));
  ASSERT_EQ(C.Facts.Effects.size(), 1u);
  EXPECT_TRUE(C.Facts.Effects[0].AliasAt.isValid());
}

TEST(Aliases, LocalsAndConstAliasesStayQuiet) {
  Collected C(R"cpp(
int g[2];
void f() {
  int v = 0;
  int *p = &v;
  *p = 1;
  const int *c = g;
  int y = *c;
  int &r = v;
  r = y;
}
)cpp",
              "f");
  EXPECT_TRUE(C.effects(EffectKind::StateWrite).empty());
  // The const pointer only reads, where it is taken.
  EXPECT_EQ(C.effects(EffectKind::GlobalRead), (Strings{"g/@7"}));
}

TEST(Aliases, WhatACallReturnsIsLeftToTheSummary) {
  Collected C(R"cpp(
struct S { int n; };
S s;
S &get();
void f() {
  S &r = get();
  r.n = 1;
  get().n = 2;
}
)cpp",
              "f");
  Strings Targets;
  for (const Effect &E : C.Facts.Effects)
    if (E.Kind == EffectKind::StateWrite) {
      ASSERT_EQ(E.Target.K, Root::Returned);
      ASSERT_LT(E.Target.Index, C.Facts.Calls.size());
      Targets.push_back(E.facts().Via);
    }
  EXPECT_EQ(Targets, (Strings{"r", ""}));
}

TEST(Aliases, ReturnsNameTheirRoots) {
  Collected C(R"cpp(
struct S { int n; int &count() { return n; } };
S s;
S &other();
S &pick(S &a, S &b, bool first) {
  if (first)
    return a;
  if (b.n)
    return s;
  return other();
}
)cpp",
              "pick");
  Strings Returns;
  for (const ReturnedAlias &R : C.Facts.Returns)
    Returns.push_back(std::to_string(int(R.R.K)) + ":" +
                      std::to_string(R.R.Index) +
                      (R.Var ? ":" + R.Var->getNameAsString() : ""));
  EXPECT_EQ(Returns, (Strings{std::to_string(int(Root::Param)) + ":0",
                              std::to_string(int(Root::Static)) + ":0:s",
                              std::to_string(int(Root::Returned)) + ":0"}));
  // `return s;` takes an alias: a read only if no caller writes through it.
  bool ReturnedRead = false;
  for (const Effect &E : C.Facts.Effects)
    if (E.Kind == EffectKind::GlobalRead)
      ReturnedRead |= E.ReturnedRead;
  EXPECT_TRUE(ReturnedRead);
}

} // namespace
