//===--- Compose.h - the whole program's effects from its summaries -*- C++ -*-===//
//
// Each translation unit's summary says what its functions do by themselves
// and whom they call (Summary.h). Composing all of them, without any AST,
// gives what every function does transitively: its own effects and those of
// everything it calls, in any file, mapped to its own roots, each with the
// chain of calls that leads to it. The analysis of a TU then inherits at a
// call into another TU exactly what it would inherit from a local callee.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_COMPOSE_H
#define REMATCH_CHECKS_COMPOSE_H

#include "ExternalSummaries.h"
#include "Summary.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>

namespace clang::tidy::rematch {

// The composed view of the program the summaries describe. A function
// defined in several TUs (inline, in a header) is taken from the first TU
// that lists it; a call may run the callee and, when virtual, every override
// in the program in the object's static class or a class derived from it.
std::shared_ptr<ExternalSummaries>
composeSummaries(llvm::ArrayRef<const TUSummary *> TUs);

// The summaries stored in Dir, composed, read once per process and never
// written: what the plugin follows calls with (the RematchSummariesDir
// option). Unreadable, malformed or older summaries, and those of files that
// no longer exist, are left out; null when there is none.
std::shared_ptr<const ExternalSummaries> readSummariesDir(llvm::StringRef Dir);

} // namespace clang::tidy::rematch

#endif
