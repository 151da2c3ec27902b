//===--- OutputSarifTest.cpp - SARIF 2.1.0 output -------------------------===//
//
// Asserts the fields code-scanning services read. Schema conformance is the
// job of the rematch_sarif_schema test, which validates the same sample.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "SampleResults.h"
#include "TestPrinters.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace rematch::tool;

namespace {

json::Value sarif(const Results &R, const std::vector<RuleInfo> &Rules) {
  std::string Out;
  raw_string_ostream OS(Out);
  writeSarif(OS, R, Rules);
  Expected<json::Value> V = json::parse(Out);
  if (!V) {
    ADD_FAILURE() << toString(V.takeError()) << "\n" << Out;
    return nullptr;
  }
  return std::move(*V);
}

// Follows a path of object keys and array indices ("runs", 0, "tool", ...).
struct Step {
  Step(const char *Key) : Key(Key) {}
  Step(int Index) : Index(Index) {}
  const char *Key = nullptr;
  int Index = -1;
};
const json::Value *at(const json::Value &V, std::initializer_list<Step> Path) {
  const json::Value *Cur = &V;
  for (const Step &S : Path) {
    if (!Cur)
      return nullptr;
    if (S.Key) {
      const json::Object *O = Cur->getAsObject();
      Cur = O ? O->get(S.Key) : nullptr;
    } else {
      const json::Array *A = Cur->getAsArray();
      Cur = A && S.Index < int(A->size()) ? &(*A)[S.Index] : nullptr;
    }
  }
  return Cur;
}
std::optional<StringRef> str(const json::Value &V,
                             std::initializer_list<Step> Path) {
  const json::Value *P = at(V, Path);
  return P ? P->getAsString() : std::nullopt;
}
std::optional<int64_t> num(const json::Value &V,
                           std::initializer_list<Step> Path) {
  const json::Value *P = at(V, Path);
  return P ? P->getAsInteger() : std::nullopt;
}
size_t size(const json::Value &V, std::initializer_list<Step> Path) {
  const json::Value *P = at(V, Path);
  const json::Array *A = P ? P->getAsArray() : nullptr;
  return A ? A->size() : 0;
}

TEST(OutputSarifTest, TopLevelAndDriver) {
  json::Value V = sarif(test::sampleResults(), test::sampleRules());
  EXPECT_EQ(str(V, {"$schema"}),
            "https://json.schemastore.org/sarif-2.1.0.json");
  EXPECT_EQ(str(V, {"version"}), "2.1.0");
  ASSERT_EQ(size(V, {"runs"}), 1u);
  EXPECT_EQ(str(V, {"runs", 0, "tool", "driver", "name"}), "rematch");
  EXPECT_TRUE(str(V, {"runs", 0, "tool", "driver", "version"}));

  ASSERT_EQ(size(V, {"runs", 0, "tool", "driver", "rules"}), 2u);
  auto Rule = [&](int I, const char *Key) {
    return str(V, {"runs", 0, "tool", "driver", "rules", I, Key});
  };
  EXPECT_EQ(Rule(0, "id"), "rematch-counter-update");
  EXPECT_EQ(Rule(0, "name"), "CounterUpdate");
  EXPECT_EQ(Rule(0, "helpUri"),
            "https://example.org/docs/checks/counter-update.md");
  EXPECT_EQ(Rule(1, "id"), "rematch-logging");
  EXPECT_EQ(str(V, {"runs", 0, "tool", "driver", "rules", 1, "shortDescription",
                    "text"}),
            "checkpointed code logs");
  EXPECT_EQ(str(V, {"runs", 0, "tool", "driver", "rules", 1, "fullDescription",
                    "text"}),
            "checkpointed code logs; the recomputation logs again");
  EXPECT_EQ(str(V, {"runs", 0, "tool", "driver", "rules", 1,
                    "defaultConfiguration", "level"}),
            "warning");
}

TEST(OutputSarifTest, ResultWithNotes) {
  Results R = test::sampleResults();
  json::Value V = sarif(R, test::sampleRules());
  ASSERT_EQ(size(V, {"runs", 0, "results"}), 2u);
  const json::Value &Res = *at(V, {"runs", 0, "results", 0});

  EXPECT_EQ(str(Res, {"ruleId"}), "rematch-logging");
  EXPECT_EQ(num(Res, {"ruleIndex"}), 1);
  EXPECT_EQ(str(Res, {"level"}), "warning");
  EXPECT_EQ(str(Res, {"message", "text"}), R.Findings[0].Message);
  EXPECT_EQ(
      str(Res, {"locations", 0, "physicalLocation", "artifactLocation", "uri"}),
      "src/model.cpp");
  EXPECT_EQ(
      num(Res, {"locations", 0, "physicalLocation", "region", "startLine"}),
      12);
  EXPECT_EQ(
      num(Res, {"locations", 0, "physicalLocation", "region", "startColumn"}),
      5);

  ASSERT_EQ(size(Res, {"relatedLocations"}), 2u);
  EXPECT_EQ(num(Res, {"relatedLocations", 1, "id"}), 1);
  EXPECT_EQ(num(Res, {"relatedLocations", 1, "physicalLocation", "region",
                      "startLine"}),
            8);
  EXPECT_EQ(str(Res, {"relatedLocations", 1, "message", "text"}),
            "function defined here");

  // The code flow: each note in order, then the finding itself.
  ASSERT_EQ(size(Res, {"codeFlows"}), 1u);
  ASSERT_EQ(size(Res, {"codeFlows", 0, "threadFlows"}), 1u);
  ASSERT_EQ(size(Res, {"codeFlows", 0, "threadFlows", 0, "locations"}), 3u);
  auto FlowStep = [&](int I) {
    return at(Res,
              {"codeFlows", 0, "threadFlows", 0, "locations", I, "location"});
  };
  EXPECT_EQ(str(*FlowStep(0), {"message", "text"}), "checkpointed here");
  EXPECT_EQ(num(*FlowStep(0), {"physicalLocation", "region", "startLine"}), 20);
  EXPECT_EQ(str(*FlowStep(2), {"message", "text"}), R.Findings[0].Message);
  EXPECT_EQ(num(*FlowStep(2), {"physicalLocation", "region", "startLine"}), 12);

  EXPECT_EQ(str(Res, {"partialFingerprints", "rematch/v1"}),
            fingerprints(R.Findings)[0]);
}

TEST(OutputSarifTest, ErrorLevelAbsolutePathAndNoNotes) {
  json::Value V = sarif(test::sampleResults(), test::sampleRules());
  const json::Value &Res = *at(V, {"runs", 0, "results", 1});
  EXPECT_EQ(str(Res, {"level"}), "error");
  EXPECT_EQ(num(Res, {"ruleIndex"}), 0);
  EXPECT_EQ(
      str(Res, {"locations", 0, "physicalLocation", "artifactLocation", "uri"}),
      "file:///work/my%20project/lib%20%C3%BC.cpp");
  EXPECT_FALSE(at(Res, {"relatedLocations"}));
  EXPECT_FALSE(at(Res, {"codeFlows"}));
}

TEST(OutputSarifTest, FailedFileMakesExecutionUnsuccessful) {
  json::Value V = sarif(test::sampleResults(), test::sampleRules());
  const json::Value &Inv = *at(V, {"runs", 0, "invocations", 0});
  EXPECT_EQ(at(Inv, {"executionSuccessful"})->getAsBoolean(), false);
  ASSERT_EQ(size(Inv, {"toolExecutionNotifications"}), 1u);
  EXPECT_EQ(str(Inv, {"toolExecutionNotifications", 0, "level"}), "error");
  std::optional<StringRef> Text =
      str(Inv, {"toolExecutionNotifications", 0, "message", "text"});
  ASSERT_TRUE(Text);
  EXPECT_TRUE(Text->starts_with("/work/my project/broken.cpp: error: file "
                                "could not be analysed"))
      << Text->str();
  EXPECT_EQ(str(Inv, {"toolExecutionNotifications", 0, "locations", 0,
                      "physicalLocation", "artifactLocation", "uri"}),
            "file:///work/my%20project/broken.cpp");

  Results Ok;
  Ok.Files.push_back({"a.cpp", FileStatus::State::Analysed, {}});
  json::Value W = sarif(Ok, {});
  EXPECT_EQ(at(W, {"runs", 0, "invocations", 0, "executionSuccessful"})
                ->getAsBoolean(),
            true);
  EXPECT_EQ(size(W, {"runs", 0, "results"}), 0u);
}

TEST(OutputSarifTest, ArtifactIndicesMatchArtifacts) {
  json::Value V = sarif(test::sampleResults(), test::sampleRules());
  const json::Value &Loc = *at(V, {"runs", 0, "results", 1, "locations", 0,
                                   "physicalLocation", "artifactLocation"});
  std::optional<int64_t> Index = num(Loc, {"index"});
  ASSERT_TRUE(Index);
  EXPECT_EQ(str(V, {"runs", 0, "artifacts", int(*Index), "location", "uri"}),
            str(Loc, {"uri"}));
}

TEST(OutputSarifTest, UnknownCheckHasNoRuleIndex) {
  Results R;
  Finding F;
  F.Check = "clang-diagnostic-error";
  F.Message = "m";
  F.Loc = {"a.cpp", 1, 1};
  R.Findings.push_back(F);
  json::Value V = sarif(R, test::sampleRules());
  EXPECT_EQ(str(V, {"runs", 0, "results", 0, "ruleId"}),
            "clang-diagnostic-error");
  EXPECT_FALSE(at(V, {"runs", 0, "results", 0, "ruleIndex"}));
}

TEST(PathToUriTest, EncodesPaths) {
  EXPECT_EQ(pathToUri("src/a.cpp"), "src/a.cpp");
  EXPECT_EQ(pathToUri("../x/./a-b_c~d.cpp"), "../x/./a-b_c~d.cpp");
  EXPECT_EQ(pathToUri("my dir/a b.cpp"), "my%20dir/a%20b.cpp");
  EXPECT_EQ(pathToUri("/abs/my dir/a.cpp"), "file:///abs/my%20dir/a.cpp");
  EXPECT_EQ(pathToUri("a%b#c?d.cpp"), "a%25b%23c%3Fd.cpp");
  EXPECT_EQ(pathToUri("\xC3\xBC.cpp"), "%C3%BC.cpp");
  // A colon in a relative reference's first segment would read as a scheme.
  EXPECT_EQ(pathToUri("c:d.cpp"), "c%3Ad.cpp");
  EXPECT_EQ(pathToUri("/a:b/c.cpp"), "file:///a:b/c.cpp");
}

} // namespace
