// RNG replay: the seed's two duties, for several engines, foreign generators,
// exceptions, nesting and repeated recomputes. Built in plain and audit mode.
#include "rematch/rematch.h"

#include <gtest/gtest.h>

#include <iostream>

#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace {

// An engine that is not trivially copyable, to exercise the stream path.
struct VectorEngine {
  using result_type = std::uint32_t;
  std::vector<std::uint32_t> s{1, 2, 3};
  explicit VectorEngine(std::uint32_t seed = 7) { s[0] = seed; }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return 0xffffffffu; }
  result_type operator()() {
    s[0] = s[0] * 1664525u + 1013904223u;
    s[1] ^= s[0];
    s[2] += s[1];
    return s[2];
  }
  void discard(unsigned long long n) {
    while (n--)
      (*this)();
  }
  friend std::ostream &operator<<(std::ostream &os, const VectorEngine &e) {
    return os << e.s[0] << ' ' << e.s[1] << ' ' << e.s[2];
  }
  friend std::istream &operator>>(std::istream &is, VectorEngine &e) {
    return is >> e.s[0] >> e.s[1] >> e.s[2];
  }
  friend bool operator==(const VectorEngine &a, const VectorEngine &b) {
    return a.s == b.s;
  }
};
static_assert(!std::is_trivially_copyable_v<VectorEngine>);

template <class E> class ReplayTest : public ::testing::Test {};
using Engines = ::testing::Types<std::mt19937, std::mt19937_64, std::minstd_rand,
                                 std::ranlux24, std::knuth_b, VectorEngine>;
TYPED_TEST_SUITE(ReplayTest, Engines);

template <class G> std::vector<std::uint64_t> draw(G &g, int n) {
  std::vector<std::uint64_t> v;
  for (int i = 0; i < n; ++i)
    v.push_back(static_cast<std::uint64_t>(g()));
  return v;
}

TYPED_TEST(ReplayTest, RecomputeReplaysAndOutsideStreamContinues) {
  rematch::Generator<TypeParam> g(12345u);
  TypeParam reference(12345u);
  rematch::Segment seg("s");

  const auto fwd = seg.forward([&] { return draw(g, 5); });
  const auto between = draw(g, 3); // legitimate outside draws after s1
  const auto rec = seg.recompute([&] { return draw(g, 5); });

  EXPECT_EQ(fwd, rec) << "duty 1: the recompute must draw what the forward drew";
  EXPECT_EQ(fwd, draw(reference, 5));
  EXPECT_EQ(between, draw(reference, 3));
  // Duty 2: the outside stream continues as if the recompute never ran.
  EXPECT_EQ(draw(g, 4), draw(reference, 4));
}

TYPED_TEST(ReplayTest, WorksWithStandardDistributions) {
  rematch::Generator<TypeParam> g(99u);
  rematch::Segment seg;
  std::uniform_real_distribution<double> u;
  const double a = seg.forward([&] { return u(g); });
  const double b = seg.recompute([&] { return u(g); });
  EXPECT_EQ(a, b);
}

