// CopySemantics (checks/analysis/CopySemantics.h): whether a copy of a type
// owns its state or shares an object with the original, decided from the
// type's definition and, for the standard library, from models/std.yaml.

#include "Config.h"
#include "KnownFunctions.h"
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

// Every variable of the code, by name, with what copying its type gives.
struct Classified {
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<KnownFunctions> Known;

  explicit Classified(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++20"});
    auto Models = modelsFor(Config());
    EXPECT_TRUE(bool(Models));
    Known = std::make_unique<KnownFunctions>(std::move(*Models));
  }

  const char *of(const std::string &Var) const {
    auto Found = match(varDecl(hasName(Var)).bind("v"), AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Var;
    if (Found.empty())
      return "missing";
    switch (Known->copies().of(Found[0].getNodeAs<VarDecl>("v")->getType())) {
    case Copy::Value:
      return "value";
    case Copy::Handle:
      return "handle";
    case Copy::Unknown:
      return "unknown";
    }
    return "?";
  }
};

TEST(CopySemantics, BuiltinsPointersAndAggregates) {
  Classified C(R"cpp(
struct Plain { int n; float w[4]; };
struct Holds { float *w; int n; };
struct Nested { Plain p; Holds h; };
struct Ref { float &r; };
enum E { A };
void fn(int);
int i; E e; float *p; void (*fp)(int); Plain plain; Holds holds;
Nested nested; float arr[3]; float *parr[2];
)cpp");
  EXPECT_STREQ(C.of("i"), "value");
  EXPECT_STREQ(C.of("e"), "value");
  EXPECT_STREQ(C.of("p"), "handle");
  EXPECT_STREQ(C.of("fp"), "value"); // points to code, not to state
  EXPECT_STREQ(C.of("plain"), "value");
  EXPECT_STREQ(C.of("holds"), "handle");
  EXPECT_STREQ(C.of("nested"), "handle");
  EXPECT_STREQ(C.of("arr"), "value");
  EXPECT_STREQ(C.of("parr"), "handle");
}

TEST(CopySemantics, WrittenCopyConstructorsDecide) {
  Classified C(R"cpp(
struct Deep {
  float *data; int n;
  Deep(const Deep &o) : data(new float[o.n]), n(o.n) {}
};
struct Shallow {
  float *data; int n;
  Shallow(const Shallow &o) : data(o.data), n(o.n) {}
};
struct AssignsInBody {
  float *data;
  AssignsInBody(const AssignsInBody &o) { data = o.data; }
};
struct Opaque { float *data; Opaque(const Opaque &); };
struct MoveOnly { float *data; MoveOnly(const MoveOnly &) = delete; };
struct Defaulted { float *data; Defaulted(const Defaulted &) = default; };
Deep deep; Shallow shallow; AssignsInBody body; Opaque opaque;
MoveOnly moveonly; Defaulted defaulted;
)cpp");
  EXPECT_STREQ(C.of("deep"), "value");
  EXPECT_STREQ(C.of("shallow"), "handle");
  EXPECT_STREQ(C.of("body"), "handle");
  EXPECT_STREQ(C.of("opaque"), "handle"); // no body seen: its fields
  EXPECT_STREQ(C.of("moveonly"), "value");
  EXPECT_STREQ(C.of("defaulted"), "handle");
}

// A class template's written copy decides whether or not anything
// instantiated it (the parse skips the library bodies that would:
// UnreadBodies.h), its fields read with the types they have in the class.
TEST(CopySemantics, TemplateCopiesDecideInstantiatedOrNot) {
  Classified C(R"cpp(
template <class T> struct Shallow {
  T *data;
  Shallow(const Shallow &o) : data(o.data) {}
};
template <class T> struct Deep {
  T *data;
  Deep(const Deep &o) : data(new T(*o.data)) {}
};
template <class T> struct InBody {
  T *data;
  InBody(const InBody &o) { data = o.data; }
};
Shallow<float> shallow; Deep<float> deep; InBody<float> body;
Shallow<int> used; Shallow<int> copy = used;
)cpp");
  EXPECT_STREQ(C.of("shallow"), "handle"); // never instantiated
  EXPECT_STREQ(C.of("deep"), "value");
  EXPECT_STREQ(C.of("body"), "handle");
  EXPECT_STREQ(C.of("copy"), "handle"); // instantiated
}

TEST(CopySemantics, StandardLibraryOnItsRealHeaders) {
  Classified C(R"cpp(
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>
std::vector<float> v; std::vector<float *> vp; std::vector<std::vector<int>> vv;
std::string s; std::string_view sv; std::array<float, 3> a;
std::optional<std::vector<float>> o; std::map<int, std::string> m;
std::map<int, float *> mp; std::pair<std::vector<float>, int> pr;
std::tuple<int, float *> tp; std::unique_ptr<float> up;
std::shared_ptr<float> sp; std::span<float> spn;
std::vector<float>::iterator it; std::function<void()> fn;
void g() {
  int x = 0; auto byref = [&x] { return x; }; auto bycopy = [x] { return x; };
}
)cpp");
  EXPECT_STREQ(C.of("v"), "value");
  EXPECT_STREQ(C.of("vp"), "handle");
  EXPECT_STREQ(C.of("vv"), "value");
  EXPECT_STREQ(C.of("s"), "value");
  EXPECT_STREQ(C.of("sv"), "handle");
  EXPECT_STREQ(C.of("a"), "value");
  EXPECT_STREQ(C.of("o"), "value");
  EXPECT_STREQ(C.of("m"), "value");
  EXPECT_STREQ(C.of("mp"), "handle");
  EXPECT_STREQ(C.of("pr"), "value");
  EXPECT_STREQ(C.of("tp"), "handle");
  EXPECT_STREQ(C.of("up"), "value");
  EXPECT_STREQ(C.of("sp"), "handle");
  EXPECT_STREQ(C.of("spn"), "handle");
  EXPECT_STREQ(C.of("it"), "handle");
  EXPECT_STREQ(C.of("fn"), "handle");
  EXPECT_STREQ(C.of("byref"), "handle");
  EXPECT_STREQ(C.of("bycopy"), "value");
}

TEST(CopySemantics, DependentTypesAreUnknown) {
  Classified C(R"cpp(
template <class T> struct Box { T t; };
template <class T> void f() { Box<T> dep; }
)cpp");
  EXPECT_STREQ(C.of("dep"), "unknown");
}

} // namespace
