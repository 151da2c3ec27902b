// rematch::Generator: a standard random engine that segments replay.
#ifndef REMATCH_GENERATOR_H
#define REMATCH_GENERATOR_H

#include "rematch/config.h"
#include "rematch/detail/recorder.h"
#include "rematch/detail/registry.h"
#include "rematch/registry.h"

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace rematch {

/// Names a Generator in audit reports:
/// Generator<std::mt19937> g(GeneratorName{"dropout"}, 1).
struct GeneratorName {
  std::string value;
};

namespace detail {
template <class... Args> inline constexpr bool first_is_name = false;
template <class First, class... Rest>
inline constexpr bool first_is_name<First, Rest...> =
    std::is_same_v<std::decay_t<First>, GeneratorName>;

template <class Engine> class EngineSlot final : public GeneratorSlot {
public:
  template <class... Args>
  explicit EngineSlot(std::string name, Args &&...args)
      : GeneratorSlot(std::move(name)), engine(std::forward<Args>(args)...) {}

  void save(GeneratorState &out) override {
    if constexpr (std::is_trivially_copyable_v<Engine>) {
      // A byte copy: the standard engines are trivially copyable in practice
      // and this keeps save + restore of an mt19937 well under a microsecond.
      out.resize(sizeof(Engine));
      std::memcpy(out.data(), &engine, sizeof(Engine));
    } else {
      std::ostringstream os;
      os << engine; // every standard engine serialises completely this way
      const std::string s = os.str();
      out.assign(s.begin(), s.end());
    }
  }
  void restore(const GeneratorState &in) override {
    if constexpr (std::is_trivially_copyable_v<Engine>) {
      if (in.size() == sizeof(Engine))
        std::memcpy(static_cast<void *>(&engine), in.data(), sizeof(Engine));
    } else {
      std::istringstream is(std::string(in.begin(), in.end()));
      is >> engine;
    }
  }

  Engine engine;
};
} // namespace detail

inline namespace REMATCH_MODE_NS {

/// Owns an engine and keeps it registered for replay while it lives. It is a
/// UniformRandomBitGenerator, so standard distributions draw through it, which
/// is what makes the draws synchronised (and recorded in audit mode). Draws
/// through engine() bypass both.
template <class Engine> class Generator {
public:
  using result_type = typename Engine::result_type;
  using engine_type = Engine;

  template <class... Args,
            std::enable_if_t<!detail::first_is_name<Args...>, int> = 0>
  explicit Generator(Args &&...args)
      : Generator(GeneratorName{}, std::forward<Args>(args)...) {}
  template <class... Args>
  explicit Generator(GeneratorName name, Args &&...args)
      : slot_(std::make_shared<detail::EngineSlot<Engine>>(
            std::move(name.value), std::forward<Args>(args)...)),
        id_(detail::register_slot(slot_)) {}

  Generator(const Generator &) = delete;
  Generator &operator=(const Generator &) = delete;
  ~Generator() {
    detail::unregister_slot(id_);
    // A segment on another thread may still hold this slot; it keeps the
    // engine alive through its shared_ptr, so nothing is left to wait for.
  }

  static constexpr result_type min() { return Engine::min(); }
  static constexpr result_type max() { return Engine::max(); }

  result_type operator()() {
    detail::LeaseGuard guard(slot_->lease());
    const result_type v = slot_->engine();
    if constexpr (detail::kAudit)
      detail::record_draw(id_, static_cast<std::uint64_t>(v));
    return v;
  }
  void discard(unsigned long long n) {
    detail::LeaseGuard guard(slot_->lease());
    slot_->engine.discard(n);
  }

  Engine &engine() noexcept { return slot_->engine; }
  const Engine &engine() const noexcept { return slot_->engine; }
  GeneratorId id() const noexcept { return id_; }
  const std::string &name() const noexcept { return slot_->name(); }

private:
  std::shared_ptr<detail::EngineSlot<Engine>> slot_;
  GeneratorId id_;
};

} // namespace REMATCH_MODE_NS
} // namespace rematch

#endif
