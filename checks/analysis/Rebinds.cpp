//===--- Rebinds.cpp - straight-line rebinding of a body's handles --------===//

#include "Rebinds.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::rematch {

Rebinds::Rebinds(const FunctionDecl &FD)
    : SM(FD.getASTContext().getSourceManager()) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!Body)
    return;
  for (const Stmt *S : Body->body())
    scan(S, /*Outermost=*/true);
}

void Rebinds::scan(const Stmt *S, bool Outermost) {
  if (!S || isa<LambdaExpr>(S)) // a lambda's body is a body of its own
    return;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    Jumps = true;
  const Stmt *E = S;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Assign)
    add(BO->getLHS(), BO->getRHS(), *S, Outermost);
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
           OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    add(OC->getArg(0), OC->getArg(1), *S, Outermost);
  for (const Stmt *Child : S->children())
    scan(Child, /*Outermost=*/false);
}

void Rebinds::add(const Expr *Lhs, const Expr *Value, const Stmt &At,
                  bool Outermost) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Lhs->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || V->getType()->isReferenceType())
    return; // assigning through a reference is no rebinding
  Of[V].push_back({Value, SM.getExpansionLoc(At.getBeginLoc()),
                   SM.getExpansionLoc(At.getEndLoc()), Outermost});
}

llvm::SmallVector<const Expr *, 2> Rebinds::after(const VarDecl &V,
                                                  const Expr &Use) const {
  llvm::SmallVector<const Expr *, 2> Values;
  auto It = Of.find(&V);
  if (Jumps || It == Of.end())
    return Values;
  SourceLocation At = SM.getExpansionLoc(Use.getBeginLoc());
  const Assignment *Last = nullptr;
  for (const Assignment &A : It->second)
    if (A.Outermost && SM.isBeforeInTranslationUnit(A.End, At) &&
        (!Last || SM.isBeforeInTranslationUnit(Last->Begin, A.Begin)))
      Last = &A;
  if (!Last)
    return Values;
  for (const Assignment &A : It->second)
    if (&A == Last || SM.isBeforeInTranslationUnit(Last->Begin, A.Begin))
      Values.push_back(A.Value);
  return Values;
}

} // namespace clang::tidy::rematch
