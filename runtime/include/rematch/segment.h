// rematch::Segment: one checkpointed segment, run once as the original forward
// and any number of times as its recomputation.
#ifndef REMATCH_SEGMENT_H
#define REMATCH_SEGMENT_H

#include "rematch/config.h"
#include "rematch/fingerprint.h"
#include "rematch/registry.h"
#include "rematch/value.h"
#include "rematch/report.h"

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rematch {

/// True while a Segment::recompute runs on this thread (at any depth).
bool recomputing() noexcept;

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

  /// Plain mode with nothing to save: the forward is the bare call plus this
  /// check. Returns false when the full path is needed.
  bool begin_trivial_forward() noexcept {
    if (restricted_ || had_slots_ || generator_count() != 0)
      return false;
    forwarded_ = false;
    recomputes_ = 0;
    return true;
  }
  void end_trivial_forward() noexcept { forwarded_ = true; }

private:
  struct State;
  std::unique_ptr<State> state_;
  bool restricted_;
  bool had_slots_ = false; // the last forward saved generators
  bool forwarded_ = false;
  std::size_t recomputes_ = 0;
};

class TrivialForwardScope {
public:
  explicit TrivialForwardScope(SegmentCore &core) : core_(core) {}
  TrivialForwardScope(const TrivialForwardScope &) = delete;
  TrivialForwardScope &operator=(const TrivialForwardScope &) = delete;
  void result(Encoded) noexcept {}
  void finish() noexcept { core_.end_trivial_forward(); }

private:
  SegmentCore &core_;
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

inline namespace REMATCH_MODE_NS {

class Segment {
public:
  /// Replays every generator registered when forward() starts.
  explicit Segment(std::string name = {})
      : core_(std::move(name), {}, false) {}
  /// Replays only the listed generators (by Generator::id() or
  /// GeneratorHandle::id()); segments with disjoint lists on different threads
  /// never wait for each other.
  Segment(std::string name, std::vector<GeneratorId> generators)
      : core_(std::move(name), std::move(generators), true) {}
  Segment(const Segment &) = delete;
  Segment &operator=(const Segment &) = delete;

  template <class F> decltype(auto) forward(F &&fn) {
    if constexpr (!detail::kAudit) {
      if (core_.begin_trivial_forward()) {
        detail::TrivialForwardScope scope(core_);
        return run(scope, fn);
      }
    }
    detail::ForwardScope scope(core_, detail::kAudit);
    return run(scope, fn);
  }

  template <class F> decltype(auto) recompute(F &&fn) {
    detail::RecomputeScope scope(core_, detail::kAudit);
    return run(scope, fn);
  }

  const Report &report() const noexcept { return core_.report(); }
  const std::string &name() const noexcept { return core_.name(); }

private:
  template <class Scope, class F> static decltype(auto) run(Scope &scope, F &fn) {
    using R = std::invoke_result_t<F &>;
    if constexpr (std::is_void_v<R>) {
      std::invoke(fn);
      scope.finish();
    } else {
      decltype(auto) r = std::invoke(fn);
      if constexpr (detail::kAudit && detail::fingerprintable<R>())
        scope.result(detail::encode(r));
      scope.finish();
      return static_cast<decltype(r)>(r);
    }
  }

  detail::SegmentCore core_;
};

} // namespace REMATCH_MODE_NS
} // namespace rematch

#endif
