// The registry's internals: leases, slots and the inline generator count
// that Generator, Segment and the library share. Not part of the API.
#ifndef REMATCH_DETAIL_REGISTRY_H
#define REMATCH_DETAIL_REGISTRY_H

#include "rematch/registry.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rematch {

namespace detail {

/// Exclusive, re-entrant ownership of one generator by one thread.
class Lease {
public:
  void acquire() noexcept;
  bool try_acquire() noexcept;
  void release() noexcept;
  bool held_by_me() const noexcept;

private:
  std::atomic<const void *> owner_{nullptr};
  unsigned depth_ = 0; // touched by the owner only
};

/// Held for one draw; the common case is one CAS and one store.
class LeaseGuard {
public:
  explicit LeaseGuard(Lease &lease) noexcept : lease_(lease) {
    lease_.acquire();
  }
  ~LeaseGuard() { lease_.release(); }
  LeaseGuard(const LeaseGuard &) = delete;
  LeaseGuard &operator=(const LeaseGuard &) = delete;

private:
  Lease &lease_;
};

/// What the registry knows of a generator. Owned jointly by the registry, the
/// generator and every segment that saved it, so a segment never touches a
/// destroyed object.
class GeneratorSlot {
public:
  explicit GeneratorSlot(std::string name) : name_(std::move(name)) {}
  virtual ~GeneratorSlot();
  GeneratorSlot(const GeneratorSlot &) = delete;
  GeneratorSlot &operator=(const GeneratorSlot &) = delete;

  /// Both require the lease. A dead slot (its owner is gone) does nothing.
  virtual void save(GeneratorState &out) = 0;
  virtual void restore(const GeneratorState &in) = 0;
  virtual bool foreign() const noexcept { return false; }

  const std::string &name() const noexcept { return name_; }
  GeneratorId id() const noexcept { return id_; }
  Lease &lease() noexcept { return lease_; }

private:
  friend GeneratorId register_slot(std::shared_ptr<GeneratorSlot>);
  std::string name_;
  GeneratorId id_ = 0;
  Lease lease_;
};

GeneratorId register_slot(std::shared_ptr<GeneratorSlot> slot);
/// Removes the slot from the registry; the caller then takes the lease to wait
/// for users on other threads.
void unregister_slot(GeneratorId id) noexcept;
/// Appends the currently registered slots (all of them, or those in `only`)
/// to `out`, in registration order.
void snapshot_slots(std::vector<std::shared_ptr<GeneratorSlot>> &out,
                    const std::vector<GeneratorId> *only);
std::string generator_name(GeneratorId id);
/// Number of registered generators, readable inline so that a plain-mode
/// forward with an empty registry costs one load (written under the registry
/// mutex).
extern std::atomic<std::size_t> g_generator_count;
inline std::size_t generator_count() noexcept {
  return g_generator_count.load(std::memory_order_relaxed);
}

} // namespace detail
} // namespace rematch

#endif
