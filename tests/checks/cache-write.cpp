// rematch-cache-write: mutating calls on a standard container (or a
// configured ContainerTypes class) that outlives one call of the callable.
// The recomputation in backward inserts, erases or clears again.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: ContainerTypes=util::LruCache
#include "rematch-mock.h"

namespace util {
// A project container, known to the check only through ContainerTypes.
template <class K, class V> class LruCache {
public:
  void insert(const K &, const V &) {}
  void clear() {}
  bool contains(const K &) const { return false; }
};
} // namespace util

std::vector<float> g_cache;
std::deque<int> g_queue;
std::list<int> g_history;
std::forward_list<int> g_free;
std::map<int, float> g_by_id;
std::multimap<int, float> g_multi;
std::unordered_map<int, float> g_memo;
std::unordered_multimap<int, int> g_edges;
std::set<int> g_seen;
std::multiset<int> g_counts;
std::unordered_set<int> g_ids;
std::unordered_multiset<int> g_tags;
std::string g_trace;
util::LruCache<int, float> g_lru;

struct Registry {
  static std::vector<int> shapes;
};
std::vector<int> Registry::shapes;

// ---- positives ---------------------------------------------------------

void positives_each_method(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    g_cache.push_back(x); // expect: rematch-cache-write {{checkpointed lambda mutates container 'g_cache' with 'push_back'; the recomputation in backward mutates it again}}
    g_cache.emplace_back(x); // expect: rematch-cache-write {{with 'emplace_back'}}
    g_cache.resize(4); // expect: rematch-cache-write {{with 'resize'}}
    g_queue.push_back(1); // expect: rematch-cache-write {{'g_queue'}}
    g_history.emplace_back(2); // expect: rematch-cache-write {{mutates container 'g_history' with 'emplace_back'}}
    g_free.clear(); // expect: rematch-cache-write {{with 'clear'}}
    g_by_id.insert({1, x}); // expect: rematch-cache-write {{with 'insert'}}
    g_by_id.insert_or_assign(2, x); // expect: rematch-cache-write {{with 'insert_or_assign'}}
    g_multi.emplace(1, x); // expect: rematch-cache-write {{with 'emplace'}}
    g_memo.try_emplace(3, x); // expect: rematch-cache-write {{with 'try_emplace'}}
    g_edges.erase(1); // expect: rematch-cache-write {{with 'erase'}}
    g_seen.insert(5); // expect: rematch-cache-write {{mutates container 'g_seen' with 'insert'}}
    g_counts.insert(5); // expect: rematch-cache-write {{mutates container 'g_counts' with 'insert'}}
    g_ids.emplace(6); // expect: rematch-cache-write {{mutates container 'g_ids' with 'emplace'}}
    g_tags.clear(); // expect: rematch-cache-write {{mutates container 'g_tags' with 'clear'}}
    g_trace.push_back('x'); // expect: rematch-cache-write {{'g_trace'}}
    Registry::shapes.push_back(3); // expect: rematch-cache-write {{mutates container 'Registry::shapes' with 'push_back'}}
  });
}

// Map-style operator[] inserts; the assignment through it is the same
// effect, so `m[k] = v` is one cache-write and nothing else.
void positives_map_subscript(rematch::Segment &seg, float x) {
  seg.recompute([x] { // expect-note: call to 'rematch::Segment::recompute'
    g_by_id[7] = x; // expect: rematch-cache-write {{with 'operator[]'}}
    g_memo[8] = x; // expect: rematch-cache-write {{mutates container 'g_memo' with 'operator[]'}}
  });
}

// A project container named in ContainerTypes.
void positives_configured_container(float x) {
  nn::checkpoint([x] { g_lru.insert(1, x); }); // expect: rematch-cache-write {{'g_lru'}} expect-note: callable is checkpointed
}

// By-reference captures, members through this, a mutable lambda's copy, a
// non-const functor's member, reference and pointer parameters, and the
// pointee of a captured pointer.
struct Memo {
  std::unordered_map<int, float> table_;
  rematch::Segment seg_;
  float lookup(int k, float v) {
    return seg_.forward([this, k, v] { // expect-note: callable is checkpointed
      table_.try_emplace(k, v); // expect: rematch-cache-write {{'table_'}}
      return v;
    });
  }
};

struct Recorder {
  std::vector<float> seen_;
  void operator()() {
    seen_.clear(); // expect: rematch-cache-write {{checkpointed functor 'Recorder' mutates container 'seen_' with 'clear'}}
  }
};

void record_step() {
  g_history.push_back(1); // expect: rematch-cache-write {{checkpointed function 'record_step'}}
}

