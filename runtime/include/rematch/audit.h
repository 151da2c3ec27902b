// Audit annotations. Both macros record their source location and expand to
// nothing (arguments unevaluated) when REMATCH_AUDIT is 0.
#ifndef REMATCH_AUDIT_H
#define REMATCH_AUDIT_H

#include "rematch/config.h"
#include "rematch/detail/recorder.h"

namespace rematch {
/// Opt-in capture of C stdio (printf, puts, fwrite to stdout/stderr) as "log"
/// effects in audited passes, on glibc. Call it once, early in main() and
/// before other threads start: it replaces the global `stdout` and `stderr`
/// with unbuffered recording streams that forward every byte to the original
/// ones (which are flushed after each write). Consequences: fileno(stdout) and
/// fileno(stderr) become -1, so code that asks isatty(fileno(stdout)), dups
/// the descriptor or freopen()s the stream sees the replacement; stdout is no
/// longer block-buffered. FILE pointers copied before the call, and writes to
/// file descriptor 1/2, are not captured. Idempotent; returns false (and does
/// nothing) where unsupported. See docs/runtime.md, "Audit mode".
bool capture_c_stdio() noexcept;
} // namespace rematch

#if REMATCH_AUDIT
/// Marks a side effect of kind `kind` ("log", "cache", "io", ...); `text` is
/// any string-like detail shown in the report.
#define REMATCH_EFFECT(kind, text)                                             \
  ::rematch::detail::record_effect(__FILE__, __LINE__, (kind), (text))
/// Records a value the pass depends on; a different value in the recompute is
/// a divergence.
#define REMATCH_OBSERVE(name, value)                                           \
  ::rematch::detail::observe(__FILE__, __LINE__, (name), (value))
#else
#define REMATCH_EFFECT(kind, text) ((void)0)
#define REMATCH_OBSERVE(name, value) ((void)0)
#endif

#endif
