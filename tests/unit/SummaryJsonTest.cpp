// The summary reader's JSON: what llvm::json writes reads back, escapes
// included; anything malformed is an error with its byte offset.
#include "SummaryJson.h"
#include "Summary.h"
#include "llvm/Support/JSON.h"
#include <gtest/gtest.h>
#include <climits>
#include <vector>

namespace {

using namespace clang::tidy::rematch;

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<sj::Value> V = sj::parse(Text);
  if (V)
    return "";
  return llvm::toString(V.takeError());
}

TEST(SummaryJsonTest, ReadsWhatLlvmJsonWrites) {
  llvm::json::Object O{{"s", "tab\there \"quoted\" \\ \x01 \xc3\xa9 \xf0\x9f\x98\x80"},
                       {"i", -42},
                       {"b", true},
                       {"a", llvm::json::Array{1, "x", llvm::json::Object{}}},
                       {"n", nullptr}};
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::json::Value(std::move(O));
  llvm::Expected<sj::Value> V = sj::parse(Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const sj::Object *Top = V->getAsObject();
  ASSERT_NE(Top, nullptr);
  EXPECT_EQ(Top->getString("s"),
            llvm::StringRef("tab\there \"quoted\" \\ \x01 \xc3\xa9 \xf0\x9f\x98\x80"));
  EXPECT_EQ(Top->getInteger("i"), -42);
  EXPECT_EQ(Top->getBoolean("b"), true);
  const sj::Array *A = Top->getArray("a");
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(A->size(), 3u);
  EXPECT_EQ((*A)[0].getAsInteger(), 1);
  EXPECT_EQ((*A)[1].getAsString(), llvm::StringRef("x"));
  EXPECT_NE((*A)[2].getAsObject(), nullptr);
  ASSERT_NE(Top->get("n"), nullptr);
  EXPECT_EQ(Top->get("n")->K, sj::Value::Null);
  EXPECT_EQ(Top->get("missing"), nullptr);
  // A number that is not an integer is no integer.
  EXPECT_EQ(sj::parse("1.5")->getAsInteger(), std::nullopt);
}

// The writer's text is llvm::json::OStream's, byte for byte: the escapes,
// invalid UTF-8 replaced, integers at both ends, nesting and commas.
TEST(SummaryJsonTest, WriterWritesWhatLlvmJsonWrites) {
  const std::vector<std::string> Strings = {
      "",
      "plain",
      "tab\there \"quoted\" back\\slash",
      std::string("nul\0in", 6),
      "\x01\x1f\x7f \r\n\b\f",
      "\xc3\xa9 \xf0\x9f\x98\x80",
      "bad \xff utf-8 \xc3",
      "\xed\xa0\x80 surrogate"};
  auto Both = [&](auto &&Write) {
    std::string Ours, Theirs;
    {
      sj::Writer W(Ours);
      Write(W);
    }
    {
      llvm::raw_string_ostream OS(Theirs);
      llvm::json::OStream J(OS);
      Write(J);
    }
    EXPECT_EQ(Ours, Theirs);
  };
  for (const std::string &S : Strings)
    Both([&](auto &J) {
      J.object([&] {
        J.attribute("s", S);
        J.attributeArray("list", [&] {
          J.value(S);
          J.value(S);
        });
      });
    });
  Both([&](auto &J) {
    J.array([&] {
      J.value(int64_t(INT64_MIN));
      J.value(uint64_t(UINT64_MAX));
      J.value(0u);
      J.value(-1);
      J.value(true);
      J.value(false);
      J.array([] {});
      J.object([] {});
      J.object([&] {
        J.attributeObject("o", [&] {
          J.attribute("a", 1);
          J.attributeArray("e", [] {});
          J.attribute("b", "x");
        });
        J.attribute("after", false);
      });
      J.value("last");
    });
  });
}

TEST(SummaryJsonTest, SurrogatePairsAndEscapes) {
  llvm::Expected<sj::Value> V = sj::parse(R"("\ud83d\ude00\u00e9\n\/")");
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(V->getAsString(), llvm::StringRef("\xf0\x9f\x98\x80\xc3\xa9\n/"));
}

TEST(SummaryJsonTest, MalformedInputSaysWhatAndWhere) {
  EXPECT_EQ(errorOf("{\"a\":1,}"), "JSON: expected a key at byte 7");
  EXPECT_EQ(errorOf("{\"a\":1,\"a\":2}"), "JSON: duplicate key at byte 7");
  EXPECT_EQ(errorOf("[1,2"), "JSON: expected ',' or ']' at byte 4");
  EXPECT_EQ(errorOf("\"abc"), "JSON: unterminated string at byte 4");
  EXPECT_EQ(errorOf("{} x"), "JSON: text after the value at byte 3");
  EXPECT_EQ(errorOf("01"), "JSON: leading zero at byte 0");
  EXPECT_EQ(errorOf("\"\\ud800\""), "JSON: lone surrogate at byte 7");
  EXPECT_EQ(errorOf("\"\xff\""), "JSON: invalid UTF-8");
  EXPECT_EQ(errorOf("tru"), "JSON: unknown literal at byte 0");
  EXPECT_EQ(errorOf(""), "JSON: unexpected end at byte 0");
  EXPECT_EQ(errorOf(std::string(sj::MaxDepth + 2, '[')),
            "JSON: nesting too deep at byte " +
                std::to_string(sj::MaxDepth + 1));
}

// The writer streams its text: one JSON document on two lines, the head
// then the body, whose text must be what llvm::json prints for it (keys
// sorted), so its hash does not depend on how it was written.
void expectCanonical(const std::string &Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Top = V->getAsObject();
  ASSERT_NE(Top, nullptr);
  EXPECT_EQ(Top->getString("format"), llvm::StringRef("rematch-summary"));
  ASSERT_NE(Top->get("body"), nullptr);
  std::string Body;
  llvm::raw_string_ostream(Body) << *Top->get("body");
  EXPECT_EQ(Text.substr(Text.find('\n') + 1), "\"body\":" + Body + "}\n");
  EXPECT_EQ(Top->getString("body_hash"), hashText(Body));
}

// A summary's head reads without its body; the body's text is checked
// against its hash, so a damaged one is refused at once.
TEST(SummaryJsonTest, HeadWithoutBody) {
  TUSummary S;
  S.MainFile = "/p/a.cpp";
  S.CommandHash = "c0";
  S.Inputs.emplace_back("/p/a.cpp", "0123");
  S.Functions.push_back({"c:@F@f#", "f", {}, {}});
  std::string Text = serializeSummary(S);
  llvm::StringRef Body;
  llvm::Expected<TUSummary> Head = parseSummaryHead(Text, "a.json", Body);
  ASSERT_TRUE(bool(Head)) << llvm::toString(Head.takeError());
  EXPECT_EQ(Head->MainFile, S.MainFile);
  EXPECT_EQ(Head->Inputs, S.Inputs);
  EXPECT_TRUE(Head->Functions.empty());
  ASSERT_FALSE(parseSummaryBody(Body, "a.json", *Head));
  ASSERT_EQ(Head->Functions.size(), 1u);
  EXPECT_EQ(Head->Functions[0].Usr, "c:@F@f#");

  std::string Damaged = Text;
  Damaged[Damaged.find("c:@F@f#")] = 'd';
  llvm::Expected<TUSummary> Bad = parseSummaryHead(Damaged, "a.json", Body);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("does not match its hash"),
            std::string::npos);
  for (size_t Cut : {Text.size() / 4, Text.size() / 2, Text.size() - 3}) {
    llvm::Expected<TUSummary> Cutoff =
        parseSummaryHead(Text.substr(0, Cut), "a.json", Body);
    ASSERT_FALSE(bool(Cutoff)) << Cut;
    EXPECT_TRUE(Cutoff.errorIsA<SummaryError>()) << Cut;
    EXPECT_EQ(llvm::toString(Cutoff.takeError()).rfind("a.json: error: ", 0),
              0u);
  }
}

