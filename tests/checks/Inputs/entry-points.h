// Project-side entry points shared by the check tests. A library header
// declares them, as a real project's would.
//  - nn::checkpoint and Trainer::run are checkpoint functions only when the
//    test's `// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run` says so;
//  - run_block is one through its annotated parameter;
//  - apply calls its argument once and is an ordinary function.
#ifndef REMATCH_TEST_ENTRY_POINTS_H
#define REMATCH_TEST_ENTRY_POINTS_H

#include "mock-std.h"

namespace nn {
template <class F> decltype(auto) checkpoint(F &&fn) {
  return std::forward<F>(fn)();
}
} // namespace nn

struct Trainer {
  template <class F> void run(F &&fn) { std::forward<F>(fn)(); }
};

template <class F>
void run_block([[clang::annotate("rematch::recomputed")]] F &&fn) {
  std::forward<F>(fn)();
}

template <class F> decltype(auto) apply(F &&fn) {
  return std::forward<F>(fn)();
}

#endif
