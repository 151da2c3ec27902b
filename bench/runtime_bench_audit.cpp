// Audit-mode costs: per recorded event, and the diff of million-event traces.
#undef REMATCH_AUDIT
#define REMATCH_AUDIT 1
#include "rematch/rematch.h"

#include "diff.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

constexpr int kEvents = 1000;

// Forward passes of kEvents Tracked reads; reported per event.
void BM_Audit_TrackedRead_PerEvent(benchmark::State &state) {
  rematch::Tracked<int> t(1, "t");
  rematch::Segment seg;
  for (auto _ : state) {
    seg.forward([&] {
      int s = 0;
      for (int i = 0; i < kEvents; ++i)
        s += t.get();
      return s;
    });
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}
BENCHMARK(BM_Audit_TrackedRead_PerEvent);

void BM_Audit_Observe_PerEvent(benchmark::State &state) {
  rematch::Segment seg;
  for (auto _ : state) {
    seg.forward([&] {
      for (int i = 0; i < kEvents; ++i)
        REMATCH_OBSERVE("i", i);
    });
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}
BENCHMARK(BM_Audit_Observe_PerEvent);

void BM_Audit_GeneratorDraw_PerEvent(benchmark::State &state) {
  rematch::Generator<std::mt19937> g(1u);
  rematch::Segment seg;
  for (auto _ : state) {
    seg.forward([&] {
      for (int i = 0; i < kEvents; ++i)
        benchmark::DoNotOptimize(g());
    });
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}
BENCHMARK(BM_Audit_GeneratorDraw_PerEvent);

// Baseline for the per-event figures: the same loop outside any pass.
void BM_Audit_TrackedRead_NotRecording(benchmark::State &state) {
  rematch::Tracked<int> t(1, "t");
  for (auto _ : state) {
    int s = 0;
    for (int i = 0; i < kEvents; ++i)
      s += t.get();
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}
BENCHMARK(BM_Audit_TrackedRead_NotRecording);

rematch::detail::Trace million() {
  rematch::detail::Trace t;
  t.events.resize(1000000);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    auto &e = t.events[i];
    e.file = __FILE__;
    e.key = i % 17;
    e.value = i;
    e.line = static_cast<std::uint32_t>(i % 50);
    e.kind = static_cast<std::uint32_t>(rematch::detail::EventKind::read);
    e.repr = static_cast<std::uint32_t>(rematch::detail::Repr::sint);
    e.text = 0;
  }
  return t;
}

void BM_Diff_1M_Identical(benchmark::State &state) {
  const auto a = million(), b = a;
  for (auto _ : state) {
    rematch::Report r;
    rematch::detail::analyse_traces(a, b, r);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Diff_1M_Identical)->Unit(benchmark::kMillisecond);

void BM_Diff_1M_100ScatteredChanges(benchmark::State &state) {
  const auto a = million();
  auto b = a;
  for (std::size_t i = 1; i <= 100; ++i)
    b.events[i * 9901].value += 1; // value drift at 100 places
  b.events.erase(b.events.begin() + 500000); // and one missing event
  for (auto _ : state) {
    rematch::Report r;
    rematch::detail::analyse_traces(a, b, r);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Diff_1M_100ScatteredChanges)->Unit(benchmark::kMillisecond);

void BM_Audit_TraceBytesPerEvent(benchmark::State &state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(sizeof(rematch::detail::Event));
  state.counters["bytes_per_event"] = sizeof(rematch::detail::Event);
}
BENCHMARK(BM_Audit_TraceBytesPerEvent);

} // namespace
