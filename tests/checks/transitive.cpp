// Transitive findings: effects a checkpointed callable reaches through the
// functions it calls (member functions, operators, constructors, templates,
// recursion), mapped through reference parameters and implicit objects to the
// callable's own roots. Each finding is reported once, at the call inside the
// callable, naming the first callee and describing the final effect; the
// notes walk the chain. Every rematch check runs on this file; see
// run_check_test.py for the annotation syntax.
#include "rematch-mock.h"

int g_steps = 0;
int g_mode = 0;
float g_scale = 2;
float g_total = 0;
int g_instances = 0;
int g_updates = 0;
int g_tally = 0;
int g_pongs = 0;
int g_layer_steps = 0;
int g_registered = 0;
std::vector<int> g_cache;

// Changes the scale between steps, outside any checkpoint: reading it in
// checkpointed code is a hazard.
void set_scale(float s) { g_scale = s; }

// ---- every check, at depth 1, 2 and 4 --------------------------------------
// x_d has the effect; x_c -> x_d is depth 2; x_a -> x_b -> x_c -> x_d is
// depth 4.

void cu_d() { ++g_steps; } // expect-note: 'cu_d' increments 'g_steps' here
void cu_c() { cu_d(); } // expect-note: 'cu_c' calls 'cu_d' here
void cu_b() { cu_c(); } // expect-note: 'cu_b' calls 'cu_c' here
void cu_a() { cu_b(); } // expect-note: 'cu_a' calls 'cu_b' here

void sw_d() { g_mode = 1; } // expect-note: 'sw_d' writes 'g_mode' here
void sw_c() { sw_d(); } // expect-note: 'sw_c' calls 'sw_d' here
void sw_b() { sw_c(); } // expect-note: 'sw_b' calls 'sw_c' here
void sw_a() { sw_b(); } // expect-note: 'sw_a' calls 'sw_b' here

float gr_d() { return g_scale; } // expect-note: 'gr_d' reads mutable global 'g_scale' here
float gr_c() { return gr_d(); } // expect-note: 'gr_c' calls 'gr_d' here
float gr_b() { return gr_c(); } // expect-note: 'gr_b' calls 'gr_c' here
float gr_a() { return gr_b(); } // expect-note: 'gr_a' calls 'gr_b' here

void cw_d() { g_cache.push_back(1); } // expect-note: 'cw_d' mutates container 'g_cache' with 'push_back' here
void cw_c() { cw_d(); } // expect-note: 'cw_c' calls 'cw_d' here
void cw_b() { cw_c(); } // expect-note: 'cw_b' calls 'cw_c' here
void cw_a() { cw_b(); } // expect-note: 'cw_a' calls 'cw_b' here

void log_d() { printf("step\n"); } // expect-note: 'log_d' logs through 'printf' here
void log_c() { log_d(); } // expect-note: 'log_c' calls 'log_d' here
void log_b() { log_c(); } // expect-note: 'log_b' calls 'log_c' here
void log_a() { log_b(); } // expect-note: 'log_a' calls 'log_b' here

void io_d() { remove("ckpt.tmp"); } // expect-note: 'io_d' performs I/O through 'remove' here
void io_c() { io_d(); } // expect-note: 'io_c' calls 'io_d' here
void io_b() { io_c(); } // expect-note: 'io_b' calls 'io_c' here
void io_a() { io_b(); } // expect-note: 'io_a' calls 'io_b' here

int rng_d() { return rand(); } // expect-note: 'rng_d' draws from 'rand', which is not replayed here
int rng_c() { return rng_d(); } // expect-note: 'rng_c' calls 'rng_d' here
int rng_b() { return rng_c(); } // expect-note: 'rng_b' calls 'rng_c' here
int rng_a() { return rng_b(); } // expect-note: 'rng_a' calls 'rng_b' here

long nd_d() { return time(nullptr); } // expect-note: 'nd_d' calls 'time' here
long nd_c() { return nd_d(); } // expect-note: 'nd_c' calls 'nd_d' here
long nd_b() { return nd_c(); } // expect-note: 'nd_b' calls 'nd_c' here
long nd_a() { return nd_b(); } // expect-note: 'nd_a' calls 'nd_b' here

