//===--- IoCheck.cpp ----------------------------------------------------------===//

#include "IoCheck.h"

namespace clang::tidy::rematch {

std::string IoCheck::describe(const EffectFacts &E) const {
  if (E.Detail.empty())
    return "performs I/O through " + quoted(E.Subject);
  return "performs I/O through " + quoted(E.Subject) + " with " +
         quoted(E.Detail);
}

std::string IoCheck::consequence(const EffectFacts &E) const {
  return "the recomputation in backward repeats it";
}

} // namespace clang::tidy::rematch
