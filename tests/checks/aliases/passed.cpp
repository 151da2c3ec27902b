// Aliases passed on: a callee that writes through a pointer, reference,
// iterator or span parameter writes what the caller's argument points
// into, also when the argument is an alias taken earlier or what another
// call returns. The read that took it is then part of the change; a callee
// that only reads through it leaves the read a read.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
#include "rematch-mock.h"

float g_buf[32];
std::vector<float> g_vec;
int g_total = 0;

void fill(float *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = 0; // expect-note: 'fill' writes 'out[i]' here
}
void bump(int &counter) { counter += 1; } // expect-note: 'bump' updates 'counter' with '+=' here
void clear_all(std::span<float> s) { s[0] = 0; } // expect-note: 'clear_all' writes 's[0]' here
void zero_from(std::vector<float>::iterator it) { *it = 0; } // expect-note: 'zero_from' writes '*it' here
float sum(const float *in, int n) { return in[0] + n; }
float *buffer() { return g_buf; }

// ---- positives ---------------------------------------------------------

void passing(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    float *p = g_buf + 4;
    fill(p, 4); // expect: rematch-state-write {{checkpointed lambda calls 'fill', which writes 'out[i]'; the recomputation in backward writes it again}}
    fill(g_buf, 2); // expect: rematch-state-write {{calls 'fill', which writes 'out[i]'}}
    int &t = g_total;
    bump(t); // expect: rematch-counter-update {{calls 'bump', which updates 'counter' with '+='}}
    fill(buffer(), 8); // expect: rematch-state-write {{calls 'fill'}}
    fill(g_vec.data(), 1); // expect: rematch-state-write {{calls 'fill'}}
    clear_all(std::span<float>(g_vec)); // expect: rematch-state-write {{calls 'clear_all'}}
    zero_from(g_vec.begin()); // expect: rematch-state-write {{calls 'zero_from'}}
  });
}

// ---- negatives -------------------------------------------------------------

float negatives(rematch::Segment &seg) {
  return seg.forward([] { // expect-note: callable is checkpointed
    float local[8];
    float *p = local;
    fill(p, 8); // a local array
    std::vector<float> mine(4);
    fill(mine.data(), 4);
    zero_from(mine.begin());
    float *q = g_buf; // expect: rematch-global-read {{'g_buf'}}
    return sum(q, 2); // only read through
  });
}
