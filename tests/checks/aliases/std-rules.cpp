// The standard library as data (models/std.yaml): the std::ranges
// algorithms, which are function objects (`std::ranges::sort(v)` calls the
// variable `sort`), on a range or on iterators; the classic algorithms with
// an execution policy and with the other output parameters libstdc++ names
// (__out, __out_true/__out_false, __result_first); std::atomic_ref, a
// handle of the object it was made from; std::for_each, for_each_n and
// std::ranges::for_each, whose callable's reference parameter is each
// element (Visits). Each on a global beside the same call on a local, which
// is silent.
// ARGS: -std=c++20
// REQUIRES: /usr/include/c++/12/ranges
#include <algorithm>
#include <atomic>
#include <execution>
#include <numeric>
#include <random>
#include <ranges>
#include <vector>

template <class F> void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f) { f(); }

std::vector<float> g_v(8);
std::vector<float> g_odd(8);
int g_n = 0;

void ranges_algorithms() {
  checkpoint([] { std::ranges::sort(g_v); }); // expect: rematch-state-write {{checkpointed lambda writes 'g_v' with 'sort'}} expect-note: callable is checkpointed
  checkpoint([] { std::ranges::fill(g_v, 1.0f); }); // expect: rematch-state-write {{writes 'g_v' with 'fill'}} expect-note: callable is checkpointed
  checkpoint([] { std::ranges::sort(g_v.begin(), g_v.end()); }); // expect: rematch-state-write {{writes 'g_v' with 'sort'}} expect-note: callable is checkpointed
  checkpoint([] { std::ranges::reverse(g_v); }); // expect: rematch-state-write {{writes 'g_v' with 'reverse'}} expect-note: callable is checkpointed
  checkpoint([] { std::ranges::copy(std::vector<float>(3), g_v.begin()); }); // expect: rematch-state-write {{writes 'g_v' with 'copy'}} expect-note: callable is checkpointed
  checkpoint([] {
    std::vector<float> v(8);
    std::ranges::sort(v);
    std::ranges::fill(v, 1.0f);
    std::ranges::reverse(v.begin(), v.end());
    return v[0];
  });
}

void classic_algorithms() {
  checkpoint([] { std::sort(std::execution::seq, g_v.begin(), g_v.end()); }); // expect: rematch-state-write {{writes 'g_v' with 'sort'}} expect-note: callable is checkpointed
  checkpoint([] { std::inclusive_scan(g_v.begin(), g_v.end(), g_v.begin()); }); // expect: rematch-state-write {{writes 'g_v' with 'inclusive_scan'}} expect-note: callable is checkpointed
  checkpoint([] { // expect-note: callable is checkpointed
    std::vector<float> in(8);
    // Two outputs, one call: one finding per check and place.
    std::partition_copy(in.begin(), in.end(), g_v.begin(), g_odd.begin(), // expect: rematch-state-write {{with 'partition_copy'}}
                        [](float x) { return x > 0; });
    std::partial_sort_copy(in.begin(), in.end(), g_v.begin(), g_v.end()); // expect: rematch-state-write {{writes 'g_v' with 'partial_sort_copy'}}
    std::mt19937 local_engine(7);
    std::sample(in.begin(), in.end(), g_v.begin(), 2, local_engine); // expect: rematch-state-write {{writes 'g_v' with 'sample'}}
    std::shift_left(g_odd.begin(), g_odd.end(), 1); // expect: rematch-state-write {{writes 'g_odd' with 'shift_left'}}
  });
  checkpoint([] {
    std::vector<float> in(8), a(8), b(8);
    std::sort(std::execution::seq, a.begin(), a.end());
    std::partition_copy(in.begin(), in.end(), a.begin(), b.begin(),
                        [](float x) { return x > 0; });
    std::shift_left(b.begin(), b.end(), 1);
    return a[0] + b[0];
  });
}

void atomic_refs() {
  checkpoint([] { std::atomic_ref<int> r(g_n); r.fetch_add(1); }); // expect: rematch-counter-update {{increments 'g_n' with 'fetch_add' through 'r'}} expect-note: 'r' is an alias of 'g_n' taken here expect-note: callable is checkpointed
  checkpoint([] { std::atomic_ref<int> r(g_n); r.store(2); }); // expect: rematch-state-write {{writes 'g_n' with 'store' through 'r'}} expect-note: 'r' is an alias of 'g_n' taken here expect-note: callable is checkpointed
  checkpoint([] {
    int local = 0;
    std::atomic_ref<int> r(local);
    r.fetch_add(1);
    return local;
  });
}

void scale(std::vector<float> &v) {
  std::for_each(v.begin(), v.end(), [](float &x) { x *= 2; }); // expect-note: 'scale' updates 'v' with '*=' through 'x' here expect-note: 'x' is an alias of 'v' taken here
}

void visitors() {
  checkpoint([] { std::for_each(g_v.begin(), g_v.end(), [](float &x) { x = 0; }); }); // expect: rematch-state-write {{writes 'g_v' through 'x'}}, rematch-global-read {{reads mutable global 'g_v'}} expect-note: callable is checkpointed expect-note: 'x' is an alias of 'g_v' taken here
  checkpoint([] { std::ranges::for_each(g_v, [](float &x) { x = 1; }); }); // expect: rematch-state-write {{writes 'g_v' through 'x'}} expect-note: 'x' is an alias of 'g_v' taken here expect-note: callable is checkpointed
  checkpoint([] { // expect-note: callable is checkpointed
    auto zero = [](float &x) { x = 0; }; // expect: rematch-state-write {{writes 'g_v' through 'x'}}
    std::for_each_n(g_v.begin(), 2, zero); // expect-note: 'x' is an alias of 'g_v' taken here
  });
  checkpoint([] { scale(g_v); }); // expect: rematch-counter-update {{calls 'scale', which updates 'v' with '*=' through 'x'}} expect-note: callable is checkpointed
  // Read through a const reference, or summed into a local: a read.
  checkpoint([] { // expect-note: callable is checkpointed
    float s = 0;
    std::for_each(g_v.begin(), g_v.end(), [&s](const float &x) { s += x; }); // expect: rematch-global-read {{reads mutable global 'g_v'}}, rematch-global-read {{reads mutable global 'g_v'}}
    return s;
  });
  checkpoint([] {
    std::vector<float> v(4);
    std::for_each(v.begin(), v.end(), [](float &x) { x = 0; });
    std::ranges::for_each(v, [](float &x) { x = 1; });
    return v[0];
  });
}
