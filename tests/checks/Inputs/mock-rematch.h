// A stand-in for the rematch runtime's public API (runtime/include/rematch),
// reduced to what the checks look at: the checkpoint entry points (their
// recomputed parameters annotated as rematch/detail/recomputed.h does), the
// recomputation guard and the replayed random generator.
#ifndef REMATCH_TEST_MOCK_REMATCH_H
#define REMATCH_TEST_MOCK_REMATCH_H

#include "mock-std.h"

namespace rematch {
// True while a segment's callable runs again during backward.
bool recomputing() noexcept;

class Segment {
public:
  template <class F>
  decltype(auto) forward([[clang::annotate("rematch::recomputed")]] F &&fn) {
    return std::forward<F>(fn)();
  }
  template <class F>
  decltype(auto) recompute([[clang::annotate("rematch::recomputed")]] F &&fn) {
    return std::forward<F>(fn)();
  }
};

// An engine whose state the runtime saves before the original forward and
// restores around the recomputation.
template <class Engine> class Generator {
public:
  typedef typename Engine::result_type result_type;
  explicit Generator(result_type seed = 0) : engine_(seed) {}
  result_type operator()() { return engine_(); }
  Engine &engine() { return engine_; }
  static constexpr result_type min() { return Engine::min(); }
  static constexpr result_type max() { return Engine::max(); }

private:
  Engine engine_;
};

// A value whose writes the runtime records once and replays as no-ops.
template <class T> class Tracked {
public:
  const T &get() const { return value_; }
  void set(const T &v) { value_ = v; }

private:
  T value_{};
};

namespace torch {
struct Tensor {
  float value = 0;
};
template <class F, class... Inputs>
decltype(auto)
checkpoint([[clang::annotate("rematch::recomputed", "torch.default")]] F &&fn,
           Inputs &&...inputs) {
  return std::forward<F>(fn)(std::forward<Inputs>(inputs)...);
}
} // namespace torch
} // namespace rematch

#endif
