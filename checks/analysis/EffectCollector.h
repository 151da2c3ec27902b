//===--- EffectCollector.h - the direct effects of one body ----*- C++ -*-===//
//
// Walks one function body once and records what it does by itself (writes,
// reads of mutable globals, logging, I/O, RNG, clocks) and which functions it
// calls with which roots, leaving composition over the call graph to
// EffectAnalysis. Effects under a rematch::recomputing() guard and in
// discarded `if constexpr` branches are not recorded.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_EFFECTCOLLECTOR_H
#define REMATCH_CHECKS_EFFECTCOLLECTOR_H

#include "Effect.h"
#include "KnownFunctions.h"

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

struct DirectFacts {
  std::vector<Effect> Effects;
  std::vector<CallSite> Calls;
  // What the function returns an alias of (Aliases.h): roots, or what its
  // call number Index returns (Root::Returned). Effects' targets may be
  // Returned too: the summary resolves both with the callees' summaries.
  std::vector<ReturnedAlias> Returns;
};

// What else a walk of a body is for (the translation unit's walk, TUWalk.h,
// which has its sites and global uses found by the same walk): told every
// node of the body that a plain traversal would visit, in its order, and
// handed what the effect walk itself skips (unevaluated operands, discarded
// branches, static locals' initialisers) to traverse alone.
class BodyObserver {
public:
  virtual ~BodyObserver() = default;
  virtual void onStmt(Stmt &S) = 0;
  virtual void onVarDecl(VarDecl &VD) = 0;
  virtual void onFunctionDecl(FunctionDecl &FD) = 0;
  virtual void skipped(Stmt *S) = 0;
  virtual void skipped(Decl *D) = 0;
};

// The effects' facts go into Pool, which must outlive the effects. With an
// observer, the walk also tells it the body's nodes (its written
// constructor initialisers and the default arguments it evaluates are not
// the body's: they are not told).
DirectFacts collectDirectFacts(const FunctionDecl &FD, ASTContext &Ctx,
                               const KnownFunctions &Known, FactsPool &Pool,
                               BodyObserver *Observer = nullptr);

// How a message names an expression: a variable by its name, anything
// else by its source text when it is short.
std::string describeExpr(const Expr *E, const ASTContext &Ctx);

// True for `rematch::recomputing()`, possibly parenthesised or converted.
bool isRecomputingCall(const Expr *E);

} // namespace clang::tidy::rematch

#endif