void every_check_depth_1(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    cu_d(); // expect: rematch-counter-update {{checkpointed lambda calls 'cu_d', which increments 'g_steps'; the recomputation in backward increments it again}}
    sw_d(); // expect: rematch-state-write {{checkpointed lambda calls 'sw_d', which writes 'g_mode'; the recomputation in backward writes it again}}
    gr_d(); // expect: rematch-global-read {{checkpointed lambda calls 'gr_d', which reads mutable global 'g_scale'; the recomputation in backward may see a different value}}
    cw_d(); // expect: rematch-cache-write {{checkpointed lambda calls 'cw_d', which mutates container 'g_cache' with 'push_back'; the recomputation in backward mutates it again}}
    log_d(); // expect: rematch-logging {{checkpointed lambda calls 'log_d', which logs through 'printf'; the recomputation in backward logs again}}
    io_d(); // expect: rematch-io {{checkpointed lambda calls 'io_d', which performs I/O through 'remove'; the recomputation in backward repeats it}}
    rng_d(); // expect: rematch-unreplayed-rng {{checkpointed lambda calls 'rng_d', which draws from 'rand', which is not replayed; the recomputation in backward draws different numbers}}
    nd_d(); // expect: rematch-nondeterminism {{checkpointed lambda calls 'nd_d', which calls 'time'; the recomputation in backward gets a different value}}
  });
}

void every_check_depth_2(rematch::Segment &seg) {
  seg.recompute([] { // expect-note: call to 'rematch::Segment::recompute'
    cu_c(); // expect: rematch-counter-update {{checkpointed lambda calls 'cu_c', which increments 'g_steps'; the recomputation in backward increments it again}}
    sw_c(); // expect: rematch-state-write {{checkpointed lambda calls 'sw_c', which writes 'g_mode'}}
    gr_c(); // expect: rematch-global-read {{checkpointed lambda calls 'gr_c', which reads mutable global 'g_scale'}}
    cw_c(); // expect: rematch-cache-write {{checkpointed lambda calls 'cw_c', which mutates container 'g_cache' with 'push_back'}}
    log_c(); // expect: rematch-logging {{checkpointed lambda calls 'log_c', which logs through 'printf'}}
    io_c(); // expect: rematch-io {{checkpointed lambda calls 'io_c', which performs I/O through 'remove'}}
    rng_c(); // expect: rematch-unreplayed-rng {{checkpointed lambda calls 'rng_c', which draws from 'rand'}}
    nd_c(); // expect: rematch-nondeterminism {{checkpointed lambda calls 'nd_c', which calls 'time'}}
  });
}

void every_check_depth_4(float x) {
  rematch::torch::checkpoint( // expect-note: call to 'rematch::torch::checkpoint'
      [](float v) {
        cu_a(); // expect: rematch-counter-update {{checkpointed lambda calls 'cu_a', which increments 'g_steps'; the recomputation in backward increments it again}}
        sw_a(); // expect: rematch-state-write {{checkpointed lambda calls 'sw_a', which writes 'g_mode'; the recomputation in backward writes it again}}
        gr_a(); // expect: rematch-global-read {{checkpointed lambda calls 'gr_a', which reads mutable global 'g_scale'}}
        cw_a(); // expect: rematch-cache-write {{checkpointed lambda calls 'cw_a', which mutates container 'g_cache' with 'push_back'}}
        log_a(); // expect: rematch-logging {{checkpointed lambda calls 'log_a', which logs through 'printf'}}
        io_a(); // expect: rematch-io {{checkpointed lambda calls 'io_a', which performs I/O through 'remove'}}
        rng_a(); // expect: rematch-unreplayed-rng {{checkpointed lambda calls 'rng_a', which draws from 'rand'}}
        nd_a(); // expect: rematch-nondeterminism {{checkpointed lambda calls 'nd_a', which calls 'time'}}
        return v;
      },
      x);
}

// ---- member functions: the BatchNorm case ------------------------------------

struct BatchNorm {
  float running_mean_ = 0;
  long num_batches_tracked_ = 0;
  void update(float x) {
    running_mean_ = 0.9f * running_mean_ + 0.1f * x; // expect-note: 'BatchNorm::update' writes 'running_mean_' here
    ++num_batches_tracked_; // expect-note: 'BatchNorm::update' increments 'num_batches_tracked_' here
  }
  float normalize(float x) const { return x - running_mean_; }
};

struct Block {
  BatchNorm bn_;
  float forward(float x) {
    bn_.update(x); // expect-note: 'Block::forward' calls 'BatchNorm::update' here
    return bn_.normalize(x);
  }
  // Reached through the captured `this`.
  float run(rematch::Segment &seg, float x) {
    return seg.forward([this, x] { return forward(x); }); // expect: rematch-state-write {{checkpointed lambda calls 'Block::forward', which writes 'running_mean_'; the recomputation in backward writes it again}}, rematch-counter-update {{checkpointed lambda calls 'Block::forward', which increments 'num_batches_tracked_'; the recomputation in backward increments it again}} expect-note: callable is checkpointed
  }
  // Pure member functions on the same state are fine.
  float eval(rematch::Segment &seg, float x) {
    return seg.forward([this, x] { return bn_.normalize(x); });
  }
};

