//===--- Wrappers.cpp - what clang wraps around an expression ------------===//

#include "Wrappers.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::rematch {

namespace {

// The value inside a temporary, a cleanup, a functional cast or a constant
// expression; null for anything else.
const Expr *insideWrapper(const Expr *E) {
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return M->getSubExpr();
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return B->getSubExpr();
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return F->getSubExpr();
  if (const auto *C = dyn_cast<FullExpr>(E)) // cleanups, constant expressions
    return C->getSubExpr();
  return nullptr;
}

// The implicit casts after which a value is still the same object.
bool keepsObject(CastKind K) {
  return K == CK_NoOp || K == CK_LValueToRValue || K == CK_DerivedToBase ||
         K == CK_UncheckedDerivedToBase || K == CK_ConstructorConversion ||
         K == CK_UserDefinedConversion;
}

} // namespace

const Expr *skipWrappers(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const Expr *In = insideWrapper(E);
    if (!In)
      return E;
    E = In;
  }
  return E;
}

const Expr *skipWrappersToObject(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    const Expr *In = nullptr;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
      In = keepsObject(IC->getCastKind()) ? IC->getSubExpr() : nullptr;
    else
      In = insideWrapper(E);
    if (!In)
      return E;
    E = In;
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
