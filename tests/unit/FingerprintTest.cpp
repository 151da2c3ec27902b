//===--- FingerprintTest.cpp - finding identities across edits ------------===//

#include "Output.h"
#include "TestPrinters.h"
#include "gtest/gtest.h"

using namespace rematch::tool;

namespace {

Finding finding(unsigned Line, std::string SourceLine) {
  Finding F;
  F.Check = "rematch-state-write";
  F.Message = "'Total' is written in checkpointed code";
  F.Loc = {"src/train.cpp", Line, 5};
  F.SourceLine = std::move(SourceLine);
  return F;
}

TEST(FingerprintTest, SurvivesLinesAddedAbove) {
  std::vector<std::string> Before =
      fingerprints({finding(10, "    Total = x;")});
  std::vector<std::string> After =
      fingerprints({finding(17, "    Total = x;")});
  ASSERT_EQ(Before.size(), 1u);
  EXPECT_EQ(Before, After);
}

TEST(FingerprintTest, IgnoresWhitespaceChanges) {
  EXPECT_EQ(fingerprints({finding(10, "    Total = x;")}),
            fingerprints({finding(10, "\tTotal  =   x;  ")}));
}

TEST(FingerprintTest, DiffersForDifferentSourceLines) {
  EXPECT_NE(fingerprints({finding(10, "    Total = x;")}),
            fingerprints({finding(10, "    Total = y;")}));
}

TEST(FingerprintTest, DiffersForCheckFileAndMessage) {
  Finding A = finding(10, "Total = x;");
  Finding B = A;
  B.Check = "rematch-counter-update";
  Finding C = A;
  C.Loc.File = "src/eval.cpp";
  Finding D = A;
  D.Message = "other";
  std::vector<std::string> F = fingerprints({A, B, C, D});
  for (size_t I = 0; I < F.size(); ++I)
    for (size_t J = I + 1; J < F.size(); ++J)
      EXPECT_NE(F[I], F[J]) << I << " vs " << J;
}

TEST(FingerprintTest, OccurrenceIndexSeparatesDuplicates) {
  std::vector<std::string> F =
      fingerprints({finding(10, "Total = x;"), finding(11, "Other = x;"),
                    finding(30, "Total = x;"), finding(40, "Total = x;")});
  ASSERT_EQ(F.size(), 4u);
  std::string Hash = F[0].substr(0, F[0].find(':'));
  EXPECT_EQ(F[0], Hash + ":0");
  EXPECT_EQ(F[2], Hash + ":1");
  EXPECT_EQ(F[3], Hash + ":2");
  EXPECT_TRUE(llvm::StringRef(F[1]).ends_with(":0"));
  // 16 hex digits, a colon, the index.
  EXPECT_EQ(Hash.size(), 16u);
  EXPECT_EQ(Hash.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(FingerprintTest, IsPinned) {
  // Baselines store fingerprints, so the hash must never change silently.
  // If this fails after an intended change, also rename "rematch/v1" in the
  // SARIF writer and say so in docs/output.md.
  EXPECT_EQ(fingerprints({finding(1, "Total = x;")})[0], "b0a95edf4f4538a7:0");
}

} // namespace
