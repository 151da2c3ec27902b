//===--- OutputCodeClimateTest.cpp - GitLab Code Quality output -----------===//
//
// The fields GitLab's Code Quality widget reads, and that a finding carries
// the same fingerprint here as in SARIF.
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

json::Value codeClimate(const Results &R, StringRef BaseDir = "") {
  std::string Out;
  raw_string_ostream OS(Out);
  writeCodeClimate(OS, R, BaseDir);
  EXPECT_TRUE(StringRef(Out).ends_with("]\n")) << Out;
  Expected<json::Value> V = json::parse(Out);
  if (!V) {
    ADD_FAILURE() << toString(V.takeError()) << "\n" << Out;
    return nullptr;
  }
  return std::move(*V);
}

std::string sarifFingerprint(const Results &R, size_t I) {
  std::string Out;
  raw_string_ostream OS(Out);
  writeSarif(OS, R, test::sampleRules());
  Expected<json::Value> V = json::parse(Out);
  if (!V) {
    ADD_FAILURE() << toString(V.takeError());
    return "";
  }
  const json::Object *Result =
      (*V->getAsObject()->getArray("runs")->front().getAsObject()->getArray(
          "results"))[I]
          .getAsObject();
  return Result->getObject("partialFingerprints")
      ->getString("rematch/v1")
      .value_or("")
      .str();
}

TEST(OutputCodeClimateTest, IssueFields) {
  Results R = test::sampleResults();
  json::Value V = codeClimate(R, "/work/my project");
  const json::Array *Issues = V.getAsArray();
  ASSERT_TRUE(Issues);
  ASSERT_EQ(Issues->size(), 2u);

  const json::Object *Log = (*Issues)[0].getAsObject();
  ASSERT_TRUE(Log);
  EXPECT_EQ(Log->getString("type"), "issue");
  EXPECT_EQ(Log->getString("check_name"), "rematch-logging");
  EXPECT_EQ(Log->getString("description"), R.Findings[0].Message);
  const json::Array *Categories = Log->getArray("categories");
  ASSERT_TRUE(Categories);
  ASSERT_EQ(Categories->size(), 1u);
  EXPECT_EQ((*Categories)[0].getAsString(), "Bug Risk");
  EXPECT_EQ(Log->getString("severity"), "major");
  EXPECT_EQ(Log->getString("fingerprint"), sarifFingerprint(R, 0));
  EXPECT_EQ(Log->getString("fingerprint"), fingerprints(R.Findings)[0]);
  const json::Object *Loc = Log->getObject("location");
  ASSERT_TRUE(Loc);
  EXPECT_EQ(Loc->getString("path"), "src/model.cpp");
  EXPECT_EQ(Loc->getObject("lines")->getInteger("begin"), 12);
  // The call chain, one line per note.
  EXPECT_EQ(Log->getObject("content")->getString("body"),
            "- src/model.cpp:20: checkpointed here\n"
            "- src/model.cpp:8: function defined here\n");

  // --warnings-as-errors: critical; an absolute path under the base
  // directory becomes relative to it; no notes, no content.
  const json::Object *Counter = (*Issues)[1].getAsObject();
  EXPECT_EQ(Counter->getString("severity"), "critical");
  EXPECT_EQ(Counter->getObject("location")->getString("path"),
            "lib \xC3\xBC.cpp");
  EXPECT_EQ(Counter->getString("fingerprint"), sarifFingerprint(R, 1));
  EXPECT_EQ(Counter->getObject("content"), nullptr);
}

TEST(OutputCodeClimateTest, FingerprintsAreUniqueForIdenticalFindings) {
  // GitLab drops issues whose fingerprints repeat: two identical statements
  // must stay two issues, as they are two SARIF results.
  Results R;
  Finding F;
  F.Check = "rematch-logging";
  F.Message = "checkpointed code logs";
  F.Loc = {"a.cpp", 3, 5};
  F.SourceLine = "log();";
  R.Findings = {F, F};
  R.Findings[1].Loc.Line = 4;
  json::Value V = codeClimate(R);
  const json::Array *Issues = V.getAsArray();
  ASSERT_TRUE(Issues);
  ASSERT_EQ(Issues->size(), 2u);
  StringRef A = *(*Issues)[0].getAsObject()->getString("fingerprint");
  StringRef B = *(*Issues)[1].getAsObject()->getString("fingerprint");
  EXPECT_NE(A, B);
  EXPECT_TRUE(A.ends_with(":0")) << A.str();
  EXPECT_TRUE(B.ends_with(":1")) << B.str();
}

TEST(OutputCodeClimateTest, UnknownLineIsLineOne) {
  Results R;
  Finding F;
  F.Check = "rematch-io";
  F.Message = "m";
  F.Loc = {"a.cpp", 0, 0};
  R.Findings = {F};
  json::Value V = codeClimate(R);
  EXPECT_EQ((*V.getAsArray())[0]
                .getAsObject()
                ->getObject("location")
                ->getObject("lines")
                ->getInteger("begin"),
            1);
}

TEST(OutputCodeClimateTest, EmptyResultsIsAnEmptyArray) {
  std::string Out;
  raw_string_ostream OS(Out);
  writeCodeClimate(OS, Results());
  EXPECT_EQ(Out, "[]\n");
}

TEST(OutputCodeClimateTest, Paths) {
  EXPECT_EQ(codeClimatePath("src/a.cpp", "/repo"), "src/a.cpp");
  EXPECT_EQ(codeClimatePath("./src/a.cpp", "/repo"), "src/a.cpp");
  EXPECT_EQ(codeClimatePath("/repo/src/a.cpp", "/repo"), "src/a.cpp");
  EXPECT_EQ(codeClimatePath("/repo/./src/../src/a.cpp", "/repo/"), "src/a.cpp");
  // Outside the base directory, or only a common prefix: kept as given.
  EXPECT_EQ(codeClimatePath("/repository/a.cpp", "/repo"), "/repository/a.cpp");
  EXPECT_EQ(codeClimatePath("/usr/include/x.h", "/repo"), "/usr/include/x.h");
  EXPECT_EQ(codeClimatePath("/repo/a.cpp", ""), "/repo/a.cpp");
  EXPECT_EQ(codeClimateSeverity("warning"), "major");
  EXPECT_EQ(codeClimateSeverity("error"), "critical");
}

} // namespace
