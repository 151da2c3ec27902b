// Fix-it test for rematch-global-read: a read of an unqualified
// namespace-scope global inside a checkpointed lambda becomes a by-value
// init-capture, evaluated once at the original forward. The capture is
// appended to the capture list. run_fixit_test.py compares the fixed file
// with global-read.cpp.expected.
#include "rematch-mock.h"

float g_scale = 2;
float g_bias = 1;
int g_level = 0;
int g_steps = 0;

namespace model {
float g_dropout = 0.1f;
float dropout_scale(rematch::Segment &seg, float x) {
  return seg.forward([x] { return x * g_dropout; }); // expect-note: callable is checkpointed
}
} // namespace model

struct Config {
  static float base_lr;
};
float Config::base_lr = 0.01f;

#define SCALED(x) ((x) * g_scale)

float empty_capture(rematch::Segment &seg) {
  return seg.forward([] { return g_scale; }); // expect-note: callable is checkpointed
}

float value_capture(rematch::Segment &seg, float x) {
  return seg.forward([x] { return x + g_bias; }); // expect-note: callable is checkpointed
}

float default_ref_capture(rematch::Segment &seg, float x) {
  return seg.forward([&] { return x * g_scale; }); // expect-note: callable is checkpointed
}

float default_copy_capture(rematch::Segment &seg, float x) {
  return seg.forward([=]() { return x * g_bias; }); // expect-note: callable is checkpointed
}

float with_params(float x) {
  return rematch::torch::checkpoint([](float v) { return v - g_bias; }, x); // expect-note: callable is checkpointed
}

// Not offered: the lambda also writes the global it reads.
int also_writes(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed
    int old = g_level;
    g_level = old + 1;
    return old;
  });
}

// Not offered: inside a macro.
float in_macro(rematch::Segment &seg, float x) {
  return seg.forward([x] { return SCALED(x); }); // expect-note: callable is checkpointed
}

// Not offered: a qualified name, a static data member, a function-local
// static, a named function.
float qualified(rematch::Segment &seg, float x) {
  return seg.forward([x] { return x * ::g_scale + model::g_dropout; }); // expect-note: callable is checkpointed
}
float static_member(rematch::Segment &seg, float x) {
  return seg.forward([x] { return x * Config::base_lr; }); // expect-note: callable is checkpointed
}
float local_static(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    static float s = 1;
    return x * s;
  });
}
float named_step() { return g_scale; }
float named(rematch::Segment &seg) { return seg.forward(named_step); } // expect-note: callable is checkpointed

// Not a global read at all: the counter update is left alone.
void counter(rematch::Segment &seg) {
  seg.forward([] { ++g_steps; }); // expect-note: callable is checkpointed
}

// A scheduler changes these between steps, outside the checkpointed code:
// that is what makes reading them inside it a hazard.
void schedule(int step) {
  g_scale = 1.0f + step;
  g_bias = 0.5f * step;
  model::g_dropout = 0.1f * step;
}
