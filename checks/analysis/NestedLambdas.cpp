//===--- NestedLambdas.cpp - the lambdas written inside a body ------------===//

#include "NestedLambdas.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::rematch {

namespace {

class LambdaBodies : public RecursiveASTVisitor<LambdaBodies> {
public:
  LambdaBodies(const SourceManager &SM, std::vector<SourceRange> &Out)
      : SM(SM), Out(Out) {}
  bool shouldVisitImplicitCode() const { return false; }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (const Stmt *B = L->getBody())
      Out.emplace_back(SM.getExpansionLoc(B->getBeginLoc()),
                       SM.getExpansionLoc(B->getEndLoc()));
    return true;
  }

private:
  const SourceManager &SM;
  std::vector<SourceRange> &Out;
};

} // namespace

std::vector<SourceRange> nestedLambdaBodies(const FunctionDecl &FD,
                                            const SourceManager &SM) {
  std::vector<SourceRange> Out;
  if (Stmt *Body = FD.getBody())
    LambdaBodies(SM, Out).TraverseStmt(Body);
  return Out;
}

bool insideAny(llvm::ArrayRef<SourceRange> Bodies, SourceLocation L,
               const SourceManager &SM) {
  if (L.isInvalid())
    return false;
  SourceLocation At = SM.getExpansionLoc(L);
  return llvm::any_of(Bodies, [&](const SourceRange &R) {
    return SM.isPointWithin(At, R.getBegin(), R.getEnd());
  });
}

} // namespace clang::tidy::rematch
