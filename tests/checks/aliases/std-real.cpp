// The standard library's aliases on the host's real libstdc++ headers
// (the other files use the mock): class iterators (std::map's, vector's
// __normal_iterator) and their arithmetic, std::next, std::span (C++20),
// the algorithms' output ranges under libstdc++'s own parameter names, and
// std::shared_ptr copies. Locals stay quiet.
// ARGS: -std=c++20
// REQUIRES: /usr/include/c++/12/span
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

template <class F> void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f) { f(); }

std::map<int, float> g_cache;
std::unordered_map<int, std::vector<float>> g_lists;
std::vector<float> g_buf(32);
std::shared_ptr<std::vector<float>> g_shared;
// Lookup tables (rematch-global-read): libstdc++'s non-const accessors with
// a const twin only read; writing an element makes a table mutable.
static std::vector<float> s_table(4);
static std::vector<float> s_written(4);

// ---- positives ---------------------------------------------------------

void iterators(int k, float x) {
  checkpoint([k, x] { // expect-note: callable is checkpointed by this call to 'checkpoint'
    auto it = g_cache.find(k); // expect-note: 'it' is an alias of 'g_cache' taken here
    it->second += x; // expect: rematch-counter-update {{updates 'g_cache' with '+=' through 'it'}}
    auto b = g_buf.begin() + 2; // expect-note: 'b' is an alias of 'g_buf' taken here
    *b = x; // expect: rematch-state-write {{writes 'g_buf' through 'b'}}
    auto n = std::next(g_buf.begin()); // expect-note: 'n' is an alias of 'g_buf' taken here
    *n = x; // expect: rematch-state-write {{writes 'g_buf' through 'n'}}
    for (auto &[key, list] : g_lists) // expect-note: '[key, list]' is an alias of 'g_lists' taken here
      list.push_back(x); // expect: rematch-cache-write {{mutates container 'g_lists' with 'push_back' through '[key, list]'}}
    std::span<float> s(g_buf); // expect-note: 's' is an alias of 'g_buf' taken here
    s[0] = x; // expect: rematch-state-write {{writes 'g_buf' through 's'}}
  });
}

void algorithms(const std::vector<float> &in, float x) {
  checkpoint([&in, x] { // expect-note: callable is checkpointed
    std::copy(in.begin(), in.end(), g_buf.begin()); // expect: rematch-state-write {{writes 'g_buf' with 'copy'}}
    std::transform(in.begin(), in.end(), g_buf.begin(), [](float v) { return v + 1; }); // expect: rematch-state-write {{writes 'g_buf' with 'transform'}}
    std::fill(g_buf.begin(), g_buf.end(), x); // expect: rematch-state-write {{writes 'g_buf' with 'fill'}}
    std::sort(g_buf.begin(), g_buf.end()); // expect: rematch-state-write {{writes 'g_buf' with 'sort'}}
    std::memset(g_buf.data(), 0, 4); // expect: rematch-state-write {{writes 'g_buf' with 'memset'}}
    std::iota(g_buf.begin(), g_buf.end(), 0.0f); // expect: rematch-state-write {{writes 'g_buf' with 'iota'}}
  });
}

void shared(float x) {
  checkpoint([x] { // expect-note: callable is checkpointed
    auto p = g_shared; // expect-note: 'p' is an alias of 'g_shared' taken here
    p->push_back(x); // expect: rematch-cache-write {{mutates container 'g_shared' with 'push_back' through 'p'}}
  });
}

void tables(int i) {
  checkpoint([i] { // expect-note: callable is checkpointed
    float y = s_table[i] + s_table.at(0) + s_table.front() + s_table.back();
    for (float v : s_table)
      y += v;
    for (const float &v : s_table)
      y += v;
    y += s_written[i]; // expect: rematch-global-read {{reads mutable global 's_written'}}
    return y;
  });
}
void fill_table(int i) { s_written[i] = 1; }

// ---- negatives -------------------------------------------------------------

void locals(float x) {
  checkpoint([x] {
    std::vector<float> v(8);
    std::fill(v.begin(), v.end(), x);
    auto it = v.begin() + 1;
    *it = x;
    std::map<int, float> m;
    m.find(1)->second = x;
    std::span<float> s(v);
    s[0] = x;
    auto p = std::make_shared<std::vector<float>>(4);
    p->push_back(x);
  });
}
