// rematch-global-read: reads of mutable static-storage state (namespace
// scope, static data members, function-local statics, thread_local) and of
// members of such objects. The value may change between the original forward
// and the recomputation in backward.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: AllowedGlobals=cfg::g_vocab_size
#include "rematch-mock.h"

float g_scale = 2;
bool g_training = true;
int g_steps = 0;
float g_out = 0;
thread_local int t_stage = 0;
std::vector<float> g_table;
std::map<int, float> g_map;
std::mt19937 g_gen(7);

const float kEps = 1e-5f;
constexpr float kScale = 0.5f;
static const int kLayers = 12;

struct Config {
  float lr = 0.1f;
  int layers = 4;
  static float base_lr;
  static constexpr int kHeads = 8;
};
float Config::base_lr = 0.01f;
Config g_cfg;
const Config kDefaults{};

namespace cfg {
int g_vocab_size = 32000;
float g_dropout = 0.1f;
} // namespace cfg

// Code outside the checkpointed callables changes these between steps (a
// scheduler, a config reload): that is what makes reading them a hazard.
// rematch-global-read stays quiet about a global nothing writes.
void scheduler_step(int step) {
  g_scale = 1.0f + step;
  g_training = step % 2;
  g_steps = step;
  g_out = 0;
  t_stage = step;
  Config::base_lr = 0.01f / step;
  g_cfg.lr = 0.1f;
  cfg::g_dropout = 0.2f;
  g_table.push_back(1);
  g_map[step] = 1;
  g_gen.seed(step);
}

// Internal linkage, never written here and its address never escapes: no
// other file can name it, so it is a constant in all but name.
static float g_never_written = 3;
namespace {
float g_anon_never_written = 4;
struct Hidden {
  static float factor; // a static member of a class with internal linkage
};
float Hidden::factor = 2;
} // namespace

// External linkage: another file may write it (`extern float g_lr;
// g_lr = args.lr;` in main.cpp), so a run on this file alone cannot prove
// it constant, defined here or not. Whole-program summaries can.
float g_defined_not_written = 3;
extern float g_declared_only;

// Internal linkage, but its address escapes: anything may write it.
static float g_escapes = 1;
float *g_escape_ptr = &g_escapes;

// Reading a global only to change it through a method is that change.
struct Stats {
  int n = 0;
  float sum = 0;
  void record(float x) {
    ++n; // expect-note: 'Stats::record' increments 'n' here
    sum += x;
  }
  int count() const { return n; }
  float mean() { return sum / n; } // not const, but changes nothing
};
Stats g_stats;

enum class Mode { Train, Eval };
enum Phase { kForward, kBackward };

float pure_twice(float x) { return 2 * x; }
// The default argument is evaluated at each call, inside the callable.
float scaled(float x, float s = g_scale) { return x * s; }

// ---- positives ---------------------------------------------------------

float positives_namespace_scope(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    float y = x * g_scale; // expect: rematch-global-read {{checkpointed lambda reads mutable global 'g_scale'; the recomputation in backward may see a different value}}
    if (g_training) // expect: rematch-global-read {{'g_training'}}
      y *= 2;
    int s = t_stage; // expect: rematch-global-read {{'t_stage'}}
    y += cfg::g_dropout; // expect: rematch-global-read {{reads mutable global 'cfg::g_dropout'}}
    return y + s;
  });
}

float positives_members_and_static_members(rematch::Segment &seg, float x) {
  return seg.recompute([&] { // expect-note: call to 'rematch::Segment::recompute'
    float a = Config::base_lr; // expect: rematch-global-read {{'Config::base_lr'}}
    float b = g_cfg.lr; // expect: rematch-global-read {{reads mutable global 'g_cfg'}}
    return a + b * x;
  });
}

float positives_container_reads(float x) {
  return nn::checkpoint([x] { // expect-note: 'nn::checkpoint'
    auto it = g_map.find(1); // expect: rematch-global-read {{'g_map'}}
    float t = g_table[0]; // expect: rematch-global-read {{'g_table'}}
    float n = g_table.size(); // expect: rematch-global-read {{reads mutable global 'g_table'}}
    return x + t + n + (it ? 1.0f : 0.0f);
  });
}

// A function-local static: the declaration is not reported, reads are
// (once something writes it).
float positives_local_static(rematch::Segment &seg, float x) {
  static float s = 1.0f;
  s = x; // outside the checkpoint: changes between the passes
  return seg.forward([x] { // expect-note: callable is checkpointed
    return x * s; // expect: rematch-global-read {{'s'}}
  });
}

// A static local of the callable itself that nothing writes: its
// initialisation is not an effect and its value never changes.
float negative_unwritten_local_static(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    static float s = 1.0f;
    return x * s;
  });
}

float negative_never_written_global(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    return x * g_never_written * g_anon_never_written * Hidden::factor;
  });
}

