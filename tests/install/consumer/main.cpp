// Replays a dropout draw through an installed rematch runtime: the
// recomputation must draw what the forward drew.
#include <rematch/rematch.h>

#include <cstdio>
#include <random>

int main() {
  rematch::Generator<std::mt19937> gen(rematch::GeneratorName{"dropout"}, 42u);
  rematch::Segment seg("block");
  const auto forward = seg.forward([&] { return gen(); });
  const auto recomputed = seg.recompute([&] { return gen(); });
  std::printf("consumer: audit=%d forward=%u recompute=%u\n", REMATCH_AUDIT,
              static_cast<unsigned>(forward),
              static_cast<unsigned>(recomputed));
  return forward == recomputed ? 0 : 1;
}
