// Opt-in C stdio capture (rematch::capture_c_stdio): printf/puts/fputs output
// during an audited pass is a "log" effect like std::cout output. Its own
// process: the capture replaces `stdout`/`stderr` for the rest of the run.
#include "rematch/rematch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <thread>

namespace {

using Kind = rematch::AuditFinding::Kind;

class StdioCapture : public ::testing::Test {
protected:
  static void SetUpTestSuite() { installed_ = rematch::capture_c_stdio(); }
  void SetUp() override {
    if (!installed_)
      GTEST_SKIP() << "C stdio capture needs glibc";
    rematch::set_policy(rematch::Policy::off);
  }
  void TearDown() override { rematch::set_policy(rematch::Policy::warn); }
  static inline bool installed_ = false;
};

TEST_F(StdioCapture, UnguardedPrintfIsARepeatedEffect) {
  rematch::Segment seg("printf");
  auto body = [] {
    std::printf("step %d done\n", 3);
    std::fputs("warning on stderr\n", stderr);
    std::cout << "through iostream\n"; // captured once, not also as stdout
    return 0;
  };
  seg.forward(body);
  seg.recompute(body);
  const auto &r = seg.report();
  EXPECT_EQ(r.count(Kind::repeated_effect), 3u) << r.to_string();
  EXPECT_EQ(r.count(Kind::divergence), 0u) << r.to_string();
  const std::string text = r.to_string();
  EXPECT_NE(text.find("<stdout>"), std::string::npos) << text;
  EXPECT_NE(text.find("<stderr>"), std::string::npos) << text;
  EXPECT_NE(text.find("step 3 done"), std::string::npos) << text;
}

TEST_F(StdioCapture, GuardedPrintfIsClean) {
  rematch::Segment seg("guarded");
  auto body = [] {
    if (!rematch::recomputing()) {
      std::printf("once\n");
      std::puts("once more");
    }
    return 1;
  };
  seg.forward(body);
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean()) << seg.report().to_string();
}

TEST_F(StdioCapture, PartialLinesAndOtherThreads) {
  rematch::Segment seg("partial");
  auto body = [] {
    std::printf("no newline at the end");
    std::fflush(stdout);
    // Another thread's output is not this pass's.
    std::thread([] { std::printf("from another thread\n"); }).join();
    return 2;
  };
  seg.forward(body);
  std::printf("\n");
  seg.recompute(body);
  std::printf("\n");
  const auto &r = seg.report();
  EXPECT_EQ(r.count(Kind::repeated_effect), 1u) << r.to_string();
  EXPECT_EQ(r.to_string().find("from another thread"), std::string::npos)
      << r.to_string();
}

TEST_F(StdioCapture, WarningsAreNotRecordedAsUserOutput) {
  // The warn policy prints the inner report while the outer pass records;
  // rematch writes it to the original stderr, so the outer pass is clean.
  rematch::set_policy(rematch::Policy::warn);
  rematch::Tracked<int> drift(0, "drift");
  rematch::Segment outer("outer");
  auto run = [&] {
    rematch::Segment inner("inner");
    inner.forward([&] { return drift.get(); });
    drift.untracked() += 1;
    inner.recompute([&] { return drift.get(); }); // a divergence, warned
    drift.untracked() -= 1;
    return 0;
  };
  outer.forward(run);
  outer.recompute(run);
  EXPECT_EQ(outer.report().count(Kind::repeated_effect), 0u)
      << outer.report().to_string();
}

// Run by the ctest "runtime-stdio-forwarded", which checks that the bytes
// reached the real stdout.
TEST_F(StdioCapture, Forwarded) {
  std::printf("stdio forwarded: %d\n", 42);
  std::fflush(stdout);
}

} // namespace
