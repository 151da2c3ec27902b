// rematch-counter-update: ++, --, compound assignment and atomic
// fetch_add/fetch_sub/++ on state that outlives one call of the callable.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
#include "rematch-mock.h"

int g_steps = 0;
int g_budget = 100;
float g_loss_sum = 0;
float g_decay = 1;
unsigned g_flags = 0;
float g_scale = 2;
// Set outside the checkpointed code between steps.
void set_scale(float s) { g_scale = s; }
std::atomic<int> g_calls{0};
thread_local int t_depth = 0;
const int kWarmup = 10;

struct Stats {
  int calls = 0;
  float total = 0;
  static int instances;
};
int Stats::instances = 0;
Stats g_stats;

namespace train {
long g_tokens = 0;
} // namespace train

// ---- positives ---------------------------------------------------------

void positives_globals(rematch::Segment &seg, float loss) {
  seg.forward([&] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    ++g_steps; // expect: rematch-counter-update {{checkpointed lambda increments 'g_steps'; the recomputation in backward increments it again}}
    g_steps++; // expect: rematch-counter-update {{increments 'g_steps'}}
    --g_budget; // expect: rematch-counter-update {{checkpointed lambda decrements 'g_budget'}}
    g_budget--; // expect: rematch-counter-update {{decrements 'g_budget'}}
    g_loss_sum += loss; // expect: rematch-counter-update {{updates 'g_loss_sum' with '+='; the recomputation in backward updates it again}}
    g_loss_sum -= 1.0f; // expect: rematch-counter-update {{with '-='}}
    g_decay *= 0.9f; // expect: rematch-counter-update {{with '*='}}
    g_flags |= 4u; // expect: rematch-counter-update {{with '|='}}
    g_flags <<= 1; // expect: rematch-counter-update {{updates 'g_flags' with '<<='}}
    train::g_tokens += 512; // expect: rematch-counter-update {{updates 'train::g_tokens' with '+='}}
  });
}

void positives_atomic_and_static_storage(rematch::Segment &seg) {
  seg.recompute([] { // expect-note: call to 'rematch::Segment::recompute'
    g_calls.fetch_add(1); // expect: rematch-counter-update {{increments 'g_calls' with 'fetch_add'}}
    g_calls.fetch_sub(1, std::memory_order_relaxed); // expect: rematch-counter-update {{decrements 'g_calls' with 'fetch_sub'}}
    ++g_calls; // expect: rematch-counter-update {{increments 'g_calls'}}
    g_calls++; // expect: rematch-counter-update {{increments 'g_calls'}}
    g_calls += 2; // expect: rematch-counter-update {{updates 'g_calls' with '+='}}
    ++t_depth; // expect: rematch-counter-update {{'t_depth'}}
    Stats::instances++; // expect: rematch-counter-update {{increments 'Stats::instances'}}
    ++g_stats.calls; // expect: rematch-counter-update {{increments 'g_stats.calls'}}
    g_stats.total += 1.5f; // expect: rematch-counter-update {{updates 'g_stats.total' with '+='}}
  });
}

// A function-local static: its declaration is not reported, its updates are.
void positives_local_static(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    static int calls = 0;
    ++calls; // expect: rematch-counter-update {{increments 'calls'}}
    return calls; // expect: rematch-global-read {{reads mutable global 'calls'}}
  });
}

// "One effect, one check": the update also reads the old value, but only
// counter-update is reported for it. A different global on the right-hand
// side is a separate read.
void positives_one_effect_one_check(float x) {
  rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [&](float v) {
        g_loss_sum += v; // expect: rematch-counter-update {{updates 'g_loss_sum' with '+='}}
        g_loss_sum += g_scale; // expect: rematch-counter-update {{updates 'g_loss_sum' with '+='}}, rematch-global-read {{'g_scale'}}
        return v;
      },
      x); // the arguments are evaluated by the caller
}

