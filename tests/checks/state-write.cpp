// rematch-state-write: plain writes to state that outlives one call of the
// callable (globals, static members, by-reference captures, members through
// this, a mutable lambda's copies, a non-const functor's members, objects
// behind reference or pointer parameters, the pointee of a captured pointer).
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
#include "rematch-mock.h"

int g = 0;
float g_last = 0;
bool g_flag = false;
float g_hist[8];
thread_local float t_last = 0;
std::vector<float> g_table;
std::map<int, float> g_by_id;

struct Config {
  float lr = 0.1f;
  static float base_lr;
};
float Config::base_lr = 0.01f;
Config g_cfg;

struct State {
  float value = 0;
  int step = 0;
};

// ---- positives ---------------------------------------------------------

void positives_globals(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    g = 1; // expect: rematch-state-write {{checkpointed lambda writes 'g'; the recomputation in backward writes it again}}
    g_last = x; // expect: rematch-state-write {{writes 'g_last'}}
    Config::base_lr = 0.5f; // expect: rematch-state-write {{writes 'Config::base_lr'}}
    g_cfg.lr = x; // expect: rematch-state-write {{writes 'g_cfg.lr'}}
    g_hist[3] = x; // expect: rematch-state-write {{writes 'g_hist[3]'}}
    t_last = x; // expect: rematch-state-write {{'t_last'}}
    g_table[0] = x; // expect: rematch-state-write {{writes 'g_table[0]'}}
  });
}

// One effect, one check: the written global is not also a read; a global
// on the right-hand side is.
void positives_one_effect_one_check(rematch::Segment &seg) {
  seg.recompute([] { // expect-note: call to 'rematch::Segment::recompute'
    g_flag = !g_flag; // expect: rematch-state-write {{writes 'g_flag'}}, rematch-global-read {{reads mutable global 'g_flag'}}
    g_last = g_cfg.lr; // expect: rematch-state-write {{writes 'g_last'}}, rematch-global-read {{reads mutable global 'g_cfg'}}
    g += 1; // expect: rematch-counter-update {{updates 'g' with '+='}}
    g_by_id[1] = 2.0f; // expect: rematch-cache-write {{mutates container 'g_by_id' with 'operator[]'}}
  });
}

// A function-local static: the initialisation is not a write, later
// assignments are.
void positives_local_static(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    static float last = x;
    last = x; // expect: rematch-state-write {{'last'}}
    return last; // expect: rematch-global-read {{reads mutable global 'last'}}
  });
}

// Captured by reference.
float positives_by_ref_capture(rematch::Segment &seg, float x) {
  float last_input = 0;
  seg.forward([&last_input, x] { // expect-note: callable is checkpointed
    last_input = x; // expect: rematch-state-write {{checkpointed lambda writes 'last_input'; the recomputation in backward writes it again}}
  });
  return last_input;
}

// Members through a captured this.
struct BatchNorm {
  float running_mean_ = 0;
  float momentum_ = 0.1f;
  rematch::Segment seg_;
  float forward(float x) {
    return seg_.forward([this, x] { // expect-note: callable is checkpointed
      running_mean_ = (1 - momentum_) * running_mean_ + momentum_ * x; // expect: rematch-state-write {{writes 'running_mean_'}}
      return x;
    });
  }
};

// A mutable lambda writes its own copy, which the recomputation sees again.
void positives_mutable(rematch::Segment &seg) {
  float v = 0;
  seg.forward([v]() mutable { v = 2; return v; }); // expect: rematch-state-write {{'v'}} expect-note: callable is checkpointed
}

// A non-const functor writes its own members.
struct Remember {
  float last_ = 0;
  float operator()() {
    last_ = 1.0f; // expect: rematch-state-write {{checkpointed functor 'Remember' writes 'last_'}}
    return last_;
  }
};

// A named function.
void write_step() {
  g_last = 3.0f; // expect: rematch-state-write {{checkpointed function 'write_step' writes 'g_last'}}
}

// Objects behind reference and pointer parameters, and a captured pointer.
void positives_params(rematch::Segment &seg, State &state, float *out) {
  seg.forward(Remember{}); // expect-note: call to 'rematch::Segment::forward'
  seg.forward(&write_step); // expect-note: callable is checkpointed
  rematch::torch::checkpoint([](State &s) { s.value = 1; }, state); // expect: rematch-state-write {{writes 's.value'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](float *o, float x) { *o = x; }, out, 2.0f); // expect: rematch-state-write {{writes '*o'}} expect-note: callable is checkpointed
  State *p = &state;
  nn::checkpoint([p] { p->step = 4; }); // expect: rematch-state-write {{writes 'p->step'}} expect-note: callable is checkpointed
  nn::checkpoint([out] { out[1] = 0; }); // expect: rematch-state-write {{writes 'out[1]'}} expect-note: callable is checkpointed
}

