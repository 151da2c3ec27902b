// Runtime costs with audit off (this file) and on (runtime_bench_audit.cpp),
// measured in one binary so the ratios compare like with like.
#include "rematch/rematch.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

namespace {

// "Trivial": a few arithmetic operations the optimiser cannot remove.
int trivial(int x) {
  benchmark::DoNotOptimize(x);
  return x + 1;
}

// The same trivial function behind a real call (not inlined): what "the
// direct call" costs when the callee is a separate function, as a checkpointed
// block is.
[[gnu::noinline]] int trivial_call(int x) {
  benchmark::DoNotOptimize(x);
  return x + 1;
}

// A small but real function: a dependent chain of `n` square roots, ~8 ns
// each (n = 6: ~50 ns; n = 40: ~340 ns).
double small_work(double x, int n) {
  for (int i = 0; i < n; ++i)
    x = std::sqrt(x * x + 1.0);
  return x;
}

// The two arms of each comparison differ only in the forward() around the
// call; DoNotOptimize is applied identically.
void BM_Direct_Trivial(benchmark::State &state) {
  int x = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(x = trivial(x));
}
BENCHMARK(BM_Direct_Trivial);

void BM_SegmentForward_Trivial_NoGenerators(benchmark::State &state) {
  rematch::Segment seg;
  int x = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(x = seg.forward([&] { return trivial(x); }));
}
BENCHMARK(BM_SegmentForward_Trivial_NoGenerators);

void BM_Direct_TrivialCall(benchmark::State &state) {
  int x = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(x = trivial_call(x));
}
BENCHMARK(BM_Direct_TrivialCall);

void BM_SegmentForward_TrivialCall_NoGenerators(benchmark::State &state) {
  rematch::Segment seg;
  int x = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(x = seg.forward([&] { return trivial_call(x); }));
}
BENCHMARK(BM_SegmentForward_TrivialCall_NoGenerators);

void BM_Direct_SmallWork(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  double x = 1.0;
  for (auto _ : state)
    benchmark::DoNotOptimize(x = small_work(x, n));
}
BENCHMARK(BM_Direct_SmallWork)->Arg(6)->Arg(40);

void BM_SegmentForward_SmallWork_NoGenerators(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  rematch::Segment seg;
  double x = 1.0;
  for (auto _ : state)
    benchmark::DoNotOptimize(x = seg.forward([&] { return small_work(x, n); }));
}
BENCHMARK(BM_SegmentForward_SmallWork_NoGenerators)->Arg(6)->Arg(40);

// The checkpoint pattern with nothing registered: forward, then recompute.
void BM_ForwardRecompute_Trivial_NoGenerators(benchmark::State &state) {
  rematch::Segment seg;
  int x = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x = seg.forward([&] { return trivial(x); }));
    benchmark::DoNotOptimize(x = seg.recompute([&] { return trivial(x); }));
  }
}
BENCHMARK(BM_ForwardRecompute_Trivial_NoGenerators);

// Forward + recompute of an empty function with one mt19937 registered: two
// saves (s0, outside) and two restores (s0, outside), plus the leases.
void BM_ForwardRecompute_OneMt19937(benchmark::State &state) {
  rematch::Generator<std::mt19937> g(1u);
  rematch::Segment seg;
  for (auto _ : state) {
    seg.forward([] {});
    seg.recompute([] {});
  }
}
BENCHMARK(BM_ForwardRecompute_OneMt19937);

void BM_ForwardOnly_OneMt19937(benchmark::State &state) {
  rematch::Generator<std::mt19937> g(1u);
  rematch::Segment seg;
  for (auto _ : state)
    seg.forward([] {});
}
BENCHMARK(BM_ForwardOnly_OneMt19937);

// What a draw through Generator (with its lease) costs over the bare engine.
void BM_Draw_RawMt19937(benchmark::State &state) {
  std::mt19937 e(1u);
  for (auto _ : state)
    benchmark::DoNotOptimize(e());
}
BENCHMARK(BM_Draw_RawMt19937);

void BM_Draw_GeneratorMt19937(benchmark::State &state) {
  rematch::Generator<std::mt19937> g(1u);
  for (auto _ : state)
    benchmark::DoNotOptimize(g());
}
BENCHMARK(BM_Draw_GeneratorMt19937);

} // namespace

BENCHMARK_MAIN();
