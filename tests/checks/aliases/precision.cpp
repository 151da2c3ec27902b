// What aliases must not turn into findings: an alias of a local stays
// local (a pointer into a local vector, an iterator into a local map, a
// shared_ptr made inside and never stored outside, a reference to a local
// struct's member); what the body cannot see the origin of is not guessed;
// const aliases only read. And one write is one finding: `m[k] = T{...}` on
// an outside map is its cache write (the reference operator[] returns is
// an alias of the map), not also a state write.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

struct Entry {
  float value = 0;
  int hits = 0;
  Entry &operator=(const Entry &) = default;
};
std::map<int, Entry> g_entries;
std::unordered_map<int, std::string> g_names;
std::vector<float *> g_slots;
std::shared_ptr<Entry> g_shared;

// ---- one write, one finding -------------------------------------------------

void one_finding(rematch::Segment &seg, int k, float x) {
  seg.forward([k, x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    g_entries[k] = Entry{x, 1}; // expect: rematch-cache-write {{checkpointed lambda mutates container 'g_entries' with 'operator[]'}}
    g_names[k] = "seen"; // expect: rematch-cache-write {{mutates container 'g_names' with 'operator[]'}}
    g_entries[k].hits += 1; // expect: rematch-cache-write {{'g_entries'}}, rematch-counter-update {{updates 'g_entries[k].hits' with '+='}}
  });
}

// A shared_ptr's copies share the object: one taken from a global writes it.
void shared_from_global(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    std::shared_ptr<Entry> p = g_shared; // expect-note: 'p' is an alias of 'g_shared' taken here
    p->value = x; // expect: rematch-state-write {{writes 'g_shared' through 'p'}}
  });
}

// ---- locals stay local ------------------------------------------------------

float locals(rematch::Segment &seg, int k, float x) {
  return seg.forward([k, x] {
    std::vector<float> scratch(8);
    float *p = scratch.data();
    p[0] = x;
    auto b = scratch.begin();
    *b = x;
    std::map<int, Entry> cache;
    auto it = cache.find(k);
    it->second.value = x;
    cache[k] = Entry{x, 2};
    Entry e;
    float &v = e.value;
    v = x;
    std::shared_ptr<Entry> mine = std::make_shared<Entry>();
    mine->hits = 3;
    for (auto &[key, entry] : cache)
      entry.hits = key;
    return scratch[0] + v;
  });
}

// ---- unknown origins and const aliases --------------------------------------

float *lookup(int k);
float unknown(rematch::Segment &seg, int k, float x) {
  return seg.forward([k, x] { // expect-note: callable is checkpointed
    float *p = lookup(k); // declared only: nothing says where it points
    p[0] = x;
    float *slot = g_slots[k]; // expect: rematch-global-read {{'g_slots'}}
    *slot = x; // where the element points is not tracked
    const Entry &e = g_entries.at(k); // expect: rematch-global-read {{'g_entries'}}
    return e.value;
  });
}
