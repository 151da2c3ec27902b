// Audit and plain translation units in one binary (see mixed_plain_tu.cpp).
#include "rematch/rematch.h"

#include <gtest/gtest.h>

#include <random>
#include <type_traits>

namespace mixed {
bool plain_segment(bool &clean);
}

namespace {

static_assert(std::is_same_v<rematch::Segment, rematch::audit_on::Segment>,
              "this test is compiled in audit mode");

TEST(MixedModes, PlainAndAuditTemplatesCoexist) {
  bool plain_clean = false;
  EXPECT_TRUE(mixed::plain_segment(plain_clean));
  EXPECT_TRUE(plain_clean) << "plain mode records nothing, so finds nothing";

  rematch::set_policy(rematch::Policy::off);
  rematch::Tracked<int> global(1);
  rematch::Generator<std::mt19937> g(8u);
  rematch::Segment seg("audit");
  auto body = [&] { return g() + static_cast<unsigned>(global.get()); };
  seg.forward(body);
  global.set(2);
  seg.recompute(body);
  EXPECT_EQ(seg.report().count(rematch::AuditFinding::Kind::divergence), 1u);
  rematch::set_policy(rematch::Policy::warn);
}

} // namespace
