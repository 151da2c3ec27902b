// What a checkpoint call checkpoints: the argument its entry point names
// (Callable: N), else the annotated parameter's, else the first callable
// argument; the other arguments are data, even when they are callable. And
// no finding ever has its primary location in a system header.
// Every rematch check runs on this file; see run_check_test.py.
// OPTIONS: Models={root}/tests/checks/Inputs/models/callables.yaml
#include "rematch-mock.h"
#include "vendor-functors.h"

int g_calls = 0;
vendor::Lcg g_lcg;
vendor::Ticker g_ticker;

// ---- only the callable is checkpointed --------------------------------

// A random engine passed as data is not recomputed code: the lambda's draw
// from it is the finding, in the lambda, and nothing inside the engine.
unsigned positive_engine_as_data(std::mt19937 &engine, float x) {
  return nn::checkpoint_with( // expect-note: callable is checkpointed by this call to 'nn::checkpoint_with'
      [](std::mt19937 &g, float v) {
        std::uniform_real_distribution<float> d(0, 1);
        return unsigned(d(g) * v); // expect: rematch-unreplayed-rng {{draws from 'g', which is not replayed}}
      },
      engine, x);
}

// A stateful functor after the callable is data too.
unsigned negative_functor_as_data(float x) {
  return nn::checkpoint_with([](vendor::Lcg &, float v) { return unsigned(v); },
                             g_lcg, x);
}

// Callable: 1 names the second argument; the first (a callable too) runs in
// the caller, once.
void positive_named_position() {
  nn::run_with([] { ++g_calls; }, // not checkpointed: the options hook expect-note: callable is checkpointed
               [] { ++g_calls; }); // expect: rematch-counter-update {{increments 'g_calls'}}
}

// The annotated parameter, not the first callable argument.
void positive_annotated_parameter() {
  run_after([] { ++g_calls; }, // expect: rematch-counter-update {{increments 'g_calls'}} expect-note: callable is checkpointed
            [] { ++g_calls; });
}

// ---- findings stay in user code ---------------------------------------

// A library functor handed to the entry point: its body is in a system
// header, so the finding is at the argument, with the effect in a note.
void positive_library_functor(rematch::Segment &seg) {
  seg.forward(g_ticker); // expect: rematch-counter-update {{checkpointed functor 'vendor::Ticker' increments 'n'}} expect-note: callable is checkpointed
  seg.forward(g_lcg); // expect: rematch-state-write {{checkpointed functor 'vendor::Lcg' writes 's'}} expect-note: callable is checkpointed
}

// A library functor that calls user code: reported at the argument too,
// with the chain through the library's body in notes.
struct Bump {
  void operator()() const {
    ++g_calls; // expect-note: increments 'g_calls' here
  }
};
void positive_library_functor_calling_user_code(rematch::Segment &seg) {
  vendor::Twice<Bump> twice{};
  seg.forward(twice); // expect: rematch-counter-update {{checkpointed functor 'vendor::Twice' calls 'Bump::operator()', which increments 'g_calls'}} expect-note: callable is checkpointed
}

// Checkpointed directly, a library's function or call operator template:
// its body is read, as a functor's is (rematch's own parse skips the
// bodies of system headers, and parses them when the file checkpoints one:
// UnreadBodies.h).
void positive_library_function(rematch::Segment &seg, vendor::Counter &c) {
  seg.forward(vendor::draw); // expect: rematch-counter-update {{checkpointed function 'vendor::draw' increments 'g_draws'}} expect-note: callable is checkpointed
  seg.forward(c); // expect: rematch-counter-update {{checkpointed functor 'vendor::Counter' increments 'n'}} expect-note: callable is checkpointed
  seg.forward([&] { c(1); }); // a library's call, not followed
}
void negative_library_function(rematch::Segment &seg) {
  seg.forward(vendor::peek);
}

// ---- a lambda made outside and called inside ---------------------------

// A closure made before the checkpoint and called from the checkpointed
// lambda keeps what it captured: its mutable copies and what it captured
// by reference outlive the call. One made inside the callable does not.
int positive_closures_called_inside(rematch::Segment &seg) {
  int counter = 0;
  auto bump = [&counter] { return ++counter; }; // expect-note: 'lambda' increments 'counter' here
  int a = seg.forward([&] { return bump(); }); // expect: rematch-counter-update {{checkpointed lambda calls 'lambda', which increments 'counter'}} expect-note: callable is checkpointed
  auto next = [n = 0]() mutable { return ++n; }; // expect-note: 'lambda' increments 'n' here
  int b = seg.forward([&] { return next(); }); // expect: rematch-counter-update {{checkpointed lambda calls 'lambda', which increments 'n'}} expect-note: callable is checkpointed
  return a + b;
}
int negative_closures_called_inside(rematch::Segment &seg) {
  auto scale = [k = 2](int x) { return k * x; };
  int a = seg.forward([&] { return scale(3); });
  int b = seg.forward([&] {
    int acc = 0;
    auto add = [&acc](int x) { acc += x; };
    add(1);
    auto inner = [m = 0]() mutable { return ++m; };
    return inner() + acc;
  });
  return a + b;
}