TEST(SummaryJsonTest, SummaryRoundTrip) {
  TUSummary S;
  S.MainFile = "/p/a \"b\".cpp";
  S.Functions.push_back({"c:@F@f#", "f", {}, {}});
  S.HeaderCallables.push_back("function:c:@F@g#");
  S.Dependencies.emplace_back("owner:x\x1f/p/a.cpp", "yes");
  SummaryHeld H;
  H.Place = "c:@S@Model@FI@act_";
  H.PlaceName = "act_";
  H.Callable = "c:a.cpp@1@F@lambda";
  H.Name = "Model::Model()::(lambda)::operator()";
  H.Lambda = true;
  H.StoredAt = {"/p/a.cpp", 3, 18};
  S.Held.push_back(H);
  S.Functions[0].Calls.push_back({});
  S.Functions[0].Calls[0].Loc = {"/p/a.cpp", 2, 1};
  S.Functions[0].Calls[0].Callee = "c:@N@std@function";
  S.Functions[0].Calls[0].HeldPlace = H.Place;
  S.Functions[0].Calls[0].Virtual = true;
  S.Functions[0].Calls[0].StaticClass = "c:@S@Model";
  S.Inputs.emplace_back("/p/a.cpp", "0123");
  S.GlobalsWritten.push_back("c:@g");
  S.Checkpoints.push_back(
      {"c:@F@f#", "function", "f", "forward", {"gen"}, {"/p/b.cpp", 7, 2}});
  S.Overrides.push_back({"c:@S@B@F@run#", "c:@S@D@F@run#", {"c:@S@D"}});
  std::string Text = serializeSummary(S);
  expectCanonical(Text);
  llvm::Expected<TUSummary> Back = parseSummary(Text, "a.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(serializeSummary(*Back), Text);
  EXPECT_EQ(Back->MainFile, S.MainFile);
  EXPECT_EQ(Back->HeaderCallables, S.HeaderCallables);
  EXPECT_EQ(Back->Dependencies, S.Dependencies);
  ASSERT_EQ(Back->Held.size(), 1u);
  EXPECT_EQ(Back->Held[0].Callable, H.Callable);
  EXPECT_TRUE(Back->Held[0].Lambda);
  EXPECT_EQ(Back->Held[0].StoredAt.Column, 18u);
  EXPECT_EQ(Back->Functions.at(0).Calls.at(0).HeldPlace, H.Place);
}

// What a report from facts needs (tool/FactsReport.h): the callables, where
// findings were made, the replaying entry points.
TEST(SummaryJsonTest, CallablesRoundTrip) {
  TUSummary S;
  S.MainFile = "/p/a.cpp";
  S.FromFacts = true;
  SummaryCallable C;
  C.Facts.Usr = "callable:0";
  C.Facts.Name = "lambda";
  C.Facts.Calls.push_back({});
  C.Facts.Calls[0].Callee = "c:@F@fill#";
  C.Facts.Calls[0].Loc = {"/p/a.cpp", 4, 5};
  C.Facts.Calls[0].Args = {Root::of(Root::Capture)};
  C.Text = "checkpointed lambda held by 'step_'";
  C.EntryPoint = "rematch::Segment::forward";
  C.Replays = {"torch.default"};
  C.ArgumentsFresh = true;
  C.Call = {"/p/a.cpp", 3, 14};
  C.StoredAt = {"/p/a.cpp", 2, 9};
  C.StoredNote = "'step_' holds the lambda stored here";
  C.Lines = {{"4", "    fill(buf);"}};
  S.Callables.push_back(C);
  S.Reported.emplace_back("logging", PlainLocation{"/p/a.cpp", 5, 5});
  S.ReplayedBy.emplace_back("rematch::torch::checkpoint", "torch.default");
  S.NoLints = noLintComments("f(); // NOLINT(rematch-io)\n"
                             "// NOLINTNEXTLINE\n");
  std::string Text = serializeSummary(S);
  expectCanonical(Text);
  llvm::Expected<TUSummary> Back = parseSummary(Text, "a.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(serializeSummary(*Back), Text);
  EXPECT_TRUE(Back->FromFacts);
  ASSERT_EQ(Back->Callables.size(), 1u);
  const SummaryCallable &X = Back->Callables[0];
  EXPECT_EQ(X.Facts.Calls.at(0).Args.at(0), Root::of(Root::Capture));
  EXPECT_EQ(X.Text, C.Text);
  EXPECT_TRUE(X.ArgumentsFresh);
  EXPECT_EQ(X.StoredAt.Column, 9u);
  EXPECT_EQ(X.StoredNote, C.StoredNote);
  EXPECT_EQ(X.Lines, C.Lines);
  EXPECT_EQ(X.Replays, C.Replays);
  EXPECT_EQ(Back->Reported.at(0).first, "logging");
  EXPECT_EQ(Back->Reported.at(0).second.Line, 5u);
  EXPECT_EQ(Back->ReplayedBy, S.ReplayedBy);
  ASSERT_EQ(Back->NoLints.size(), 2u);
  EXPECT_EQ(Back->NoLints[0].Checks, std::optional<std::string>("rematch-io"));
  EXPECT_EQ(Back->NoLints[1].K, NoLintComment::NextLine);
  EXPECT_EQ(Back->NoLints[1].Checks, std::nullopt);
  EXPECT_EQ(Back->NoLints[1].Line, 2u);
  // None of it is written for a file without callables.
  TUSummary Plain;
  EXPECT_EQ(serializeSummary(Plain).find("\"callables\""), std::string::npos);
  EXPECT_EQ(serializeSummary(Plain).find("reported"), std::string::npos);
  EXPECT_EQ(serializeSummary(Plain).find("nolint"), std::string::npos);
  // A malformed callable is an error naming the file.
  llvm::StringRef Body;
  llvm::Expected<TUSummary> Head = parseSummaryHead(Text, "a.json", Body);
  ASSERT_TRUE(bool(Head));
  std::string BadBody = Body.str();
  BadBody.replace(BadBody.find("\"text\":"), 7, "\"txet\":");
  llvm::Error E = parseSummaryBody(BadBody, "a.json", *Head);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("a.json"), std::string::npos);
  BadBody = Body.str();
  BadBody.replace(BadBody.find("\"NOLINTNEXTLINE\""), 16, "\"NOLINTNEXT\"");
  llvm::Error K = parseSummaryBody(BadBody, "a.json", *Head);
  ASSERT_TRUE(bool(K));
  EXPECT_NE(llvm::toString(std::move(K)).find("unknown NOLINT kind"),
            std::string::npos);
}

// The NOLINT comments clang-tidy reads (cli.facts-report compares the
// findings they leave with a parse's): where each is, what it names.
TEST(NoLintTest, CommentsAsClangTidyReadsThem) {
  std::vector<NoLintComment> C = noLintComments(
      "a; // NOLINT( x , y )\n"
      "  /* NOLINTBEGIN(x) */ b; // NOLINTEND(x)\n"
      "NOLINTFOO NOLINTNEXTLINE(unclosed\n"
      "\"NOLINT\"");
  ASSERT_EQ(C.size(), 5u);
  EXPECT_EQ(C[0].K, NoLintComment::ThisLine);
  EXPECT_EQ(C[0].Column, 7u);
  EXPECT_EQ(C[0].Checks, std::optional<std::string>("x,y"));
  EXPECT_EQ(C[1].K, NoLintComment::Begin);
  EXPECT_EQ(C[1].Line, 2u);
  EXPECT_EQ(C[1].Column, 6u);
  EXPECT_EQ(C[2].K, NoLintComment::End);
  EXPECT_EQ(C[3].K, NoLintComment::NextLine); // NOLINTFOO is none
  EXPECT_EQ(C[3].Checks, std::nullopt);       // unclosed: every check
  EXPECT_EQ(C[4].Line, 4u);
  EXPECT_TRUE(noLintBlocksPair(C));
  EXPECT_TRUE(suppressedByNoLint(C, "y", 1, 1));
  EXPECT_FALSE(suppressedByNoLint(C, "z", 1, 1));
  EXPECT_TRUE(suppressedByNoLint(C, "x", 2, 24));  // inside the block
  EXPECT_FALSE(suppressedByNoLint(C, "x", 2, 3));  // before it
  EXPECT_FALSE(suppressedByNoLint(C, "y", 2, 24)); // not its check
  EXPECT_TRUE(suppressedByNoLint(C, "z", 4, 1));   // the line after line 3
  EXPECT_FALSE(noLintBlocksPair(noLintComments("// NOLINTBEGIN(x)\n"
                                               "// NOLINTEND(y)\n")));
  EXPECT_FALSE(noLintBlocksPair(noLintComments("// NOLINTEND\n")));
}

// What aliases add: a function's returns, effects through what a call
// returns, the alias and where it was taken, reads part of a change.
TEST(SummaryJsonTest, AliasesRoundTrip) {
  TUSummary S;
  FunctionFacts F;
  F.Usr = "c:@F@f#";
  F.Name = "f";
  SummaryCall C;
  C.Callee = "c:@F@stats#";
  C.CalleeName = "stats";
  C.Loc = {"/p/a.cpp", 3, 5};
  C.Args = {Root::of(Root::Returned, 0)};
  F.Calls.push_back(C);
  SummaryEffect E;
  E.Kind = EffectKind::CounterUpdate;
  E.Target = Root::of(Root::Returned, 0);
  E.Subject = "stats()";
  E.Detail = "++";
  E.Via = "st";
  E.ViaCall = "stats()";
  E.AliasAt = {"/p/a.cpp", 2, 9};
  E.RngSource = "c:@gen";
  E.RngSourceText = "gen";
  E.Draws = "uniform";
  E.May = "may ";
  E.Chain.push_back({"f", "", {"/p/a.cpp", 4, 3}});
  SummaryEffect R;
  R.Kind = EffectKind::GlobalRead;
  R.Target = Root::of(Root::Static);
  R.Subject = "g";
  R.ReturnedRead = true;
  R.MutatedAt = {"/p/a.cpp", 5, 1};
  R.MutatedSlot = 2;
  R.Chain.push_back({"f", "", {"/p/a.cpp", 5, 3}});
  F.Effects = {E, R};
  F.Returns.push_back({Root::of(Root::Static), "c:@g", "g"});
  F.Returns.push_back({Root::of(Root::Param, 1), "", ""});
  F.Returns.push_back({Root::of(Root::Returned, 0), "", ""});
  S.Functions.push_back(F);
  std::string Text = serializeSummary(S);
  expectCanonical(Text);
  llvm::Expected<TUSummary> Back = parseSummary(Text, "a.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(serializeSummary(*Back), Text);
  EXPECT_EQ(Back->Functions.at(0).Effects.at(0).Draws, "uniform");
  const FunctionFacts &G = Back->Functions.at(0);
  EXPECT_EQ(G.Effects.at(0).Target, Root::of(Root::Returned, 0));
  EXPECT_EQ(G.Effects.at(0).Via, "st");
  EXPECT_EQ(G.Effects.at(0).ViaCall, "stats()");
  EXPECT_EQ(G.Effects.at(0).AliasAt.Line, 2u);
  EXPECT_TRUE(G.Effects.at(1).ReturnedRead);
  EXPECT_EQ(G.Effects.at(1).MutatedSlot, 2u);
  ASSERT_EQ(G.Returns.size(), 3u);
  EXPECT_EQ(G.Returns[0].VarName, "g");
  EXPECT_EQ(G.Returns[1].R, Root::of(Root::Param, 1));
  EXPECT_EQ(G.Calls.at(0).Args.at(0), Root::of(Root::Returned, 0));
}

// A root that names a call the function does not make is refused, never
// half-trusted.
TEST(SummaryJsonTest, ReturnedRootOutOfRangeIsAnError) {
  TUSummary S;
  FunctionFacts F;
  F.Usr = "c:@F@f#";
  F.Name = "f";
  F.Returns.push_back({Root::of(Root::Returned, 3), "", ""});
  S.Functions.push_back(F);
  llvm::Expected<TUSummary> Back =
      parseSummary(serializeSummary(S), "a.json");
  ASSERT_FALSE(bool(Back));
  EXPECT_NE(llvm::toString(Back.takeError()).find("a.json"),
            std::string::npos);
}

} // namespace
