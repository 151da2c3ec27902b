// Standard wrappers that refer to another object (models/std.yaml): a
// callable made by std::bind or std::bind_front calls what it binds, with a
// std::ref argument standing for the object it refers to, a placeholder for
// the call's argument and a bound copy for the binder's own; an output
// stream iterator over std::cout logs; an atomic_ref's load reads the
// object it was made from (Members:). Each positive beside a look-alike on
// the callable's own copy or a local, which is silent.
// ARGS: -std=c++20
// REQUIRES: /usr/include/c++/12/functional
#include <algorithm>
#include <atomic>
#include <functional>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

template <class F> void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f) { f(); }

float g_acc;
int g_steps;
std::vector<float> g_v(8);
void add(float &acc, float x) { acc += x; } // expect-note: 'add' updates 'acc' with '+=' here
struct Meter {
  float total = 0;
  void record(float x) { total += x; } // expect-note: 'Meter::record' updates 'total' with '+=' here
};
Meter g_meter;

void bound_references() {
  checkpoint([] { // expect-note: callable is checkpointed
    auto f = std::bind(add, std::ref(g_acc), std::placeholders::_1);
    f(1.0f); // expect: rematch-counter-update {{calls 'add', which updates 'acc' with '+='}}
  });
  checkpoint([] { // expect-note: callable is checkpointed
    auto f = std::bind(add, std::placeholders::_1, 2.0f);
    f(g_acc); // expect: rematch-counter-update {{calls 'add', which updates 'acc'}}
  });
  checkpoint([] { // expect-note: callable is checkpointed
    auto f = std::bind_front(add, std::ref(g_acc));
    f(2.0f); // expect: rematch-counter-update {{calls 'add', which updates 'acc'}}
  });
  checkpoint([] { // expect-note: callable is checkpointed
    auto f = std::bind(&Meter::record, &g_meter, std::placeholders::_1);
    f(2.0f); // expect: rematch-counter-update {{calls 'Meter::record', which updates 'total'}}
  });
}

void bound_copies() {
  // The binder's copy of a local, a placeholder bound to a local, a copy of
  // a Meter: the callable's own.
  checkpoint([] {
    float a = 0;
    auto f = std::bind(add, a, std::placeholders::_1);
    f(1.0f);
    return a;
  });
  checkpoint([] {
    auto f = std::bind(add, std::placeholders::_1, std::placeholders::_2);
    float a = 0;
    f(a, 1.0f);
    return a;
  });
  checkpoint([] {
    Meter m;
    auto f = std::bind(&Meter::record, m, std::placeholders::_1);
    f(2.0f);
    return m.total;
  });
  checkpoint([] {
    Meter m;
    auto f = std::bind(&Meter::record, &m, std::placeholders::_1);
    f(2.0f);
    return m.total;
  });
}

// A binder kept in a variable of the function that checkpoints (captured)
// is followed as one made in the callable; what it binds by value is the
// binder's own, which outlives the call when the binder is captured by
// reference: each run adds to it again.
void binders_captured() {
  auto bump = std::bind(add, std::ref(g_acc), std::placeholders::_1);
  checkpoint([&] { // expect-note: callable is checkpointed
    bump(1.0f); // expect: rematch-counter-update {{calls 'add', which updates 'acc'}}
  });
  auto keep = std::bind(add, 0.0f, std::placeholders::_1);
  checkpoint([&] { // expect-note: callable is checkpointed
    keep(1.0f); // expect: rematch-counter-update {{calls 'add', which updates 'acc'}}
  });
  auto into = std::bind(add, std::placeholders::_1, 1.0f);
  checkpoint([&] {
    float a = 0;
    into(a);
    return a;
  });
  // A mutable lambda's copy of the binder keeps what each run added.
  checkpoint([keep]() mutable { keep(1.0f); }); // expect: rematch-counter-update {{calls 'add', which updates 'acc'}} expect-note: callable is checkpointed
}

void stream_iterators() {
  std::vector<float> v(4);
  checkpoint([&] { std::copy(v.begin(), v.end(), std::ostream_iterator<float>(std::cout, " ")); }); // expect: rematch-logging {{logs through 'std::cout'}} expect-note: callable is checkpointed
  checkpoint([] { // expect-note: callable is checkpointed
    std::ostream_iterator<float> it(std::cerr);
    *it = 1.0f; // expect: rematch-logging {{logs through 'std::cerr'}}
  });
  // Into a local string stream: the callable's own.
  checkpoint([&] {
    std::ostringstream os;
    std::copy(v.begin(), v.end(), std::ostream_iterator<float>(os, " "));
    return os.str();
  });
}

void atomic_references() {
  checkpoint([] { std::atomic_ref<int> r(g_steps); return r.load(); }); // expect: rematch-global-read {{reads mutable global 'g_steps'}} expect-note: callable is checkpointed
  checkpoint([] { std::atomic_ref<int> r(g_steps); r.fetch_add(1); }); // expect: rematch-counter-update {{'g_steps'}} expect-note: callable is checkpointed expect-note: 'r' is an alias of 'g_steps' taken here
  checkpoint([] {
    int n = 0;
    std::atomic_ref<int> r(n);
    r.fetch_add(1);
    return r.load();
  });
}
