//===--- CacheLayoutTest.cpp - the names in a summaries directory ---------===//

#include "CacheLayout.h"
#include "gtest/gtest.h"
#include "llvm/ADT/StringRef.h"

using namespace clang::tidy::rematch;

namespace {

TEST(CacheLayoutTest, EntriesOfAFileShareItsNameAndPathHash) {
  CacheLayout L("/c");
  std::string Summary = L.summary("/src/a.cpp");
  llvm::StringRef S(Summary);
  EXPECT_TRUE(S.starts_with("/c/a.cpp.")) << Summary;
  EXPECT_TRUE(S.ends_with(".summary.json")) << Summary;
  std::string Stem = S.drop_back(llvm::StringRef(".summary.json").size()).str();
  EXPECT_EQ(L.findings("/src/a.cpp"), Stem + ".findings");
  EXPECT_EQ(L.bodies("/src/a.cpp"), Summary + ".bodies");
  // Another file of the same name elsewhere has entries of its own.
  EXPECT_NE(L.summary("/other/a.cpp"), Summary);
}

TEST(CacheLayoutTest, SystemListsAndPreambles) {
  CacheLayout L("/work/.rematch-cache");
  EXPECT_EQ(L.systemList("0123abcd"), "/work/.rematch-cache/system-0123abcd.list");
  EXPECT_EQ(L.preambles(), "/work/.rematch-cache.preambles");
  EXPECT_TRUE(CacheLayout::isPreambles(L.preambles()));
  EXPECT_FALSE(CacheLayout::isPreambles(L.dir()));
}

TEST(CacheLayoutTest, WhatIsASummary) {
  CacheLayout L("/c");
  EXPECT_TRUE(CacheLayout::isSummary(L.summary("/src/a.cpp")));
  EXPECT_FALSE(CacheLayout::isSummary(L.bodies("/src/a.cpp")));
  EXPECT_FALSE(CacheLayout::isSummary(L.findings("/src/a.cpp")));
  EXPECT_FALSE(CacheLayout::isSummary(L.systemList("k")));
}

} // namespace
