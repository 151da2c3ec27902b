// Algorithms that write the range they are given (models/std.yaml): the
// output iterator of std::copy and std::transform (the parameter libstdc++
// and libc++ call __result), the range of std::fill, std::iota, std::sort,
// std::reverse, std::swap's arguments, and the destination pointer of
// memset, memcpy and memmove. On a local range they stay quiet; reading a
// range is a read.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

std::vector<float> g_out;
std::vector<int> g_order;
float g_raw[16];
float g_a = 0, g_b = 0;

// ---- positives ---------------------------------------------------------

void ranges(rematch::Segment &seg, const std::vector<float> &in, float x) {
  seg.forward([&in, x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    std::fill(g_out.begin(), g_out.end(), x); // expect: rematch-state-write {{checkpointed lambda writes 'g_out' with 'fill'; the recomputation in backward writes it again}}
    std::copy(in.begin(), in.end(), g_out.begin()); // expect: rematch-state-write {{writes 'g_out' with 'copy'}}
    std::transform(in.begin(), in.end(), g_out.begin(), [](float v) { return 2 * v; }); // expect: rematch-state-write {{writes 'g_out' with 'transform'}}
    std::iota(g_order.begin(), g_order.end(), 0); // expect: rematch-state-write {{writes 'g_order' with 'iota'}}
    std::sort(g_order.begin(), g_order.end()); // expect: rematch-state-write {{writes 'g_order' with 'sort'}}
    std::reverse(g_raw, g_raw + 16); // expect: rematch-state-write {{writes 'g_raw' with 'reverse'}}
    std::swap(g_a, g_b); // expect: rematch-state-write {{writes 'g_a' with 'swap'}}
  });
}

void c_memory(rematch::Segment &seg, const float *src) {
  seg.forward([src] { // expect-note: callable is checkpointed
    std::memset(g_raw, 0, sizeof g_raw); // expect: rematch-state-write {{writes 'g_raw' with 'memset'}}
    std::memcpy(g_raw, src, 4 * sizeof(float)); // expect: rematch-state-write {{writes 'g_raw' with 'memcpy'}}
    float *dst = g_raw + 8; // expect-note: 'dst' is an alias of 'g_raw' taken here
    std::memmove(dst, src, sizeof(float)); // expect: rematch-state-write {{writes 'g_raw' with 'memmove' through 'dst'}}
  });
}

// Through an alias taken earlier.
void through_alias(rematch::Segment &seg, float x) {
  seg.forward([x] { // expect-note: callable is checkpointed
    auto &out = g_out; // expect-note: 'out' is an alias of 'g_out' taken here
    std::fill(out.begin(), out.end(), x); // expect: rematch-state-write {{writes 'g_out' with 'fill' through 'out'}}
  });
}

// ---- negatives -------------------------------------------------------------

float negatives(rematch::Segment &seg, const std::vector<float> &in) {
  return seg.forward([&in] { // expect-note: callable is checkpointed
    std::vector<float> tmp(4);
    std::fill(tmp.begin(), tmp.end(), 1.0f); // a local range
    std::copy(in.begin(), in.end(), tmp.begin()); // reads an input, writes a local
    float buf[4];
    std::memset(buf, 0, sizeof buf);
    float total = std::accumulate(g_out.begin(), g_out.end(), 0.0f); // expect: rematch-global-read {{'g_out'}}, rematch-global-read {{'g_out'}}
    return total + tmp[0];
  });
}
