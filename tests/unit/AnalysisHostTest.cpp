//===--- AnalysisHostTest.cpp - what the program hands the checks ---------===//

#include "AnalysisHost.h"
#include "gtest/gtest.h"
#include <thread>

using namespace clang::tidy::rematch;

namespace {

llvm::IntrusiveRefCntPtr<HostedFileSystem> hosted(const AnalysisHost &Host) {
  return llvm::makeIntrusiveRefCnt<HostedFileSystem>(
      llvm::vfs::createPhysicalFileSystem(), Host);
}

TEST(AnalysisHostTest, NoneOnAnotherFileSystem) {
  EXPECT_EQ(hostOf(*llvm::vfs::getRealFileSystem()), nullptr);
  llvm::vfs::InMemoryFileSystem Memory;
  EXPECT_EQ(hostOf(Memory), nullptr);
}

TEST(AnalysisHostTest, TheHostOfItsFileSystem) {
  AnalysisHost Host;
  Host.RematchChecksOnly = true;
  auto FS = hosted(Host);
  ASSERT_EQ(hostOf(*FS), &Host);
  EXPECT_TRUE(hostOf(*FS)->RematchChecksOnly);
}

// clang's tools wrap the file system they are given (ClangTool lays its
// in-memory files over it): the host is found below the wrapping.
TEST(AnalysisHostTest, FoundUnderTheLayersAToolAdds) {
  AnalysisHost Host;
  llvm::vfs::OverlayFileSystem Outer(hosted(Host));
  Outer.pushOverlay(llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>());
  EXPECT_EQ(hostOf(Outer), &Host);
}

// Two parses side by side, on any threads, each see the host of their own
// file system: nothing says which host is current.
TEST(AnalysisHostTest, EachParseSeesItsOwn) {
  AnalysisHost A, B;
  auto FA = hosted(A);
  auto FB = hosted(B);
  const AnalysisHost *SeenA = nullptr, *SeenB = nullptr;
  std::thread TA([&] { SeenA = hostOf(*FA); });
  std::thread TB([&] { SeenB = hostOf(*FB); });
  TA.join();
  TB.join();
  EXPECT_EQ(SeenA, &A);
  EXPECT_EQ(SeenB, &B);
}

} // namespace
