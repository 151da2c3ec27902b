// The mode-independent half of rematch::Segment and the scopes that end its
// passes on every exit path. Not part of the API.
#ifndef REMATCH_DETAIL_SEGMENT_CORE_H
#define REMATCH_DETAIL_SEGMENT_CORE_H

#include "rematch/config.h"
#include "rematch/detail/registry.h"
#include "rematch/detail/value.h"
#include "rematch/registry.h"
#include "rematch/report.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rematch {

namespace detail {

/// The mode-independent half of a Segment, compiled into the library: saving,
/// leasing and restoring generators, the recorded passes and the comparison.
class SegmentCore {
public:
  SegmentCore(std::string name, std::vector<GeneratorId> only, bool restrict);
  ~SegmentCore();
  SegmentCore(const SegmentCore &) = delete;
  SegmentCore &operator=(const SegmentCore &) = delete;

  void forward_begin(bool audit);
  void forward_end(bool audit, bool completed) noexcept;
  void recompute_begin(bool audit);
  void recompute_end(bool audit, bool completed) noexcept;
  /// Applies the policy to the report of the recompute that just ended.
  void recompute_finish();
  void record_result(Encoded value) noexcept;

  const Report &report() const noexcept;
  const std::string &name() const noexcept;

  /// Plain mode with nothing registered: the forward is the bare call. Costs
  /// one relaxed atomic load, a branch and a byte store. A forward that saves
  /// nothing leaves nothing to restore, so an explicit generator list changes
  /// nothing here; slots left by an earlier full forward are dropped by the
  /// next recompute (phase kTrivialFresh). Returns false when generators are
  /// registered and the full path is needed.
  bool begin_trivial_forward() noexcept {
    if (REMATCH_DETAIL_UNLIKELY(generator_count() != 0))
      return false;
    if (REMATCH_DETAIL_UNLIKELY(phase_ != kTrivialFresh))
      phase_ = kTrivialFresh; // no store in the steady state
    return true;
  }
  /// The trivial forward's fn threw: nothing is left to recompute.
  void trivial_forward_failed() noexcept { phase_ = kNone; }

private:
  // What the last completed forward left. In a trivial phase the forward saved
  // nothing: any slots still held are an earlier forward's and are stale.
  enum Phase : unsigned char {
    kNone,         // no completed forward (never run, or it threw)
    kFull,         // completed; saved generators or recorded a trace
    kTrivialFresh, // completed, saved nothing, no recompute since (the next
                   // recompute resets recomputes_ and drops stale slots)
    kTrivialUsed,  // completed, saved nothing, recomputed since
  };

  struct State;
  std::unique_ptr<State> state_;
  unsigned char phase_ = kNone;
  std::size_t recomputes_ = 0;
};

/// Ends a pass on every exit path; finish() marks the normal one.
class ForwardScope {
public:
  ForwardScope(SegmentCore &core, bool audit) : core_(core), audit_(audit) {
    core_.forward_begin(audit_);
  }
  ~ForwardScope() {
    if (!done_)
      core_.forward_end(audit_, false);
  }
  ForwardScope(const ForwardScope &) = delete;
  ForwardScope &operator=(const ForwardScope &) = delete;
  void result(Encoded value) noexcept { core_.record_result(value); }
  void finish() noexcept {
    done_ = true;
    core_.forward_end(audit_, true);
  }

private:
  SegmentCore &core_;
  bool audit_;
  bool done_ = false;
};

class RecomputeScope {
public:
  RecomputeScope(SegmentCore &core, bool audit) : core_(core), audit_(audit) {
    core_.recompute_begin(audit_);
  }
  ~RecomputeScope() {
    if (!done_)
      core_.recompute_end(audit_, false);
  }
  RecomputeScope(const RecomputeScope &) = delete;
  RecomputeScope &operator=(const RecomputeScope &) = delete;
  void result(Encoded value) noexcept { core_.record_result(value); }
  /// Restores the outside state first, so a throwing policy leaves every
  /// generator as it was at recompute entry.
  void finish() {
    done_ = true;
    core_.recompute_end(audit_, true);
    core_.recompute_finish();
  }

private:
  SegmentCore &core_;
  bool audit_;
  bool done_ = false;
};

} // namespace detail

} // namespace rematch

#endif
