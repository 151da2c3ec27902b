//===--- SummaryStoreTest.cpp - the --summaries-dir store -----------------===//
//
// What the store keeps, when a stored summary is fresh, and what a damaged
// file or a file that no longer exists does to the program it composes.
//
//===----------------------------------------------------------------------===//

#include "Summaries.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace rematch::tool;
using namespace clang::tidy::rematch;

namespace {

class SummaryStoreTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("summary-store", Dir));
    Source = path("a.cpp");
    write(Source, "int g; void f() { ++g; }\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  static void write(const std::string &Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  // The summary of a.cpp: f writes g.
  TUSummary summary() const {
    TUSummary S;
    S.MainFile = Source;
    S.Inputs.push_back({Source, ""});
    FunctionFacts F;
    F.Usr = "c:@F@f#";
    F.Name = "f";
    SummaryEffect E;
    E.Kind = EffectKind::CounterUpdate;
    E.Target = Root::of(Root::Static);
    E.Subject = "g";
    E.Chain.push_back({"f", "", {Source, 1, 19}});
    F.Effects.push_back(E);
    S.Functions.push_back(F);
    S.GlobalsWritten.push_back("c:@g");
    return S;
  }
  std::string cacheDir() const { return path("cache"); }

  llvm::SmallString<256> Dir;
  std::string Source;
};

TEST_F(SummaryStoreTest, AStoredSummaryIsFreshUntilItsInputChanges) {
  {
    SummaryStore Store(cacheDir());
    std::string Warnings;
    llvm::raw_string_ostream Err(Warnings);
    ASSERT_TRUE(Store.load(Err)); // creates the directory
    std::string Error;
    Store.store(summary(), "cmd", Error);
    EXPECT_EQ(Error, "");
  }
  SummaryStore Again(cacheDir());
  std::string Warnings;
  llvm::raw_string_ostream Err(Warnings);
  ASSERT_TRUE(Again.load(Err));
  EXPECT_EQ(Warnings, "");
  EXPECT_TRUE(Again.isFresh(Source, "cmd"));
  EXPECT_FALSE(Again.isFresh(Source, "another command"));
  const TUSummary *S = Again.find(Source);
  ASSERT_NE(S, nullptr);
  ASSERT_EQ(S->Functions.size(), 1u);
  EXPECT_EQ(S->Functions[0].Effects[0].Subject, "g");
  // Another content (the size changes too): stale.
  write(Source, "int g; void f() { g += 2; }\n");
  SummaryStore Edited(cacheDir());
  ASSERT_TRUE(Edited.load(Err));
  EXPECT_FALSE(Edited.isFresh(Source, "cmd"));
  EXPECT_TRUE(Edited.isFresh(Source, "cmd", /*ButMainFile=*/true));
}

TEST_F(SummaryStoreTest, ADamagedSummaryIsAWarningAndLeftOut) {
  SummaryStore Store(cacheDir());
  std::string First;
  llvm::raw_string_ostream FirstErr(First);
  ASSERT_TRUE(Store.load(FirstErr));
  std::string Error;
  Store.store(summary(), "cmd", Error);
  std::string File = Store.pathFor(Source);
  auto Text = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(bool(Text));
  write(File, (*Text)->getBuffer().drop_back(10));
  SummaryStore Again(cacheDir());
  std::string Warnings;
  llvm::raw_string_ostream Err(Warnings);
  ASSERT_TRUE(Again.load(Err));
  EXPECT_NE(Warnings.find(File + ": warning: "), std::string::npos)
      << Warnings;
  EXPECT_NE(Warnings.find("it will be rebuilt"), std::string::npos);
  EXPECT_EQ(Again.find(Source), nullptr);
  EXPECT_FALSE(Again.isFresh(Source, "cmd"));
}

TEST_F(SummaryStoreTest, AFileThatNoLongerExistsLeavesTheProgramButNotALink) {
  SummaryStore Store(cacheDir(), /*InMemory=*/true);
  std::string Error;
  Store.store(summary(), "cmd", Error);
  std::unique_ptr<SummaryStore> Link = SummaryStore::ofLink();
  Link->add(summary());
  EXPECT_TRUE(Store.composed({})->isModifiable("c:@g"));
  EXPECT_TRUE(Link->composed({})->isModifiable("c:@g"));
  llvm::sys::fs::remove(Source);
  // A deleted source says nothing of the program; the facts of a link
  // stand for their files wherever they are.
  EXPECT_FALSE(Store.composed({})->isModifiable("c:@g"));
  EXPECT_TRUE(Link->composed({})->isModifiable("c:@g"));
  EXPECT_NE(Store.stamp({}), Link->stamp({}));
}

} // namespace
