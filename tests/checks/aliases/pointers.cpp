// Writes through raw pointers: taken from a global, an array, a member of
// a global, a capture, `this` or a parameter; moved with pointer
// arithmetic; rebound by assignment (flow-insensitive: any binding counts);
// chained through other pointers. The write is reported by the root's own
// check, named by the root and the pointer, with a note where the pointer
// was taken; the read that took it is part of the change. Pointers into
// locals, const pointers and pointers of unknown origin stay quiet.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

float g_buffer[64];
float g_scale = 1.0f;
int g_count = 0;
struct Config {
  float lr = 0.1f;
  int steps = 0;
};
Config g_cfg;
float *g_cursor = g_buffer;

// ---- positives ---------------------------------------------------------

void from_globals(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    float *p = g_buffer; // expect-note: 'p' is an alias of 'g_buffer' taken here
    p[3] = x; // expect: rematch-state-write {{checkpointed lambda writes 'g_buffer' through 'p'; the recomputation in backward writes it again}}
    float *q = &g_scale; // expect-note: 'q' is an alias of 'g_scale' taken here
    *q = x; // expect: rematch-state-write {{writes 'g_scale' through 'q'}}
    int *c = &g_count; // expect-note: 'c' is an alias of 'g_count' taken here
    ++*c; // expect: rematch-counter-update {{increments 'g_count' through 'c'}}
    (*c) += 2; // expect: rematch-counter-update {{updates 'g_count' with '+=' through 'c'}}
    float *lr = &g_cfg.lr; // expect-note: 'lr' is an alias of 'g_cfg' taken here
    *lr *= 0.5f; // expect: rematch-counter-update {{updates 'g_cfg' with '*=' through 'lr'}}
    Config *cfg = &g_cfg; // expect-note: 'cfg' is an alias of 'g_cfg' taken here
    cfg->steps = 0; // expect: rematch-state-write {{writes 'g_cfg' through 'cfg'}}
  });
}

// Pointer arithmetic, &p[i] and increments keep the pointer in its array.
void arithmetic(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    float *p = g_buffer + 8; // expect-note: 'p' is an alias of 'g_buffer' taken here expect-note: 'r' is an alias of 'g_buffer' taken here
    p[1] = x; // expect: rematch-state-write {{writes 'g_buffer' through 'p'}}
    float *q = &g_buffer[4]; // expect-note: 'q' is an alias of 'g_buffer' taken here
    q++;
    *q = x; // expect: rematch-state-write {{writes 'g_buffer' through 'q'}}
    float *r = p - 2;
    *r = x; // expect: rematch-state-write {{writes 'g_buffer' through 'r'}}
  });
}

// Any binding counts, wherever it is: the loop moves the pointer onto the
// global after its first write.
void rebound(rematch::Segment &seg, float x, bool flag) {
  seg.forward([x, flag] { // expect-note: callable is checkpointed
    float local[4] = {};
    float *p = local;
    for (int i = 0; i < 2; ++i) {
      p[0] = x; // expect: rematch-state-write {{writes 'g_buffer' through 'p'}}
      p = g_buffer; // expect-note: 'p' is an alias of 'g_buffer' taken here
    }
    float *s = flag ? g_buffer : local; // expect-note: 's' is an alias of 'g_buffer' taken here
    s[2] = x; // expect: rematch-state-write {{writes 'g_buffer' through 's'}}
  });
}

// A pointer copied from another names the root and the pointer written
// through; the note is where the root was taken.
void chained(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    float *p = g_buffer; // expect-note: 'q' is an alias of 'g_buffer' taken here
    float *q = p + 1;
    q[0] = x; // expect: rematch-state-write {{writes 'g_buffer' through 'q'}}
  });
}

// The global pointer itself: what it points to outlives the call.
void global_pointer(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    float *p = g_cursor; // expect-note: 'p' is an alias of 'g_cursor' taken here
    *p = x; // expect: rematch-state-write {{writes 'g_cursor' through 'p'}}
  });
}

