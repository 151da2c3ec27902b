// A plain-mode translation unit linked into the audit test binary: both modes
// of the header templates coexist in one program without an ODR clash.
#undef REMATCH_AUDIT
#define REMATCH_AUDIT 0
#include "rematch/rematch.h"

#include <random>

namespace mixed {

// Runs a drifting segment in plain mode; returns whether the RNG replayed and
// whether the report stayed clean (plain mode records nothing).
bool plain_segment(bool &clean) {
  rematch::Tracked<int> global(1);
  rematch::Generator<std::mt19937> g(8u);
  rematch::Segment seg("plain");
  auto body = [&] { return g() + static_cast<unsigned>(global.get()); };
  const auto a = seg.forward(body);
  global.set(2);
  const auto b = seg.recompute(body);
  clean = seg.report().clean();
  return a + 1 == b; // same draw, global moved by one
}

} // namespace mixed
