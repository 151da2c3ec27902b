//===--- ProgramCacheTest.cpp - the one owner of the cache directory ------===//
//
// The cache a run opens: what it holds for each mode (a usable directory,
// one that is not, --no-cache, no preambles), its repair of both
// directories, and the records of a file's bodies, used only while they
// were made with the translation unit as it is and are whole.
//
//===----------------------------------------------------------------------===//

#include "CacheDirectory.h"
#include "ProgramCache.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace rematch::tool;

namespace {

namespace fs = llvm::sys::fs;

class ProgramCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("program-cache", Dir));
  }
  void TearDown() override {
    fs::remove_directories(Dir);
    fs::remove_directories(
        clang::tidy::rematch::CacheLayout(std::string(Dir)).preambles());
  }

  SummariesRun run(bool InMemory = false, bool NoCache = false) const {
    SummariesRun R;
    R.Dir = std::string(Dir);
    R.InMemory = InMemory;
    R.NoCache = NoCache;
    return R;
  }
  static TUSummary summary(llvm::StringRef HeaderHash) {
    TUSummary S;
    S.MainFile = "/src/a.cpp";
    S.CommandHash = "c0ffee";
    S.Inputs = {{"/src/a.cpp", "11@1:2"}, {"/src/a.h", HeaderHash.str() + "@3:4"}};
    return S;
  }
  static void makeOld(const std::string &Path) {
    ASSERT_FALSE(writeAtomically(Path, "x"));
    int FD;
    ASSERT_FALSE(fs::openFileForWrite(Path, FD, fs::CD_OpenExisting));
    ASSERT_FALSE(fs::setLastAccessAndModificationTime(
        FD, std::chrono::system_clock::now() - std::chrono::hours(2)));
    fs::closeFile(FD);
  }

  llvm::SmallString<256> Dir;
};

TEST_F(ProgramCacheTest, AUsableDirectoryHoldsEveryKindOfEntry) {
  ProgramCache C(run(), 1u << 20);
  EXPECT_EQ(C.layout().dir(), std::string(Dir));
  EXPECT_FALSE(C.inMemory());
  EXPECT_NE(C.findings(), nullptr);
  EXPECT_NE(C.preambles(), nullptr);
}

TEST_F(ProgramCacheTest, OtherModesKeepLess) {
  // A directory that cannot be used: summaries in memory, nothing else.
  ProgramCache Unusable(run(/*InMemory=*/true), 1u << 20);
  EXPECT_EQ(Unusable.findings(), nullptr);
  EXPECT_EQ(Unusable.preambles(), nullptr);
  // --no-cache builds no preamble, but keeps this run's findings.
  ProgramCache NoCache(run(false, /*NoCache=*/true), 1u << 20);
  EXPECT_NE(NoCache.findings(), nullptr);
  EXPECT_EQ(NoCache.preambles(), nullptr);
  // A cap of 0 (--summaries-only, --preamble-cache-mib=0): no preambles.
  ProgramCache NoPreambles(run(), 0);
  EXPECT_EQ(NoPreambles.preambles(), nullptr);
}

TEST_F(ProgramCacheTest, RepairCoversBothDirectoriesUnlessInMemory) {
  ProgramCache C(run(), 1u << 20);
  std::string Pre = C.layout().preambles();
  ASSERT_FALSE(fs::create_directories(Pre));
  std::string InSummaries = C.layout().dir() + "/a.summary.json.tmp-0123456789ab";
  std::string InPreambles = Pre + "/k.pch.tmp-0123456789ab";
  makeOld(InSummaries);
  makeOld(InPreambles);
  EXPECT_EQ(ProgramCache(run(/*InMemory=*/true), 0).repair(), 0u);
  EXPECT_TRUE(fs::exists(InSummaries));
  EXPECT_EQ(C.repair(), 2u);
  EXPECT_FALSE(fs::exists(InSummaries));
  EXPECT_FALSE(fs::exists(InPreambles));
}

TEST_F(ProgramCacheTest, BodiesAreUsedForTheTranslationUnitTheyWereMadeWith) {
  ProgramCache C(run(), 0);
  TUSummary S = summary("22");
  C.keepBodies(S, "usr\tbody\tprefix\tscope\tfacts\n");
  std::string Key;
  EXPECT_NE(C.bodies(S, Key), nullptr);
  EXPECT_EQ(Key, ProgramCache::bodiesKey(S));
  // The main file's own hash is not in the key (its bodies are the point),
  // nor are stamps: a header touched but not changed keeps the records.
  TUSummary Edited = summary("22");
  Edited.Inputs[0].second = "99@5:6";
  Edited.Inputs[1].second = "22@7:8";
  EXPECT_EQ(ProgramCache::bodiesKey(Edited), Key);
  EXPECT_NE(C.bodies(Edited, Key), nullptr);
  // A changed header, another command: not used.
  EXPECT_EQ(C.bodies(summary("33"), Key), nullptr);
  TUSummary Other = S;
  Other.CommandHash = "decaf";
  EXPECT_EQ(C.bodies(Other, Key), nullptr);
  // --no-cache uses none; an unusable directory keeps none.
  EXPECT_EQ(ProgramCache(run(false, /*NoCache=*/true), 0).bodies(S, Key),
            nullptr);
  ProgramCache(run(/*InMemory=*/true), 0).keepBodies(summary("44"), "x\n");
  EXPECT_EQ(C.bodies(summary("44"), Key), nullptr);
}

TEST_F(ProgramCacheTest, DamagedBodiesAreNotUsed) {
  ProgramCache C(run(), 0);
  TUSummary S = summary("22");
  C.keepBodies(S, "usr\tbody\tprefix\tscope\tfacts\n");
  std::string Path = C.layout().bodies(S.MainFile);
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buf));
  std::string Text = (*Buf)->getBuffer().str();
  ASSERT_FALSE(writeAtomically(Path, Text.substr(0, Text.size() - 3)));
  std::string Key;
  EXPECT_EQ(C.bodies(S, Key), nullptr);
  ASSERT_FALSE(writeAtomically(Path, Text));
  EXPECT_NE(C.bodies(S, Key), nullptr);
}

} // namespace