// Captured by reference: the local outlives each run of the lambda.
void positives_by_ref_capture() {
  int local_count = 0;
  float seen = 0;
  mlx::core::checkpoint([&](const std::vector<mlx::core::array> &xs) { // expect-note: call to 'mlx::core::checkpoint'
    ++local_count; // expect: rematch-counter-update {{increments 'local_count'}}
    seen += 1; // expect: rematch-counter-update {{updates 'seen' with '+='}}
    return xs;
  });
}

// The same closure object runs twice, so a mutable lambda's copies count.
void positives_mutable_lambda(rematch::Segment &seg) {
  int n = 0;
  seg.forward([n]() mutable { ++n; }); // expect: rematch-counter-update {{increments 'n'}} expect-note: callable is checkpointed
  seg.forward([m = g_steps]() mutable { return m++; }); // expect: rematch-counter-update {{'m'}} expect-note: callable is checkpointed
}

// A functor whose operator() is not const: its own members outlive a call.
struct CountingStep {
  int calls_ = 0;
  float operator()() {
    ++calls_; // expect: rematch-counter-update {{checkpointed functor 'CountingStep' increments 'calls_'}}
    return 1.0f;
  }
};
void positives_functor(rematch::Segment &seg) {
  CountingStep step;
  seg.forward(step); // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
}

// Named functions, passed by name and by address.
float counted_step() {
  g_steps += 1; // expect: rematch-counter-update {{checkpointed function 'counted_step' updates 'g_steps' with '+='}}
  return 0.0f;
}
void budget_step() {
  g_budget--; // expect: rematch-counter-update {{checkpointed function 'budget_step' decrements 'g_budget'}}
}
void positives_named_function(rematch::Segment &seg) {
  seg.forward(counted_step); // expect-note: call to 'rematch::Segment::forward'
  seg.recompute(&budget_step); // expect-note: call to 'rematch::Segment::recompute'
}

// Members reached through a captured this.
struct Block {
  int steps_ = 0;
  float mass_ = 0;
  rematch::Segment seg_;
  void forward(float x) {
    seg_.forward([this, x] { // expect-note: callable is checkpointed
      ++steps_; // expect: rematch-counter-update {{increments 'steps_'}}
      mass_ += x; // expect: rematch-counter-update {{updates 'mass_' with '+='}}
      return x;
    });
  }
};

// Objects reached through reference and pointer parameters of the callable,
// and the pointee of a captured pointer.
void positives_params_and_pointers(Stats &stats, int *counter) {
  rematch::torch::checkpoint([](Stats &s) { ++s.calls; }, stats); // expect: rematch-counter-update {{increments 's.calls'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](int *c) { (*c)++; }, counter); // expect: rematch-counter-update {{increments '*c'}} expect-note: callable is checkpointed
  Stats *p = &stats;
  nn::checkpoint([p] { p->total -= 2; }); // expect: rematch-counter-update {{updates 'p->total' with '-='}} expect-note: callable is checkpointed
}