struct XorShift {
  std::uint64_t s = 88172645463325252ULL;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

rematch::GeneratorHandle register_xorshift(XorShift &x, const char *name) {
  return rematch::register_generator(
      name,
      [&x] {
        rematch::GeneratorState st(sizeof x.s);
        std::memcpy(st.data(), &x.s, sizeof x.s);
        return st;
      },
      [&x](const rematch::GeneratorState &st) {
        std::memcpy(&x.s, st.data(), sizeof x.s);
      });
}

TEST(Foreign, ReplayedAndRestored) {
  XorShift x, ref;
  auto handle = register_xorshift(x, "xorshift");
  rematch::Segment seg;
  const auto a = seg.forward([&] { return std::vector{x.next(), x.next()}; });
  const std::uint64_t outside = x.next();
  const auto b = seg.recompute([&] { return std::vector{x.next(), x.next()}; });
  EXPECT_EQ(a, b);
  ref.next();
  ref.next();
  EXPECT_EQ(outside, ref.next());
  EXPECT_EQ(x.next(), ref.next());
}

// Issue 7, runtime side: an exception from the user's function at any point
// (start, after draws, after effects, inside a nested segment) leaves every
// generator, the engine under test and a foreign one, as it was at recompute
// entry, leaves the recorder consistent, and a later recompute still matches
// the forward. A forward that throws leaves nothing to recompute and the
// segment can run a new forward.
TYPED_TEST(ReplayTest, ExceptionsAtAnyPointLeaveGeneratorsRestored) {
  rematch::Generator<TypeParam> g(321u);
  TypeParam ref_g(321u);
  XorShift x, ref_x;
  auto handle = register_xorshift(x, "xorshift-exceptions");
  rematch::Tracked<int> scratch(0, "scratch");
  rematch::Segment seg("exceptions");

  enum : int { none = -1, at_start, after_draws, after_effects, in_nested };
  auto body = [&](int fail_at) {
    if (fail_at == at_start)
      throw std::runtime_error("at start");
    std::vector<std::uint64_t> v = draw(g, 3);
    v.push_back(x.next());
    if (fail_at == after_draws)
      throw std::runtime_error("after draws");
    if (fail_at == after_effects) {
      REMATCH_EFFECT("log", "partial");
      std::cout << "[rematch exception test] output of a failing pass\n";
      scratch += 1;
      throw std::runtime_error("after effects");
    }
    if (fail_at == in_nested) {
      rematch::Segment inner("inner");
      inner.forward([&] { return draw(g, 2); });
      inner.recompute([&]() -> int {
        draw(g, 1);
        throw std::runtime_error("in nested recompute");
      });
    }
    if (!rematch::recomputing())
      REMATCH_EFFECT("log", "once");
    v.push_back(static_cast<std::uint64_t>(g()));
    return v;
  };
  auto expect_outside_state = [&](const char *where) {
    EXPECT_FALSE(rematch::recomputing()) << where;
    EXPECT_FALSE(rematch::detail::recording()) << where;
    EXPECT_TRUE(g.engine() == ref_g) << where;
    EXPECT_EQ(x.s, ref_x.s) << where;
  };

  // A forward that throws after drawing: its draws are real, nothing is left
  // to recompute, the leases are released.
  EXPECT_THROW(seg.forward([&] { return body(after_draws); }),
               std::runtime_error);
  ref_g.discard(3);
  ref_x.next();
  expect_outside_state("failed forward");
  EXPECT_THROW(seg.recompute([&] { return body(none); }), std::logic_error);

  // The same segment runs a new forward.
  const auto fwd = seg.forward([&] { return body(none); });
  ref_g.discard(4);
  ref_x.next();
  EXPECT_EQ(g(), ref_g()); // outside draws between forward and recompute
  EXPECT_EQ(x.next(), ref_x.next());

  for (int fail_at : {at_start, after_draws, after_effects, in_nested}) {
    const std::string where = "recompute failing at " + std::to_string(fail_at);
    EXPECT_THROW(seg.recompute([&] { return body(fail_at); }),
                 std::runtime_error)
        << where;
    expect_outside_state(where.c_str());
    EXPECT_TRUE(seg.report().clean()) << where; // nothing compared
  }
  const auto rec = seg.recompute([&] { return body(none); });
  EXPECT_EQ(rec, fwd);
  EXPECT_TRUE(seg.report().clean()) << seg.report().to_string();
  EXPECT_EQ(seg.report().recompute_index(), 5u);
  expect_outside_state("successful recompute");
  EXPECT_EQ(seg.recompute([&] { return body(none); }), fwd); // and again
  EXPECT_EQ(draw(g, 3), draw(ref_g, 3));
  EXPECT_EQ(x.next(), ref_x.next());
}

// The inline fast path (plain mode, nothing registered) keeps the same
// contract: a throwing forward leaves nothing to recompute, and the segment
// works afterwards, also once a generator has been registered.
TEST(Exceptions, FastPathForwardThatThrows) {
  rematch::Segment seg("fast");
  EXPECT_EQ(seg.forward([] { return 1; }), 1);
  EXPECT_EQ(seg.forward([] { return 2; }), 2);
  EXPECT_EQ(seg.recompute([] { return 2; }), 2);
  EXPECT_EQ(seg.report().recompute_index(), 1u);
  EXPECT_EQ(seg.forward([] { return 3; }), 3); // resets the recompute count
  EXPECT_EQ(seg.recompute([] { return 3; }), 3);
  EXPECT_EQ(seg.report().recompute_index(), 1u);
  EXPECT_EQ(seg.recompute([] { return 3; }), 3);
  EXPECT_EQ(seg.report().recompute_index(), 2u);
  EXPECT_THROW(seg.forward([]() -> int { throw std::runtime_error("x"); }),
               std::runtime_error);
  EXPECT_THROW(seg.recompute([] { return 0; }), std::logic_error);
  EXPECT_EQ(seg.forward([] { return 4; }), 4);
  EXPECT_EQ(seg.recompute([] { return 4; }), 4);
  // A generator registered now is saved by the next forward.
  rematch::Generator<std::mt19937> g(8u);
  const auto a = seg.forward([&] { return g(); });
  g();
  EXPECT_EQ(seg.recompute([&] { return g(); }), a);
  std::mt19937 ref(8u);
  ref.discard(2);
  EXPECT_EQ(g.engine(), ref);
}

// A forward that saved a generator, then that generator is gone and the next
// forward takes the fast path: the recompute must not restore the stale slot
// (ASan reports a use after free if it does), and the recompute count starts
// again.
TEST(Exceptions, FastPathDropsSlotsOfAnEarlierForward) {
  rematch::Segment seg("stale");
  {
    rematch::Generator<std::mt19937> g(3u);
    const auto a = seg.forward([&] { return g(); });
    EXPECT_EQ(seg.recompute([&] { return g(); }), a);
    EXPECT_EQ(seg.report().recompute_index(), 1u);
  }
  ASSERT_TRUE(rematch::registered_generators().empty());
  EXPECT_EQ(seg.forward([] { return 7; }), 7);
  EXPECT_EQ(seg.recompute([] { return 7; }), 7);
  EXPECT_EQ(seg.report().recompute_index(), 1u);
  EXPECT_TRUE(seg.report().clean()) << seg.report().to_string();
  // A generator registered afterwards is not touched by that recompute.
  rematch::Generator<std::mt19937> late(9u);
  std::mt19937 ref(9u);
  EXPECT_EQ(seg.recompute([] { return 7; }), 7);
  EXPECT_EQ(late.engine(), ref);
}

// An explicit list naming generators that are not registered saves nothing:
// the forward takes the fast path and the recompute replays nothing.
TEST(Exceptions, ExplicitListWithNothingRegistered) {
  rematch::GeneratorId gone;
  {
    rematch::Generator<std::mt19937> g(4u);
    gone = g.id();
  }
  rematch::Segment seg("listed", {gone});
  EXPECT_EQ(seg.forward([] { return 1; }), 1);
  EXPECT_EQ(seg.recompute([] { return 1; }), 1);
  EXPECT_TRUE(seg.report().clean()) << seg.report().to_string();
}

TEST(Foreign, HandleUnregistersWhenDestroyed) {
  XorShift x;
  auto count = [] {
    auto names = rematch::registered_generators();
    return std::count(names.begin(), names.end(), "short-lived");
  };
  {
    auto handle = register_xorshift(x, "short-lived");
    EXPECT_EQ(count(), 1);
    rematch::GeneratorHandle moved = std::move(handle);
    EXPECT_FALSE(handle);
    EXPECT_EQ(count(), 1);
  }
  EXPECT_EQ(count(), 0);
}

TEST(Exceptions, OutsideStateRestoredWhenRecomputeThrows) {
  rematch::Generator<std::mt19937> g(5u);
  std::mt19937 reference(5u);
  rematch::Segment seg;
  const auto fwd = seg.forward([&] { return draw(g, 4); });
  reference.discard(4);

  for (int failing_after : {0, 1, 3}) {
    EXPECT_THROW(seg.recompute([&] {
      draw(g, failing_after);
      throw std::runtime_error("boom");
    }),
                 std::runtime_error);
    EXPECT_FALSE(rematch::recomputing());
    EXPECT_EQ(g.engine(), reference) << "failing after " << failing_after;
  }
  // A recompute after failed ones still replays.
  EXPECT_EQ(seg.recompute([&] { return draw(g, 4); }), fwd);
  EXPECT_EQ(g.engine(), reference);
}

TEST(Exceptions, FailedForwardLeavesNothingToRecompute) {
  rematch::Generator<std::mt19937> g(5u);
  rematch::Segment seg;
  EXPECT_THROW(seg.forward([&]() -> int { throw std::runtime_error("x"); }),
               std::runtime_error);
  EXPECT_THROW(seg.recompute([] { return 0; }), std::logic_error);
  // And the generator is usable (its lease was released).
  g();
}

TEST(Segment, RecomputeWithoutForwardThrows) {
  rematch::Segment seg;
  EXPECT_THROW(seg.recompute([] {}), std::logic_error);
}

TEST(Segment, RecomputingIsTrueOnlyDuringRecompute) {
  rematch::Segment seg;
  EXPECT_FALSE(seg.forward([] { return rematch::recomputing(); }));
  EXPECT_TRUE(seg.recompute([] { return rematch::recomputing(); }));
  EXPECT_FALSE(rematch::recomputing());
}

TEST(Segment, ReturnsReferencesAndVoid) {
  rematch::Segment seg;
  int x = 1;
  int &r = seg.forward([&]() -> int & { return x; });
  EXPECT_EQ(&r, &x);
  seg.forward([] {});
  seg.recompute([] {});
}

TEST(Segment, RecomputeTwiceReplaysTwice) {
  rematch::Generator<std::mt19937_64> g(77u);
  std::mt19937_64 reference(77u);
  rematch::Segment seg;
  const auto fwd = seg.forward([&] { return draw(g, 3); });
  reference.discard(3);
  EXPECT_EQ(seg.recompute([&] { return draw(g, 3); }), fwd);
  EXPECT_EQ(seg.recompute([&] { return draw(g, 3); }), fwd);
  EXPECT_EQ(g.engine(), reference);
}

TEST(Segment, NestedSegmentsReplayIndependently) {
  rematch::Generator<std::mt19937> g(3u);
  std::mt19937 reference(3u);
  rematch::Segment outer("outer");
  std::vector<std::uint64_t> inner_fwd;
  auto body = [&](rematch::Segment &inner) {
    auto v = draw(g, 2);
    auto w = inner.forward([&] { return draw(g, 2); });
    // A nested checkpoint recomputes its inner segment inside the outer pass.
    auto w2 = inner.recompute([&] {
      EXPECT_TRUE(rematch::recomputing());
      return draw(g, 2);
    });
    EXPECT_EQ(w, w2);
    v.insert(v.end(), w.begin(), w.end());
    return v;
  };
  rematch::Segment inner1("inner");
  const auto fwd = outer.forward([&] {
    EXPECT_FALSE(rematch::recomputing());
    return body(inner1);
  });
  rematch::Segment inner2("inner");
  const auto rec = outer.recompute([&] { return body(inner2); });
  EXPECT_EQ(fwd, rec);
  EXPECT_FALSE(rematch::recomputing());
  reference.discard(4);
  EXPECT_EQ(g.engine(), reference);
}

TEST(Segment, ExplicitListReplaysOnlyListedGenerators) {
  rematch::Generator<std::mt19937> a(1u), b(2u);
  rematch::Segment seg("only-a", {a.id()});
  const auto fwd = seg.forward([&] { return draw(a, 2); });
  std::mt19937 b_ref(2u);
  b(); // b is not replayed, so the recompute sees it where it is
  b_ref();
  EXPECT_EQ(seg.recompute([&] { return draw(a, 2); }), fwd);
  EXPECT_EQ(b.engine(), b_ref);
}

TEST(Segment, GeneratorsCreatedAfterForwardAreNotTouched) {
  rematch::Segment seg;
  seg.forward([] {});
  rematch::Generator<std::mt19937> late(4u);
  std::mt19937 ref(4u);
  seg.recompute([] {});
  EXPECT_EQ(late.engine(), ref);
}

TEST(Generator, NamedAndEngineAccess) {
  rematch::Generator<std::mt19937> g(rematch::GeneratorName{"dropout"}, 42u);
  EXPECT_EQ(g.name(), "dropout");
  EXPECT_EQ(g.engine(), std::mt19937(42u));
  rematch::Generator<std::mt19937> unnamed(42u);
  EXPECT_EQ(unnamed.name(), "generator#" + std::to_string(unnamed.id()));
}

TEST(Tracked, BehavesLikeTheValue) {
  rematch::Tracked<int> t(3);
  EXPECT_EQ(t.get(), 3);
  t.set(4);
  int v = t;
  EXPECT_EQ(v, 4);
  t = 10;
  ++t;
  t++;
  t += 5;
  t -= 1;
  t *= 2;
  --t;
  t--;
  EXPECT_EQ(t.get(), 30);
  rematch::Tracked<std::string> s(std::string("a"));
  s += "b";
  EXPECT_EQ(s.get(), "ab");
}

} // namespace
