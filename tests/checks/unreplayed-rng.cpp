// rematch-unreplayed-rng: random draws whose state the runtime does not
// replay. The recomputation in backward draws different numbers, and the
// gradient pairs the original upstream value with another mask (66 -> 0).
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: RngFunctions=sim::noise
#include "rematch-mock.h"

namespace sim {
// A project sampler, known to the check only through RngFunctions.
float noise();
} // namespace sim

std::mt19937 g_gen(1);
std::mt19937_64 g_gen64(1);
std::minstd_rand g_minstd;
std::ranlux24 g_ranlux;
std::default_random_engine g_default;

struct Rng {
  static std::mt19937 shared;
};
std::mt19937 Rng::shared(3);

// ---- positives ---------------------------------------------------------

// C library generators and std::random_device, wherever they live.
int positives_c_and_device(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    int a = std::rand(); // expect: rematch-unreplayed-rng {{draws from 'rand', which is not replayed}}
    int b = rand(); // expect: rematch-unreplayed-rng {{draws from 'rand', which is not replayed}}
    long c = random(); // expect: rematch-unreplayed-rng {{draws from 'random', which is not replayed}}
    double d = drand48(); // expect: rematch-unreplayed-rng {{draws from 'drand48', which is not replayed}}
    long e = lrand48(); // expect: rematch-unreplayed-rng {{draws from 'lrand48', which is not replayed}}
    long f = mrand48(); // expect: rematch-unreplayed-rng {{draws from 'mrand48', which is not replayed}}
    std::random_device rd;
    unsigned s = rd(); // expect: rematch-unreplayed-rng {{draws from 'std::random_device', which is not replayed}}
    unsigned t = std::random_device{}(); // expect: rematch-unreplayed-rng {{draws from 'std::random_device', which is not replayed}}
    float n = sim::noise(); // expect: rematch-unreplayed-rng {{draws from 'sim::noise', which is not replayed}}
    return a + b + c + d + e + f + s + t + n;
  });
}

// Engines with static storage: every kind of draw. Only unreplayed-rng is
// reported, not also a read of the global.
float positives_global_engines(rematch::Segment &seg, float x) {
  return seg.recompute([x] { // expect-note: call to 'rematch::Segment::recompute'
    std::bernoulli_distribution keep(0.5);
    std::uniform_real_distribution<float> u(0, 1);
    std::normal_distribution<double> noise(0, 1);
    std::uniform_int_distribution<int> pick(0, 9);
    float m = keep(g_gen) ? 2.0f : 0.0f; // expect: rematch-unreplayed-rng {{checkpointed lambda draws from 'g_gen', which is not replayed; the recomputation in backward draws different numbers}}
    unsigned raw = g_gen(); // expect: rematch-unreplayed-rng {{draws from 'g_gen'}}
    g_gen.discard(10); // expect: rematch-unreplayed-rng {{draws from 'g_gen', which is not replayed}}
    float a = u(g_gen64); // expect: rematch-unreplayed-rng {{'g_gen64'}}
    double b = noise(g_minstd); // expect: rematch-unreplayed-rng {{draws from 'g_minstd', which is not replayed}}
    int c = pick(g_ranlux); // expect: rematch-unreplayed-rng {{draws from 'g_ranlux', which is not replayed}}
    unsigned d = g_default(); // expect: rematch-unreplayed-rng {{draws from 'g_default', which is not replayed}}
    unsigned e = Rng::shared(); // expect: rematch-unreplayed-rng {{draws from 'Rng::shared', which is not replayed}}
    return x * m + raw + a + b + c + d + e;
  });
}

// A function-local static engine: the declaration is not a draw.
unsigned positives_local_static(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed
    static std::mt19937 gen(42);
    return gen(); // expect: rematch-unreplayed-rng {{draws from 'gen'}}
  });
}