// A module captured by reference: a reference parameter, and a local of the
// enclosing function (it outlives one call of the callable too).
float batchnorm_by_reference(rematch::Segment &seg, BatchNorm &bn, float x) {
  BatchNorm outer;
  seg.forward([&bn, x] { // expect-note: callable is checkpointed
    bn.update(x); // expect: rematch-state-write {{checkpointed lambda calls 'BatchNorm::update', which writes 'running_mean_'}}, rematch-counter-update {{checkpointed lambda calls 'BatchNorm::update', which increments 'num_batches_tracked_'}}
  });
  seg.forward([&outer, x] { // expect-note: callable is checkpointed
    outer.update(x); // expect: rematch-state-write {{calls 'BatchNorm::update', which writes 'running_mean_'}}, rematch-counter-update {{calls 'BatchNorm::update', which increments 'num_batches_tracked_'}}
  });
  seg.forward([&] { // expect-note: callable is checkpointed
    bn.update(x); // expect: rematch-state-write {{'BatchNorm::update'}}, rematch-counter-update {{'BatchNorm::update'}}
    return bn.normalize(x);
  });
  return outer.normalize(x);
}

// The object reaches the update through a reference parameter of a helper.
void train_step(BatchNorm &m, float x) { m.update(x); } // expect-note: 'train_step' calls 'BatchNorm::update' here
void batchnorm_through_parameter(rematch::Segment &seg, BatchNorm &bn, float x) {
  seg.forward([&bn, x] { // expect-note: callable is checkpointed
    train_step(bn, x); // expect: rematch-state-write {{checkpointed lambda calls 'train_step', which writes 'running_mean_'}}, rematch-counter-update {{checkpointed lambda calls 'train_step', which increments 'num_batches_tracked_'}}
  });
  seg.forward([x] {
    BatchNorm mine;
    train_step(mine, x); // a local of the callable: nothing
    return mine.normalize(x);
  });
}

// Static member functions act on static state.
struct Registry {
  static void record() { ++g_registered; } // expect-note: 'Registry::record' increments 'g_registered' here
};
void static_member(rematch::Segment &seg) {
  seg.forward([] { Registry::record(); }); // expect: rematch-counter-update {{checkpointed lambda calls 'Registry::record', which increments 'g_registered'}} expect-note: callable is checkpointed
}

// ---- overloaded operators ------------------------------------------------------

struct Tally {
  void operator()(int n) { g_tally += n; } // expect-note: 'Tally::operator()' updates 'g_tally' with '+=' here
};

struct Meter {
  float total = 0;
  Meter &operator+=(float v) {
    ++g_updates; // expect-note: 'Meter::operator+=' increments 'g_updates' here
    total += v;
    return *this;
  }
};

void operators(rematch::Segment &seg, Meter &shared, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    Tally t;
    t(3); // expect: rematch-counter-update {{checkpointed lambda calls 'Tally::operator()', which updates 'g_tally' with '+='; the recomputation in backward updates it again}}
    Meter local;
    local += x; // expect: rematch-counter-update {{checkpointed lambda calls 'Meter::operator+=', which increments 'g_updates'}}
    return local.total;
  });
  seg.forward([&shared, x] { // expect-note: callable is checkpointed
    shared += x; // expect: rematch-counter-update {{calls 'Meter::operator+=', which increments 'g_updates'}}
  });
}

// ---- constructors ----------------------------------------------------------------

struct Counted {
  int id;
  Counted() : id(0) { ++g_instances; } // expect-note: 'Counted::Counted' increments 'g_instances' here
};
struct Plain {
  int v;
  Plain() { v = 1; } // writes only the object under construction
};

void constructors(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    Counted c; // expect: rematch-counter-update {{checkpointed lambda calls 'Counted::Counted', which increments 'g_instances'; the recomputation in backward increments it again}}
    Plain p;
    return c.id + p.v;
  });
}

// ---- templates -------------------------------------------------------------------

template <class T> void accumulate(T v) { g_total += v; } // expect-note: 'accumulate' updates 'g_total' with '+=' here

