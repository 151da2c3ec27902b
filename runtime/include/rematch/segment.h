// rematch::Segment: one checkpointed segment, run once as the original forward
// and any number of times as its recomputation.
#ifndef REMATCH_SEGMENT_H
#define REMATCH_SEGMENT_H

#include "rematch/config.h"
#include "rematch/detail/recomputed.h"
#include "rematch/detail/segment_core.h"
#include "rematch/detail/value.h"
#include "rematch/fingerprint.h"
#include "rematch/recomputing.h"
#include "rematch/registry.h"
#include "rematch/report.h"

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rematch {

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

  template <class F> decltype(auto) forward(REMATCH_DETAIL_RECOMPUTED F &&fn) {
    if constexpr (!detail::kAudit) {
      // The fast path: no scope object, no leases, no thread_local state.
      // The handler is on the exceptional path only (zero-cost EH).
      if (core_.begin_trivial_forward()) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
        try {
          return std::invoke(fn);
        } catch (...) {
          core_.trivial_forward_failed();
          throw;
        }
#else
        return std::invoke(fn);
#endif
      }
    }
    detail::ForwardScope scope(core_, detail::kAudit);
    return run(scope, fn);
  }

  template <class F>
  decltype(auto) recompute(REMATCH_DETAIL_RECOMPUTED F &&fn) {
    detail::RecomputeScope scope(core_, detail::kAudit);
    return run(scope, fn);
  }

  const Report &report() const noexcept { return core_.report(); }
  const std::string &name() const noexcept { return core_.name(); }

private:
  template <class Scope, class F>
  static decltype(auto) run(Scope &scope, F &fn) {
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
