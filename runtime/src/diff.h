// Internal: aligning two traces and turning the alignment into findings.
#ifndef REMATCH_SRC_DIFF_H
#define REMATCH_SRC_DIFF_H

#include "trace.h"

#include "rematch/report.h"

#include <cstddef>
#include <vector>

namespace rematch::detail {

struct DiffRun {
  enum Type : unsigned char { equal, del, ins };
  Type type;
  std::size_t a; // first forward index (equal, del)
  std::size_t b; // first recompute index (equal, ins)
  std::size_t len;
};

/// Whether two events are "the same step": effects and writes match by what
/// and where (their values are consequences); everything the computation reads
/// must also match by value.
bool same_event(const Event &x, const Event &y) noexcept;

/// Myers' O((N+M)·D) alignment after stripping the common prefix and suffix.
/// Beyond `max_d` edits the middle is reported as one replaced block.
std::vector<DiffRun> diff_traces(const Trace &a, const Trace &b,
                                 std::size_t max_d = 2000);

/// Adds divergence and repeated-effect findings for `rec` against `fwd`.
void analyse_traces(const Trace &fwd, const Trace &rec, Report &out);

} // namespace rematch::detail

#endif
