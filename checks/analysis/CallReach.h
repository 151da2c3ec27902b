//===--- CallReach.h - where a call leads among this TU's bodies -*- C++
//-*-===//
//
// What the walk of a translation unit and the summary it exports agree on:
// which calls lead to a body defined here, which to another TU, and which
// functions another TU may need the facts of.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_CALLREACH_H
#define REMATCH_CHECKS_CALLREACH_H

#include "Effect.h"
#include "KnownFunctions.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class SourceManager;
}

namespace clang::tidy::rematch {

// How a call of one function defined here reaches what may have effects.
enum class CallReach {
  Nothing,  // a model, a system header, no callee: already in the facts
  Local,    // a function defined here: only if that one may have effects
  External, // defined in another TU, or virtual: the composition decides
};

// Where a call leads, among the definitions this TU can analyse.
class CallReacher {
public:
  CallReacher(const std::vector<const FunctionDecl *> &Definitions,
              const KnownFunctions &Known, const SourceManager &SM)
      : Analysable(Definitions.begin(), Definitions.end()), Known(Known),
        SM(SM) {}

  // Local: the callee's definition here, in Local.
  CallReach operator()(const CallSite &C, const FunctionDecl *&Local) const;

private:
  llvm::DenseSet<const FunctionDecl *> Analysable;
  const KnownFunctions &Known;
  const SourceManager &SM;
};

// The functions another TU may need the facts of, besides what they call
// here: those of the main file, every virtual method (a virtual call
// anywhere may run it) and explicit instantiations (`template class
// Table<int>;`: other TUs call it without a body).
bool exportSeed(const FunctionDecl &FD, const SourceManager &SM);

} // namespace clang::tidy::rematch

#endif