// Engines reached by reference capture, through this, through a parameter,
// the copy in a mutable lambda, a non-const functor's member.
struct Dropout {
  std::mt19937 gen_{5};
  rematch::Segment seg_;
  float forward(float x) {
    return seg_.forward([this, x] { // expect-note: callable is checkpointed
      std::bernoulli_distribution keep(0.9);
      return keep(gen_) ? x : 0.0f; // expect: rematch-unreplayed-rng {{'gen_'}}
    });
  }
};
struct Sampler {
  std::minstd_rand engine_;
  unsigned operator()() {
    return engine_(); // expect: rematch-unreplayed-rng {{checkpointed functor 'Sampler' draws from 'engine_'}}
  }
};
unsigned draw_step() {
  return g_gen(); // expect: rematch-unreplayed-rng {{checkpointed function 'draw_step' draws from 'g_gen'}}
}
void positives_outside_engines(rematch::Segment &seg, Trainer &trainer,
                               std::mt19937 &shared,
                               const ttml::autograd::TensorPtr &in) {
  std::mt19937 gen(11);
  seg.forward([&gen] { return gen(); }); // expect: rematch-unreplayed-rng {{draws from 'gen'}} expect-note: callable is checkpointed
  seg.forward([gen]() mutable { return gen(); }); // expect: rematch-unreplayed-rng {{draws from 'gen', which is not replayed}} expect-note: callable is checkpointed
  seg.forward(Sampler{}); // expect-note: callable is checkpointed
  seg.forward(&draw_step); // expect-note: callable is checkpointed
  rematch::torch::checkpoint([](std::mt19937 &e) { return e(); }, shared); // expect: rematch-unreplayed-rng {{draws from 'e', which is not replayed}} expect-note: callable is checkpointed
  std::mt19937 *p = &shared;
  nn::checkpoint([p] { p->discard(1); }); // expect: rematch-unreplayed-rng {{draws from '*p', which is not replayed}} expect-note: callable is checkpointed
  run_block([&shared] { std::uniform_real_distribution<float> u; u(shared); }); // expect: rematch-unreplayed-rng {{draws from 'shared', which is not replayed}} expect-note: callable is checkpointed
  trainer.run([] { g_gen(); }); // expect: rematch-unreplayed-rng {{draws from 'g_gen', which is not replayed}} expect-note: callable is checkpointed
  auto body = [] { return rand(); }; // expect: rematch-unreplayed-rng {{draws from 'rand', which is not replayed}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<unsigned()>([] { return g_gen(); })); // expect: rematch-unreplayed-rng {{draws from 'g_gen', which is not replayed}} expect-note: callable is checkpointed
  mlx::core::checkpoint([](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    g_gen64.discard(2); // expect: rematch-unreplayed-rng {{draws from 'g_gen64', which is not replayed}}
    return xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        std::normal_distribution<float> n;
        t->value = n(g_gen); // expect: rematch-unreplayed-rng {{draws from 'g_gen', which is not replayed}}, rematch-state-write {{writes 't->value'}}
        return t;
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

// Engines constructed inside the callable with a fixed seed draw the same
// numbers every time.
float negatives_local_engines(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    std::mt19937 gen(1234);
    std::mt19937_64 gen64(7);
    std::minstd_rand lcg(99);
    std::bernoulli_distribution keep(0.5);
    std::uniform_real_distribution<float> u(0, 1);
    float m = keep(gen) ? 2.0f : 0.0f;
    unsigned raw = gen();
    gen.discard(3);
    return x * m + u(gen64) + lcg() + raw;
  });
}

// Engines wrapped in rematch::Generator are replayed by the runtime.
struct ReplayedDropout {
  rematch::Generator<std::mt19937> rng_{5};
  rematch::Segment seg_;
  float forward(float x) {
    return seg_.forward([this, x] {
      std::bernoulli_distribution keep(0.5);
      float m = keep(rng_) ? 2.0f : 0.0f;
      std::uniform_real_distribution<float> u;
      return x * m + u(rng_.engine()) + rng_();
    });
  }
};
float negatives_generator_capture(rematch::Segment &seg, float x) {
  rematch::Generator<std::mt19937_64> g(9);
  return seg.forward([&g, x] {
    std::normal_distribution<float> n;
    return x + n(g) + n(g.engine()) + g();
  });
}

// No draw: engine properties, distribution objects alone.
unsigned negatives_no_draw(rematch::Segment &seg) {
  return seg.forward([] {
    std::uniform_int_distribution<int> pick(0, 9);
    return std::mt19937::max() + std::minstd_rand::min();
  });
}

// Guarded, in both forms.
unsigned negatives_guarded(rematch::Segment &seg) {
  unsigned a = seg.forward([] {
    unsigned r = 0;
    if (!rematch::recomputing()) {
      r = g_gen();
    }
    if (!rematch::recomputing())
      r += rand();
    return r;
  });
  unsigned b = seg.forward([] {
    if (rematch::recomputing())
      return 0u;
    return g_gen();
  });
  return a + b;
}

// Suppressed.
unsigned negatives_nolint(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed
    unsigned r = g_gen(); // NOLINT
    r += g_gen(); // NOLINT(rematch-unreplayed-rng)
    // NOLINTNEXTLINE(rematch-unreplayed-rng)
    r += rand();
    // NOLINTBEGIN(rematch-unreplayed-rng)
    r += g_gen64();
    g_gen.discard(1);
    // NOLINTEND(rematch-unreplayed-rng)
    r += rand(); // NOLINT(rematch-global-read) expect: rematch-unreplayed-rng {{draws from 'rand', which is not replayed}}
    return r;
  });
}

