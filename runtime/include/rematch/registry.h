// The process-wide registry of generators that segments replay.
//
// Thread-safety contract (docs/runtime.md, "Threads"): every registered
// generator has a lease. A segment's forward and recompute hold the leases of
// the generators they replay for their whole duration; Generator draws take
// the lease for one draw. A draw from another thread therefore waits until the
// pass is over and then continues the stream exactly where it would have been
// without the recompute. Foreign generators get the same exclusion for the
// registry's save/restore calls, but their own draws are not intercepted.
#ifndef REMATCH_REGISTRY_H
#define REMATCH_REGISTRY_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rematch {

using GeneratorId = std::uint64_t;
/// Opaque generator state.
using GeneratorState = std::vector<unsigned char>;

/// Keeps a foreign generator registered; unregisters it when destroyed and
/// waits, if needed, until no segment on another thread is still using its
/// callbacks.
class GeneratorHandle {
public:
  GeneratorHandle() = default;
  explicit GeneratorHandle(GeneratorId id) noexcept : id_(id) {}
  GeneratorHandle(GeneratorHandle &&other) noexcept;
  GeneratorHandle &operator=(GeneratorHandle &&other) noexcept;
  GeneratorHandle(const GeneratorHandle &) = delete;
  GeneratorHandle &operator=(const GeneratorHandle &) = delete;
  ~GeneratorHandle();

  GeneratorId id() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != 0; }
  void reset() noexcept;

private:
  GeneratorId id_ = 0;
};

/// Registers a generator that rematch cannot see into. `save` returns its
/// complete state; `restore` puts that state back. Both are called only while
/// the generator's lease is held, never concurrently with each other.
[[nodiscard]] GeneratorHandle
register_generator(std::string name, std::function<GeneratorState()> save,
                   std::function<void(const GeneratorState &)> restore);

/// Names of the generators registered now, in registration order.
std::vector<std::string> registered_generators();

} // namespace rematch

#endif
