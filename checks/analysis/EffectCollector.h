//===--- EffectCollector.h - the direct effects of one body ----*- C++ -*-===//
//
// Walks one function body once and records what it does by itself (writes,
// reads of mutable globals, logging, I/O, RNG, clocks) and which functions it
// calls with which roots, leaving composition over the call graph to
// EffectAnalysis. Effects under a rematch::recomputing() guard and in
// discarded `if constexpr` branches are not recorded.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_EFFECTCOLLECTOR_H
#define REMATCH_CHECKS_EFFECTCOLLECTOR_H

#include "Effect.h"
#include "KnownFunctions.h"

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

struct DirectFacts {
  std::vector<Effect> Effects;
  std::vector<CallSite> Calls;
};

// The effects' facts go into Pool, which must outlive the effects.
DirectFacts collectDirectFacts(const FunctionDecl &FD, ASTContext &Ctx,
                               const KnownFunctions &Known, FactsPool &Pool);

// True for `rematch::recomputing()`, possibly parenthesised or converted.
bool isRecomputingCall(const Expr *E);

} // namespace clang::tidy::rematch

#endif
