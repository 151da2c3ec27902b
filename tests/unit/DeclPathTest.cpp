// A declaration written as a path of names and found again by qualified
// lookup (checks/analysis/DeclPath.h): overloads, operators, nested classes,
// anonymous and inline namespaces; what cannot be found again has no path.

#include "DeclPath.h"
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

const char *Code = R"cpp(
  int g;
  namespace a { inline namespace v1 { struct S { struct In { int f(int);
    int f(double); static int s; }; }; } }
  namespace { int hidden(int x) { return x; } }
  struct V { V operator+(const V &) const; };
  template <class T> struct Box { int get() { return 1; } };
  int use() { Box<int> b; return b.get(); }
  void local() { struct L { void m() {} }; }
)cpp";

struct DeclPath : ::testing::Test {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17", "-w"});

  template <class M> const NamedDecl *find(M Matcher) {
    auto Found = match(Matcher.bind("d"), AST->getASTContext());
    EXPECT_FALSE(Found.empty());
    return Found.empty() ? nullptr : Found[0].template getNodeAs<NamedDecl>("d");
  }
  // D found again from its path.
  void roundTrip(const NamedDecl *D) {
    ASSERT_TRUE(D);
    std::optional<std::string> P = encodeDecl(D);
    ASSERT_TRUE(P) << D->getQualifiedNameAsString();
    const NamedDecl *Back = resolveDecl(*P, AST->getASTContext());
    ASSERT_TRUE(Back) << D->getQualifiedNameAsString();
    EXPECT_EQ(Back->getCanonicalDecl(), D->getCanonicalDecl());
  }
};

TEST_F(DeclPath, FoundAgain) {
  roundTrip(find(varDecl(hasName("::g"))));
  roundTrip(find(cxxMethodDecl(hasName("f"), hasParameter(0, hasType(asString("int"))))));
  roundTrip(find(cxxMethodDecl(hasName("f"), hasParameter(0, hasType(asString("double"))))));
  roundTrip(find(varDecl(hasName("s"))));
  roundTrip(find(functionDecl(hasName("hidden"))));
  roundTrip(find(cxxMethodDecl(hasName("operator+"))));
  roundTrip(find(cxxRecordDecl(hasName("In"))));
}

TEST_F(DeclPath, NoPathForWhatLookupCannotFind) {
  // A member of a template's instantiation, a local class's method.
  const NamedDecl *Get = find(cxxMethodDecl(
      hasName("get"), ofClass(classTemplateSpecializationDecl())));
  EXPECT_TRUE(isGenerated(Get));
  EXPECT_FALSE(encodeDecl(Get));
  EXPECT_FALSE(encodeDecl(find(cxxMethodDecl(hasName("m")))));
}

TEST_F(DeclPath, APathThatNamesNothing) {
  std::optional<std::string> P = encodeDecl(find(varDecl(hasName("::g"))));
  ASSERT_TRUE(P);
  std::string Gone = *P;
  Gone.replace(0, 1, "q"); // "q" instead of "g"
  EXPECT_EQ(resolveDecl(Gone, AST->getASTContext()), nullptr);
  EXPECT_EQ(resolveDecl("", AST->getASTContext()), nullptr);
  EXPECT_EQ(resolveDecl("nope\x1fthere\x1e" "c:@x", AST->getASTContext()),
            nullptr);
}

} // namespace
