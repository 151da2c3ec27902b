// 64-bit fingerprints of values, used to compare what two passes computed.
//
// Built in: arithmetic and enum types, strings, pairs, tuples, optionals and
// every range with begin()/end() (the standard containers). A user type gets
// one by declaring `std::uint64_t fingerprint(const T&)` in T's namespace; it
// is found by argument-dependent lookup, also for elements of containers.
#ifndef REMATCH_FINGERPRINT_H
#define REMATCH_FINGERPRINT_H

#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace rematch::detail {
std::uint64_t hash_bytes(const void *data, std::size_t size) noexcept;

constexpr std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept {
  // splitmix64 finaliser over a running combination: order-sensitive, cheap.
  std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
} // namespace rematch::detail

// Outside namespace rematch on purpose: the deleted zero-argument overload hides
// rematch::fingerprint, so the unqualified calls below see only overloads that
// argument-dependent lookup finds in the user's namespaces.
namespace rematch_adl {
void fingerprint() = delete;

template <class T, class = void> struct has_user : std::false_type {};
template <class T>
struct has_user<T, std::void_t<decltype(static_cast<std::uint64_t>(
                       fingerprint(std::declval<const T &>())))>>
    : std::true_type {};

template <class T> std::uint64_t call_user(const T &v) {
  return static_cast<std::uint64_t>(fingerprint(v));
}
} // namespace rematch_adl

namespace rematch::detail {

template <class T, class = void> struct is_range : std::false_type {};
template <class T>
struct is_range<T, std::void_t<decltype(std::begin(std::declval<const T &>())),
                               decltype(std::end(std::declval<const T &>()))>>
    : std::true_type {};

template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T> struct is_tuple : std::false_type {};
template <class... A> struct is_tuple<std::tuple<A...>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class A> struct is_optional<std::optional<A>> : std::true_type {};

template <class T>
inline constexpr bool is_string_like =
    std::is_convertible_v<const T &, std::string_view>;

template <class T> constexpr bool fingerprintable();

template <class Tuple, std::size_t... I>
constexpr bool all_fingerprintable(std::index_sequence<I...>) {
  return (fingerprintable<std::tuple_element_t<I, Tuple>>() && ...);
}

// Whether fingerprint<T> compiles; the segment fingerprints a return value
// only when it does, so any return type is accepted.
template <class T> constexpr bool fingerprintable() {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (rematch_adl::has_user<U>::value)
    return true;
  else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> ||
                     std::is_pointer_v<U> || is_string_like<U>)
    return true;
  else if constexpr (is_pair<U>::value || is_tuple<U>::value)
    return all_fingerprintable<U>(
        std::make_index_sequence<std::tuple_size_v<U>>{});
  else if constexpr (is_optional<U>::value)
    return fingerprintable<typename U::value_type>();
  else if constexpr (is_range<U>::value)
    return fingerprintable<decltype(*std::begin(std::declval<const U &>()))>();
  else
    return false;
}

template <class T> std::uint64_t fp(const T &v);

template <class T> std::uint64_t fp_arithmetic(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v == T(0))
      v = T(0); // +0 and -0 compare equal, so they fingerprint equal
    double d = static_cast<double>(v);
    return hash_bytes(&d, sizeof d);
  } else {
    auto u = static_cast<std::uint64_t>(v);
    return mix(0x51ed270b, u);
  }
}

template <class T> std::uint64_t fp(const T &v) {
  if constexpr (rematch_adl::has_user<T>::value) {
    return rematch_adl::call_user(v);
  } else if constexpr (std::is_enum_v<T>) {
    return fp_arithmetic(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_arithmetic_v<T>) {
    return fp_arithmetic(v);
  } else if constexpr (is_string_like<T>) {
    std::string_view s = v;
    return hash_bytes(s.data(), s.size());
  } else if constexpr (std::is_pointer_v<T>) {
    return mix(0x9a7a, reinterpret_cast<std::uintptr_t>(v));
  } else if constexpr (is_pair<T>::value) {
    return mix(fp(v.first), fp(v.second));
  } else if constexpr (is_tuple<T>::value) {
    std::uint64_t h = 0x7e91e;
    std::apply([&h](const auto &...e) { ((h = mix(h, fp(e))), ...); }, v);
    return h;
  } else if constexpr (is_optional<T>::value) {
    return v ? mix(1, fp(*v)) : mix(0, 0);
  } else if constexpr (is_range<T>::value) {
    std::uint64_t h = 0x5eed, n = 0;
    for (const auto &e : v) {
      h = mix(h, fp(e));
      ++n;
    }
    return mix(h, n);
  } else {
    static_assert(fingerprintable<T>(),
                  "rematch::fingerprint: no fingerprint for this type; declare "
                  "std::uint64_t fingerprint(const T&) in T's namespace");
    return 0;
  }
}
} // namespace rematch::detail

namespace rematch {
template <class T> std::uint64_t fingerprint(const T &value) {
  return detail::fp(value);
}
} // namespace rematch

#endif
