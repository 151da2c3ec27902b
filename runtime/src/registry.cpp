// The generator registry and the per-generator lease.
#include "rematch/detail/registry.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

namespace rematch {
namespace detail {
namespace {

// The address of a thread_local identifies the thread more cheaply than
// std::this_thread::get_id() and fits in an atomic pointer.
const void *thread_token() noexcept {
  thread_local char token;
  return &token;
}

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<GeneratorSlot>> slots; // registration order
  GeneratorId next_id = 1;
};

Registry &registry() {
  // Never destroyed: generators with static storage may unregister after
  // this translation unit's statics are gone.
  static auto *r = new Registry();
  return *r;
}

class ForeignSlot final : public GeneratorSlot {
public:
  ForeignSlot(std::string name, std::function<GeneratorState()> save,
              std::function<void(const GeneratorState &)> restore)
      : GeneratorSlot(std::move(name)), save_(std::move(save)),
        restore_(std::move(restore)) {}
  void save(GeneratorState &out) override {
    if (alive_)
      out = save_();
  }
  void restore(const GeneratorState &in) override {
    if (alive_)
      restore_(in);
  }
  bool foreign() const noexcept override { return true; }
  void kill() noexcept { alive_ = false; } // lease held by the caller

private:
  std::function<GeneratorState()> save_;
  std::function<void(const GeneratorState &)> restore_;
  bool alive_ = true;
};

std::shared_ptr<GeneratorSlot> find_slot(GeneratorId id) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto &s : r.slots)
    if (s->id() == id)
      return s;
  return nullptr;
}

} // namespace

std::atomic<std::size_t> g_generator_count{0};

void Lease::acquire() noexcept {
  const void *me = thread_token();
  const void *expected = nullptr;
  if (owner_.compare_exchange_strong(expected, me, std::memory_order_acquire,
                                     std::memory_order_relaxed)) {
    depth_ = 1;
    return;
  }
  if (expected == me) {
    ++depth_;
    return;
  }
  // Held by another thread, possibly for a whole forward or recompute: spin
  // briefly, then back off so a long pass does not burn a core.
  for (unsigned spins = 0;; ++spins) {
    expected = nullptr;
    if (owner_.compare_exchange_weak(expected, me, std::memory_order_acquire,
                                     std::memory_order_relaxed)) {
      depth_ = 1;
      return;
    }
    if (spins < 64)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

bool Lease::try_acquire() noexcept {
  const void *me = thread_token();
  const void *expected = nullptr;
  if (owner_.compare_exchange_strong(expected, me, std::memory_order_acquire,
                                     std::memory_order_relaxed)) {
    depth_ = 1;
    return true;
  }
  if (expected == me) {
    ++depth_;
    return true;
  }
  return false;
}

void Lease::release() noexcept {
  if (--depth_ == 0)
    owner_.store(nullptr, std::memory_order_release);
}

bool Lease::held_by_me() const noexcept {
  return owner_.load(std::memory_order_relaxed) == thread_token();
}

GeneratorSlot::~GeneratorSlot() = default;

GeneratorId register_slot(std::shared_ptr<GeneratorSlot> slot) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  slot->id_ = r.next_id++;
  if (slot->name_.empty())
    slot->name_ = "generator#" + std::to_string(slot->id_);
  r.slots.push_back(std::move(slot));
  g_generator_count.store(r.slots.size(), std::memory_order_relaxed);
  return r.next_id - 1;
}

void unregister_slot(GeneratorId id) noexcept {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = std::find_if(r.slots.begin(), r.slots.end(),
                         [id](const auto &s) { return s->id() == id; });
  if (it != r.slots.end())
    r.slots.erase(it);
  g_generator_count.store(r.slots.size(), std::memory_order_relaxed);
}

void snapshot_slots(std::vector<std::shared_ptr<GeneratorSlot>> &out,
                    const std::vector<GeneratorId> *only) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto &s : r.slots)
    if (!only || std::find(only->begin(), only->end(), s->id()) != only->end())
      out.push_back(s);
}

std::string generator_name(GeneratorId id) {
  if (auto s = find_slot(id))
    return s->name();
  return "generator#" + std::to_string(id);
}


} // namespace detail

GeneratorHandle register_generator(
    std::string name, std::function<GeneratorState()> save,
    std::function<void(const GeneratorState &)> restore) {
  auto slot = std::make_shared<detail::ForeignSlot>(
      std::move(name), std::move(save), std::move(restore));
  return GeneratorHandle(detail::register_slot(std::move(slot)));
}

std::vector<std::string> registered_generators() {
  std::vector<std::shared_ptr<detail::GeneratorSlot>> slots;
  detail::snapshot_slots(slots, nullptr);
  std::vector<std::string> names;
  for (auto &s : slots)
    names.push_back(s->name());
  return names;
}

GeneratorHandle::GeneratorHandle(GeneratorHandle &&other) noexcept
    : id_(other.id_) {
  other.id_ = 0;
}

GeneratorHandle &GeneratorHandle::operator=(GeneratorHandle &&other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    other.id_ = 0;
  }
  return *this;
}

GeneratorHandle::~GeneratorHandle() { reset(); }

void GeneratorHandle::reset() noexcept {
  if (!id_)
    return;
  auto slot = detail::find_slot(id_);
  detail::unregister_slot(id_);
  id_ = 0;
  if (!slot)
    return;
  // The callbacks capture the user's generator, which dies after this
  // handle: wait for a segment on another thread that still holds the lease,
  // then make sure nobody calls them again.
  slot->lease().acquire();
  static_cast<detail::ForeignSlot &>(*slot).kill();
  slot->lease().release();
}

} // namespace rematch
