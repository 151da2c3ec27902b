// A training step with checkpointed blocks, written the way real code drifts:
// every hazard below is one rematch reports, next to the version that is
// safe to recompute. Run: rematch examples/lint/*.cpp -- -std=c++17 -I runtime/include
#include <rematch/rematch.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <unordered_map>
#include <vector>

namespace nn {

float g_dropout_scale = 2.0f;        // changed by a scheduler between steps
std::mt19937 g_gen(1);               // one stream for the whole program
int g_forward_calls = 0;             // a statistics counter
std::unordered_map<int, float> g_activation_cache;

// The learning-rate / dropout scheduler runs between steps.
void schedule(int step) { g_dropout_scale = step < 100 ? 2.0f : 1.5f; }

struct BatchNorm {
  float running_mean = 0.0f;
  long num_batches_tracked = 0;

  float operator()(float x) {
    running_mean = 0.9f * running_mean + 0.1f * x; // updated on every call
    ++num_batches_tracked;
    return x - running_mean;
  }
};

struct Block {
  BatchNorm bn;
  float forward(float x) { return bn(x) * 0.5f; }
};

} // namespace nn

float train_step(float x, rematch::Segment &seg, nn::Block &block) {
  // Hazards: each of these makes the recomputation differ from the forward.
  float y = seg.forward([&] {
    std::bernoulli_distribution keep(0.5);
    float mask = keep(nn::g_gen) ? nn::g_dropout_scale : 0.0f;
    ++nn::g_forward_calls;
    nn::g_activation_cache[0] = x;
    std::printf("block input %f\n", x);
    auto start = std::chrono::steady_clock::now();
    (void)start;
    return block.forward(x * mask);
  });

  // The same segment written to be recomputable: the generator is replayed
  // by the runtime, the scale is captured when the lambda is created, the
  // statistics and the log happen in the original forward only.
  static rematch::Generator<std::mt19937> gen(1);
  float z = seg.forward([&, scale = nn::g_dropout_scale] {
    std::bernoulli_distribution keep(0.5);
    float mask = keep(gen) ? scale : 0.0f;
    if (!rematch::recomputing()) {
      ++nn::g_forward_calls;
      std::printf("block input %f\n", x);
    }
    return x * mask;
  });
  return y + z;
}
