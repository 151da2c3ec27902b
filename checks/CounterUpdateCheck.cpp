//===--- CounterUpdateCheck.cpp ----------------------------------------------------------===//

#include "CounterUpdateCheck.h"

namespace clang::tidy::rematch {

std::string CounterUpdateCheck::describe(const EffectFacts &E) const {
  llvm::StringRef Op = E.Detail;
  if (Op == "++")
    return "increments " + quoted(E.Subject);
  if (Op == "--")
    return "decrements " + quoted(E.Subject);
  if (Op == "fetch_add")
    return "increments " + quoted(E.Subject) + " with " + quoted(Op);
  if (Op == "fetch_sub")
    return "decrements " + quoted(E.Subject) + " with " + quoted(Op);
  return "updates " + quoted(E.Subject) + " with " + quoted(Op);
}

std::string CounterUpdateCheck::consequence(const EffectFacts &E) const {
  llvm::StringRef Op = E.Detail;
  if (Op == "++" || Op == "fetch_add")
    return "the recomputation in backward increments it again";
  if (Op == "--" || Op == "fetch_sub")
    return "the recomputation in backward decrements it again";
  return "the recomputation in backward updates it again";
}

} // namespace clang::tidy::rematch
