// Audit annotations. Both macros record their source location and expand to
// nothing (arguments unevaluated) when REMATCH_AUDIT is 0.
#ifndef REMATCH_AUDIT_H
#define REMATCH_AUDIT_H

#include "rematch/config.h"
#include "rematch/recorder.h"

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