float positives_external_linkage_unproven(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    float y = x * g_defined_not_written; // expect: rematch-global-read {{reads mutable global 'g_defined_not_written'; the recomputation in backward may see a different value: 'g_defined_not_written' may be written in another translation unit; whole-program analysis (--summaries-dir) can prove it constant}}
    y += g_declared_only; // expect: rematch-global-read {{'g_declared_only' may be written in another translation unit}}
    y += g_escapes; // expect: rematch-global-read {{reads mutable global 'g_escapes'; the recomputation in backward may see a different value}}
    y += g_scale; // expect: rematch-global-read {{'g_scale'; the recomputation in backward may see a different value}}
    return y;
  });
}

// The reason is given only where it is the reason.
float negative_message_for_written_global(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    return x * g_scale; // expect: rematch-global-read {{may see a different value}} {{!another translation unit}}
  });
}

void positives_method_reads_and_changes(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    g_stats.record(x); // expect: rematch-counter-update {{calls 'Stats::record', which increments 'n'}}
    int n = g_stats.count(); // expect: rematch-global-read {{'g_stats'}}
    float m = g_stats.mean(); // expect: rematch-global-read {{'g_stats'}}
    return n + m;
  });
}

// Through a call that reads a constant-in-all-but-name global first and a
// written one after it: the first must not hide the second.
float reads_unwritten_then_written() { return g_never_written + g_scale; } // expect-note: 'reads_unwritten_then_written' reads mutable global 'g_scale' here
float positive_written_after_unwritten(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    return x * reads_unwritten_then_written(); // expect: rematch-global-read {{calls 'reads_unwritten_then_written', which reads mutable global 'g_scale'}}
  });
}

// Default arguments are evaluated at the call inside the callable.
float positives_default_argument(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    return scaled(x); // expect: rematch-global-read {{'g_scale'}}
  });
}

// One effect, one check: writes, updates, container mutation and draws
// also touch the global but are reported by their own check only.
void positives_one_effect_one_check(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    g_out = x; // expect: rematch-state-write {{writes 'g_out'}}
    g_out = g_scale; // expect: rematch-state-write {{writes 'g_out'}}, rematch-global-read {{'g_scale'}}
    ++g_steps; // expect: rematch-counter-update {{increments 'g_steps'}}
    g_map[3] = x; // expect: rematch-cache-write {{mutates container 'g_map' with 'operator[]'}}
    g_table.push_back(x); // expect: rematch-cache-write {{mutates container 'g_table' with 'push_back'}}
    unsigned r = g_gen(); // expect: rematch-unreplayed-rng {{draws from 'g_gen', which is not replayed}}
    std::cout << g_scale; // expect: rematch-logging {{logs through 'std::cout'}}, rematch-global-read {{reads mutable global 'g_scale'}}
    return r;
  });
}

// The other entry points.
struct ScaledStep {
  float x_ = 1;
  float operator()() const {
    return x_ * g_scale; // expect: rematch-global-read {{checkpointed functor 'ScaledStep' reads mutable global 'g_scale'}}
  }
};
float read_step() {
  return g_cfg.lr * 2; // expect: rematch-global-read {{checkpointed function 'read_step'}}
}
struct Layer {
  float w_ = 1;
  rematch::Segment seg_;
  float forward(float x) {
    return seg_.forward([this, x] { // expect-note: callable is checkpointed
      return w_ * x * Config::base_lr; // expect: rematch-global-read {{'Config::base_lr'}}
    });
  }
};
void positives_entry_points(rematch::Segment &seg, Trainer &trainer,
                            const ttml::autograd::TensorPtr &in) {
  seg.forward(ScaledStep{}); // expect-note: call to 'rematch::Segment::forward'
  seg.forward(&read_step); // expect-note: callable is checkpointed
  run_block([] { pure_twice(g_scale); }); // expect: rematch-global-read {{reads mutable global 'g_scale'}} expect-note: callable is checkpointed
  trainer.run([] { return g_steps; }); // expect: rematch-global-read {{reads mutable global 'g_steps'}} expect-note: callable is checkpointed
  auto body = [] { return g_training; }; // expect: rematch-global-read {{reads mutable global 'g_training'}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<float()>([] { return g_scale; })); // expect: rematch-global-read {{reads mutable global 'g_scale'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](float v) { return v * g_scale; }, 1.0f); // expect: rematch-global-read {{reads mutable global 'g_scale'}} expect-note: callable is checkpointed
  mlx::core::checkpoint([](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    float s = g_scale; // expect: rematch-global-read {{reads mutable global 'g_scale'}}
    return s > 0 ? xs : xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        return g_training ? t : t; // expect: rematch-global-read {{reads mutable global 'g_training'}}
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

// Constants, enumerators, function names and an allowed global.
float negatives_constants(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    float y = x * kEps * kScale + kLayers;
    y += Config::kHeads + kDefaults.lr;
    Mode m = Mode::Train;
    Phase p = kForward;
    float (*fn)(float) = &pure_twice;
    float (*fn2)(float) = pure_twice;
    y += cfg::g_vocab_size;
    static const float kLocal = 3;
    return fn(y) + fn2(kLocal) + (m == Mode::Eval) + p;
  });
}

// Locals, value captures, by-reference captures of locals and members
// through this are not static storage.
struct Model {
  float scale_ = 1;
  rematch::Segment seg_;
  float run(float x) {
    float local_scale = 3;
    return seg_.forward([this, x, &local_scale] {
      float g_scale = 4; // a local that shadows the global
      return x * scale_ * local_scale * g_scale;
    });
  }
};

// The caller evaluates init-captures and the checkpoint call's arguments.
float negatives_caller_side(rematch::Segment &seg, float x) {
  float a = seg.forward([s = g_scale, x] { return s * x; });
  float b = rematch::torch::checkpoint([](float v) { return v * 2; }, g_scale);
  return a + b;
}

// The left-hand side of a plain assignment is a write, not a read.
void negatives_assignment_lhs(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    g_out = 1.0f; // expect: rematch-state-write {{writes 'g_out'}}
    g_cfg.lr = 0.5f; // expect: rematch-state-write {{writes 'g_cfg.lr'}}
  });
}

