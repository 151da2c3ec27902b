// How a recorded value is stored in a 64-bit event slot: arithmetic values
// verbatim (so a report can print "0 in the forward, 1 in the recompute"),
// everything else as its fingerprint.
#ifndef REMATCH_DETAIL_VALUE_H
#define REMATCH_DETAIL_VALUE_H

#include "rematch/fingerprint.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace rematch::detail {

enum class Repr : std::uint8_t { hash, sint, uint, real, boolean };

struct Encoded {
  std::uint64_t bits;
  Repr repr;
};

template <class T> Encoded encode(const T &v) {
  if constexpr (std::is_same_v<T, bool>) {
    return {v ? 1u : 0u, Repr::boolean};
  } else if constexpr (std::is_enum_v<T>) {
    return encode(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return {static_cast<std::uint64_t>(static_cast<std::int64_t>(v)),
            Repr::sint};
  } else if constexpr (std::is_integral_v<T>) {
    return {static_cast<std::uint64_t>(v), Repr::uint};
  } else if constexpr (std::is_floating_point_v<T>) {
    double d = static_cast<double>(v);
    if (d == 0.0)
      d = 0.0;
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return {bits, Repr::real};
  } else {
    return {fingerprint(v), Repr::hash};
  }
}

} // namespace rematch::detail

#endif
