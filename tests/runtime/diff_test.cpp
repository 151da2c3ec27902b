// The trace alignment on its own (internal API).
#include "diff.h"

#include <gtest/gtest.h>

#include <chrono>

namespace {

using rematch::detail::DiffRun;
using rematch::detail::Event;
using rematch::detail::EventKind;
using rematch::detail::Trace;

Event ev(std::uint64_t key, std::uint64_t value = 0,
         EventKind kind = EventKind::read) {
  Event e{};
  e.file = "f.cpp";
  e.key = key;
  e.value = value;
  e.line = static_cast<std::uint32_t>(key);
  e.kind = static_cast<std::uint32_t>(kind);
  e.repr = static_cast<std::uint32_t>(rematch::detail::Repr::sint);
  return e;
}

Trace trace(std::initializer_list<std::uint64_t> keys) {
  Trace t;
  for (auto k : keys)
    t.events.push_back(ev(k));
  return t;
}

std::size_t edits(const std::vector<DiffRun> &runs) {
  std::size_t n = 0;
  for (auto &r : runs)
    if (r.type != DiffRun::equal)
      n += r.len;
  return n;
}

TEST(Diff, IdenticalIsOneEqualRun) {
  auto a = trace({1, 2, 3});
  auto runs = rematch::detail::diff_traces(a, a);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].len, 3u);
}

TEST(Diff, FindsTheMinimalEditScript) {
  // The classic example: ABCABBA -> CBABAC needs 5 edits.
  auto a = trace({1, 2, 3, 1, 2, 2, 1});
  auto b = trace({3, 2, 1, 2, 1, 3});
  auto runs = rematch::detail::diff_traces(a, b);
  EXPECT_EQ(edits(runs), 5u);
  std::size_t fa = 0, fb = 0; // the runs cover both sides in order
  for (auto &r : runs) {
    if (r.type != DiffRun::ins) {
      EXPECT_EQ(r.a, fa);
      fa += r.len;
    }
    if (r.type != DiffRun::del) {
      EXPECT_EQ(r.b, fb);
      fb += r.len;
    }
  }
  EXPECT_EQ(fa, a.events.size());
  EXPECT_EQ(fb, b.events.size());
}

TEST(Diff, InsertionInTheMiddleOfALongTrace) {
  Trace a, b;
  for (std::uint64_t i = 0; i < 10000; ++i)
    a.events.push_back(ev(i % 7));
  b = a;
  b.events.insert(b.events.begin() + 5000, ev(99));
  auto runs = rematch::detail::diff_traces(a, b);
  EXPECT_EQ(edits(runs), 1u);
}

TEST(Diff, EffectsAlignRegardlessOfTheirValue) {
  Event x = ev(1, 5, EventKind::effect), y = ev(1, 6, EventKind::effect);
  EXPECT_TRUE(rematch::detail::same_event(x, y));
  EXPECT_FALSE(rematch::detail::same_event(ev(1, 5), ev(1, 6)));
}

TEST(Diff, BeyondTheEditLimitFallsBackToOneBlock) {
  Trace a, b;
  for (std::uint64_t i = 0; i < 100; ++i) {
    a.events.push_back(ev(i));
    b.events.push_back(ev(i + 1000));
  }
  auto runs = rematch::detail::diff_traces(a, b, 10);
  EXPECT_EQ(edits(runs), 200u);
}

TEST(Diff, MillionEventTracesAreQuick) {
  Trace a;
  for (std::uint64_t i = 0; i < 1000000; ++i)
    a.events.push_back(ev(i % 13, i));
  Trace b = a;
  for (std::size_t i = 1; i < 10; ++i)
    b.events[i * 100000].value += 1;
  const auto t0 = std::chrono::steady_clock::now();
  auto runs = rematch::detail::diff_traces(a, b);
  const auto ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
  EXPECT_EQ(edits(runs), 18u);
  EXPECT_LT(ms, 1000.0); // generous for sanitizer and debug builds
}

} // namespace
