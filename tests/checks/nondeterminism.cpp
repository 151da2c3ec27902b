// rematch-nondeterminism: clock reads, thread ids and the environment. The
// recomputation in backward gets another value and may take another branch.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: ClockFunctions=perf::cycles
#include "rematch-mock.h"

namespace perf {
// A project clock, known to the check only through ClockFunctions.
unsigned long long cycles();
} // namespace perf

namespace sim {
// A look-alike with no effects at all.
inline long now() { return 0; }
} // namespace sim

// ---- positives ---------------------------------------------------------

long positives_chrono(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    auto a = std::chrono::steady_clock::now(); // expect: rematch-nondeterminism {{checkpointed lambda calls 'std::chrono::steady_clock::now'; the recomputation in backward gets a different value}}
    auto b = std::chrono::system_clock::now(); // expect: rematch-nondeterminism {{'std::chrono::system_clock::now'}}
    auto c = std::chrono::high_resolution_clock::now(); // expect: rematch-nondeterminism {{calls 'std::chrono::system_clock::now'}}
    using clock = std::chrono::steady_clock;
    auto d = clock::now(); // expect: rematch-nondeterminism {{'std::chrono::steady_clock::now'}}
    return a.time_since_epoch().count() + b.time_since_epoch().count() +
           c.time_since_epoch().count() + d.time_since_epoch().count();
  });
}

long positives_c_clocks(rematch::Segment &seg) {
  return seg.recompute([] { // expect-note: call to 'rematch::Segment::recompute'
    time_t t = time(nullptr); // expect: rematch-nondeterminism {{'time'}}
    time_t u = std::time(nullptr); // expect: rematch-nondeterminism {{calls 'time'}}
    clock_t c = clock(); // expect: rematch-nondeterminism {{'clock'}}
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); // expect: rematch-nondeterminism {{'clock_gettime'}}
    timeval tv;
    gettimeofday(&tv, nullptr); // expect: rematch-nondeterminism {{'gettimeofday'}}
    unsigned long long k = perf::cycles(); // expect: rematch-nondeterminism {{'perf::cycles'}}
    return t + u + c + ts.tv_nsec + tv.tv_usec + static_cast<long>(k);
  });
}

bool positives_thread_and_env(int step) {
  return nn::checkpoint([step] { // expect-note: 'nn::checkpoint'
    auto id = std::this_thread::get_id(); // expect: rematch-nondeterminism {{'std::this_thread::get_id'}}
    const char *a = getenv("REMATCH_DEBUG"); // expect: rematch-nondeterminism {{'getenv'}}
    const char *b = std::getenv("HOME"); // expect: rematch-nondeterminism {{calls 'getenv'}}
    (void)id;
    return step > 0 && a != nullptr && b != nullptr;
  });
}

// The other callable forms.
struct Timer {
  long last_ = 0;
  long operator()() const {
    return std::chrono::steady_clock::now().time_since_epoch().count(); // expect: rematch-nondeterminism {{checkpointed functor 'Timer' calls 'std::chrono::steady_clock::now'}}
  }
};
long timed_step() {
  return clock(); // expect: rematch-nondeterminism {{checkpointed function 'timed_step' calls 'clock'}}
}
struct Block {
  long started_ = 0;
  rematch::Segment seg_;
  void forward() {
    seg_.forward([this] { return started_ + time(nullptr); }); // expect: rematch-nondeterminism {{calls 'time'}} expect-note: callable is checkpointed
  }
};
void positives_callable_forms(rematch::Segment &seg, Trainer &trainer,
                              const ttml::autograd::TensorPtr &in) {
  seg.forward(Timer{}); // expect-note: callable is checkpointed
  seg.forward(timed_step); // expect-note: callable is checkpointed
  run_block([] { return getenv("X"); }); // expect: rematch-nondeterminism {{calls 'getenv'}} expect-note: callable is checkpointed
  trainer.run([] { std::this_thread::get_id(); }); // expect: rematch-nondeterminism {{calls 'std::this_thread::get_id'}} expect-note: callable is checkpointed
  auto body = [] { return clock(); }; // expect: rematch-nondeterminism {{calls 'clock'}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<long()>([] { return time(nullptr); })); // expect: rematch-nondeterminism {{calls 'time'}} expect-note: callable is checkpointed
  int calls = 0;
  seg.forward([calls]() mutable { return calls + clock(); }); // expect: rematch-nondeterminism {{calls 'clock'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](int s) { return s + clock(); }, 1); // expect: rematch-nondeterminism {{calls 'clock'}} expect-note: callable is checkpointed
  mlx::core::checkpoint([](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    std::chrono::system_clock::now(); // expect: rematch-nondeterminism {{calls 'std::chrono::system_clock::now'}}
    return xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        if (std::getenv("TTML_TRACE")) // expect: rematch-nondeterminism {{calls 'getenv'}}
          return t;
        return t;
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

// Durations, default time points, clock traits, look-alikes.
long negatives_no_clock_read(rematch::Segment &seg) {
  return seg.forward([] {
    std::chrono::milliseconds budget(5);
    std::chrono::steady_clock::time_point start{};
    bool steady = std::chrono::steady_clock::is_steady;
    time_t zero = 0;
    std::thread::id none;
    (void)none;
    return budget.count() + start.time_since_epoch().count() + steady + zero +
           sim::now() + sizeof(time_t);
  });
}

// Evaluated by the caller: init-captures and the checkpoint call's arguments.
long negatives_caller_side(rematch::Segment &seg) {
  long a = seg.forward([t0 = std::chrono::steady_clock::now()] {
    return t0.time_since_epoch().count();
  });
  long b = rematch::torch::checkpoint([](long t) { return t; }, time(nullptr));
  long c = seg.forward([env = getenv("HOME")] { return env != nullptr; });
  return a + b + c;
}

// Guarded, in both forms.
long negatives_guarded(rematch::Segment &seg) {
  long a = seg.forward([] {
    long t = 0;
    if (!rematch::recomputing()) {
      t = time(nullptr);
    }
    if (!rematch::recomputing())
      t += clock();
    return t;
  });
  long b = seg.forward([] {
    if (rematch::recomputing())
      return 0L;
    return static_cast<long>(time(nullptr));
  });
  return a + b;
}

// Suppressed.
long negatives_nolint(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed
    long t = time(nullptr); // NOLINT
    t += clock(); // NOLINT(rematch-nondeterminism)
    // NOLINTNEXTLINE(rematch-nondeterminism)
    t += time(nullptr);
    // NOLINTBEGIN(rematch-nondeterminism)
    std::this_thread::get_id();
    t += getenv("X") != nullptr;
    // NOLINTEND(rematch-nondeterminism)
    t += clock(); // NOLINT(rematch-io) expect: rematch-nondeterminism {{calls 'clock'}}
    return t;
  });
}

// Discarded if constexpr branch.
constexpr bool kProfile = false;
long negatives_if_constexpr(rematch::Segment &seg) {
  return seg.forward([] {
    if constexpr (kProfile)
      return static_cast<long>(clock());
    else
      return 0L;
  });
}

// Not checkpointed.
long negatives_not_checkpointed() {
  long a = apply([] { return time(nullptr); });
  long b = [] { return static_cast<long>(clock()); }();
  auto later = [] { return getenv("X"); };
  return a + b + (later() != nullptr) + time(nullptr);
}
