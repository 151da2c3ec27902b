//===--- StateWriteCheck.cpp ----------------------------------------------------------===//

#include "StateWriteCheck.h"

namespace clang::tidy::rematch {

std::string StateWriteCheck::describe(const EffectFacts &E) const {
  if (E.Detail.empty())
    return "writes " + quoted(E.Subject);
  return "writes " + quoted(E.Subject) + " with " + quoted(E.Detail);
}

std::string StateWriteCheck::consequence(const EffectFacts &E) const {
  return "the recomputation in backward writes it again";
}

} // namespace clang::tidy::rematch