// A method that changes its object, called through a global pointer, a
// smart pointer or a dereference: the read of the pointer is part of that
// change, one finding. A const method, or one that changes something else,
// leaves the read its own.
struct Meter {
  int ticks = 0;
  void tick() { ++ticks; } // expect-note: 'Meter::tick' increments 'ticks' here
  int peek() const { return ticks; }
  void elsewhere() { ++g_count; } // expect-note: 'Meter::elsewhere' increments 'g_count' here
};
Meter *g_meter = new Meter;
std::unique_ptr<Meter> g_owned;
std::shared_ptr<Meter> g_shared_meter;
void methods_through_pointers(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    g_meter->tick(); // expect: rematch-counter-update {{calls 'Meter::tick', which increments 'ticks'}}
    g_owned->tick(); // expect: rematch-counter-update {{calls 'Meter::tick'}}
    (*g_owned).tick(); // expect: rematch-counter-update {{calls 'Meter::tick'}}
    g_shared_meter->tick(); // expect: rematch-counter-update {{calls 'Meter::tick'}}
    int n = g_meter->peek(); // expect: rematch-global-read {{reads mutable global 'g_meter'}}
    g_owned->elsewhere(); // expect: rematch-counter-update {{increments 'g_count'}}, rematch-global-read {{reads mutable global 'g_owned'}}
    return n;
  });
}

// Captured by reference, a member through `this`, a pointer parameter of
// the checkpointed callable (an input).
struct Layer {
  float weights_[16];
  float run(rematch::Segment &seg, float x) {
    return seg.forward([this, x] { // expect-note: callable is checkpointed
      float *w = weights_; // expect-note: 'w' is an alias of 'weights_' taken here
      w[0] += x; // expect: rematch-counter-update {{updates 'weights_' with '+=' through 'w'}}
      return w[1];
    });
  }
};

void captures_and_params(rematch::Segment &seg, float *out, float x) {
  float acc[4] = {};
  seg.forward([&acc, x] { // expect-note: callable is checkpointed
    float *a = acc; // expect-note: 'a' is an alias of 'acc' taken here
    a[0] = x; // expect: rematch-state-write {{writes 'acc' through 'a'}}
  });
  rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [](float *o, float v) {
        float *dst = o + 1; // expect-note: 'dst' is an alias of 'o' taken here
        *dst = v; // expect: rematch-state-write {{writes 'o' through 'dst'}}
      },
      out, x);
}

// A copy of a structure holding pointers points where the original's do
// (llm.c's `ActivationTensors acts = model->acts;`).
struct Tensors {
  float *act;
  float *grad;
  int n;
};
Tensors g_tensors;
void struct_copies(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    Tensors t = g_tensors; // expect-note: 't' is an alias of 'g_tensors' taken here
    t.act[0] = x; // expect: rematch-state-write {{writes 'g_tensors' through 't'}}
    float *g = t.grad + 1; // expect-note: 'g' is an alias of 'g_tensors' taken here
    *g = x; // expect: rematch-state-write {{writes 'g_tensors' through 'g'}}
    t.n = 3; // the copy's own member: local
  });
}

// ---- negatives -------------------------------------------------------------

void negatives(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    float local[4] = {};
    float *p = local;
    p[0] = x; // a local array: quiet
    const float *c = g_buffer; // expect: rematch-global-read {{reads mutable global 'g_buffer'}}
    float y = c[0]; // a const pointer only reads: the read is where it was taken
    float *r = g_buffer; // expect: rematch-global-read {{'g_buffer'}}
    y += r[1]; // read through, never written: the read is reported where it was taken
    float *h = new float[4];
    h[0] = y; // a fresh object: local
    delete[] h;
    float v = 0;
    float *pv = &v;
    *pv = y; // a local: quiet
    return y;
  });
}

// Unknown origins are not guessed into findings: a pointer read out of an
// array of pointers, one from an opaque function.
float *opaque();
float *g_table[4];
void unknown_origins(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    float *p = opaque(); // nothing says where it points
    p[0] = x;
    float *q = g_table[1]; // expect: rematch-global-read {{'g_table'}}
    q[0] = x; // where g_table[1] points is not tracked
  });
}
