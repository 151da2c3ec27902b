// Compile-time switches of the rematch runtime.
//
// REMATCH_AUDIT (0 or 1) chooses, per translation unit, whether the header
// templates record traces. The library itself is the same for both: it always
// contains the recorder, and only audit-mode call sites use it.
#ifndef REMATCH_CONFIG_H
#define REMATCH_CONFIG_H

#ifndef REMATCH_AUDIT
#define REMATCH_AUDIT 0
#endif

// Every header entity whose inline code differs between audit and plain mode
// (Segment, Generator, Tracked) lives in this inline namespace. Audit and plain
// translation units therefore instantiate different symbols instead of two
// different definitions of one symbol (an ODR violation the linker would
// silently resolve by picking one). Mixing the modes across a shared object
// becomes a link error instead of a wrong trace.
#if REMATCH_AUDIT
#define REMATCH_MODE_NS audit_on
#else
#define REMATCH_MODE_NS audit_off
#endif

// Branch hint for the inline fast paths (internal).
#if defined(__GNUC__) || defined(__clang__)
#define REMATCH_DETAIL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define REMATCH_DETAIL_UNLIKELY(x) (x)
#endif

namespace rematch::detail {
inline constexpr bool kAudit = REMATCH_AUDIT != 0;
} // namespace rematch::detail

#endif
