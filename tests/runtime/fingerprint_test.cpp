// Fingerprints: built-in overloads, user overloads by ADL, containers of both.
#include "rematch/fingerprint.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace user {
struct Tensor {
  std::vector<float> data;
  int version; // not part of the value
};
std::uint64_t fingerprint(const Tensor &t) { return rematch::fingerprint(t.data); }
struct Opaque {};
} // namespace user

namespace {

using rematch::fingerprint;

TEST(Fingerprint, Arithmetic) {
  EXPECT_EQ(fingerprint(3), fingerprint(3));
  EXPECT_NE(fingerprint(3), fingerprint(4));
  EXPECT_EQ(fingerprint(0.0), fingerprint(-0.0));
  EXPECT_NE(fingerprint(1.0), fingerprint(1.0 + 1e-15));
}

TEST(Fingerprint, StringsAgreeAcrossTypes) {
  const std::string s = "abc";
  EXPECT_EQ(fingerprint(s), fingerprint(std::string_view("abc")));
  EXPECT_EQ(fingerprint(s), fingerprint("abc"));
  EXPECT_NE(fingerprint(s), fingerprint(std::string("abd")));
}

TEST(Fingerprint, ContainersAreOrderAndLengthSensitive) {
  EXPECT_EQ(fingerprint(std::vector<int>{1, 2}), fingerprint(std::vector<int>{1, 2}));
  EXPECT_NE(fingerprint(std::vector<int>{1, 2}), fingerprint(std::vector<int>{2, 1}));
  EXPECT_NE(fingerprint(std::vector<int>{}), fingerprint(std::vector<int>{0}));
  std::map<std::string, std::vector<double>> m{{"a", {1.0}}};
  auto m2 = m;
  EXPECT_EQ(fingerprint(m), fingerprint(m2));
  m2["a"][0] = 2.0;
  EXPECT_NE(fingerprint(m), fingerprint(m2));
  EXPECT_NE(fingerprint(std::make_pair(1, 2)), fingerprint(std::make_pair(2, 1)));
  EXPECT_NE(fingerprint(std::optional<int>{}), fingerprint(std::optional<int>{0}));
}

TEST(Fingerprint, UserOverloadFoundByAdlAlsoInsideContainers) {
  user::Tensor a{{1, 2}, 1}, b{{1, 2}, 2}, c{{1, 3}, 1};
  EXPECT_EQ(fingerprint(a), fingerprint(b));
  EXPECT_NE(fingerprint(a), fingerprint(c));
  EXPECT_NE(fingerprint(std::vector<user::Tensor>{a}),
            fingerprint(std::vector<user::Tensor>{c}));
}

TEST(Fingerprint, DetectsTypesWithoutAFingerprint) {
  static_assert(rematch::detail::fingerprintable<user::Tensor>());
  static_assert(rematch::detail::fingerprintable<std::vector<user::Tensor>>());
  static_assert(!rematch::detail::fingerprintable<user::Opaque>());
  static_assert(!rematch::detail::fingerprintable<std::vector<user::Opaque>>());
  SUCCEED();
}

} // namespace
