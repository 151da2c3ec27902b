//===--- CacheDirectoryTest.cpp - how cache entries are written -----------===//
//
// An entry appears whole or not at all; a temporary never outlives the
// write, not even one interrupted by a signal; what a killed run left is
// removed once it is older than any write, and nothing else is.
//
//===----------------------------------------------------------------------===//

#include "CacheDirectory.h"
#include "CacheLayout.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <csignal>

using namespace rematch::tool;

namespace {

namespace fs = llvm::sys::fs;

class CacheDirectoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("cache-directory", Dir));
  }
  void TearDown() override {
    fs::remove_directories(Dir);
    fs::remove_directories(preambles());
  }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  std::string preambles() const {
    return clang::tidy::rematch::CacheLayout(std::string(Dir)).preambles();
  }
  // The names in D, sorted.
  static std::vector<std::string> names(llvm::StringRef D) {
    std::vector<std::string> Out;
    std::error_code EC;
    for (fs::directory_iterator It(D, EC), End; It != End && !EC;
         It.increment(EC))
      Out.push_back(llvm::sys::path::filename(It->path()).str());
    llvm::sort(Out);
    return Out;
  }
  static void make(const std::string &Path, int HoursOld) {
    ASSERT_FALSE(writeAtomically(Path, "x"));
    int FD;
    ASSERT_FALSE(fs::openFileForWrite(Path, FD, fs::CD_OpenExisting));
    auto When = std::chrono::system_clock::now() - std::chrono::hours(HoursOld);
    ASSERT_FALSE(fs::setLastAccessAndModificationTime(FD, When));
    fs::closeFile(FD);
  }

  llvm::SmallString<256> Dir;
};

TEST_F(CacheDirectoryTest, AWriteLeavesTheEntryAndNothingElse) {
  std::string Entry = path("a.cpp.0123456789abcdef.summary.json");
  ASSERT_FALSE(writeAtomically(Entry, "first"));
  ASSERT_FALSE(writeAtomically(Entry, "second"));
  EXPECT_EQ(names(Dir),
            std::vector<std::string>{"a.cpp.0123456789abcdef.summary.json"});
  auto Buf = llvm::MemoryBuffer::getFile(Entry);
  ASSERT_TRUE(bool(Buf));
  EXPECT_EQ((*Buf)->getBuffer(), "second");
}

TEST_F(CacheDirectoryTest, APendingEntryIsRemovedUnlessCommitted) {
  std::string Entry = path("k.pch");
  {
    llvm::Expected<PendingEntry> P = PendingEntry::create(Entry);
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    EXPECT_TRUE(isTemporary(llvm::sys::path::filename(P->temporary())));
    EXPECT_EQ(names(Dir).size(), 1u);
  }
  EXPECT_TRUE(names(Dir).empty()); // abandoned: a failed build
  {
    llvm::Expected<PendingEntry> P = PendingEntry::create(Entry);
    ASSERT_TRUE(bool(P));
    ASSERT_FALSE(writeAtomically(P->temporary(), "pch"));
    EXPECT_FALSE(P->commit());
  }
  EXPECT_EQ(names(Dir), std::vector<std::string>{"k.pch"});
}

// Ctrl-C during a preamble build (seconds long): the temporary goes with
// the process.
TEST_F(CacheDirectoryTest, AnInterruptedWriteLeavesNoTemporary) {
  // Forked, not run again: the child writes in this test's directory.
  GTEST_FLAG_SET(death_test_style, "fast");
  std::string Entry = path("k.pch");
  EXPECT_EXIT(
      {
        llvm::Expected<PendingEntry> P = PendingEntry::create(Entry);
        if (!P || names(Dir).size() != 1)
          std::exit(3);
        std::raise(SIGINT);
        std::exit(4); // not reached
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_TRUE(names(Dir).empty());
}

TEST_F(CacheDirectoryTest, TemporariesAreTellable) {
  EXPECT_TRUE(
      isTemporary("a.cpp.0123456789abcdef.summary.json.tmp-0a1b2c3d4e5f"));
  // The compiler's own temporary of a precompiled header written to one.
  EXPECT_TRUE(isTemporary("k.pch-859986b8.tmp-d66c403fb1cf.tmp"));
  EXPECT_FALSE(isTemporary("a.cpp.0123456789abcdef.summary.json"));
  EXPECT_FALSE(isTemporary("x.tmp-0a1b2c3d4e5f.cpp.0123456789abcdef.findings"));
  EXPECT_FALSE(isTemporary("k.pch.tmp-short"));
  EXPECT_FALSE(isTemporary("k.pch.tmp-0a1b2c3d4e5g"));
}

TEST_F(CacheDirectoryTest, RepairRemovesOldTemporariesOnly) {
  ASSERT_FALSE(fs::create_directories(preambles()));
  make(path("a.cpp.0123456789abcdef.summary.json"), 5);
  make(path("a.cpp.0123456789abcdef.summary.json.tmp-0a1b2c3d4e5f"), 2);
  make(path("b.cpp.0123456789abcdef.summary.json.tmp-aaaaaaaaaaaa"), 0);
  std::string Pre = preambles() + "/";
  make(Pre + "k.pch", 5);
  make(Pre + "k.pch.tmp-0a1b2c3d4e5f", 3);
  make(Pre + "k.pch-859986b8.tmp-d66c403fb1cf.tmp", 3);
  EXPECT_EQ(repairCache(Dir), 3u);
  // A young temporary may be another run's write in progress.
  EXPECT_EQ(names(Dir),
            (std::vector<std::string>{
                "a.cpp.0123456789abcdef.summary.json",
                "b.cpp.0123456789abcdef.summary.json.tmp-aaaaaaaaaaaa"}));
  EXPECT_EQ(names(preambles()), std::vector<std::string>{"k.pch"});
  EXPECT_EQ(repairCache(Dir), 0u);
}

} // namespace
