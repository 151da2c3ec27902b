// The curiously recurring template pattern: a base class template calls the
// derived class's implementation through a downcast of `this`, directly or
// through a derived() helper. The call is followed into the derived class
// that instantiates the base, so its effects are the checkpointed
// function's; a derived class whose implementation is clean stays silent,
// though it shares the base.
#include "rematch-mock.h"

int g_calls;
float g_scale = 2.0f;

template <class D> struct Layer {
  float run(float x) { return static_cast<D *>(this)->impl(x); } // expect-note: 'Layer::run' calls 'Counted::impl' here
  D &derived() { return *static_cast<D *>(this); }
  float run2(float x) { return derived().impl(x); } // expect-note: 'Layer::run2' calls 'Scaled::impl' here
};

struct Counted : Layer<Counted> {
  float impl(float x) { ++g_calls; return x; } // expect-note: 'Counted::impl' increments 'g_calls' here
};
struct Scaled : Layer<Scaled> {
  float impl(float x) { return x * g_scale; } // expect-note: 'Scaled::impl' reads mutable global 'g_scale' here
};
struct Clean : Layer<Clean> {
  float impl(float x) { return x * 2.0f; }
};

void train(rematch::Segment &seg, float x) {
  Counted c;
  Scaled s;
  Clean k;
  seg.forward([&] { return c.run(x); }); // expect: rematch-counter-update {{calls 'Layer::run', which increments 'g_calls'}} expect-note: callable is checkpointed
  seg.forward([&] { return s.run2(x); }); // expect: rematch-global-read {{calls 'Layer::run2', which reads mutable global 'g_scale'}} expect-note: callable is checkpointed
  seg.forward([&] { return k.run(x) + k.run2(x); });
}
