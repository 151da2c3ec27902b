// Writes through iterators and views of containers: what find(), begin(),
// data(), front(), std::next return, range-for over a map, std::span and
// std::reference_wrapper (models/std.yaml, "Returns"). An iterator into a
// local container, a string_view and a const view stay quiet.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

std::map<int, float> g_cache;
std::unordered_map<int, std::vector<float>> g_lists;
std::vector<float> g_buf;
std::vector<int> g_ids;

// ---- positives ---------------------------------------------------------

void find_and_update(rematch::Segment &seg, int key, float x) {
  seg.forward([key, x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    auto it = g_cache.find(key); // expect-note: 'it' is an alias of 'g_cache' taken here
    it->second += x; // expect: rematch-counter-update {{checkpointed lambda updates 'g_cache' with '+=' through 'it'; the recomputation in backward updates it again}}
    auto lst = g_lists.find(key); // expect-note: 'lst' is an alias of 'g_lists' taken here
    lst->second.push_back(x); // expect: rematch-cache-write {{mutates container 'g_lists' with 'push_back' through 'lst'}}
    (*it).second = 0; // expect: rematch-state-write {{writes 'g_cache' through 'it'}}
  });
}

void begin_data_front(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    auto b = g_buf.begin(); // expect-note: 'b' is an alias of 'g_buf' taken here
    *b = x; // expect: rematch-state-write {{writes 'g_buf' through 'b'}}
    auto n = std::next(g_buf.begin(), 2); // expect-note: 'n' is an alias of 'g_buf' taken here
    *n = x; // expect: rematch-state-write {{writes 'g_buf' through 'n'}}
    float *raw = g_buf.data(); // expect-note: 'raw' is an alias of 'g_buf' taken here
    raw[1] = x; // expect: rematch-state-write {{writes 'g_buf' through 'raw'}}
    float &first = g_buf.front(); // expect-note: 'first' is an alias of 'g_buf' taken here
    first = x; // expect: rematch-state-write {{writes 'g_buf' through 'first'}}
    g_buf.data()[2] = x; // expect: rematch-state-write {{writes 'g_buf' through 'g_buf.data()'}}
    *std::begin(g_ids) = 3; // expect: rematch-state-write {{writes 'g_ids' through 'std::begin(g_ids)'}}
  });
}

void spans_and_refs(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    std::span<float> s(g_buf); // expect-note: 's' is an alias of 'g_buf' taken here expect-note: 'v' is an alias of 'g_buf' taken here
    s[0] = x; // expect: rematch-state-write {{writes 'g_buf' through 's'}}
    std::span<float> t(g_buf.data(), 4); // expect-note: 't' is an alias of 'g_buf' taken here
    t[1] = x; // expect: rematch-state-write {{writes 'g_buf' through 't'}}
    for (float &v : s)
      v = 0; // expect: rematch-state-write {{writes 'g_buf' through 'v'}}
  });
}

// ---- negatives -------------------------------------------------------------

float negatives(rematch::Segment &seg, int key, float x) {
  return seg.forward([key, x] { // expect-note: callable is checkpointed
    std::map<int, float> local;
    auto it = local.find(key);
    it->second = x; // a local map
    std::vector<float> mine(4);
    float *p = mine.data();
    p[0] = x; // a local vector
    std::span<float> s(mine);
    s[1] = x; // a view of a local
    std::string_view name("layer");
    char c = name[0]; // a string_view only reads
    auto found = g_cache.find(key); // expect: rematch-global-read {{'g_cache'}}
    return found->second + c; // read through, never written
  });
}
