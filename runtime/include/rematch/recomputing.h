// rematch::recomputing(): whether this thread is inside a recomputation.
#ifndef REMATCH_RECOMPUTING_H
#define REMATCH_RECOMPUTING_H

namespace rematch {

/// True while a Segment::recompute (or rematch::torch's recomputation) runs
/// on this thread, at any depth: code that must not repeat a side effect can
/// ask.
bool recomputing() noexcept;

} // namespace rematch

#endif
