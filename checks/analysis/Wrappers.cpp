//===--- Wrappers.cpp - what clang wraps around an expression ------------===//

#include "Wrappers.h"
#include "clang/AST/DeclCXX.h"
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

const Expr *skipCopies(const Expr *E) {
  for (E = skipWrappers(E); E; E = skipWrappers(E)) {
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || CE->getNumArgs() != 1 ||
        !CE->getConstructor()->isCopyOrMoveConstructor())
      return E;
    E = CE->getArg(0);
  }
  return E;
}

CallParts partsOf(const CallExpr &CE) {
  CallParts P;
  llvm::ArrayRef<const Expr *> All(CE.getArgs(), CE.getNumArgs());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&CE)) {
    P.Object = MC->getImplicitObjectArgument();
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      P.Arrow = ME->isArrow();
    P.Args = All;
    return P;
  }
  if (isa<CXXOperatorCallExpr>(CE) && !All.empty() &&
      isa_and_nonnull<CXXMethodDecl>(CE.getCalleeDecl()) &&
      !cast<CXXMethodDecl>(CE.getCalleeDecl())->isStatic()) {
    P.Object = All.front();
    P.Args = All.drop_front();
    return P;
  }
  P.Args = All;
  return P;
}

} // namespace clang::tidy::rematch
