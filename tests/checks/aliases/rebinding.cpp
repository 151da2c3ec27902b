// Straight-line rebinding (checks/analysis/Rebinds.h): a pointer or handle
// that a statement of the body's outermost block assigns holds only what it
// is given from there on, so the residual block's `x = conv(x); x +=
// residual;` on a by-value handle parameter updates the fresh result, not
// the caller's object. A rebinding in a branch, a write before the
// rebinding, a rebinding to outside state and a body with a goto keep
// every binding: each is reported.
// ARGS: -std=c++17
#include <memory>

template <class F, class... A>
void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f, A &&...a) {
  f(a...);
}

struct Buf { float v[4]; };
std::shared_ptr<Buf> g_state = std::make_shared<Buf>();
std::shared_ptr<Buf> conv(const std::shared_ptr<Buf> &in) {
  auto out = std::make_shared<Buf>();
  out->v[0] = in->v[0];
  return out;
}

// ---- negatives: rebound in straight line before the write ---------------

std::shared_ptr<Buf> residual(std::shared_ptr<Buf> x) {
  auto skip = x;
  x = conv(x);
  x->v[0] += skip->v[0];
  return x;
}
void local_pointer(float *out) {
  checkpoint([out] {
    float tmp[4];
    float *p = out;
    p = tmp;
    p[0] = 1;
  });
}
void negatives(std::shared_ptr<Buf> &s) {
  checkpoint([&s] { residual(s); });
}

// ---- positives -----------------------------------------------------------

void before_rebinding(std::shared_ptr<Buf> x) {
  x->v[0] += 1; // expect-note: 'before_rebinding' updates 'x->v[0]' with '+=' here
  x = conv(x);
  x->v[1] = 2;
}
void rebound_in_branch(std::shared_ptr<Buf> x, bool c) {
  if (c)
    x = conv(x);
  x->v[0] = 1; // expect-note: 'rebound_in_branch' writes 'x->v[0]' here
}
void rebound_to_global(std::shared_ptr<Buf> x) {
  x = conv(x);
  x = g_state;
  x->v[0] = 1; // expect-note: 'rebound_to_global' writes 'x->v[0]' here
}
void positives(float *out, bool c) {
  checkpoint([&] { // expect-note: callable is checkpointed by this call to 'checkpoint'
    before_rebinding(g_state); // expect: rematch-counter-update {{calls 'before_rebinding', which updates 'x->v[0]' with '+='}}
    rebound_in_branch(g_state, c); // expect: rematch-state-write {{calls 'rebound_in_branch', which writes 'x->v[0]'}}
    rebound_to_global(std::make_shared<Buf>()); // expect: rematch-state-write {{calls 'rebound_to_global', which writes 'x->v[0]'}}
  });
  checkpoint([out] { // expect-note: callable is checkpointed by this call to 'checkpoint'
    float tmp[4];
    float *p = tmp;
    p = out;
    p[0] = 1; // expect: rematch-state-write {{writes 'p[0]'}}
  });
  checkpoint([out](bool skip) { // expect-note: callable is checkpointed by this call to 'checkpoint'
    float tmp[4];
    float *p = out; // expect-note: 'p' is an alias of 'out' taken here
    if (skip)
      goto write;
    p = tmp;
  write:
    p[1] = 1; // expect: rematch-state-write {{writes 'out' through 'p'}}
  }, c);
}
