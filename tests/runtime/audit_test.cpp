// Audit mode: every finding kind is reported when it happens (positive) and
// not reported for its look-alike (negative).
#include "rematch/rematch.h"

#include "trace.h"

#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <string>

namespace {

using Kind = rematch::AuditFinding::Kind;

class Audit : public ::testing::Test {
protected:
  void SetUp() override { rematch::set_policy(rematch::Policy::off); }
  void TearDown() override { rematch::set_policy(rematch::Policy::warn); }
};

std::string text(const rematch::Report &r) { return r.to_string(); }

TEST_F(Audit, IdenticalPassesAreClean) {
  rematch::Generator<std::mt19937> g(1u);
  rematch::Tracked<double> scale(0.5, "scale");
  rematch::Segment seg("clean");
  auto body = [&] {
    std::bernoulli_distribution keep(0.5);
    double y = 0;
    for (int i = 0; i < 10; ++i)
      y += keep(g) ? scale.get() : 0.0;
    REMATCH_OBSERVE("y", y);
    return y;
  };
  seg.forward(body);
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
  EXPECT_EQ(seg.report().recompute_index(), 1u);
}

TEST_F(Audit, ValueDriftOfTrackedGlobalIsADivergence) {
  rematch::Tracked<double> scale(2.0, "scale");
  rematch::Segment seg("drift");
  auto body = [&] { return 3.0 * scale.get(); };
  seg.forward(body);
  scale.set(5.0); // the global changed between forward and recompute
  seg.recompute(body);
  ASSERT_EQ(seg.report().count(Kind::divergence), 1u) << text(seg.report());
  const auto &f = seg.report().findings().front();
  EXPECT_NE(f.message.find("value drift: scale was 2 in the forward, 5 in the "
                           "recompute"),
            std::string::npos)
      << f.message;
  EXPECT_NE(f.forward.file, nullptr);
  EXPECT_EQ(f.forward.line, f.recompute.line);
  EXPECT_FALSE(f.context.empty());
}

TEST_F(Audit, UnchangedTrackedGlobalIsNotADivergence) {
  rematch::Tracked<double> scale(2.0, "scale");
  rematch::Segment seg("no-drift");
  auto body = [&] { return 3.0 * scale.get(); };
  seg.forward(body);
  scale.set(2.0); // written, but to the same value
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
}

TEST_F(Audit, ObservedValueChangeIsADivergence) {
  int mode = 0; // not Tracked: only the observation sees it
  rematch::Segment seg;
  auto body = [&] { REMATCH_OBSERVE("mode", mode); };
  seg.forward(body);
  mode = 1;
  seg.recompute(body);
  EXPECT_EQ(seg.report().count(Kind::divergence), 1u) << text(seg.report());
  mode = 0;
  seg.recompute(body); // second recompute, compared with the same forward
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
  EXPECT_EQ(seg.report().recompute_index(), 2u);
}

TEST_F(Audit, DifferentNumberOfDrawsIsADivergence) {
  rematch::Generator<std::mt19937> g(rematch::GeneratorName{"dropout"}, 1u);
  int n = 3;
  rematch::Segment seg;
  auto body = [&] {
    for (int i = 0; i < n; ++i)
      g();
  };
  seg.forward(body);
  n = 4;
  seg.recompute(body);
  ASSERT_EQ(seg.report().count(Kind::divergence), 1u) << text(seg.report());
  EXPECT_NE(seg.report().findings()[0].message.find("dropout"),
            std::string::npos);
  n = 3;
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
}

TEST_F(Audit, DifferentOutputIsADivergence) {
  std::vector<int> table{1, 2, 3}; // untracked state read by the segment
  rematch::Segment seg;
  auto body = [&] { return table; };
  seg.forward(body);
  table[1] = 20;
  seg.recompute(body);
  ASSERT_EQ(seg.report().count(Kind::divergence), 1u) << text(seg.report());
  EXPECT_NE(seg.report().findings()[0].message.find("return value"),
            std::string::npos);
  table[1] = 2;
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean());
}

TEST_F(Audit, CounterBranchIsADivergenceAndARepeatedEffect) {
  rematch::Tracked<int> calls(0, "calls");
  rematch::Segment seg("counter");
  auto body = [&] {
    double y;
    if (calls.get() == 0)
      y = 1.0;
    else {
      REMATCH_OBSERVE("branch", 2);
      y = 2.0;
    }
    ++calls;
    return y;
  };
  seg.forward(body);
  seg.recompute(body);
  const auto &r = seg.report();
  EXPECT_GE(r.count(Kind::divergence), 1u) << text(r);
  EXPECT_EQ(r.count(Kind::repeated_effect), 1u) << text(r);
  EXPECT_NE(r.to_string().find("calls was 0 in the forward, 1 in the recompute"),
            std::string::npos)
      << text(r);
  // Side by side, not two lists.
  EXPECT_NE(r.to_string().find(" | "), std::string::npos);
}

