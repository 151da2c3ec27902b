// Byte hashing behind every fingerprint.
#include "rematch/fingerprint.h"

namespace rematch::detail {

std::uint64_t hash_bytes(const void *data, std::size_t size) noexcept {
  // FNV-1a over 8-byte words with a final mix: not cryptographic, only has to
  // make accidental equality of different values unlikely.
  const auto *p = static_cast<const unsigned char *>(data);
  std::uint64_t h = 0xcbf29ce484222325ULL ^ size;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < size; ++i)
    h = (h ^ p[i]) * 0x100000001b3ULL;
  return mix(h, 0);
}

} // namespace rematch::detail
