//===--- GlobalReadCheck.cpp ----------------------------------------------===//

#include "GlobalReadCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::rematch {

std::string GlobalReadCheck::describe(const EffectFacts &E) const {
  return "reads mutable global " + quoted(E.Subject);
}

std::string GlobalReadCheck::consequence(const EffectFacts &) const {
  return "the recomputation in backward may see a different value";
}

std::string GlobalReadCheck::consequenceFor(const Finding &F, const EffectFacts &Last,
                                            const EffectAnalysis &A) const {
  std::string Why = consequence(Last);
  if (A.globalChange(*F.E) == EffectAnalysis::GlobalChange::OtherTUMayWrite)
    Why += ": " + quoted(Last.Subject) +
           " may be written in another translation unit; whole-program "
           "analysis (--summaries-dir) can prove it constant";
  return Why;
}

// `[g_scale = g_scale]` makes the lambda read the value the global had when
// the lambda was created, before the original forward, in both passes. Only
// offered where that rewrite is certainly valid: a visible lambda, a scalar
// global named unqualified outside macros, never written by the lambda, and
// only on the first read (the capture then serves every read).
void GlobalReadCheck::addFixes(DiagnosticBuilder &Diag, const Finding &F,
                               const EffectAnalysis &A, ASTContext &Ctx) {
  const Effect &E = *F.E;
  const LambdaExpr *L = F.Target->Expr;
  if (!L || !E.Var || !E.Spelled || E.Loc.isMacroID())
    return;
  QualType T = E.Var->getType();
  if (!T->isScalarType() || T->isReferenceType())
    return;
  SourceLocation Close = L->getIntroducerRange().getEnd();
  if (Close.isInvalid() || Close.isMacroID())
    return;
  const FunctionSummary *S = A.summary(F.Target->Body);
  if (!S)
    return;
  for (const Effect &Other : S->Effects) {
    if (Other.Kind != EffectKind::GlobalRead &&
        Other.facts().Subject == E.facts().Subject)
      return; // written too: a const capture would not compile
    if (Other.Kind == EffectKind::GlobalRead && Other.Var == E.Var &&
        &Other != &E &&
        Ctx.getSourceManager().isBeforeInTranslationUnit(Other.Loc, E.Loc))
      return; // an earlier read carries the fix
  }
  std::string Name = E.Var->getNameAsString();
  bool HasCaptures = L->capture_size() != 0 ||
                     L->getCaptureDefault() != LCD_None;
  // A this-capture or default capture alone still needs the comma.
  std::string Text = (HasCaptures ? ", " : "") + Name + " = " + Name;
  Diag << FixItHint::CreateInsertion(Close, Text);
}

} // namespace clang::tidy::rematch
