//===--- AnalysisHostTest.cpp - what the program hands the checks ---------===//

#include "AnalysisHost.h"
#include "gtest/gtest.h"
#include <thread>

using namespace clang::tidy::rematch;

namespace {

TEST(AnalysisHostTest, NoneUnlessInstalled) {
  EXPECT_EQ(currentAnalysisHost(), nullptr);
}

TEST(AnalysisHostTest, ScopesNestAndRestore) {
  AnalysisHost Outer, Inner;
  Outer.RematchChecksOnly = true;
  {
    ScopedAnalysisHost A(Outer);
    EXPECT_EQ(currentAnalysisHost(), &Outer);
    {
      ScopedAnalysisHost B(Inner);
      EXPECT_EQ(currentAnalysisHost(), &Inner);
    }
    EXPECT_EQ(currentAnalysisHost(), &Outer);
    EXPECT_TRUE(currentAnalysisHost()->RematchChecksOnly);
  }
  EXPECT_EQ(currentAnalysisHost(), nullptr);
}

// Each analysis thread sees the host of the file it analyses, never another
// thread's: phases and threads do not share one.
TEST(AnalysisHostTest, PerThread) {
  AnalysisHost Mine;
  ScopedAnalysisHost A(Mine);
  const AnalysisHost *SeenThere = &Mine;
  const AnalysisHost *InstalledThere = nullptr;
  AnalysisHost Theirs;
  std::thread T([&] {
    SeenThere = currentAnalysisHost();
    ScopedAnalysisHost B(Theirs);
    InstalledThere = currentAnalysisHost();
  });
  T.join();
  EXPECT_EQ(SeenThere, nullptr);
  EXPECT_EQ(InstalledThere, &Theirs);
  EXPECT_EQ(currentAnalysisHost(), &Mine);
}

} // namespace
