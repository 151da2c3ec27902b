// Threads: recording is per thread, and a generator drawn from by another
// thread during a forward or recompute is never left corrupted.
#include "rematch/rematch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

namespace {

TEST(Threads, SharedGeneratorStreamStaysExact) {
  rematch::Generator<std::mt19937> g(2024u);
  std::atomic<bool> stop{false};
  std::vector<std::uint32_t> drawn_by_b;

  std::thread b([&] {
    while (!stop.load()) {
      drawn_by_b.push_back(g());
      std::this_thread::yield();
    }
  });

  std::vector<std::uint32_t> drawn_by_forwards;
  for (int i = 0; i < 200; ++i) {
    rematch::Segment seg;
    const auto fwd = seg.forward([&] { return std::vector{g(), g(), g()}; });
    drawn_by_forwards.insert(drawn_by_forwards.end(), fwd.begin(), fwd.end());
    const auto rec = seg.recompute([&] { return std::vector{g(), g(), g()}; });
    ASSERT_EQ(fwd, rec) << "iteration " << i;
  }
  stop = true;
  b.join();

  // Every value anyone drew outside a recompute is the reference stream, each
  // value exactly once: the recomputes neither consumed nor replayed any of
  // the outside stream.
  std::vector<std::uint32_t> all = drawn_by_b;
  all.insert(all.end(), drawn_by_forwards.begin(), drawn_by_forwards.end());
  std::mt19937 reference(2024u);
  std::vector<std::uint32_t> expected(all.size());
  for (auto &v : expected)
    v = reference();
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
  EXPECT_EQ(g.engine(), reference);
}

TEST(Threads, SegmentsOnTwoThreadsDoNotSeeEachOthersEvents) {
  rematch::set_policy(rematch::Policy::off);
  std::atomic<int> phase{0};
  bool clean[2] = {false, false};

  auto worker = [&](int me) {
    rematch::Generator<std::mt19937> g(static_cast<unsigned>(me));
    rematch::Tracked<int> own(me, me ? "own1" : "own0");
    rematch::Segment seg("thread", {g.id()});
    bool first = true;
    auto body = [&] {
      if (first) {
        // Both threads are inside their forwards at once.
        phase.fetch_add(1);
        while (phase.load() < 2)
          std::this_thread::yield();
      }
      int sum = 0;
      for (int i = 0; i < 1000; ++i) {
        sum += own.get() + static_cast<int>(g() & 1);
        REMATCH_OBSERVE("i", i + me * 1000);
        if (i % 100 == 0)
          std::this_thread::yield(); // interleave with the other thread
      }
      return sum;
    };
    seg.forward(body);
    first = false;
    // The other thread may still be recording its forward meanwhile.
    seg.recompute(body);
    clean[me] = seg.report().clean();
  };
  std::thread t0(worker, 0), t1(worker, 1);
  t0.join();
  t1.join();
  EXPECT_TRUE(clean[0]);
  EXPECT_TRUE(clean[1]);
  rematch::set_policy(rematch::Policy::warn);
}

TEST(Threads, ConcurrentSegmentsWithDefaultReplaySetAreSafe) {
  // Every segment replays every registered generator, including the other
  // thread's: the leases serialise the passes, and each stream stays exact.
  constexpr int kThreads = 4, kIters = 100;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      rematch::Generator<std::mt19937_64> g(static_cast<unsigned>(t));
      std::mt19937_64 reference(static_cast<unsigned>(t));
      for (int i = 0; i < kIters; ++i) {
        rematch::Segment seg;
        auto a = seg.forward([&] { return g(); });
        auto b = seg.recompute([&] { return g(); });
        if (a != b || a != reference())
          ++failures;
      }
      if (g.engine() != reference)
        ++failures;
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
}

} // namespace
