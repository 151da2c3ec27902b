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
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <optional>

namespace clang::tidy::rematch {

// The composed view of the program the summaries describe. A function
// defined in several TUs (inline, in a header) is taken from the first TU
// that lists it; a call may run the callee and, when virtual, every override
// in the program in the object's static class or a class derived from it.
std::shared_ptr<ExternalSummaries>
composeSummaries(llvm::ArrayRef<const TUSummary *> TUs);

// One effect of a checkpointed callable, composed (composeCallables).
struct CallableEffect {
  SummaryEffect E; // its chain starts in the callable's body
  // Where the alias the chain ends in was taken, as the analysis of the
  // callable's TU notes it (line 0: no note).
  PlainLocation LastAliasAt;
  bool Held = false;    // through a call that runs what a value holds
  bool OtherTU = false; // through a call into another TU, or what one returns
};

// The effects of each of the TU's checkpointed callables (S.Callables), in
// the order its analysis finds them: its own functions composed as that
// analysis composes them, a call into another TU inheriting what Program
// (the whole program, composed) says of the callee; a virtual call runs
// the overrides Program lists. Nullopt when the analysis of the TU could
// find what the summaries cannot say: a lambda's captures, mapped onto the
// closure object it is called on.
struct ComposedCallables {
  std::vector<std::vector<CallableEffect>> Effects; // per callable
  // The dependency keys (Summary.h) the composition looked up in Program:
  // functions' USRs, overrides, the globals it read (as part of a change
  // too). One the TU's analysis looked up and the composition did not is a
  // path the summaries do not show.
  llvm::StringSet<> Asked;
};
std::optional<ComposedCallables>
composeCallables(const TUSummary &S, const ExternalSummaries &Program);

// The summaries stored in Dir, composed, read once per process and never
// written: what the plugin follows calls with (the RematchSummariesDir
// option). Unreadable, malformed or older summaries, and those of files that
// no longer exist, are left out; null when there is none.
std::shared_ptr<const ExternalSummaries> readSummariesDir(llvm::StringRef Dir);

} // namespace clang::tidy::rematch

#endif
