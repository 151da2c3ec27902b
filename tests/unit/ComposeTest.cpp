//===--- ComposeTest.cpp - composing the summaries without an AST ---------===//

#include "Compose.h"
#include "ExternalSummaries.h"
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
  return {Usr, Usr, std::move(Effects), std::move(Calls), {}};
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

// `act_(x)` in a.cpp runs what any file stores into the member act_: the
// callables b.cpp lists for that place, not the call operator's callee,
// and not those stored into another place.
TEST(Compose, HeldCallsRunWhatAnyFileStoresIntoThePlace) {
  TUSummary A, B;
  SummaryCall H = call("std::function::operator()", at("a.cpp", 1), This);
  H.HeldPlace = "Model::act_";
  A.Functions.push_back(fn("a", {}, {H}));
  B.Functions.push_back(
      fn("lambda#1", {own(EffectKind::CounterUpdate, Static, "g_steps",
                          "lambda", at("b.cpp", 3))}));
  B.Functions.push_back(
      fn("lambda#2", {own(EffectKind::Io, Root::of(Root::Unconditional),
                          "fopen", "lambda", at("b.cpp", 4))}));
  B.Functions.push_back(
      fn("std::function::operator()",
         {own(EffectKind::Logging, Root::of(Root::Unconditional), "puts",
              "operator()", at("b.cpp", 5))}));
  SummaryHeld Held;
  Held.Place = "Model::act_";
  Held.PlaceName = "act_";
  Held.Callable = "lambda#1";
  Held.Lambda = true;
  Held.StoredAt = at("b.cpp", 3);
  B.Held.push_back(Held);
  Held.Place = "Model::other_";
  Held.Callable = "lambda#2";
  B.Held.push_back(Held);
  auto All = composeSummaries({&A, &B});
  const FunctionEffects *FA = All->lookup("a");
  ASSERT_NE(FA, nullptr);
  ASSERT_EQ(FA->Effects.size(), 1u);
  EXPECT_EQ(FA->Effects[0].Kind, EffectKind::CounterUpdate);
  EXPECT_FALSE(FA->Effects[0].Virtual);
  ASSERT_EQ(FA->Effects[0].Chain.size(), 2u);
  EXPECT_EQ(FA->Effects[0].Chain[1].Loc.File, "b.cpp");
  EXPECT_EQ(All->heldIn("Model::act_").size(), 1u);
  EXPECT_NE(All->hashOf(heldDependency("Model::act_")), "none");
  EXPECT_EQ(All->hashOf(heldDependency("Model::unknown_")), "none");
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

// Stats &stats() { return s_stats; } in one file; in another, a caller
// writes through what it returns (`stats().n++`) and another only reads
// through it: the write lands on s_stats, named by it, and the accessor's
// read that took the alias is part of the write but stays a read where
// nothing is written.
TEST(Compose, WritesThroughAReturnedAliasLandOnWhatItReturns) {
  TUSummary A, B;
  SummaryEffect Taken =
      own(EffectKind::GlobalRead, Static, "s_stats", "stats", at("a.cpp", 1));
  Taken.ReturnedRead = true;
  FunctionFacts Stats = fn("stats", {Taken});
  Stats.Returns.push_back({Static, "c:@s_stats", "s_stats"});
  A.Functions.push_back(Stats);
  SummaryEffect Bump = own(EffectKind::CounterUpdate,
                           Root::of(Root::Returned, 0), "stats().n", "w",
                           at("b.cpp", 2));
  Bump.ViaCall = "stats()";
  B.Functions.push_back(fn("w", {Bump}, {call("stats", at("b.cpp", 2))}));
  B.Functions.push_back(fn("r", {}, {call("stats", at("b.cpp", 5))}));
  auto All = composeSummaries({&A, &B});
  const FunctionEffects *W = All->lookup("w");
  ASSERT_NE(W, nullptr);
  ASSERT_EQ(W->Effects.size(), 1u); // the read is part of the write
  EXPECT_EQ(W->Effects[0].Kind, EffectKind::CounterUpdate);
  EXPECT_EQ(W->Effects[0].Target, Static);
  EXPECT_EQ(W->Effects[0].Subject, "s_stats");
  EXPECT_EQ(W->Effects[0].Via, "stats()");
  const FunctionEffects *R = All->lookup("r");
  ASSERT_NE(R, nullptr);
  ASSERT_EQ(R->Effects.size(), 1u);
  EXPECT_EQ(R->Effects[0].Kind, EffectKind::GlobalRead);
  ASSERT_EQ(All->lookup("stats")->Returns.size(), 1u);
}

// float *at(float *base) { return base + 1; }: what it returns is its
// argument's object, which a caller's returned alias maps in turn
// (`at(buffer())`), and a function returning it returns that too.
TEST(Compose, ReturnedAliasesMapThroughParametersAndCalls) {
  TUSummary A;
  FunctionFacts At = fn("at", {});
  At.Returns.push_back({param(0), "", ""});
  FunctionFacts Buffer = fn("buffer", {});
  Buffer.Returns.push_back({Static, "c:@g_buf", "g_buf"});
  SummaryEffect Write = own(EffectKind::StateWrite, Root::of(Root::Returned, 1),
                            "at(buffer())[0]", "w", at("a.cpp", 3));
  FunctionFacts W = fn("w", {Write},
                       {call("buffer", at("a.cpp", 3)),
                        call("at", at("a.cpp", 3), {},
                             {Root::of(Root::Returned, 0)})});
  FunctionFacts Fwd = fn("fwd", {}, {call("at", at("a.cpp", 7), {}, {param(0)})});
  Fwd.Returns.push_back({Root::of(Root::Returned, 0), "", ""});
  A.Functions = {At, Buffer, W, Fwd};
  auto All = composeSummaries({&A});
  const FunctionEffects *FW = All->lookup("w");
  ASSERT_NE(FW, nullptr);
  ASSERT_EQ(FW->Effects.size(), 1u);
  EXPECT_EQ(FW->Effects[0].Target, Static);
  EXPECT_EQ(FW->Effects[0].Subject, "g_buf");
  const FunctionEffects *FF = All->lookup("fwd");
  ASSERT_NE(FF, nullptr);
  ASSERT_EQ(FF->Returns.size(), 1u);
  EXPECT_EQ(FF->Returns[0].R, param(0));
}

// float *slot() { return buffer() + 1; }: the read buffer() makes to take
// its alias is still only that in slot(), which returns it on; a function
// that does not return it reads.
TEST(Compose, ReadsTakingAReturnedAliasPassOnWithIt) {
  TUSummary A;
  SummaryEffect Taken =
      own(EffectKind::GlobalRead, Static, "g_buf", "buffer", at("a.cpp", 1));
  Taken.ReturnedRead = true;
  FunctionFacts Buffer = fn("buffer", {Taken});
  Buffer.Returns.push_back({Static, "c:@g_buf", "g_buf"});
  FunctionFacts Slot = fn("slot", {}, {call("buffer", at("a.cpp", 2))});
  Slot.Returns.push_back({Root::of(Root::Returned, 0), "", ""});
  FunctionFacts Use = fn("use", {}, {call("buffer", at("a.cpp", 3))});
  A.Functions = {Buffer, Slot, Use};
  auto All = composeSummaries({&A});
  ASSERT_EQ(All->lookup("slot")->Effects.size(), 1u);
  EXPECT_TRUE(All->lookup("slot")->Effects[0].ReturnedRead);
  ASSERT_EQ(All->lookup("use")->Effects.size(), 1u);
  EXPECT_FALSE(All->lookup("use")->Effects[0].ReturnedRead);
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

// A checkpointed callable of a.cpp: its own functions composed as a.cpp's
// analysis composes them, a call into another file inheriting what the
// program says of the callee, each effect with the alias note the
// analysis would add at its chain's end and where it came from.
TEST(Compose, CallablesInheritWhatTheProgramSaysOfOtherFiles) {
  TUSummary A, B;
  // a.cpp: helper(S &s) { fill(s); }   [&] { helper(s); ++n; }
  A.Functions.push_back(
      fn("helper", {}, {call("fill", at("a.cpp", 2), {}, {param(0)})}));
  SummaryCallable C;
  C.Facts = fn("callable:0",
               {own(EffectKind::CounterUpdate, Root::of(Root::Capture), "n",
                    "lambda", at("a.cpp", 5))},
               {call("helper", at("a.cpp", 4), {},
                     {Root::of(Root::Capture)})});
  A.Callables.push_back(C);
  // b.cpp: fill(S &s) { float *p = s.v; p[0] = 1; }  fill is not a.cpp's.
  SummaryEffect Write =
      own(EffectKind::StateWrite, param(0), "s", "fill", at("b.cpp", 1));
  Write.Via = "p";
  Write.AliasAt = at("b.cpp", 1);
  B.Functions.push_back(fn("fill", {Write}));
  auto Program = composeSummaries({&A, &B});
  std::optional<ComposedCallables> Composed = composeCallables(A, *Program);
  ASSERT_TRUE(Composed.has_value());
  EXPECT_TRUE(Composed->Asked.contains("fill")); // not a.cpp's
  EXPECT_FALSE(Composed->Asked.contains("helper"));
  const std::vector<std::vector<CallableEffect>> &Effects = Composed->Effects;
  ASSERT_EQ(Effects.size(), 1u);
  ASSERT_EQ(Effects[0].size(), 2u);
  const CallableEffect &Own = Effects[0][0];
  EXPECT_EQ(Own.E.Target, Root::of(Root::Capture)); // kept for a callable
  EXPECT_FALSE(Own.OtherTU);
  const CallableEffect &Far = Effects[0][1];
  EXPECT_EQ(Far.E.Kind, EffectKind::StateWrite);
  EXPECT_EQ(Far.E.Target, Root::of(Root::Capture));
  EXPECT_TRUE(Far.OtherTU);
  EXPECT_FALSE(Far.Held);
  ASSERT_EQ(Far.E.Chain.size(), 3u);
  EXPECT_EQ(Far.E.Chain[0].Callee, "helper");
  EXPECT_EQ(Far.E.Chain[1].Callee, "fill");
  EXPECT_EQ(Far.E.Chain[2].Loc.File, "b.cpp");
  EXPECT_EQ(Far.LastAliasAt.File, "b.cpp"); // fill's own effect, aliased
  // A program that knows nothing of fill adds nothing.
  EXPECT_EQ(composeCallables(A, ExternalSummaries())->Effects.at(0).size(),
            1u);
}
