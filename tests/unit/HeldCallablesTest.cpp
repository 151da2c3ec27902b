// HeldCallables (checks/analysis/HeldCallables.h): what a value that holds
// callables may hold, from every store the walk tells it of: variables,
// members, returns, containers of callables and their elements, a getter's
// result rather than the getter, and places other translation units can
// name (sharedPlace).

#include "Config.h"
#include "HeldCallables.h"
#include "ModelSet.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::tidy::rematch;

namespace {

// Tells the index of every node as the TU walk does, and keeps the
// argument of each call to `use`.
struct Walk : RecursiveASTVisitor<Walk> {
  HeldCallables &Held;
  std::vector<const Expr *> Uses;
  explicit Walk(HeldCallables &H) : Held(H) {}
  // Not the library's instantiations: the stores are in the code below.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }
  bool VisitVarDecl(VarDecl *V) {
    Held.onVarDecl(*V);
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    Held.onField(*F);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *F) {
    Held.onFunction(*F);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    Held.onFunction(*L->getCallOperator());
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    if (S->getLoopVariable())
      Held.onRange(*S->getLoopVariable(), S->getRangeInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    Held.onCall(*CE);
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->getIdentifier() && FD->getName() == "use" && CE->getNumArgs())
        Uses.push_back(CE->getArg(0));
    return true;
  }
};

struct Indexed {
  std::unique_ptr<ASTUnit> AST;
  std::shared_ptr<const ModelSet> Models;
  std::unique_ptr<HeldCallables> Held;
  std::vector<const Expr *> Uses;

  explicit Indexed(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++20"});
    auto M = modelsFor(Config());
    EXPECT_TRUE(bool(M));
    Models = std::move(*M);
    Held = std::make_unique<HeldCallables>(*Models);
    Walk W(*Held);
    W.TraverseAST(AST->getASTContext());
    Uses = W.Uses;
  }

  // The lines of what the I-th `use(...)` argument may hold, sorted.
  std::vector<unsigned> held(size_t I) const {
    llvm::SmallVector<HeldValue, 4> Out;
    Held->valuesOf(Uses.at(I), Out);
    std::vector<unsigned> Lines;
    const SourceManager &SM = AST->getSourceManager();
    for (const HeldValue &V : Out)
      Lines.push_back(SM.getSpellingLineNumber(V.Value->getBeginLoc()));
    llvm::sort(Lines);
    return Lines;
  }
};

using Lines = std::vector<unsigned>;

TEST(HeldCallables, VariablesMembersAndReturns) {
  Indexed X(R"cpp(#include <functional>
template <class F> void use(F &&) {}
struct Net {
  std::function<int()> fn_ = [] { return 1; };
  void reset() { fn_ = [] { return 2; }; }
};
std::function<int()> make() { return [] { return 3; }; }
void run(Net &n) {
  std::function<int()> f = [] { return 4; };
  auto copy = f;
  use(n.fn_);
  use(copy);
  use(make());
}
)cpp");
  ASSERT_EQ(X.Uses.size(), 3u);
  EXPECT_EQ(X.held(0), (Lines{4, 5}));
  EXPECT_EQ(X.held(1), (Lines{9}));
  EXPECT_EQ(X.held(2), (Lines{7}));
}

TEST(HeldCallables, AGetterIsNotWhatItReturns) {
  Indexed X(R"cpp(#include <functional>
template <class F> void use(F &&) {}
struct Net {
  std::function<int()> fn_;
  std::function<int()> &get() {
    if (!fn_) fn_ = [] { return 1; };
    return fn_;
  }
};
void run(Net &n) {
  auto lazy = [&n] { return n.fn_; };
  use(lazy());
  use(n.get());
  auto make = [] { return std::function<int()>([] { return 2; }); };
  use(make());
}
)cpp");
  ASSERT_EQ(X.Uses.size(), 3u);
  EXPECT_EQ(X.held(0), (Lines{6})); // what fn_ holds, not the lambda 'lazy'
  EXPECT_EQ(X.held(1), (Lines{6}));
  EXPECT_EQ(X.held(2), (Lines{14})); // the inner lambda, not 'make'
}

TEST(HeldCallables, ContainersOfCallablesAndTheirElements) {
  Indexed X(R"cpp(#include <functional>
#include <map>
#include <string>
#include <vector>
template <class F> void use(F &&) {}
std::vector<std::function<int()>> g_layers;
std::map<std::string, std::function<void()>> g_hooks;
void build() {
  g_layers.push_back([] { return 1; });
  g_layers.emplace_back([] { return 2; });
  g_hooks["log"] = [] {};
}
void run() {
  for (auto &layer : g_layers)
    use(layer);
  use(g_layers[0]);
  use(g_hooks.at("log"));
}
)cpp");
  ASSERT_EQ(X.Uses.size(), 3u);
  EXPECT_EQ(X.held(0), (Lines{9, 10}));
  EXPECT_EQ(X.held(1), (Lines{9, 10}));
  EXPECT_EQ(X.held(2), (Lines{11}));
  // The loop's element is a copy of nothing else: it names the global.
  const auto *Ref = cast<DeclRefExpr>(X.Uses[0]->IgnoreParenImpCasts());
  const NamedDecl *Shared = X.Held->sharedPlace(HeldCallables::placeOf(Ref));
  ASSERT_NE(Shared, nullptr);
  EXPECT_EQ(Shared->getName(), "g_layers");
}

TEST(HeldCallables, LocalPlacesAreNotShared) {
  Indexed X(R"cpp(#include <functional>
#include <vector>
template <class F> void use(F &&) {}
void run() {
  std::vector<std::function<void()>> steps;
  steps.push_back([] {});
  for (auto &s : steps)
    use(s);
}
)cpp");
  ASSERT_EQ(X.Uses.size(), 1u);
  EXPECT_EQ(X.held(0), (Lines{6}));
  const auto *Ref = cast<DeclRefExpr>(X.Uses[0]->IgnoreParenImpCasts());
  EXPECT_EQ(X.Held->sharedPlace(HeldCallables::placeOf(Ref)), nullptr);
}

} // namespace