// Guarded reads do not run during the recomputation.
float negatives_guarded(rematch::Segment &seg, float x) {
  float a = seg.forward([x] {
    float y = x;
    if (!rematch::recomputing()) {
      y *= g_scale;
    }
    if (!rematch::recomputing())
      y += g_cfg.lr;
    return y;
  });
  float b = seg.forward([x] {
    if (rematch::recomputing())
      return x;
    return x * g_scale;
  });
  return a + b;
}

// Suppressed.
float negatives_nolint(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    float y = x * g_scale; // NOLINT
    y += g_scale; // NOLINT(rematch-global-read)
    // NOLINTNEXTLINE(rematch-global-read)
    y += Config::base_lr;
    // NOLINTBEGIN(rematch-global-read)
    y += g_cfg.lr;
    y -= t_stage;
    // NOLINTEND(rematch-global-read)
    y += g_scale; // NOLINT(rematch-io) expect: rematch-global-read {{reads mutable global 'g_scale'}}
    return y;
  });
}

// A discarded if constexpr branch.
constexpr bool kUseGlobalScale = false;
float negatives_if_constexpr(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    if constexpr (kUseGlobalScale)
      return x * g_scale;
    else
      return x;
  });
}

// Not checkpointed.
float negatives_not_checkpointed(float x) {
  float a = apply([x] { return x * g_scale; });
  float b = [x] { return x * g_scale; }();
  auto c = [] { return g_cfg.lr; };
  return a + b + c() + g_scale + scaled(x);
}

// Singletons. A function-local static handed out only as a reference to
// const cannot be written through it: constant. One handed out as a
// mutable reference can be, and its reads are reported. An object with no
// data members (a stateless policy or layer, its vtable aside) has no value
// that could differ.
struct Options { float scale = 2; };
const Options &options() { static Options o; return o; }
Options &mutable_options() { static Options m; return m; } // expect-note: 'mutable_options' reads mutable global 'm' here
struct Policy { virtual ~Policy() {} virtual float apply(float x) { return x; } };
Policy &policy() { static Policy p; return p; }
float singletons(rematch::Segment &seg, float x) {
  return seg.forward([&] { // expect-note: callable is checkpointed by this call
    return options().scale * policy().apply(x) *
           mutable_options().scale; // expect: rematch-global-read {{calls 'mutable_options', which reads mutable global 'm'}}
  });
}

// Lookup tables. A library container's non-const accessor that has a const
// twin (vector's operator[], at, front, begin and end) changes nothing when
// its result is only read, so a table nothing writes is a constant, read
// that way, through std::as_const or in a range-for by value. Writing an
// element, map's operator[] (it inserts), or a range-for by reference that
// assigns make the table mutable, and its reads are reported.
static std::vector<float> s_table;
static std::vector<float> s_filled;
static std::vector<float> s_looped;
static std::map<int, float> s_map;
float lookup_tables(rematch::Segment &seg, int i) {
  return seg.forward([i] { // expect-note: callable is checkpointed by this call
    static std::vector<float> lazy;
    float y = s_table[i] + s_table.at(0) + s_table.front() + lazy[1];
    y += std::as_const(s_table)[0];
    for (float v : s_table)
      y += v;
    for (const float &v : lazy)
      y += v;
    y += s_filled[i]; // expect: rematch-global-read {{reads mutable global 's_filled'}}
    y += s_looped[0]; // expect: rematch-global-read {{reads mutable global 's_looped'}}
    y += s_map.at(i); // expect: rematch-global-read {{reads mutable global 's_map'}}
    return y;
  });
}
void fill_tables(int i) {
  s_filled[i] = 1;
  for (float &v : s_looped)
    v = 0;
  s_map[i] = 2;
}
