//===--- Wrappers.cpp - what clang wraps around an expression ------------===//

#include "Wrappers.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::rematch {

const Expr *skipWrappers(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else
      return E;
  }
  return E;
}

} // namespace clang::tidy::rematch
