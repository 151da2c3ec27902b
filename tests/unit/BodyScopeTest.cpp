// Where a body is before it is parsed, and what its scope hash covers
// (checks/analysis/BodyScope.h): the raw lexer finds the body the parser
// parses; a body's edit leaves every scope as it was, a declaration changes
// the scopes after it, a member the scopes of its whole class.

#include "BodyScope.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>
#include <map>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::rematch;

namespace {

std::unique_ptr<ASTUnit> parse(const std::string &Code) {
  return tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17", "-w"});
}

const FunctionDecl *definition(ASTUnit &AST, const std::string &Name) {
  auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                     AST.getASTContext());
  return Found.size() == 1 ? Found[0].getNodeAs<FunctionDecl>("f") : nullptr;
}

// The text lexBody finds for Name, or "(none)".
std::string lexed(const std::string &Code, const std::string &Name) {
  std::unique_ptr<ASTUnit> AST = parse(Code);
  const FunctionDecl *FD = definition(*AST, Name);
  if (!FD)
    return "(no definition)";
  const SourceManager &SM = AST->getSourceManager();
  std::optional<BodyOffsets> B = lexBody(*FD, SM, AST->getLangOpts());
  if (!B)
    return "(none)";
  // It is exactly the body the parser read.
  const auto *CS = dyn_cast<CompoundStmt>(FD->getBody());
  EXPECT_TRUE(CS);
  if (CS) {
    EXPECT_EQ(B->first, SM.getFileOffset(CS->getLBracLoc()));
    EXPECT_EQ(B->second, SM.getFileOffset(CS->getRBracLoc()));
  }
  return Code.substr(B->first, B->second + 1 - B->first);
}

// Each removable function's scope hash, by name.
std::map<std::string, std::string> scopes(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST = parse(Code);
  std::map<std::string, std::string> Out;
  for (const BodyHashes &B :
       scopeHashes(AST->getASTContext(),
                   [](const FunctionDecl &) { return std::nullopt; })) {
    Out[B.Range.FD->getQualifiedNameAsString()] = B.Scope;
    Out["prefix " + B.Range.FD->getQualifiedNameAsString()] = B.Prefix;
  }
  return Out;
}

TEST(BodyScope, LexesTheBodyTheParserReads) {
  EXPECT_EQ(lexed("int f(int x) { return x; }", "f"), "{ return x; }");
  EXPECT_EQ(lexed("struct S { int g() const noexcept(sizeof(int) > 2) "
                  "/* } */ { return '}' + sizeof(\"{\"); } };",
                  "S::g"),
            "{ return '}' + sizeof(\"{\"); }");
  EXPECT_EQ(lexed("struct B { virtual void v(); };\n"
                  "struct D : B { void v() override { int a[2] = {1, 2}; "
                  "(void)a; } };",
                  "D::v"),
            "{ int a[2] = {1, 2}; (void)a; }");
  EXPECT_EQ(lexed("[[nodiscard]] int h() __attribute__((noinline)) { "
                  "return R\"x({)x\"[0]; }",
                  "h"),
            "{ return R\"x({)x\"[0]; }");
}

TEST(BodyScope, ABodyTheLexerDoesNotFindStaysInTheSkeleton) {
  // The parse would not skip it (BodyReplay::decide lexes), so the records
  // do not cut it either: its text is part of the scopes after it.
  const char *Code = "int f() {\n#if 1\n  return 1;\n#endif\n}\n"
                     "int g() { return 2; }\n";
  auto S = scopes(Code);
  EXPECT_EQ(S.count("f"), 0u);
  std::string Edited = Code;
  Edited.replace(Edited.find("return 1"), 8, "return 3");
  EXPECT_NE(S["g"], scopes(Edited)["g"]);
}

TEST(BodyScope, WhatItDoesNotLex) {
  // A function-try-block, and a body holding a directive: not skipped.
  EXPECT_EQ(lexed("int f() try { return 1; } catch (...) { return 0; }", "f"),
            "(none)");
  EXPECT_EQ(lexed("int f() {\n#if 1\n  return 1;\n#endif\n}", "f"), "(none)");
}

TEST(BodyScope, RemovableFunctions) {
  std::map<std::string, std::string> S = scopes(R"cpp(
    int plain(int x) { return x; }
    struct C {
      C() {}
      ~C() {}
      int member() { return 1; }
      template <class T> int tmpl(T) { return 2; }
      constexpr int cx() const { return 3; }
      auto deduced() { return 4; }
      struct Inner { int in() { return 5; } };
    };
    int C_out(C &c) { return c.member(); }
    template <class T> T t(T x) { return x; }
    namespace n { inline int ns() { return 6; } }
    void withLocal() { struct L { void m() {} }; auto l = [] {}; l(); }
  )cpp");
  std::vector<std::string> Names;
  for (const auto &[Name, Hash] : S)
    if (Name.rfind("prefix ", 0) != 0)
      Names.push_back(Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"C::Inner::in", "C::member",
                                             "C_out", "n::ns", "plain",
                                             "withLocal"}));
}

const char *Base = R"cpp(
int g = 0;
struct C {
  int m1() { return g; }
  int m2() { return m1(); }
};
int before(int x) { return x + g; }
int after(int x) { return before(x); }
)cpp";

std::string with(std::string Text, const std::string &From,
                 const std::string &To) {
  Text.replace(Text.find(From), From.size(), To);
  return Text;
}

TEST(BodyScope, ABodyEditChangesNoScope) {
  EXPECT_EQ(scopes(Base),
            scopes(with(Base, "return x + g;", "return x * 2 + g;\n\n")));
  EXPECT_EQ(scopes(Base), scopes(with(Base, "return m1();", "return 7;")));
}

TEST(BodyScope, ADeclarationChangesTheScopesAfterIt) {
  auto A = scopes(Base);
  auto B = scopes(with(Base, "int after", "int h = 1;\nint after"));
  EXPECT_EQ(A["C::m1"], B["C::m1"]);
  EXPECT_EQ(A["before"], B["before"]);
  EXPECT_NE(A["after"], B["after"]);
}

TEST(BodyScope, AMemberChangesItsWholeClass) {
  auto A = scopes(Base);
  auto B = scopes(with(Base, "  int m2()", "  int more = 0;\n  int m2()"));
  // m1 comes before the member but can see it: its scope is the class,
  // though the text before its body did not change.
  EXPECT_NE(A["C::m1"], B["C::m1"]);
  EXPECT_EQ(A["prefix C::m1"], B["prefix C::m1"]);
  EXPECT_NE(A["prefix C::m2"], B["prefix C::m2"]);
  EXPECT_NE(A["C::m2"], B["C::m2"]);
  EXPECT_NE(A["before"], B["before"]);
}

} // namespace