// The other entry points.
void positives_entry_points(Trainer &trainer, const ttml::autograd::TensorPtr &in) {
  run_block([] { ++g_steps; }); // expect: rematch-counter-update {{increments 'g_steps'}} expect-note: callable is checkpointed
  // expect-next-line: rematch-counter-update {{updates 'g_budget' with '-='}}
  nn::checkpoint([] { g_budget -= 1; }); // expect-note: callable is checkpointed by this call to 'nn::checkpoint'
  trainer.run([] { --g_budget; }); // expect: rematch-counter-update {{decrements 'g_budget'}} expect-note: callable is checkpointed
  auto body = [] { ++g_steps; }; // expect: rematch-counter-update {{increments 'g_steps'}}
  Trainer().run(body); // expect-note: callable is checkpointed
  rematch::Segment seg;
  seg.forward(std::function<void()>([] { g_calls.fetch_add(1); })); // expect: rematch-counter-update {{increments 'g_calls' with 'fetch_add'}} expect-note: callable is checkpointed
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &x, const ttml::autograd::TensorPtr &) {
        g_steps++; // expect: rematch-counter-update {{increments 'g_steps'}}
        return x;
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

void negatives_locals(rematch::Segment &seg, int n) {
  seg.forward([n] {
    int local = 0;
    ++local;
    local += n;
    for (int i = 0; i < n; ++i)
      local *= 2;
    int copy = n;
    copy--;
    std::atomic<int> hits{0};
    hits.fetch_add(1);
    ++hits;
    int buf[4] = {0, 0, 0, 0};
    int *p = buf;
    ++*p;
    p++;
    return local + copy + kWarmup;
  });
}

// Parameters taken by value belong to one call.
void negatives_by_value_params(int count) {
  rematch::torch::checkpoint([](int c) { return ++c; }, count);
  rematch::torch::checkpoint([](Stats s) { s.calls += 1; return s; }, g_stats); // the argument is read by the caller
}

// A const functor can only update its locals.
struct PureStep {
  int base_ = 1;
  int operator()() const {
    int k = base_;
    k += 2;
    return k;
  }
};
void negatives_const_functor(rematch::Segment &seg) { seg.forward(PureStep{}); }

// Guarded updates do not run during the recomputation.
void negatives_guarded(rematch::Segment &seg) {
  seg.forward([] {
    if (!rematch::recomputing()) {
      ++g_steps;
      g_loss_sum += 1;
    }
    if (!rematch::recomputing())
      g_calls.fetch_add(1);
  });
  seg.forward([] {
    if (rematch::recomputing())
      return;
    ++g_steps;
  });
  seg.forward([]() -> int {
    if (rematch::recomputing()) return 0;
    return g_budget--;
  });
}

// Each branch of a guard runs in one pass only: the forward-only branch
// and the recompute-only one are both safe. A guard and'ed with another
// condition confines its then-branch only; its else-branch may run in both.
int g_forward_steps, g_recomputes, g_other;
void guard_branches(rematch::Segment &seg, bool flag) {
  seg.forward([] {
    if (rematch::recomputing())
      ++g_recomputes;
    else
      ++g_forward_steps;
  });
  seg.forward([] {
    if (!rematch::recomputing()) {
      ++g_forward_steps;
    } else {
      ++g_recomputes;
    }
  });
  seg.forward([flag] { // expect-note: callable is checkpointed
    if (rematch::recomputing() && flag)
      ++g_recomputes;
    else
      ++g_other; // expect: rematch-counter-update {{'g_other'}}
  });
  seg.forward([flag] {
    if (flag && !rematch::recomputing())
      ++g_forward_steps;
  });
}

// Suppressed, in all the forms clang-tidy knows.
void negatives_nolint(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    ++g_steps; // NOLINT
    ++g_steps; // NOLINT(rematch-counter-update)
    ++g_steps; // NOLINT(rematch-*)
    // NOLINTNEXTLINE(rematch-counter-update)
    g_budget -= 2;
    // NOLINTBEGIN(rematch-counter-update)
    ++g_steps;
    g_calls.fetch_sub(1);
    // NOLINTEND(rematch-counter-update)
    ++g_steps; // NOLINT(rematch-logging) expect: rematch-counter-update {{increments 'g_steps'}}
  });
}

// A discarded if constexpr branch is never part of the callable.
constexpr bool kCountSteps = false;
void negatives_if_constexpr(rematch::Segment &seg) {
  seg.forward([] {
    if constexpr (kCountSteps) {
      ++g_steps;
    }
  });
}

// Not checkpointed: an ordinary function, a lambda called directly, plain
// code, and the same lambda kept in a variable that is only called.
void negatives_not_checkpointed() {
  apply([] { ++g_steps; });
  [] { g_budget -= 1; }();
  ++g_steps;
  g_calls.fetch_add(1);
  auto later = [] { ++g_steps; };
  later();
}

// Evaluated by the caller: an init-capture of a non-mutable lambda.
void negatives_init_capture(rematch::Segment &seg) {
  seg.forward([s = g_steps + 1] { return s; });
}