template <class T> struct Buffer {
  void put(T v) { g_cache.push_back(v); } // expect-note: 'Buffer::put' mutates container 'g_cache' with 'push_back' here
};

void templates(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    accumulate(x); // expect: rematch-counter-update {{checkpointed lambda calls 'accumulate', which updates 'g_total' with '+='}}
    Buffer<int> b;
    b.put(1); // expect: rematch-cache-write {{checkpointed lambda calls 'Buffer::put', which mutates container 'g_cache' with 'push_back'}}
  });
}

// ---- recursion and mutual recursion: found, and no hang --------------------------

void countdown(int n) {
  if (n <= 0)
    return;
  ++g_steps; // expect-note: 'countdown' increments 'g_steps' here
  countdown(n - 1);
}

bool pong(int n);
bool ping(int n) { return n > 0 ? pong(n - 1) : true; } // expect-note: 'ping' calls 'pong' here
bool pong(int n) {
  ++g_pongs; // expect-note: 'pong' increments 'g_pongs' here
  return n > 0 ? ping(n - 1) : false;
}

// Recursive and pure.
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

void recursion(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    countdown(3); // expect: rematch-counter-update {{checkpointed lambda calls 'countdown', which increments 'g_steps'}}
    ping(4); // expect: rematch-counter-update {{checkpointed lambda calls 'ping', which increments 'g_pongs'}}
    return fib(10);
  });
}

// ---- virtual functions ------------------------------------------------------------
// A virtual call may run any override defined in this file, as well as the
// statically named function.

struct Layer {
  virtual ~Layer() = default;
  virtual void step() {}
  virtual void tick() { ++g_layer_steps; } // expect-note: 'Layer::tick' increments 'g_layer_steps' here
};
struct CountingLayer : Layer {
  void step() override { ++g_layer_steps; } // expect-note: 'CountingLayer::step' increments 'g_layer_steps' here
};
struct QuietLayer : Layer {
  void tick() override {}
};

void virtual_calls(rematch::Segment &seg, Layer &layer, CountingLayer &counting,
                   QuietLayer &quiet) {
  seg.forward([&layer] { // expect-note: callable is checkpointed
    layer.step(); // expect: rematch-counter-update {{checkpointed lambda calls 'Layer::step', which may, through a virtual call,}} {{increments 'g_layer_steps'}}
  });
  seg.forward([&layer] { // expect-note: callable is checkpointed
    layer.tick(); // expect: rematch-counter-update {{checkpointed lambda calls 'Layer::tick', which increments}} {{increments 'g_layer_steps'}}
  });
  seg.forward([&counting] { // expect-note: callable is checkpointed
    counting.step(); // expect: rematch-counter-update {{checkpointed lambda calls 'CountingLayer::step', which increments}} {{increments 'g_layer_steps'}}
  });
  seg.forward([] {
    QuietLayer q; // the callable's own object
    q.step();
    q.tick();
  });
  // No class derived from QuietLayer overrides step: CountingLayer::step is
  // not a possible target.
  seg.forward([&quiet] {
    quiet.step();
    quiet.tick();
  });
}

// ---- named functions and functors as the checkpointed callable ---------------------

float named_step() {
  cu_c(); // expect: rematch-counter-update {{checkpointed function 'named_step' calls 'cu_c', which increments 'g_steps'; the recomputation in backward increments it again}}
  return gr_c(); // expect: rematch-global-read {{checkpointed function 'named_step' calls 'gr_c', which reads mutable global 'g_scale'}}
}

struct LoggedStep {
  float operator()() const {
    log_c(); // expect: rematch-logging {{checkpointed functor 'LoggedStep' calls 'log_c', which logs through 'printf'}}
    return 0;
  }
};

void named_and_functor(rematch::Segment &seg) {
  seg.forward(named_step); // expect-note: call to 'rematch::Segment::forward'
  seg.recompute(LoggedStep{}); // expect-note: call to 'rematch::Segment::recompute'
}

// ---- reference and pointer parameters map to the argument -------------------------

void bump(int &c) { ++c; } // expect-note: 'bump' increments 'c' here
void bump_ptr(int *p) { ++*p; } // expect-note: 'bump_ptr' increments '*p' here
void bump_twice(int &c) {
  bump(c); // expect-note: 'bump_twice' calls 'bump' here
  bump(c);
}
void read_only(const int &c) { (void)c; }

