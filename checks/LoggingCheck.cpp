//===--- LoggingCheck.cpp -------------------------------------------------===//

#include "LoggingCheck.h"
#include "CheckpointSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <vector>

namespace clang::tidy::rematch {

std::string LoggingCheck::describe(const EffectFacts &E) const {
  return "logs through " + quoted(E.Subject);
}

std::string LoggingCheck::consequence(const EffectFacts &) const {
  return "the recomputation in backward logs again";
}

// The statement of a block in Body that is E itself, give or take the
// wrappers clang adds around it. A local search of the callable's body: no
// parent map of the whole translation unit is built for it.
static const Stmt *ownStatement(const Stmt *Body, const Expr *E) {
  std::vector<const Stmt *> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      for (const Stmt *Child : CS->body())
        if (isa<Expr>(Child) && skipWrappers(cast<Expr>(Child)) == E)
          return Child;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return nullptr;
}

// Wraps the whole statement in `if (!rematch::recomputing())` so that it
// runs in the original forward only. Offered when the logging expression is
// a statement of its own in a block, outside macros.
void LoggingCheck::addFixes(DiagnosticBuilder &Diag, const Finding &F,
                            const EffectAnalysis &, ASTContext &) {
  const Expr *E = F.E->Source;
  if (!E || !F.Target || !F.Target->Body)
    return;
  const Stmt *Statement = ownStatement(F.Target->Body->getBody(), E);
  if (!Statement)
    return;
  SourceLocation Begin = Statement->getBeginLoc();
  if (Begin.isInvalid() || Begin.isMacroID())
    return;
  Diag << FixItHint::CreateInsertion(Begin, "if (!rematch::recomputing()) ");
}

} // namespace clang::tidy::rematch
