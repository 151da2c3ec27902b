// rematch::Tracked<T>: state that outlives a pass (a global, a counter, a
// module buffer). In audit mode its reads and writes inside a segment are
// recorded with their values; in plain mode it is the bare value.
#ifndef REMATCH_TRACKED_H
#define REMATCH_TRACKED_H

#include "rematch/config.h"
#include "rematch/detail/recorder.h"
#include "rematch/detail/value.h"

#include <cstdint>
#include <utility>

namespace rematch {
inline namespace REMATCH_MODE_NS {

/// Accesses through get()/set() record the caller's file and line; implicit
/// conversions and operators cannot take a location and record none.
/// Updates (++, +=, assignment) are recorded as writes of the new value, not
/// as reads, so a recomputing() guard around an update hides it completely.
template <class T> class Tracked {
public:
  Tracked() : Tracked(T{}) {}
  explicit Tracked(T init, const char *name = nullptr)
      : value_(std::move(init)) {
    if constexpr (detail::kAudit) {
      id_ = detail::new_object_id();
      if (name)
        detail::name_object(id_, name);
    }
  }
  Tracked(const Tracked &) = delete;
  Tracked &operator=(const Tracked &) = delete;

  const T &get(const char *file = __builtin_FILE(),
               unsigned line = __builtin_LINE()) const {
    if constexpr (detail::kAudit)
      note(detail::EventKind::read, file, line);
    return value_;
  }
  void set(T v, const char *file = __builtin_FILE(),
           unsigned line = __builtin_LINE()) {
    value_ = std::move(v);
    if constexpr (detail::kAudit)
      note(detail::EventKind::write, file, line);
  }

  operator T() const { return get(nullptr, 0); }
  Tracked &operator=(T v) {
    set(std::move(v), nullptr, 0);
    return *this;
  }

  Tracked &operator++() { return update([](T &x) { ++x; }); }
  Tracked &operator--() { return update([](T &x) { --x; }); }
  T operator++(int) {
    T old = value_;
    update([](T &x) { ++x; });
    return old;
  }
  T operator--(int) {
    T old = value_;
    update([](T &x) { --x; });
    return old;
  }
  template <class U> Tracked &operator+=(const U &u) {
    return update([&](T &x) { x += u; });
  }
  template <class U> Tracked &operator-=(const U &u) {
    return update([&](T &x) { x -= u; });
  }
  template <class U> Tracked &operator*=(const U &u) {
    return update([&](T &x) { x *= u; });
  }
  template <class U> Tracked &operator/=(const U &u) {
    return update([&](T &x) { x /= u; });
  }
  template <class U> Tracked &operator%=(const U &u) {
    return update([&](T &x) { x %= u; });
  }
  template <class U> Tracked &operator&=(const U &u) {
    return update([&](T &x) { x &= u; });
  }
  template <class U> Tracked &operator|=(const U &u) {
    return update([&](T &x) { x |= u; });
  }
  template <class U> Tracked &operator^=(const U &u) {
    return update([&](T &x) { x ^= u; });
  }
  template <class U> Tracked &operator<<=(const U &u) {
    return update([&](T &x) { x <<= u; });
  }
  template <class U> Tracked &operator>>=(const U &u) {
    return update([&](T &x) { x >>= u; });
  }

  /// Unrecorded access, for code outside any pass that must not show up.
  T &untracked() noexcept { return value_; }

private:
  template <class Op> Tracked &update(Op op) {
    op(value_);
    if constexpr (detail::kAudit)
      note(detail::EventKind::write, nullptr, 0);
    return *this;
  }
  void note(detail::EventKind kind, const char *file, unsigned line) const {
    if (detail::recording())
      detail::record_value(kind, id_, detail::encode(value_), file, line);
  }

  T value_;
  std::uint64_t id_ = 0;
};

} // namespace REMATCH_MODE_NS
} // namespace rematch

#endif