void parameters(rematch::Segment &seg, int &counter) {
  seg.forward([&counter] { // expect-note: callable is checkpointed
    bump(g_steps); // expect: rematch-counter-update {{checkpointed lambda calls 'bump', which increments 'c'; the recomputation in backward increments it again}}
    bump(counter); // expect: rematch-counter-update {{checkpointed lambda calls 'bump', which increments 'c'}}
    bump_ptr(&g_steps); // expect: rematch-counter-update {{checkpointed lambda calls 'bump_ptr', which increments '*p'}}
    bump_twice(g_mode); // expect: rematch-counter-update {{checkpointed lambda calls 'bump_twice', which increments 'c'}}
    int n = 0;
    bump(n);
    bump_ptr(&n);
    bump_twice(n);
    read_only(n);
    return n;
  });
}

// ---- perfect forwarding: std::forward and std::move pass the argument on ----------

template <class... Args> void forward_bump(Args &&...args) {
  bump(std::forward<Args>(args)...); // expect-note: 'forward_bump' calls 'bump' here
}
template <class T> void move_bump(T *p) { bump_ptr(std::move(p)); } // expect-note: 'move_bump' calls 'bump_ptr' here

void forwarding(rematch::Segment &seg, int &counter) {
  seg.forward([&counter] { // expect-note: callable is checkpointed
    forward_bump(counter); // expect: rematch-counter-update {{checkpointed lambda calls 'forward_bump', which increments 'c'}}
    move_bump(&g_tally); // expect: rematch-counter-update {{checkpointed lambda calls 'move_bump', which increments '*p'}}
    int n = 0;
    forward_bump(n);
    move_bump(&n);
    return n;
  });
}

// ---- negatives -----------------------------------------------------------------------

float square(float v) { return v * v; }
float pure_chain(float v) { return square(v) + square(v + 1); }

// Hazardous helpers that checkpointed code never calls.
void never_checkpointed() {
  cu_a();
  log_a();
  Counted c;
  (void)c;
}

// Guards are respected at any depth.
void guarded_log() {
  if (!rematch::recomputing())
    printf("once\n");
}
void guarded_outer() { guarded_log(); }
void guarded_early_exit() {
  if (rematch::recomputing())
    return;
  ++g_steps;
  g_cache.push_back(2);
}
void guarded_deep() { guarded_outer(); guarded_early_exit(); }

float negatives(rematch::Segment &seg, float x) {
  seg.forward([x] {
    BatchNorm local;
    local.update(x); // the callable's own object: nothing
    BatchNorm().update(x); // a temporary: nothing
    return local.normalize(x) + pure_chain(x);
  });
  seg.forward([] {
    guarded_log();
    guarded_outer();
    guarded_early_exit();
    guarded_deep();
    if (!rematch::recomputing())
      cu_a(); // guarded at the call
  });
  // Not a checkpoint function: nothing.
  apply([] { cu_a(); });
  cu_a();
  return x;
}

// ---- a lambda written inside the callable ----------------------------------
// Its body is walked where it is written, since the library code it is
// handed to may run it; handed to a function this file follows, it is
// reported once, at the call that runs it, not again inside the lambda.
template <class F> void run_now(F f) { f(); } // expect-note: 'run_now' calls 'lambda' here
template <class F> struct OnEnter {
  explicit OnEnter(F f) { f(); } // expect-note: 'OnEnter::OnEnter' calls 'lambda' here
};

void nested_lambdas(rematch::Segment &seg, std::vector<float> &in) {
  seg.forward([&] { // expect-note: callable is checkpointed
    run_now( // expect: rematch-counter-update {{calls 'run_now', which increments 'g_tally'}}
        [] { ++g_tally; }); // expect-note: 'lambda' increments 'g_tally' here
    auto bump = [] { g_mode = 3; }; // expect-note: 'lambda' writes 'g_mode' here
    run_now(bump); // expect: rematch-state-write {{calls 'run_now', which writes 'g_mode'}}
    OnEnter enter( // expect: rematch-logging {{calls 'OnEnter::OnEnter', which logs through 'printf'}}
        [] { printf("enter\n"); }); // expect-note: 'lambda' logs through 'printf' here
    run_now( // expect: rematch-io {{calls 'run_now', which performs I/O through 'remove'}}
        [] { io_d(); }); // expect-note: 'lambda' calls 'io_d' here
    // Called directly, or handed to the library: where it is written.
    auto direct = [] { ++g_pongs; }; // expect: rematch-counter-update {{increments 'g_pongs'}}
    direct();
    std::vector<float> out(in.size());
    std::transform(in.begin(), in.end(), out.begin(), [](float v) {
      ++g_updates; // expect: rematch-counter-update {{increments 'g_updates'}}
      return v;
    });
  });
}
