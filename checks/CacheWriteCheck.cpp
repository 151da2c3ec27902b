//===--- CacheWriteCheck.cpp ----------------------------------------------------------===//

#include "CacheWriteCheck.h"

namespace clang::tidy::rematch {

std::string CacheWriteCheck::describe(const EffectFacts &E) const {
  return "mutates container " + quoted(E.Subject) + " with " + quoted(E.Detail);
}

std::string CacheWriteCheck::consequence(const EffectFacts &E) const {
  return "the recomputation in backward mutates it again";
}

} // namespace clang::tidy::rematch
