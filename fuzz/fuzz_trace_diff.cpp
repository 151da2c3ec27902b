//===--- fuzz_trace_diff.cpp - libFuzzer target for the trace diff --------===//
//
// Decodes the input into a forward and a recompute trace, aligns them and
// analyses them as the runtime does after a recompute. The alignment must
// cover both traces in order; nothing may crash, read out of bounds or hang.
//
// Input: byte 0 picks max_d (the edit budget, small values force the
// "replaced block" fallback); then 5 bytes per event:
//   b0: bit 7 side (0 forward, 1 recompute), bits 0-2 kind (mod 6),
//       bits 3-5 repr (mod 5), bit 6 unused
//   b1: key            b2: value (>= 0xF8 selects an extreme value)
//   b3: line           b4: bits 0-1 file, bits 2-4 text (observe, effect)
//
//===----------------------------------------------------------------------===//

#include "diff.h"
#include "rematch/report.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace rematch::detail;

namespace {

// Two spellings of one name at different addresses: files compare by content.
const char FileA[] = "train.cpp";
const char FileA2[] = "train.cpp";
const char FileB[] = "dir/model.cpp";
const char *const Files[] = {nullptr, FileA, FileA2, FileB};

const char *const Texts[] = {"", "printf", "std::cout", "loss", "x\n",
                             "a very long effect name that overflows a cell "
                             "of the side-by-side excerpt"};
constexpr std::size_t NumTexts = sizeof(Texts) / sizeof(Texts[0]);

std::uint64_t valueOf(std::uint8_t B) {
  static const std::uint64_t Extremes[] = {
      0,
      std::numeric_limits<std::uint64_t>::max(),
      std::uint64_t(1) << 63,
      0x7ff8000000000000ull, // quiet NaN
      0x7ff0000000000000ull, // +inf
      0xfff0000000000000ull, // -inf
      0x8000000000000000ull, // -0.0
      1,
  };
  return B >= 0xF8 ? Extremes[B - 0xF8] : B;
}

void checkCover(const std::vector<DiffRun> &Runs, const Trace &A,
                const Trace &B) {
  std::size_t FA = 0, FB = 0;
  for (const DiffRun &R : Runs) {
    if (R.type != DiffRun::ins) {
      if (R.a != FA)
        std::abort();
      FA += R.len;
    }
    if (R.type != DiffRun::del) {
      if (R.b != FB)
        std::abort();
      FB += R.len;
    }
    if (R.type == DiffRun::equal)
      for (std::size_t K = 0; K < R.len; ++K)
        if (!same_event(A.events[R.a + K], B.events[R.b + K]))
          std::abort(); // an "equal" run pairs different events
  }
  if (FA != A.events.size() || FB != B.events.size())
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  const std::size_t MaxD = Data[0] == 0xFF ? 2000 : Data[0];
  Trace T[2];
  for (Trace &Tr : T)
    for (const char *S : Texts)
      Tr.texts.emplace_back(S);
  for (std::size_t I = 1; I + 5 <= Size; I += 5) {
    const std::uint8_t *P = Data + I;
    Event E{};
    E.kind = (P[0] & 7) % 6;
    E.repr = ((P[0] >> 3) & 7) % 5;
    E.key = P[1];
    E.value = valueOf(P[2]);
    E.line = P[3];
    E.file = Files[P[4] & 3];
    // As the recorder does: observe and effect events always name what they
    // are (diff.cpp relies on it), the others never do.
    const bool HasText = E.kind == unsigned(EventKind::observe) ||
                         E.kind == unsigned(EventKind::effect);
    E.text = HasText ? 1 + ((P[4] >> 2) & 7) % NumTexts : 0;
    T[P[0] >> 7].events.push_back(E);
  }
  std::vector<DiffRun> Runs = diff_traces(T[0], T[1], MaxD);
  checkCover(Runs, T[0], T[1]);
  rematch::Report R("fuzz", 1);
  analyse_traces(T[0], T[1], R);
  std::string Text = R.to_string();
  (void)Text;
  return 0;
}
