// Threads: recording is per thread, and a generator drawn from by another
// thread during a forward or recompute is never left corrupted.
#include "rematch/rematch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
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
      // Not g.engine() != reference: the bare engine is not synchronised, and
      // another thread's segment may be replaying g right now (ThreadSanitizer
      // reported exactly that). A draw takes the lease.
      if (g() != reference())
        ++failures;
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(Threads, SharedAndPrivateGeneratorsOnSeveralThreads) {
  // Several threads run segments at once. Each draws from its own generator
  // and from one shared generator; half of the segments list both, half
  // replay every registered generator. Another thread draws from the shared
  // generator outside any segment. Every recompute must match its forward,
  // every private stream must be exact, and the shared stream must have been
  // handed out exactly once per value.
  rematch::set_policy(rematch::Policy::off);
  constexpr int kThreads = 4, kIters = 60;
  rematch::Generator<std::mt19937> shared(rematch::GeneratorName{"shared"}, 77u);
  std::atomic<int> failures{0};
  std::atomic<bool> stop{false};
  std::vector<std::vector<std::uint32_t>> shared_draws(kThreads + 1);

  std::thread outsider([&] {
    while (!stop.load()) {
      shared_draws[kThreads].push_back(shared());
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      rematch::Generator<std::minstd_rand> mine(
          rematch::GeneratorName{"private" + std::to_string(t)},
          static_cast<unsigned>(t + 1));
      std::minstd_rand reference(static_cast<unsigned>(t + 1));
      auto body = [&] {
        std::uniform_int_distribution<int> d(0, 9);
        std::vector<std::uint32_t> v;
        for (int k = 0; k < 3; ++k) {
          v.push_back(static_cast<std::uint32_t>(d(mine)));
          v.push_back(shared());
        }
        return v;
      };
      std::uniform_int_distribution<int> ref_d(0, 9);
      for (int i = 0; i < kIters; ++i) {
        auto seg = i % 2 ? std::make_unique<rematch::Segment>(
                               "listed", std::vector{mine.id(), shared.id()})
                         : std::make_unique<rematch::Segment>("all");
        const auto fwd = seg->forward(body);
        for (int k = 0; k < 3; ++k) {
          if (fwd[2 * k] != static_cast<std::uint32_t>(ref_d(reference)))
            ++failures;
          shared_draws[t].push_back(fwd[2 * k + 1]);
        }
        std::this_thread::yield(); // let others move the shared stream
        const auto rec = seg->recompute(body);
        if (rec != fwd || !seg->report().clean())
          ++failures;
      }
      // The private stream continues exactly where the forwards left it.
      if (mine() != reference())
        ++failures;
    });
  for (auto &th : threads)
    th.join();
  stop = true;
  outsider.join();
  EXPECT_EQ(failures.load(), 0);

  std::vector<std::uint32_t> all;
  for (auto &v : shared_draws)
    all.insert(all.end(), v.begin(), v.end());
  std::mt19937 reference(77u);
  std::vector<std::uint32_t> expected(all.size());
  for (auto &v : expected)
    v = reference();
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
  EXPECT_EQ(shared(), reference());
  rematch::set_policy(rematch::Policy::warn);
}

} // namespace
