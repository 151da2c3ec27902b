// A library's callable objects, in a system header (-isystem): their bodies
// are where no user can act, so findings inside them are reported at the
// user's code that reaches them.
#ifndef REMATCH_TEST_VENDOR_FUNCTORS_H
#define REMATCH_TEST_VENDOR_FUNCTORS_H

namespace vendor {
// Each call advances its own counter.
struct Ticker {
  unsigned n = 0;
  unsigned operator()() { return ++n; }
};
// An engine-like object: each call advances its state.
struct Lcg {
  unsigned s = 1;
  unsigned operator()() {
    s = s * 1103515245u + 12345u;
    return s;
  }
};
// Calls back into what it was given.
template <class F> struct Twice {
  F f;
  void operator()() {
    f();
    f();
  }
};
// A call operator template: each instantiation runs.
struct Counter {
  unsigned n = 0;
  template <class... A> void operator()(A...) { ++n; }
};
// A library function that changes the library's state.
inline unsigned g_draws = 0;
inline void draw() { ++g_draws; }
// One that does not.
inline unsigned peek() { return g_draws; }
} // namespace vendor

// Entry points whose data include callables.
namespace nn {
// The callable first, then what it is given: a random engine is data.
template <class F, class G, class... A>
decltype(auto) checkpoint_with(F &&fn, G &gen, A &&...args) {
  return fn(gen, args...);
}
// The callable second, as Inputs/models/callables.yaml says (Callable: 1).
template <class O, class F> decltype(auto) run_with(O &&opts, F &&fn) {
  opts();
  return fn();
}
} // namespace nn

// The annotated parameter is the callable, wherever it is.
template <class H, class F>
void run_after([[clang::annotate("rematch::recomputed")]] F &&fn, H &&hook) {
  hook();
  fn();
}

#endif
