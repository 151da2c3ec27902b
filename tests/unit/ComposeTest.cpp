//===--- ComposeTest.cpp - composing the summaries without an AST ---------===//

#include "Compose.h"
#include "gtest/gtest.h"

using namespace clang::tidy::rematch;

namespace {

PlainLocation at(const char *File, unsigned Line) { return {File, Line, 1}; }

SummaryEffect own(EffectKind K, Root R, const char *Subject, const char *Fn,
                  PlainLocation L) {
  SummaryEffect E;
  E.Kind = K;
  E.Target = R;
  E.Subject = Subject;
  E.Chain.push_back({Fn, "", L});
  return E;
}

SummaryCall call(const char *Callee, PlainLocation L, Root Object = {},
                 std::vector<Root> Args = {}) {
  SummaryCall C;
  C.Callee = Callee;
  C.CalleeName = Callee;
  C.Loc = L;
  C.Object = Object;
  C.Args = std::move(Args);
  return C;
}

FunctionFacts fn(const char *Usr, std::vector<SummaryEffect> Effects,
                 std::vector<SummaryCall> Calls = {}) {
  return {Usr, Usr, std::move(Effects), std::move(Calls)};
}

const Root Static = Root::of(Root::Static);
const Root This = Root::of(Root::This);
Root param(unsigned I) { return Root::of(Root::Param, I); }

} // namespace

TEST(Compose, MapsParametersThroughAChainAcrossFiles) {
  TUSummary A, B, C;
  // a(S &x) { b(x); }  b(S &y) { c(local); c(y); }  c(S &z) { ++z.n; }
  A.Functions.push_back(fn("a", {}, {call("b", at("a.cpp", 1), {}, {param(0)})}));
  B.Functions.push_back(fn("b", {},
                           {call("c", at("b.cpp", 1), {}, {Root::local()}),
                            call("c", at("b.cpp", 2), {}, {param(0)})}));
  C.Functions.push_back(
      fn("c", {own(EffectKind::CounterUpdate, param(0), "n", "c", at("c.cpp", 1))}));
  auto All = composeSummaries({&A, &B, &C});
  const FunctionEffects *FA = All->lookup("a");
  ASSERT_NE(FA, nullptr);
  ASSERT_EQ(FA->Effects.size(), 1u);
  const SummaryEffect &E = FA->Effects[0];
  EXPECT_EQ(E.Kind, EffectKind::CounterUpdate);
  EXPECT_EQ(E.Target, param(0));
  ASSERT_EQ(E.Chain.size(), 3u);
  EXPECT_EQ(E.Chain[0].Loc.File, "a.cpp");
  EXPECT_EQ(E.Chain[1].Loc.Line, 2u); // the call with y, not the local
  EXPECT_EQ(E.Chain[2].Loc.File, "c.cpp");
  EXPECT_EQ(E.Chain[2].Callee, "");
}

TEST(Compose, LocalObjectsStayLocalAndGlobalsPassThrough) {
  TUSummary A, B;
  A.Functions.push_back(fn("a", {}, {call("m", at("a.cpp", 1), Root::local())}));
  B.Functions.push_back(
      fn("m", {own(EffectKind::StateWrite, This, "v", "m", at("b.cpp", 1)),
               own(EffectKind::Logging, Root::of(Root::Unconditional),
                   "printf", "m", at("b.cpp", 2))}));
  auto All = composeSummaries({&A, &B});
  const FunctionEffects *FA = All->lookup("a");
  ASSERT_NE(FA, nullptr);
  ASSERT_EQ(FA->Effects.size(), 1u);
  EXPECT_EQ(FA->Effects[0].Kind, EffectKind::Logging);
}

TEST(Compose, RecursionAcrossFilesEnds) {
  TUSummary A, B;
  A.Functions.push_back(
      fn("a", {own(EffectKind::StateWrite, Static, "g", "a", at("a.cpp", 1))},
         {call("b", at("a.cpp", 2))}));
  B.Functions.push_back(fn("b", {}, {call("a", at("b.cpp", 1))}));
  auto All = composeSummaries({&A, &B});
  ASSERT_NE(All->lookup("a"), nullptr);
  ASSERT_NE(All->lookup("b"), nullptr);
  EXPECT_EQ(All->lookup("a")->Effects.size(), 2u); // own, and via b back to a
  EXPECT_EQ(All->lookup("b")->Effects.size(), 1u);
}

TEST(Compose, VirtualCallsRunOverridesOfTheStaticClassOnly) {
  TUSummary A, B;
  SummaryCall V = call("Base::f", at("a.cpp", 1), Static);
  V.Virtual = true;
  V.StaticClass = "Mid";
  A.Functions.push_back(fn("a", {}, {V}));
  B.Functions.push_back(
      fn("Leaf::f", {own(EffectKind::Logging, Root::of(Root::Unconditional),
                         "puts", "Leaf::f", at("b.cpp", 1))}));
  B.Functions.push_back(
      fn("Other::f", {own(EffectKind::Io, Root::of(Root::Unconditional),
                          "fopen", "Other::f", at("b.cpp", 2))}));
  B.Overrides.push_back({"Base::f", "Leaf::f", {"Leaf", "Mid", "Base"}});
  B.Overrides.push_back({"Base::f", "Other::f", {"Other", "Base"}});
  auto All = composeSummaries({&A, &B});
  const FunctionEffects *FA = All->lookup("a");
  ASSERT_NE(FA, nullptr);
  ASSERT_EQ(FA->Effects.size(), 1u);
  EXPECT_EQ(FA->Effects[0].Kind, EffectKind::Logging);
  EXPECT_TRUE(FA->Effects[0].Virtual);
}

TEST(Compose, ReadOfAGlobalItsCallChangesIsPartOfTheChange) {
  TUSummary A, B;
  SummaryEffect Read =
      own(EffectKind::GlobalRead, Static, "g_stats", "a", at("a.cpp", 1));
  Read.MutatedAt = at("a.cpp", 1);
  SummaryEffect Other =
      own(EffectKind::GlobalRead, Static, "g_lr", "a", at("a.cpp", 2));
  A.Functions.push_back(
      fn("a", {Read, Other}, {call("Stats::record", at("a.cpp", 1), Static)}));
  B.Functions.push_back(fn("Stats::record", {own(EffectKind::CounterUpdate, This,
                                                  "n", "Stats::record",
                                                  at("b.cpp", 1))}));
  auto All = composeSummaries({&A, &B});
  const FunctionEffects *FA = All->lookup("a");
  ASSERT_NE(FA, nullptr);
  std::vector<std::string> Subjects;
  for (const SummaryEffect &E : FA->Effects)
    Subjects.push_back(E.Subject);
  EXPECT_EQ(Subjects, (std::vector<std::string>{"g_lr", "n"}));
}

TEST(Compose, FirstDefinitionWinsAndGlobalsAreCollected) {
  TUSummary A, B;
  A.Functions.push_back(
      fn("inl", {own(EffectKind::Logging, Root::of(Root::Unconditional), "a",
                     "inl", at("h.h", 1))}));
  B.Functions.push_back(
      fn("inl", {own(EffectKind::Io, Root::of(Root::Unconditional), "b",
                     "inl", at("h.h", 1))}));
  B.GlobalsWritten.push_back("g");
  auto All = composeSummaries({&A, &B});
  ASSERT_NE(All->lookup("inl"), nullptr);
  EXPECT_EQ(All->lookup("inl")->Effects[0].Subject, "a");
  EXPECT_TRUE(All->isModifiable("g"));
  EXPECT_EQ(All->lookup("nothing"), nullptr);
}
