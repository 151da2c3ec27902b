// A library that marks its own checkpoint API, and a project entry point
// named in .rematch.yaml (CheckpointFunctions: [trainer::run_checkpointed]).
#include <fstream>
#include <functional>
#include <vector>

namespace lib {
// The annotation tells rematch that `fn` is recomputed in backward.
template <class F>
void checkpoint_block([[clang::annotate("rematch::recomputed")]] F &&fn) {
  fn();
}
} // namespace lib

namespace trainer {
void run_checkpointed(const std::function<void()> &fn) { fn(); }

std::vector<float> history;

void step(std::vector<float> &activations) {
  lib::checkpoint_block([&] {
    history.push_back(activations.back()); // written again on recompute
    std::ofstream trace("trace.txt");      // opened again on recompute
    trace << activations.size();
  });
  run_checkpointed([&] {
    std::vector<float> scratch;  // local: safe to recompute
    scratch.push_back(1.0f);
    activations[0] = scratch[0]; // but the caller's vector is outside state
  });
}
} // namespace trainer
