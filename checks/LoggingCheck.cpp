//===--- LoggingCheck.cpp -------------------------------------------------===//

#include "LoggingCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"

namespace clang::tidy::rematch {

std::string LoggingCheck::describe(const Effect &E) const {
  return "logs through " + quoted(E.Subject);
}

std::string LoggingCheck::consequence(const Effect &) const {
  return "the recomputation in backward logs again";
}

// Wraps the whole statement in `if (!rematch::recomputing())` so that it
// runs in the original forward only. Offered when the logging expression is
// a statement of its own in a block, outside macros.
void LoggingCheck::addFixes(DiagnosticBuilder &Diag, const Finding &F,
                            const EffectAnalysis &, ASTContext &Ctx) {
  const Expr *E = F.E->Source;
  if (!E)
    return;
  DynTypedNode Node = DynTypedNode::create(*E);
  const Stmt *Statement = E;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return;
    if (Parents[0].get<CompoundStmt>())
      break;
    const auto *P = Parents[0].get<Expr>();
    if (!P || !(isa<ExprWithCleanups>(P) || isa<ImplicitCastExpr>(P) ||
                isa<CXXBindTemporaryExpr>(P) ||
                isa<MaterializeTemporaryExpr>(P)))
      return;
    Statement = P;
    Node = Parents[0];
  }
  SourceLocation Begin = Statement->getBeginLoc();
  if (Begin.isInvalid() || Begin.isMacroID())
    return;
  Diag << FixItHint::CreateInsertion(Begin, "if (!rematch::recomputing()) ");
}

} // namespace clang::tidy::rematch
