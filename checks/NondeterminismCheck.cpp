//===--- NondeterminismCheck.cpp ----------------------------------------------------------===//

#include "NondeterminismCheck.h"

namespace clang::tidy::rematch {

std::string NondeterminismCheck::describe(const EffectFacts &E) const {
  return "calls " + quoted(E.Subject);
}

std::string NondeterminismCheck::consequence(const EffectFacts &E) const {
  return "the recomputation in backward gets a different value";
}

} // namespace clang::tidy::rematch