TEST_F(Audit, UnguardedEffectsAreRepeated) {
  rematch::Tracked<long> counter(0, "counter");
  rematch::Segment seg;
  auto body = [&] {
    REMATCH_EFFECT("cache", "store key=7");
    std::cout << "step done\n";
    counter.set(counter.untracked() + 1); // written, never read
    return 1;
  };
  testing::internal::CaptureStdout();
  seg.forward(body);
  seg.recompute(body);
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(printed, "step done\nstep done\n"); // the tee still prints
  const auto &r = seg.report();
  EXPECT_EQ(r.count(Kind::repeated_effect), 3u) << text(r);
  EXPECT_EQ(r.count(Kind::divergence), 0u) << text(r);
  const std::string t = text(r);
  EXPECT_NE(t.find("cache: store key=7"), std::string::npos) << t;
  EXPECT_NE(t.find("log: step done"), std::string::npos) << t;
  EXPECT_NE(t.find("<std::cout>"), std::string::npos) << t;
  EXPECT_NE(t.find("write counter = 2"), std::string::npos) << t;
  for (const auto &f : r.findings())
    EXPECT_NE(f.forward.file, nullptr) << "forward occurrence shown: " << f.message;
}

TEST_F(Audit, GuardedEffectsAreNeitherRepeatedNorDivergent) {
  rematch::Tracked<long> counter(0, "counter");
  rematch::Segment seg;
  auto body = [&] {
    if (!rematch::recomputing()) {
      REMATCH_EFFECT("log", "once");
      std::cerr << "once\n";
      std::clog << "counter was " << counter.get() << "\n";
      ++counter;
    }
    return 1;
  };
  testing::internal::CaptureStderr();
  seg.forward(body);
  seg.recompute(body);
  testing::internal::GetCapturedStderr();
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
  EXPECT_EQ(counter.get(), 1);
}

TEST_F(Audit, GeneratorLeftOutOfTheSegmentDisturbsTheOutsideStream) {
  rematch::Generator<std::mt19937> listed(1u);
  rematch::Generator<std::mt19937> other(rematch::GeneratorName{"unlisted"}, 2u);
  rematch::Segment seg("s", {listed.id()});
  auto body = [&] { return listed() + other(); };
  seg.forward(body);
  seg.recompute(body);
  const auto &r = seg.report();
  EXPECT_EQ(r.count(Kind::outside_rng_disturbed), 1u) << text(r);
  EXPECT_NE(text(r).find("unlisted"), std::string::npos);
  // The unlisted draw differs between the passes: also a divergence.
  EXPECT_EQ(r.count(Kind::divergence), 1u) << text(r);
}

TEST_F(Audit, ListedGeneratorsDoNotDisturb) {
  rematch::Generator<std::mt19937> a(1u), b(2u);
  rematch::Segment seg("s", {a.id(), b.id()});
  auto body = [&] { return a() + b(); };
  seg.forward(body);
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
}

TEST_F(Audit, GeneratorCreatedAfterForwardDisturbs) {
  rematch::Segment seg;
  seg.forward([] {});
  rematch::Generator<std::mt19937> late(rematch::GeneratorName{"late"}, 3u);
  seg.recompute([&] { late(); });
  EXPECT_EQ(seg.report().count(Kind::outside_rng_disturbed), 1u)
      << text(seg.report());
}

struct Counter {
  std::uint64_t n = 0;
};

TEST_F(Audit, ForeignRestoreThatDoesNotRoundTripIsReported) {
  Counter c;
  auto h = rematch::register_generator(
      "broken",
      [&c] { return rematch::GeneratorState(8, static_cast<unsigned char>(c.n)); },
      [](const rematch::GeneratorState &) { /* forgets to restore */ });
  rematch::Segment seg;
  seg.forward([&] { ++c.n; });
  seg.recompute([&] { ++c.n; });
  const auto &r = seg.report();
  ASSERT_EQ(r.count(Kind::outside_rng_disturbed), 1u) << text(r);
  EXPECT_NE(text(r).find("broken"), std::string::npos);
}

TEST_F(Audit, ForeignRestoreThatRoundTripsIsClean) {
  Counter c;
  auto h = rematch::register_generator(
      "fine",
      [&c] { return rematch::GeneratorState(8, static_cast<unsigned char>(c.n)); },
      [&c](const rematch::GeneratorState &s) { c.n = s[0]; });
  rematch::Segment seg;
  seg.forward([&] { ++c.n; });
  seg.recompute([&] { ++c.n; });
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
  EXPECT_EQ(c.n, 1u);
}