// The other entry points.
void positives_entry_points(rematch::Segment &seg, Trainer &trainer,
                            const ttml::autograd::TensorPtr &in) {
  run_block([] { g = 2; }); // expect: rematch-state-write {{writes 'g'}} expect-note: callable is checkpointed
  trainer.run([] { g_flag = true; }); // expect: rematch-state-write {{writes 'g_flag'}} expect-note: callable is checkpointed
  auto body = [] { g_last = 0; }; // expect: rematch-state-write {{writes 'g_last'}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<void()>([] { g = 5; })); // expect: rematch-state-write {{writes 'g'}} expect-note: callable is checkpointed
  mlx::core::checkpoint([](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    g_flag = false; // expect: rematch-state-write {{writes 'g_flag'}}
    return xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        t->value = 0; // expect: rematch-state-write {{writes 't->value'}}
        return t;
      },
      in, in);
}

// Assigning a whole object of class type writes it, however its assignment
// is provided: reported at the assignment, with the name the code uses.
struct Plain {
  float a = 0;
  int b = 0;
};
struct Holder {
  std::vector<float> xs;
  std::map<int, float> by_id;
};
struct Defaulted {
  float a = 0;
  Defaulted &operator=(const Defaulted &) = default;
};
struct Loud {
  float a = 0;
  Loud &operator=(const Loud &o) {
    a = o.a;
    std::cout << "copied"; // expect-note: 'Loud::operator=' logs through 'std::cout' here
    return *this;
  }
};
Plain make_plain(float v) { return {v, 1}; }
Plain g_plain;
Holder g_holder;
Defaulted g_defaulted;
Loud g_loud;

void positives_class_assignment(rematch::Segment &seg, Plain &out, float v) {
  seg.forward([&out, v] { // expect-note: callable is checkpointed
    out = make_plain(v); // expect: rematch-state-write {{checkpointed lambda writes 'out'}} {{!operator=}}
    g_plain = make_plain(v); // expect: rematch-state-write {{checkpointed lambda writes 'g_plain'}}
    Holder h;
    h.xs.push_back(v);
    g_holder = h; // expect: rematch-state-write {{writes 'g_holder'}}
    g_holder = std::move(h); // expect: rematch-state-write {{writes 'g_holder'}}
    Defaulted d;
    g_defaulted = d; // expect: rematch-state-write {{writes 'g_defaulted'}}
    Loud l;
    g_loud = l; // expect: rematch-state-write {{writes 'g_loud'}}, rematch-logging {{calls 'Loud::operator=', which logs}}
    Plain local;
    local = make_plain(v); // a local: nobody sees it twice
    Loud quiet;
    quiet = l; // expect: rematch-logging {{calls 'Loud::operator=', which logs through 'std::cout'}}
  });
}

// ---- negatives ---------------------------------------------------------

float negatives_locals(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    float y = 0;
    y = x;
    State s;
    s.value = y;
    float buf[2];
    buf[0] = y;
    float *p = &y;
    *p = 3;
    float &r = y;
    r = 4;
    std::vector<float> v(2);
    v[0] = y;
    return y + s.value + buf[0] + v[0];
  });
}

// Parameters by value, value captures read only, init-captures.
void negatives_values(rematch::Segment &seg, State state) {
  rematch::torch::checkpoint([](State s) { s.value = 2; return s; }, state);
  rematch::torch::checkpoint([](float x) { x = 0; return x; }, 1.0f);
  seg.forward([state] { return state.value; });
  seg.forward([copy = g_last] { return copy; });
}

// A const functor that writes only locals.
struct Pure {
  float scale_ = 2;
  float operator()() const {
    float tmp = scale_;
    tmp = tmp * 2;
    return tmp;
  }
};
void negatives_const_functor(rematch::Segment &seg) { seg.forward(Pure{}); }

// Guarded.
void negatives_guarded(rematch::Segment &seg, float x) {
  seg.forward([x] {
    if (!rematch::recomputing()) {
      g_last = x;
      g = 1;
    }
    if (!rematch::recomputing())
      g_flag = true;
  });
  seg.forward([x] {
    if (rematch::recomputing())
      return;
    g_last = x;
  });
}

// Suppressed.
void negatives_nolint(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    g_last = x; // NOLINT
    g_last = x; // NOLINT(rematch-state-write)
    // NOLINTNEXTLINE(rematch-state-write)
    g = 3;
    // NOLINTBEGIN(rematch-state-write)
    g_flag = true;
    g_cfg.lr = x;
    // NOLINTEND(rematch-state-write)
    g = 4; // NOLINT(rematch-counter-update) expect: rematch-state-write {{writes 'g'}}
  });
}

// Discarded if constexpr branch.
constexpr bool kRecordLast = false;
void negatives_if_constexpr(rematch::Segment &seg, float x) {
  seg.forward([=] {
    if constexpr (kRecordLast)
      g_last = x;
  });
}

// Not checkpointed.
void negatives_not_checkpointed(float x) {
  apply([x] { g_last = x; });
  [] { g = 1; }();
  g_flag = true;
  auto later = [x] { g_last = x; };
  later();
}
