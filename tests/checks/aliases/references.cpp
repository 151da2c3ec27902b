// Writes through references: local references to globals and their
// members, to captures and to parameters; structured bindings; range-for by
// reference; std::get, std::tie and std::ref (models/std.yaml, "Returns").
// A reference to a local, a const reference and a copy stay quiet.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

struct Stats {
  int steps = 0;
  float loss = 0;
  void record(float l) {
    ++steps; // expect-note: 'Stats::record' increments 'steps' here
    loss = l; // expect-note: 'Stats::record' writes 'loss' here
  }
  float mean() const { return loss / steps; }
};
Stats g_stats;
std::vector<float> g_history;
std::map<int, float> g_by_id;
std::pair<int, float> g_last;
int g_a = 0, g_b = 0;

// ---- positives ---------------------------------------------------------

void local_references(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    Stats &st = g_stats; // expect-note: 'st' is an alias of 'g_stats' taken here expect-note: 'same' is an alias of 'g_stats' taken here
    st.steps++; // expect: rematch-counter-update {{checkpointed lambda increments 'g_stats' through 'st'; the recomputation in backward increments it again}}
    float &loss = g_stats.loss; // expect-note: 'loss' is an alias of 'g_stats' taken here
    loss = x; // expect: rematch-state-write {{writes 'g_stats' through 'loss'}}
    auto &h = g_history; // expect-note: 'h' is an alias of 'g_history' taken here
    h.push_back(x); // expect: rematch-cache-write {{mutates container 'g_history' with 'push_back' through 'h'}}
    h[0] = x; // expect: rematch-state-write {{writes 'g_history' through 'h'}}
    auto &same = st;
    same.loss += x; // expect: rematch-counter-update {{updates 'g_stats' with '+=' through 'same'}}
  });
}

// A method called through an alias changes what the alias reaches; the
// read that took the alias is part of that change. A const method reads.
void methods(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    Stats &st = g_stats;
    st.record(x); // expect: rematch-counter-update {{calls 'Stats::record', which increments 'steps'}}, rematch-state-write {{calls 'Stats::record', which writes 'loss'}}
    Stats *p = &g_stats;
    p->record(x); // expect: rematch-counter-update {{calls 'Stats::record'}}, rematch-state-write {{calls 'Stats::record'}}
    const Stats &c = g_stats; // expect: rematch-global-read {{'g_stats'}}
    return c.mean();
  });
}

// Range-for by reference is an alias of the range's elements.
void range_for(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    for (float &v : g_history) // expect-note: 'v' is an alias of 'g_history' taken here
      v *= x; // expect: rematch-counter-update {{updates 'g_history' with '*=' through 'v'}}
    for (auto &[id, value] : g_by_id) // expect-note: '[id, value]' is an alias of 'g_by_id' taken here
      value = x; // expect: rematch-state-write {{writes 'g_by_id' through}}
    auto &hist = g_history; // expect-note: 'v' is an alias of 'g_history' taken here
    for (auto &v : hist)
      v = 0; // expect: rematch-state-write {{writes 'g_history' through 'v'}}
  });
}

// Structured bindings by reference, std::get, std::tie, std::ref.
void bindings(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    auto &[n, l] = g_last; // expect-note: '[n, l]' is an alias of 'g_last' taken here
    l = x; // expect: rematch-state-write {{writes 'g_last' through}}
    std::get<0>(g_last) = 1; // expect: rematch-state-write {{'g_last'}}
    std::tie(g_a, g_b) = std::pair<int, int>{1, 2}; // expect: rematch-state-write {{'g_a'}}
    auto r = std::ref(g_stats); // expect-note: 'r' is an alias of 'g_stats' taken here
    r.get().steps = 3; // expect: rematch-state-write {{writes 'g_stats'}}
  });
}

// Captured by reference, a parameter of the checkpointed callable.
void captures(rematch::Segment &seg, Stats &outer, float x) {
  Stats mine;
  seg.forward([&mine, x] { // expect-note: callable is checkpointed
    Stats &m = mine; // expect-note: 'm' is an alias of 'mine' taken here
    m.loss = x; // expect: rematch-state-write {{writes 'mine' through 'm'}}
  });
  rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [](Stats &s, float v) {
        int &steps = s.steps; // expect-note: 'steps' is an alias of 's' taken here
        steps += 1; // expect: rematch-counter-update {{updates 's' with '+=' through 'steps'}}
      },
      outer, x);
}

// ---- negatives -------------------------------------------------------------

float negatives(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    Stats local;
    Stats &l = local;
    l.steps++; // a local: quiet
    const Stats &c = g_stats; // expect: rematch-global-read {{'g_stats'}}
    float y = c.loss; // a const reference only reads
    Stats copy = g_stats; // expect: rematch-global-read {{'g_stats'}}
    copy.steps = 2; // a copy: quiet
    for (float v : g_history) // expect: rematch-global-read {{'g_history'}}
      v = x; // by value: a copy
    std::vector<float> mine;
    for (float &v : mine)
      v = x; // a local range
    auto [n, s] = g_last; // expect: rematch-global-read {{'g_last'}}
    s = x; // bound by value: a copy
    return y + s;
  });
}
