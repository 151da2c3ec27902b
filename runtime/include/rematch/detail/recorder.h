// The audit recorder's entry points, called from audit-mode header code only.
// They are always compiled into the library (so audit and plain translation
// units link against the same library) and do nothing unless a pass is being
// recorded on the calling thread.
#ifndef REMATCH_DETAIL_RECORDER_H
#define REMATCH_DETAIL_RECORDER_H

#include "rematch/detail/value.h"

#include <cstdint>
#include <string_view>

namespace rematch::detail {

enum class EventKind : std::uint8_t {
  read,    // Tracked read: key = object id
  write,   // Tracked write: key = object id, value = the new value
  observe, // REMATCH_OBSERVE: key = hash(name)
  effect,  // REMATCH_EFFECT or captured output: key = hash(kind)
  draw,    // Generator draw: key = generator id, value = drawn value
  result,  // the pass's return value: value = fingerprint
};

/// True while a pass records on this thread.
bool recording() noexcept;
void record_value(EventKind kind, std::uint64_t key, Encoded value,
                  const char *file, unsigned line) noexcept;
void record_draw(std::uint64_t generator, std::uint64_t value) noexcept;
void record_effect(const char *file, unsigned line, std::string_view kind,
                   std::string_view detail) noexcept;
void record_observe(const char *file, unsigned line, std::string_view name,
                    Encoded value) noexcept;
/// A fresh id for a Tracked object (ids, unlike addresses, are not reused).
std::uint64_t new_object_id() noexcept;
/// Gives a Tracked object a name for reports.
void name_object(std::uint64_t id, const char *name);

template <class T>
void observe(const char *file, unsigned line, std::string_view name,
             const T &value) {
  if (recording()) // the fingerprint is only worth computing when recorded
    record_observe(file, line, name, encode(value));
}

} // namespace rematch::detail

#endif
