// Entry points say what they hand the callable. PyTorch's checkpoint passes
// the caller's tensors: an in-place write to an argument changes what the
// recomputation reads, and is reported. A rematerialising runtime that
// clones what the callable mutates before each run (DTR's `mutate`) passes
// fresh copies: writing them is the point, and is silent. An entry point
// says so with ArgumentsFresh (.rematch.yaml, models), `name+fresh` in the
// option, or [[clang::annotate("rematch::arguments-fresh")]] beside
// rematch::recomputed on its parameter (docs/models.md).
// OPTIONS: CheckpointFunctions=cfg::run+fresh,cfg::run_shared
#include <vector>

namespace pt {
template <class F, class... A>
void checkpoint([[clang::annotate("rematch::recomputed")]] F &&f, A &...a) { f(a...); }
} // namespace pt
namespace dtr {
template <class F, class... A>
void mutate([[clang::annotate("rematch::recomputed")]]
            [[clang::annotate("rematch::arguments-fresh")]] F &&f, A &...a) { f(a...); }
} // namespace dtr
namespace cfg {
template <class F, class... A> void run(F &&f, A &...a) { f(a...); }
template <class F, class... A> void run_shared(F &&f, A &...a) { f(a...); }
} // namespace cfg

std::vector<float> g_in(4);
int g_steps = 0;

void entry_points(std::vector<float> &x) {
  pt::checkpoint([](std::vector<float> &v) { v[0] = 1; }, x); // expect: rematch-state-write {{checkpointed lambda writes 'v[0]'}} expect-note: callable is checkpointed
  dtr::mutate([](std::vector<float> &v) { v[0] = 1; }, x);
  cfg::run([](std::vector<float> &v) { v[0] = 1; }, x);
  cfg::run_shared([](std::vector<float> &v) { v[0] = 1; }, x); // expect: rematch-state-write {{checkpointed lambda writes 'v[0]'}} expect-note: callable is checkpointed
  // Fresh arguments are no licence for the rest: a global still counts.
  dtr::mutate([](std::vector<float> &v) { v[0] = float(++g_steps); }, x); // expect: rematch-counter-update {{checkpointed lambda increments 'g_steps'}} expect-note: callable is checkpointed
  cfg::run([](std::vector<float> &v) { g_in[0] = v[0]; }, x); // expect: rematch-state-write {{checkpointed lambda writes 'g_in[0]'}} expect-note: callable is checkpointed
}