void positives_outside_objects(rematch::Segment &seg, Trainer &trainer,
                               std::vector<int> &out) {
  std::vector<int> local_cache;
  seg.forward([&] { local_cache.push_back(1); }); // expect: rematch-cache-write {{'local_cache'}} expect-note: callable is checkpointed
  std::set<int> pending;
  seg.forward([pending]() mutable { pending.insert(1); }); // expect: rematch-cache-write {{'pending'}} expect-note: callable is checkpointed
  seg.forward(Recorder{}); // expect-note: callable is checkpointed
  seg.forward(record_step); // expect-note: callable is checkpointed
  rematch::torch::checkpoint([](std::vector<int> &v) { v.push_back(2); }, out); // expect: rematch-cache-write {{mutates container 'v' with 'push_back'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](std::vector<int> *v) { v->clear(); }, &out); // expect: rematch-cache-write {{mutates container '*v' with 'clear'}} expect-note: callable is checkpointed
  std::vector<int> *shared = &out;
  trainer.run([shared] { shared->resize(8); }); // expect: rematch-cache-write {{mutates container '*shared' with 'resize'}} expect-note: callable is checkpointed
  run_block([&out] { out.emplace_back(3); }); // expect: rematch-cache-write {{mutates container 'out' with 'emplace_back'}} expect-note: callable is checkpointed
  auto body = [] { g_ids.erase(1); }; // expect: rematch-cache-write {{mutates container 'g_ids' with 'erase'}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<void()>([] { g_seen.clear(); })); // expect: rematch-cache-write {{mutates container 'g_seen' with 'clear'}} expect-note: callable is checkpointed
}

void positives_framework_entry_points(const ttml::autograd::TensorPtr &in) {
  std::vector<mlx::core::array> saved;
  mlx::core::checkpoint([&saved](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    saved.push_back(xs[0]); // expect: rematch-cache-write {{mutates container 'saved' with 'push_back'}}
    return xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        g_cache.push_back(t->value); // expect: rematch-cache-write {{mutates container 'g_cache' with 'push_back'}}
        return t;
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

// Containers created inside the callable or taken by value.
void negatives_local_containers(rematch::Segment &seg, float x) {
  seg.forward([x] {
    std::vector<float> buf;
    buf.push_back(x);
    buf.resize(3);
    std::map<int, float> m;
    m[1] = x;
    m.insert({2, x});
    std::unordered_set<int> s;
    s.emplace(3);
    s.clear();
    std::string text;
    text.push_back('a');
    util::LruCache<int, float> lru;
    lru.insert(1, x);
    return buf.size() + m.size();
  });
  rematch::torch::checkpoint([](std::vector<int> v) { v.push_back(1); return v; },
                             std::vector<int>());
}

// Reading a container is a global read, not a cache write; element
// assignment through vector operator[] is a state write.
void negatives_reads_and_element_writes(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    float a = g_cache[0]; // expect: rematch-global-read {{reads mutable global 'g_cache'}}
    float b = g_by_id.at(1); // expect: rematch-global-read {{reads mutable global 'g_by_id'}}
    bool c = g_seen.count(2) > 0; // expect: rematch-global-read {{reads mutable global 'g_seen'}}
    bool d = g_lru.contains(3); // expect: rematch-global-read {{reads mutable global 'g_lru'}}
    g_cache[0] = x; // expect: rematch-state-write {{writes 'g_cache[0]'}}
    return a + b + c + d;
  });
}

// A non-mutable lambda's copy cannot be changed; an init-capture copy is
// made by the caller.
void negatives_copies(rematch::Segment &seg) {
  std::vector<int> ids;
  seg.forward([ids] { return ids.size(); });
  seg.forward([snapshot = g_cache] { return snapshot.size(); });
}

// Guarded, in both forms.
void negatives_guarded(rematch::Segment &seg, float x) {
  seg.forward([x] {
    if (!rematch::recomputing()) {
      g_cache.push_back(x);
      g_by_id[1] = x;
    }
    if (!rematch::recomputing())
      g_seen.insert(1);
  });
  seg.forward([x] {
    if (rematch::recomputing())
      return;
    g_cache.push_back(x);
    g_memo.clear();
  });
}

// Suppressed.
void negatives_nolint(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    g_cache.push_back(x); // NOLINT
    g_cache.push_back(x); // NOLINT(rematch-cache-write)
    // NOLINTNEXTLINE(rematch-cache-write)
    g_memo.clear();
    // NOLINTBEGIN(rematch-cache-write)
    g_seen.insert(1);
    g_by_id[2] = x;
    // NOLINTEND(rematch-cache-write)
    g_ids.clear(); // NOLINT(rematch-state-write) expect: rematch-cache-write {{mutates container 'g_ids' with 'clear'}}
  });
}

// Discarded if constexpr branch.
constexpr bool kMemoize = false;
void negatives_if_constexpr(rematch::Segment &seg, float x) {
  seg.forward([=] {
    if constexpr (kMemoize) {
      g_memo[1] = x;
    }
  });
}

// Not checkpointed.
void negatives_not_checkpointed(float x) {
  apply([x] { g_cache.push_back(x); });
  [x] { g_memo[1] = x; }();
  g_seen.insert(1);
  auto later = [] { g_ids.clear(); };
  later();
}
