//===--- IoCheck.cpp ----------------------------------------------------------===//

#include "IoCheck.h"

namespace clang::tidy::rematch {

std::string IoCheck::describe(const Effect &E) const {
  if (E.Detail.empty())
    return "performs I/O through " + quoted(E.Subject);
  return "performs I/O through " + quoted(E.Subject) + " with " +
         quoted(E.Detail);
}

std::string IoCheck::consequence(const Effect &E) const {
  return "the recomputation in backward repeats it";
}

} // namespace clang::tidy::rematch
