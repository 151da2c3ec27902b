//===--- UnreplayedRngCheck.cpp ----------------------------------------------------------===//

#include "UnreplayedRngCheck.h"

namespace clang::tidy::rematch {

std::string UnreplayedRngCheck::describe(const Effect &E) const {
  return "draws from " + quoted(E.Subject) + ", which is not replayed";
}

std::string UnreplayedRngCheck::consequence(const Effect &E) const {
  return "the recomputation in backward draws different numbers";
}

} // namespace clang::tidy::rematch
