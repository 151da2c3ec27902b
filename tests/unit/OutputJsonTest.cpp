//===--- OutputJsonTest.cpp - rematch's JSON output -----------------------===//

#include "Output.h"
#include "SampleResults.h"
#include "TestPrinters.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace rematch::tool;

namespace {

TEST(OutputJsonTest, RoundTrips) {
  Results R = test::sampleResults();
  std::string Out;
  raw_string_ostream OS(Out);
  writeJson(OS, R);

  // Pretty-printed with two spaces, one trailing newline.
  EXPECT_TRUE(StringRef(Out).starts_with("{\n  \"version\": 1,\n")) << Out;
  EXPECT_TRUE(StringRef(Out).ends_with("}\n"));

  Expected<json::Value> V = json::parse(Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  const json::Object *Root = V->getAsObject();
  ASSERT_TRUE(Root);
  EXPECT_EQ(Root->getInteger("version"), 1);

  const json::Array *Files = Root->getArray("files");
  ASSERT_TRUE(Files);
  ASSERT_EQ(Files->size(), 2u);
  const json::Object *Ok = (*Files)[0].getAsObject();
  EXPECT_EQ(Ok->getString("file"), "src/model.cpp");
  EXPECT_EQ(Ok->getString("status"), "analysed");
  EXPECT_TRUE(Ok->getArray("errors")->empty());
  const json::Object *Bad = (*Files)[1].getAsObject();
  EXPECT_EQ(Bad->getString("status"), "failed");
  ASSERT_EQ(Bad->getArray("errors")->size(), 1u);
  EXPECT_EQ((*Bad->getArray("errors"))[0].getAsString(), R.Files[1].Errors[0]);

  const json::Array *Findings = Root->getArray("findings");
  ASSERT_TRUE(Findings);
  ASSERT_EQ(Findings->size(), 2u);
  std::vector<std::string> Fingerprints = fingerprints(R.Findings);
  const json::Object *F = (*Findings)[0].getAsObject();
  EXPECT_EQ(F->getString("check"), "rematch-logging");
  EXPECT_EQ(F->getString("level"), "warning");
  EXPECT_EQ(F->getString("message"), R.Findings[0].Message);
  EXPECT_EQ(F->getString("file"), "src/model.cpp");
  EXPECT_EQ(F->getInteger("line"), 12);
  EXPECT_EQ(F->getInteger("column"), 5);
  EXPECT_EQ(F->getString("fingerprint"), Fingerprints[0]);
  const json::Array *Notes = F->getArray("notes");
  ASSERT_TRUE(Notes);
  ASSERT_EQ(Notes->size(), 2u);
  const json::Object *N = (*Notes)[0].getAsObject();
  EXPECT_EQ(N->getString("file"), "src/model.cpp");
  EXPECT_EQ(N->getInteger("line"), 20);
  EXPECT_EQ(N->getInteger("column"), 3);
  EXPECT_EQ(N->getString("message"), "checkpointed here");

  const json::Object *E = (*Findings)[1].getAsObject();
  EXPECT_EQ(E->getString("level"), "error");
  EXPECT_EQ(E->getString("file"), "/work/my project/lib \xC3\xBC.cpp");
  EXPECT_TRUE(E->getArray("notes")->empty());
}

TEST(OutputJsonTest, EmptyResults) {
  std::string Out;
  raw_string_ostream OS(Out);
  writeJson(OS, Results());
  EXPECT_EQ(Out, "{\n  \"version\": 1,\n  \"files\": [],\n"
                 "  \"findings\": []\n}\n");
}

} // namespace
