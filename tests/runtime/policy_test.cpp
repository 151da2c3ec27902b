// The policy on findings: off, warn, throw, abort, and REMATCH_POLICY.
#include "rematch/rematch.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace {

// A segment whose recompute reads a changed global: one divergence.
struct Drifting {
  rematch::Tracked<int> global{1, "global"};
  rematch::Segment seg{"drifting"};
  int body() { return global.get(); }
  void forward() {
    seg.forward([this] { return body(); });
    global.set(global.untracked() + 1);
  }
  void recompute() {
    seg.recompute([this] { return body(); });
  }
};

struct PolicyGuard {
  ~PolicyGuard() { rematch::set_policy(rematch::Policy::warn); }
};

TEST(Policy, SetPolicyParsesTheEnvironmentSpellings) {
  PolicyGuard guard;
  EXPECT_TRUE(rematch::set_policy("throw"));
  EXPECT_EQ(rematch::policy(), rematch::Policy::throw_error);
  EXPECT_TRUE(rematch::set_policy("abort"));
  EXPECT_EQ(rematch::policy(), rematch::Policy::abort);
  EXPECT_TRUE(rematch::set_policy("off"));
  EXPECT_EQ(rematch::policy(), rematch::Policy::off);
  EXPECT_FALSE(rematch::set_policy("loud"));
  EXPECT_EQ(rematch::policy(), rematch::Policy::off);
}

TEST(Policy, WarnPrintsTheReportToStderr) {
  PolicyGuard guard;
  rematch::set_policy(rematch::Policy::warn);
  Drifting d;
  d.forward();
  testing::internal::CaptureStderr();
  d.recompute();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("segment 'drifting'"), std::string::npos) << err;
  EXPECT_NE(err.find("divergence"), std::string::npos) << err;
  EXPECT_EQ(d.seg.report().count(rematch::AuditFinding::Kind::divergence), 1u);
}

TEST(Policy, WarnIsSilentForACleanRecompute) {
  PolicyGuard guard;
  rematch::set_policy(rematch::Policy::warn);
  rematch::Segment seg;
  seg.forward([] { return 1; });
  testing::internal::CaptureStderr();
  seg.recompute([] { return 1; });
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(Policy, OffKeepsTheReportButPrintsNothing) {
  PolicyGuard guard;
  rematch::set_policy(rematch::Policy::off);
  Drifting d;
  d.forward();
  testing::internal::CaptureStderr();
  d.recompute();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(d.seg.report().clean());
}

TEST(Policy, ThrowCarriesTheReportAndRestoresGeneratorsFirst) {
  PolicyGuard guard;
  rematch::set_policy(rematch::Policy::throw_error);
  rematch::Generator<std::mt19937> g(11u);
  std::mt19937 reference(11u);
  Drifting d;
  d.seg.forward([&] { return g() + static_cast<unsigned>(d.body()); });
  reference();
  d.global.set(5);
  try {
    d.seg.recompute([&] { return g() + static_cast<unsigned>(d.body()); });
    FAIL() << "expected DivergenceError";
  } catch (const rematch::DivergenceError &e) {
    EXPECT_EQ(e.report().count(rematch::AuditFinding::Kind::divergence), 1u);
    EXPECT_NE(std::string(e.what()).find("value drift"), std::string::npos);
  }
  EXPECT_EQ(g.engine(), reference);
  EXPECT_FALSE(rematch::recomputing());
  EXPECT_FALSE(d.seg.report().clean());
}

TEST(PolicyDeathTest, AbortAborts) {
  PolicyGuard guard;
  EXPECT_DEATH(
      {
        rematch::set_policy(rematch::Policy::abort);
        Drifting d;
        d.forward();
        d.recompute();
      },
      "value drift");
}

// Run by the ctest "runtime-policy-env" with REMATCH_POLICY=throw; skipped
// otherwise (the policy is read once per process).
TEST(PolicyEnv, ThrowFromEnvironment) {
  const char *env = std::getenv("REMATCH_POLICY");
  if (!env || std::string(env) != "throw")
    GTEST_SKIP() << "needs REMATCH_POLICY=throw";
  EXPECT_EQ(rematch::policy(), rematch::Policy::throw_error);
  Drifting d;
  d.forward();
  EXPECT_THROW(d.recompute(), rematch::DivergenceError);
}

} // namespace