TEST_F(Audit, UnlistedForeignGeneratorMovedDuringRecomputeIsReported) {
  Counter c, d;
  auto save = [](Counter &x) {
    return [&x] { return rematch::GeneratorState(8, static_cast<unsigned char>(x.n)); };
  };
  auto restore = [](Counter &x) {
    return [&x](const rematch::GeneratorState &s) { x.n = s[0]; };
  };
  auto hc = rematch::register_generator("listed", save(c), restore(c));
  auto hd = rematch::register_generator("foreign-unlisted", save(d), restore(d));
  rematch::Segment seg("s", {hc.id()});
  seg.forward([&] { ++c.n; });
  seg.recompute([&] { ++c.n; ++d.n; });
  EXPECT_EQ(seg.report().count(Kind::outside_rng_disturbed), 1u)
      << text(seg.report());
  seg.recompute([&] { ++c.n; }); // does not touch d
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
}

TEST_F(Audit, RecorderIsConsistentAfterExceptions) {
  rematch::Tracked<int> x(1, "x");
  rematch::Segment seg;
  auto body = [&] { return x.get(); };
  seg.forward(body);
  EXPECT_THROW(seg.recompute([&]() -> int {
    x.get();
    REMATCH_EFFECT("log", "partial");
    throw std::runtime_error("fail");
  }),
               std::runtime_error);
  EXPECT_FALSE(rematch::detail::recording());
  EXPECT_TRUE(seg.report().clean()); // nothing compared for a failed pass
  seg.recompute(body);
  EXPECT_TRUE(seg.report().clean()) << text(seg.report());
  EXPECT_EQ(seg.report().recompute_index(), 2u);
}

TEST_F(Audit, NestedSegmentsEachCompareTheirOwnPasses) {
  rematch::Tracked<int> k(0, "k");
  rematch::Segment outer("outer");
  auto run = [&] {
    rematch::Segment inner("inner");
    auto body = [&] { return k.get(); };
    int a = inner.forward(body);
    inner.recompute(body);
    EXPECT_TRUE(inner.report().clean()) << text(inner.report());
    return a;
  };
  outer.forward(run);
  outer.recompute(run);
  EXPECT_TRUE(outer.report().clean()) << text(outer.report());
}

TEST_F(Audit, OutsideAnySegmentNothingIsRecorded) {
  rematch::Tracked<int> k(0);
  k.get();
  ++k;
  REMATCH_EFFECT("log", "outside");
  EXPECT_FALSE(rematch::detail::recording());
}

// An observed name is stored once per pass, however often it is observed, and
// every event still names what it observed: also names sharing a cache slot,
// a temporary reused with other text, and names observed across nested passes.
TEST_F(Audit, ObservedNamesAreStoredOncePerPass) {
  namespace d = rematch::detail;
  auto names = [](const d::Trace &t) {
    std::vector<std::string> out;
    for (const d::Event &e : t.events)
      out.push_back(t.text_of(e) ? *t.text_of(e) : "<none>");
    return out;
  };
  d::begin_pass();
  for (int i = 0; i < 100; ++i)
    REMATCH_OBSERVE("loop", i);
  d::Trace loop = d::end_pass();
  EXPECT_EQ(loop.events.size(), 100u);
  EXPECT_EQ(loop.texts.size(), 1u);
  EXPECT_EQ(names(loop), std::vector<std::string>(100, "loop"));

  std::vector<std::string> expected_outer, expected_inner;
  d::begin_pass();
  for (int i = 0; i < 100; ++i) {
    REMATCH_OBSERVE("i", i);
    expected_outer.push_back("i");
  }
  for (int i = 0; i < 40; ++i) { // more names than cache slots
    std::string name = "n" + std::to_string(i % 20);
    REMATCH_OBSERVE(name, i);
    expected_outer.push_back(name);
  }
  d::begin_pass();
  REMATCH_OBSERVE("i", 1); // stored again: the inner slice must hold it
  REMATCH_OBSERVE("i", 2);
  expected_inner = {"i", "i"};
  d::Trace inner = d::end_pass();
  expected_outer.insert(expected_outer.end(), expected_inner.begin(),
                        expected_inner.end());
  REMATCH_OBSERVE("i", 3);
  expected_outer.push_back("i");
  d::Trace outer = d::end_pass();

  EXPECT_EQ(names(inner), expected_inner);
  EXPECT_EQ(inner.texts.size(), 1u);
  EXPECT_EQ(names(outer), expected_outer);
  // Direct-mapped: colliding names may be stored again, but not per event.
  EXPECT_LT(outer.texts.size(), outer.events.size() / 3);
}

} // namespace
