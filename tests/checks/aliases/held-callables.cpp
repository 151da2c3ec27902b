// Callables reached through values: the checkpoint call is handed a
// std::function built elsewhere (a variable initialised from a lambda, a
// member filled lazily and returned by reference, a copy of a copy, a
// parameter, a global). What is checkpointed is every callable the program
// stores into that value, with "may" where there are several and a note
// where it was stored. A call of a std::function inside checkpointed code
// runs what it holds in the same way.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

int g_calls = 0;
float g_scale = 1;
float g_bias = 0;
std::function<float()> g_fn = [] { ++g_calls; return 1.f; }; // expect: rematch-counter-update {{checkpointed lambda held by 'g_fn' increments 'g_calls'}} expect-note: 'g_fn' holds the lambda stored here

float scaled() {
  g_scale *= 2; // expect: rematch-counter-update {{checkpointed function 'scaled' held by 'op' (may: one of 2 callables it holds) updates 'g_scale' with '*='}}
  return g_scale; // expect: rematch-global-read {{held by 'op' (may: one of 2 callables it holds) reads mutable global 'g_scale'}}
}
float pure() { return 1.f; }

struct Learner {
  std::function<float()> loss_;
  std::function<float()> step_ = [] { g_bias = 3; return 1.f; }; // expect: rematch-state-write {{checkpointed lambda held by 'step_' writes 'g_bias'}} expect-note: 'step_' holds the lambda stored here
  std::function<float()> eval_;
  explicit Learner(float k) : eval_([k] { return k; }) {}
  // Built on first use, as an IR trainer builds what it hands mx::checkpoint.
  const std::function<float()> &loss() {
    if (!loss_)
      loss_ = [] { ++g_calls; return 2.f; }; // expect: rematch-counter-update {{checkpointed lambda held by 'loss_' increments 'g_calls'}} expect-note: 'loss_' holds the lambda stored here
    return loss_;
  }
  std::function<float()> step() { return step_; }
  const std::function<float()> &eval() const { return eval_; }
};

// ---- positives ---------------------------------------------------------

void variables(rematch::Segment &seg, float x) {
  std::function<float()> rt = [x] { ++g_calls; return x; }; // expect: rematch-counter-update {{checkpointed lambda held by 'rt' increments 'g_calls'}} expect-note: 'rt' holds the lambda stored here
  seg.forward(rt); // expect-note: callable is checkpointed by this call
  std::function<float()> c1 = rt;
  auto c2 = c1; // a copy of a copy: the same lambda, one finding
  seg.forward(c2);
}

void members(rematch::Segment &seg, Learner &t) {
  seg.forward(t.loss()); // expect-note: callable is checkpointed by this call
  seg.forward(t.step()); // expect-note: callable is checkpointed
  seg.forward(g_fn); // expect-note: callable is checkpointed
}

void several(rematch::Segment &seg, bool fast) {
  std::function<float()> op = pure;
  if (fast)
    op = scaled; // expect-note: 'op' holds the function 'scaled' stored here
  seg.forward(op); // expect-note: callable is checkpointed
}

float run(rematch::Segment &seg, std::function<float()> f) {
  return seg.forward(f); // expect-note: callable is checkpointed by this call
}

void passed() {
  rematch::Segment seg;
  run(seg, [] { std::printf("step\n"); return 0.f; }); // expect: rematch-logging {{checkpointed lambda held by 'f' logs through 'printf'}} expect-note: 'f' holds the lambda stored here
}

void called(rematch::Segment &seg, float x) {
  std::function<float()> inc = [] { return g_bias += 1; }; // expect-note: 'inc' holds a lambda, stored here expect-note: 'lambda' updates 'g_bias' with '+=' here
  seg.forward([&] { // expect-note: callable is checkpointed
    return inc() + x; // expect: rematch-counter-update {{checkpointed lambda calls 'inc', which may run a lambda it holds that updates 'g_bias' with '+='}}
  });
}

// ---- negatives ---------------------------------------------------------

// A value that holds only pure code; a local copy written inside the
// callable; a std::function reassigned where nothing checkpoints it.
void quiet(rematch::Segment &seg, const Learner &t, float x) {
  std::function<float()> clean = [x] { return x * 2; };
  seg.forward(clean);
  seg.forward(t.eval());
  seg.forward([&] {
    std::function<float()> local = [] { return 1.f; };
    local = [x] { return x; };
    return local() + clean();
  });
  std::function<float()> unused = [] { ++g_calls; return 0.f; }; // never checkpointed
  (void)unused;
}
