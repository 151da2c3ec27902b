// Aliases a function returns: a reference, pointer or iterator into a
// global, into its object or into a parameter's object. Its summary says
// so; a caller that writes through what it returns writes that object,
// named by the global when there is one, and the read that took the alias
// inside the accessor is part of the change. A caller that only reads
// through it reads the global.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

struct Stats {
  int steps = 0;
  float loss = 0;
};
Stats s_stats;
float g_buf[32];
std::map<int, float> g_cache;

Stats &stats() { return s_stats; } // expect-note: 'stats' reads mutable global 's_stats' here
float *buffer() { return g_buf; } // expect-note: 'buffer' reads mutable global 'g_buf' here
float *slot(int i) { return buffer() + i; }
float &pick(float &a, float &b, bool first) { return first ? a : b; }
std::map<int, float>::iterator entry(int k) { return g_cache.find(k); }

struct Model {
  Stats stats_;
  std::vector<float> weights_;
  Stats &stats() { return stats_; }
  float *weights() { return weights_.data(); }
  static Stats &shared() { return s_stats; }
};

// ---- positives ---------------------------------------------------------

void accessors(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    Stats &st = stats(); // expect-note: 'st' is an alias of 's_stats' taken here
    st.steps++; // expect: rematch-counter-update {{checkpointed lambda increments 's_stats' through 'st'; the recomputation in backward increments it again}}
    stats().loss = x; // expect: rematch-state-write {{writes 's_stats' through 'stats()'}}
    buffer()[1] = x; // expect: rematch-state-write {{writes 'g_buf' through 'buffer()'}}
    float *p = slot(3); // expect-note: 'p' is an alias of 'g_buf' taken here
    *p = x; // expect: rematch-state-write {{writes 'g_buf' through 'p'}}
    entry(1)->second += x; // expect: rematch-counter-update {{updates 'g_cache' with '+=' through 'entry(1)'}}
    Model::shared().steps = 0; // expect: rematch-state-write {{writes 's_stats'}}
  });
}

// Returned from a parameter: the argument's root.
void through_parameters(rematch::Segment &seg, float x) {
  float keep = 0;
  seg.forward([&keep, x] { // expect-note: callable is checkpointed
    float local = 0;
    pick(keep, local, true) = x; // expect: rematch-state-write {{writes 'pick(keep,local,true)'}}
    pick(local, local, false) = x; // both locals: quiet
  });
}

// Returned from the object: the object's root.
void through_this(rematch::Segment &seg, Model &captured, float x) {
  seg.forward([&captured, x] { // expect-note: callable is checkpointed
    captured.stats().steps += 1; // expect: rematch-counter-update {{updates 'captured.stats().steps' with '+='; the}}
    float *w = captured.weights(); // expect-note: 'w' is an alias of 'captured.weights()' taken here
    w[0] = x; // expect: rematch-state-write {{writes 'captured.weights()' through 'w'}}
    Model local;
    local.stats().steps = 2; // a local object: quiet
    local.weights()[0] = x; // its vector: quiet
  });
}

// ---- negatives -------------------------------------------------------------

// Only read through: the accessor's read of the global stays a read.
float reads(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed
    const Stats &st = stats(); // expect: rematch-global-read {{calls 'stats', which reads mutable global 's_stats'}}
    return st.loss + buffer()[0]; // expect: rematch-global-read {{calls 'buffer', which reads mutable global 'g_buf'}}
  });
}

// What a function returns by value is a copy.
Stats snapshot() { return s_stats; } // expect-note: 'snapshot' reads mutable global 's_stats' here
std::vector<float> copy_of() { return {}; }
void copies(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    Stats s = snapshot(); // expect: rematch-global-read {{'s_stats'}}
    s.steps = 3;
    copy_of().push_back(x);
  });
}