// Discarded if constexpr branch.
constexpr bool kJitter = false;
float negatives_if_constexpr(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    if constexpr (kJitter)
      return x + g_gen();
    else
      return x;
  });
}

// Evaluated by the caller, or not checkpointed.
unsigned negatives_not_checkpointed(rematch::Segment &seg) {
  unsigned a = seg.forward([seed = g_gen()] { return seed; });
  unsigned b = rematch::torch::checkpoint([](unsigned s) { return s; }, g_gen());
  unsigned c = apply([] { return g_gen(); });
  unsigned d = [] { return rand(); }();
  auto later = [] { return g_gen(); };
  return a + b + c + d + later() + g_gen();
}

// ---- standard algorithms that take an engine ----------------------------------

// std::shuffle, std::sample and std::generate_canonical draw from the engine
// they are given: reported when it is outside state, at the call. Shuffling
// an outside range also writes it (rematch-state-write).
float algorithms(rematch::Segment &seg, std::vector<int> &order,
                 std::mt19937 &outside) {
  return seg.forward([&] { // expect-note: callable is checkpointed
    std::shuffle(order.begin(), order.end(), g_gen); // expect: rematch-unreplayed-rng {{draws from 'g_gen', which is not replayed}}, rematch-state-write {{writes 'order' with 'shuffle'}}
    std::shuffle(order.begin(), order.end(), outside); // expect: rematch-unreplayed-rng {{'outside'}}, rematch-state-write {{writes 'order' with 'shuffle'}}
    std::vector<int> picked(2);
    std::sample(order.begin(), order.end(), picked.begin(), 2, g_gen64); // expect: rematch-unreplayed-rng {{'g_gen64'}}
    return std::generate_canonical<float, 24>(g_minstd); // expect: rematch-unreplayed-rng {{'g_minstd'}}
  });
}

// A local engine seeded inside the callable draws the same in both passes;
// a rematch::Generator is replayed.
float algorithms_negatives(rematch::Segment &seg, std::vector<int> &order,
                           rematch::Generator<std::mt19937> &replayed) {
  return seg.forward([&] {
    std::vector<int> local(order);
    std::mt19937 gen(7);
    std::shuffle(local.begin(), local.end(), gen);
    std::shuffle(local.begin(), local.end(), replayed);
    std::vector<int> picked(2);
    std::sample(local.begin(), local.end(), picked.begin(), 2, gen);
    return std::generate_canonical<float, 24>(gen) + picked[0];
  });
}

// Seeding rand() inside the callable seeds it again in backward: what the
// rest of the program draws after the recomputation starts over. That is a
// write of the process's state (rematch-state-write), not a draw.
int seeds_the_c_generator(rematch::Segment &seg, unsigned seed) {
  return seg.forward([seed] { // expect-note: callable is checkpointed
    std::srand(seed); // expect: rematch-state-write {{writes 'rand's generator' with 'srand'}}
    srand(seed + 1); // expect: rematch-state-write {{writes 'rand's generator' with 'srand'}}
    return 1;
  });
}
