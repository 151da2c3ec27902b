//===--- EffectCollector.cpp - the direct effects of one body -------------===//

#include "EffectCollector.h"
#include "Aliases.h"
#include "CheckpointSites.h"
#include "StmtWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::rematch {

bool isRecomputingCall(const Expr *E) {
  if (!E)
    return false;
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!Call)
    return false;
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "recomputing" &&
         canonicalName(*FD) == "rematch::recomputing";
}

// How an lvalue is named in a message: the source text when it is short.
std::string describeExpr(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  while (const auto *CE = dyn_cast<CallExpr>(E)) // std::forward<A>(a): a
    if (isIdentityCall(*CE))
      E = CE->getArg(0)->IgnoreParenImpCasts();
    else
      break;
  // `b->mul_()` through a smart pointer's or an optional's operator->: the
  // object is named by what it is called on (`*b` with the arrow).
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
    return describeExpr(OC->getArg(0), Ctx);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (DRE->getDecl()->getDeclContext()->isRecord() || DRE->hasQualifier())
      return canonicalName(*DRE->getDecl());
    return DRE->getDecl()->getNameAsString();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
        ME->getBase()->isImplicitCXXThis())
      return ME->getMemberDecl()->getNameAsString();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "expression";
  llvm::StringRef Text =
      Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts());
  std::string S;
  for (char C : Text)
    if (!(C == ' ' || C == '\n' || C == '\t' || C == '\r'))
      S += C;
  if (S.empty() || S.size() > 60)
    return "expression";
  return S;
}

namespace {

// How a guard condition confines its branches.
enum class Guard {
  None,
  Both,     // `recomputing()` or `!recomputing()`: each branch runs in one pass
  ThenOnly, // `!recomputing() && ...`: the then-branch never runs in recompute
};

Guard guardOf(const Expr *Cond) {
  if (!Cond)
    return Guard::None;
  Cond = Cond->IgnoreParenImpCasts();
  if (isRecomputingCall(Cond))
    return Guard::Both;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    if (UO->getOpcode() == UO_LNot && isRecomputingCall(UO->getSubExpr()))
      return Guard::Both;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
    if (BO->getOpcode() == BO_LAnd &&
        (guardOf(BO->getLHS()) != Guard::None ||
         guardOf(BO->getRHS()) != Guard::None))
      return Guard::ThenOnly;
  return Guard::None;
}

// `if (rematch::recomputing()) return ...;` (or throw): the rest of the
// enclosing block runs in the original forward only.
bool isEarlyExitGuard(const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || !isRecomputingCall(If->getCond()))
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then)) {
    if (CS->size() != 1)
      return false;
    Then = CS->body_front();
  }
  if (const auto *E = dyn_cast<Expr>(Then))
    return isa<CXXThrowExpr>(E->IgnoreParenImpCasts());
  return isa<ReturnStmt>(Then);
}

// A three-valued answer about a call site: unknown arguments count as
// possibly having the effect.
enum class Truth { No, Yes, Unknown };

std::optional<bool> boolValue(const Expr *E, const ASTContext &Ctx) {
  E = skipWrappers(E);
  bool B;
  if (E && !E->isValueDependent() && E->EvaluateAsBooleanCondition(B, Ctx))
    return B;
  return std::nullopt;
}

// std::optional, c10::optional and their nullopt_t.
bool isOptionalType(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() &&
         (RD->getName() == "optional" || RD->getName() == "nullopt_t");
}

// Whether an optional-typed argument is empty: `nullopt`, `{}`, an optional
// built from nullopt_t; No when it is built from a value, or is no optional.
Truth isNullopt(const Expr *E) {
  E = skipWrappers(E);
  if (!E)
    return Truth::Yes;
  if (!isOptionalType(E->getType()) && !isa<CXXDefaultArgExpr>(E) &&
      !isa<InitListExpr>(E))
    return Truth::No;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return isNullopt(D->getExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *VD = DRE->getDecl();
    if (VD->getIdentifier() && VD->getName() == "nullopt")
      return Truth::Yes;
    return Truth::Unknown;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() == 0 ? Truth::Yes : Truth::Unknown;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 0)
      return Truth::Yes;
    const Expr *Arg = CE->getArg(0);
    if (const CXXRecordDecl *RD =
            Arg->getType().getNonReferenceType()->getAsCXXRecordDecl())
      if (RD->getIdentifier() && RD->getName() == "nullopt_t")
        return Truth::Yes;
    if (CE->getConstructor()->isCopyOrMoveConstructor())
      return isNullopt(Arg);
    return Truth::No;
  }
  return Truth::Unknown;
}

// The argument an optional was built from, when it was built from a value.
const Expr *optionalValue(const Expr *E) {
  E = skipWrappers(E);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
    if (CE->getNumArgs() == 1 &&
        !CE->getConstructor()->isCopyOrMoveConstructor())
      return skipWrappers(CE->getArg(0));
  return E;
}

// The value an options builder chain gives a field:
// `Options().p(0.5).training(false)` gives `training` false. Default when
// the chain starts from a fresh object without setting it; nothing when the
// options come from a variable.
std::optional<bool> fieldValue(const Expr *E, llvm::StringRef Field,
                               std::optional<bool> Default,
                               const ASTContext &Ctx) {
  for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
    E = skipWrappers(E);
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E)) {
      E = D->getExpr();
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->getIdentifier() && MD->getName() == Field &&
          MC->getNumArgs() == 1)
        return boolValue(MC->getArg(0), Ctx);
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1) {
        E = CE->getArg(0);
        continue;
      }
      return Default;
    }
    if (isa<InitListExpr>(E))
      return Default;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<llvm::APSInt> intValue(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt();
  return std::nullopt;
}

class BodyWalker : public RecursiveASTVisitor<BodyWalker> {
  using Base = RecursiveASTVisitor<BodyWalker>;

public:
  BodyWalker(const FunctionDecl &FD, ASTContext &Ctx,
             const KnownFunctions &Known, FactsPool &Pool, DirectFacts &Out,
             BodyObserver *Observer)
      : FD(FD), Ctx(Ctx), SM(Ctx.getSourceManager()), Known(Known),
        Pool(Pool), Out(Out), Observer(Observer), Alias(FD, Ctx, Known) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  // The common nodes directly (StmtWalk.h), with the visits the visitor
  // would make; guards (if, blocks) and the rest through the visitor.
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    walkStatements(
        S,
        [](const Stmt &N) { return !isa<IfStmt>(N) && !isa<CompoundStmt>(N); },
        [this](Stmt *N) { visitPlain(N); },
        [this](Stmt *N) { Base::TraverseStmt(N); });
    return true;
  }

  void run() {
    if (const Stmt *Body = FD.getBody())
      TraverseStmt(const_cast<Stmt *>(Body));
    ++Untold; // the translation unit's walk saw them outside the body
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten())
          TraverseStmt(Init->getInit());
    --Untold;
    flushAliases();
    flushReads();
  }

  // --- the observer's nodes ---------------------------------------------------

  // Every node that reaches the visitor (the statement walk's own nodes are
  // told in visitPlain).
  bool VisitStmt(Stmt *S) {
    if (Observer && !Untold)
      Observer->onStmt(*S);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (Observer && !Untold)
      Observer->onVarDecl(*VD);
    Alias.bindInit(*VD);
    return true;
  }

  // --- aliases ----------------------------------------------------------------

  // `for (auto &x : g_table)`: x is an alias of the range's elements.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    if (const VarDecl *V = S->getLoopVariable())
      Alias.bindRange(*V, S->getRangeInit());
    return true;
  }

  // What the function returns an alias of, resolved at the end.
  bool VisitReturnStmt(ReturnStmt *RS) {
    const Expr *V = RS->getRetValue();
    if (Nested || !V)
      return true;
    QualType T = FD.getReturnType();
    Places Ps;
    if (T->isReferenceType()) {
      if (!T.getNonReferenceType().isConstQualified() || Known.isHandle(T))
        Ps = Alias.designates(V);
    } else if (T->isPointerType()) {
      if (!T->getPointeeType().isConstQualified())
        Ps = Alias.pointsInto(V);
    } else if (T->isRecordType() && Alias.isAliasValue(V)) {
      Ps = Alias.pointsInto(V);
    } else if (T->isRecordType() && !T->isDependentType() &&
               Known.copies().shares(T)) {
      // A copy of what holds handles (`return w_;` of a vector of them):
      // its handles point where the original's do.
      Ps = Alias.sharedBy(V);
    }
    if (!Ps.empty())
      PendingReturns.push_back(std::move(Ps));
    return true;
  }

  // A lambda or local class inside the body: walked as part of it, but its
  // returns are its own.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++Nested;
    Base::TraverseLambdaExpr(L);
    --Nested;
    return true;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *RD) {
    ++Nested;
    Base::TraverseCXXRecordDecl(RD);
    --Nested;
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *D) {
    if (Observer && !Untold)
      Observer->onFunctionDecl(*D);
    return true;
  }

  // --- guards ---------------------------------------------------------------

  bool TraverseIfStmt(IfStmt *S) {
    if (S->isConstexpr()) {
      std::optional<Stmt *> Taken = S->getNondiscardedCase(Ctx);
      if (!Taken)
        return Base::TraverseIfStmt(S);
      if (S->getInit())
        TraverseStmt(S->getInit());
      skip(S->getConditionVariableDeclStmt());
      skip(S->getCond());
      if (S->getThen() == *Taken) {
        TraverseStmt(S->getThen());
        skip(S->getElse());
      } else {
        skip(S->getThen());
        if (*Taken)
          TraverseStmt(*Taken);
      }
      return true;
    }
    Guard G = guardOf(S->getCond());
    if (G == Guard::None)
      return Base::TraverseIfStmt(S);
    if (S->getInit())
      TraverseStmt(S->getInit());
    skip(S->getConditionVariableDeclStmt());
    TraverseStmt(S->getCond());
    ++GuardDepth;
    TraverseStmt(S->getThen());
    if (G == Guard::ThenOnly)
      --GuardDepth;
    if (S->getElse())
      TraverseStmt(S->getElse());
    if (G == Guard::Both)
      --GuardDepth;
    return true;
  }

  bool TraverseCompoundStmt(CompoundStmt *S) {
    unsigned Entered = 0;
    for (Stmt *Child : S->body()) {
      TraverseStmt(Child);
      if (isEarlyExitGuard(Child)) {
        ++GuardDepth;
        ++Entered;
      }
    }
    GuardDepth -= Entered;
    return true;
  }

  // Unevaluated operands read nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
    return skip(E);
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *E) { return skip(E); }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
    return E->isPotentiallyEvaluated() ? Base::TraverseCXXTypeidExpr(E)
                                       : skip(E);
  }
  // Types are compile time: what they spell (decltype, array bounds,
  // template arguments) is unevaluated or constant.
  bool TraverseTypeLoc(TypeLoc) { return true; }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc) { return true; }
  // Static assertions and the like are compile time.
  bool TraverseStaticAssertDecl(StaticAssertDecl *D) { return skip(D); }

  // A function-local static's initialisation runs once, not per pass.
  bool TraverseVarDecl(VarDecl *VD) {
    if (VD->isStaticLocal())
      return skip(VD);
    return Base::TraverseVarDecl(VD);
  }

  // Default arguments are evaluated by the call inside the body: their
  // effects are reported at the call.
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    SourceLocation Saved = LocOverride;
    if (LocOverride.isInvalid())
      LocOverride = E->getUsedLocation();
    ++Untold; // the callee's declaration, not this body
    TraverseStmt(E->getExpr());
    --Untold;
    LocOverride = Saved;
    return true;
  }

  // --- writes -----------------------------------------------------------------

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      record(EffectKind::CounterUpdate, UO->getSubExpr(), UO->getBeginLoc(),
             UO->isIncrementOp() ? "++" : "--");
    } else if (UO->getOpcode() == UO_AddrOf) {
      consume(UO->getSubExpr());
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign) {
      if (const VarDecl *V = Alias.localVar(BO->getLHS()))
        Alias.bindAssigned(*V, BO->getRHS());
      if (!isMapSubscript(BO->getLHS()))
        record(EffectKind::StateWrite, BO->getLHS(), BO->getBeginLoc(), "");
      consume(BO->getLHS());
    } else if (BO->isCompoundAssignmentOp()) {
      record(EffectKind::CounterUpdate, BO->getLHS(), BO->getBeginLoc(),
             BO->getOpcodeStr().str());
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      return visitOperatorCall(OC);
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      return visitMemberCall(MC);
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    if (isRecomputingCall(CE))
      return true;
    if (applyModel(*Callee, CE, nullptr, false, args(CE)))
      return true;
    if (KnownFunctions::readsStreamArgument(*Callee) && CE->getNumArgs() > 0 &&
        Known.isFileStream(CE->getArg(0)->IgnoreParenImpCasts()->getType())) {
      recordStream(CE->getArg(0), CE->getBeginLoc(), "getline");
      return true;
    }
    addCall(*Callee, CE, CE->getBeginLoc(), nullptr, args(CE), false);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    QualType T = CE->getType();
    if (Known.isFileStream(T) && CE->getNumArgs() > 0 &&
        !CE->getConstructor()->isCopyOrMoveConstructor()) {
      addEffect(EffectKind::Io, Root::of(Root::Unconditional),
                typeName(T), "", CE->getBeginLoc());
      return true;
    }
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isMoveConstructor() && CE->getNumArgs() >= 1)
      recordMovedFrom(*Ctor, CE->getArg(0), CE->getBeginLoc());
    if (applyModel(*Ctor, CE, nullptr, false,
                   llvm::ArrayRef(CE->getArgs(), CE->getNumArgs())))
      return true;
    addCall(*Ctor, CE, CE->getBeginLoc(), nullptr,
            llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), false);
    return true;
  }

  // --- reads ----------------------------------------------------------------

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (isMutableGlobal(VD))
        Reads.push_back({DRE, VD, loc(DRE->getBeginLoc()),
                         !DRE->hasQualifier() && LocOverride.isInvalid()});
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    // Static data members reached through an object: obj.count.
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
      if (isMutableGlobal(VD))
        Reads.push_back({ME, VD, loc(ME->getMemberLoc()), false});
    return true;
  }

private:
  // What the effect walk leaves out: the observer walks it alone.
  template <class Node> bool skip(Node *N) {
    if (N && Observer && !Untold)
      Observer->skipped(N);
    return true;
  }

  // What WalkUpFrom would call for a node the statement walk takes.
  void visitPlain(Stmt *S) {
    if (Observer && !Untold)
      Observer->onStmt(*S);
    switch (S->getStmtClass()) {
    case Stmt::DeclRefExprClass:
      VisitDeclRefExpr(cast<DeclRefExpr>(S));
      break;
    case Stmt::MemberExprClass:
      VisitMemberExpr(cast<MemberExpr>(S));
      break;
    case Stmt::UnaryOperatorClass:
      VisitUnaryOperator(cast<UnaryOperator>(S));
      break;
    case Stmt::BinaryOperatorClass:
    case Stmt::CompoundAssignOperatorClass:
      VisitBinaryOperator(cast<BinaryOperator>(S));
      break;
    case Stmt::CallExprClass:
    case Stmt::CXXMemberCallExprClass:
    case Stmt::CXXOperatorCallExprClass:
      VisitCallExpr(cast<CallExpr>(S));
      break;
    case Stmt::CXXConstructExprClass:
    case Stmt::CXXTemporaryObjectExprClass:
      VisitCXXConstructExpr(cast<CXXConstructExpr>(S));
      break;
    case Stmt::ReturnStmtClass:
      VisitReturnStmt(cast<ReturnStmt>(S));
      break;
    default:
      break;
    }
  }

  struct PendingRead {
    const Expr *E;
    const VarDecl *VD;
    SourceLocation Loc;
    bool Unqualified;
  };

  // --- operator and member calls ------------------------------------------

  bool visitOperatorCall(CXXOperatorCallExpr *OC) {
    OverloadedOperatorKind Op = OC->getOperator();
    const auto *Callee = dyn_cast_or_null<FunctionDecl>(OC->getCalleeDecl());
    if (OC->getNumArgs() == 0)
      return true;
    const Expr *Obj = OC->getArg(0);
    if ((Op == OO_LessLess || Op == OO_GreaterGreater) &&
        visitShift(OC, Op, Obj))
      return true;
    if (Op == OO_Subscript && Known.isMapLike(Obj->getType())) {
      record(EffectKind::CacheWrite, Obj, OC->getBeginLoc(), "operator[]");
      return true;
    }
    if (visitAssignment(OC, Op, Callee, Obj))
      return true;
    if (Op == OO_Call && visitDraw(OC, Obj))
      return true;
    if (Op == OO_Call && visitBound(OC, Obj))
      return true;
    if (Callee)
      visitOperatorAsCall(OC, *Callee, Obj);
    return true;
  }

  // `f(x)` on what a binder made in this body or kept in a variable the
  // body names (`auto f = std::bind(add, std::ref(acc), _1)`, Binds: in
  // the models): a call of the bound function. A reference wrapper stands
  // for the object it refers to, a placeholder for the call's argument,
  // and a bound copy for the binder's object, where the copy lives. A
  // lambda or functor bound, or a binder passed in or returned by a call,
  // is a call like any other.
  bool visitBound(const CXXOperatorCallExpr *OC, const Expr *Obj) {
    const Expr *Made = skipCopies(Obj);
    // The binder's variable: a local here, or one the body names (a local
    // of the function that made the lambda, captured; a global).
    const VarDecl *Binder = Alias.localVar(Made);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Made); !Binder && DRE)
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && !isa<ParmVarDecl>(VD))
        Binder = VD;
    if (Binder && Binder->getInit())
      Made = skipCopies(Binder->getInit());
    const auto *BindCall = dyn_cast_or_null<CallExpr>(Made);
    const FunctionDecl *Bind =
        BindCall ? BindCall->getDirectCallee() : nullptr;
    const ModelBind *B = Bind ? Known.lookup(*Bind).Binds : nullptr;
    int CI = B ? Known.paramIndex(*Bind, B->Callable) : -1;
    if (CI < 0 || unsigned(CI) >= BindCall->getNumArgs())
      return false;
    const Expr *Fn = skipWrappers(BindCall->getArg(CI))->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Fn); // &Layer::forward
        UO && UO->getOpcode() == UO_AddrOf)
      Fn = UO->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Fn);
    const auto *Target = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (!Target)
      return false;
    llvm::SmallVector<const Expr *, 4> Args;
    for (unsigned I = CI + 1; I < BindCall->getNumArgs(); ++I) {
      const Expr *A = boundArgument(*B, BindCall->getArg(I), OC, Obj);
      if (!A)
        return false;
      Args.push_back(A);
    }
    if (B->Placeholders.empty())
      for (unsigned I = 1; I < OC->getNumArgs(); ++I)
        Args.push_back(OC->getArg(I));
    const auto *MD = dyn_cast<CXXMethodDecl>(Target);
    if (MD && !MD->isStatic()) {
      if (Args.empty())
        return false;
      const Expr *Object = Args.front();
      bool Arrow = Object->IgnoreParenImpCasts()->getType()->isPointerType();
      addCall(*MD, OC, OC->getBeginLoc(), Object, llvm::ArrayRef(Args).drop_front(),
              MD->isVirtual(), Arrow);
    } else {
      addCall(*Target, OC, OC->getBeginLoc(), nullptr, Args, false);
    }
    consume(Obj);
    return true;
  }

  // What a bound argument is when the bound function is called: the
  // call's argument for a placeholder, the referred object for a wrapper
  // (a call the models say returns an alias of its argument: std::ref),
  // a copy of a value the binder's own, part of Obj, and a copy of a pointer
  // or handle what the original points to. Null: a placeholder past the
  // call's arguments.
  const Expr *boundArgument(const ModelBind &B, const Expr *A,
                            const CXXOperatorCallExpr *OC, const Expr *Obj) {
    const Expr *Bare = skipWrappers(A)->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Bare);
        DRE && !B.Placeholders.empty()) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      llvm::StringRef Name = VD && VD->getIdentifier() ? VD->getName() : "";
      unsigned N = 0;
      if (Name.consume_front("_") && !Name.getAsInteger(10, N) &&
          canonicalName(*VD) == B.Placeholders + "::_" + Name.str())
        return N < OC->getNumArgs() ? OC->getArg(N) : nullptr;
    }
    if (const auto *CE = dyn_cast<CallExpr>(Bare))
      if (const FunctionDecl *W = CE->getDirectCallee())
        if (const AliasRule *R = Known.lookup(*W).Returns;
            R && R->K == AliasRule::Argument &&
            Known.copies().shares(CE->getType())) {
          int I = Known.paramIndex(*W, R->Arg);
          if (I >= 0 && unsigned(I) < CE->getNumArgs())
            return CE->getArg(I);
        }
    // A copy of a pointer or a handle still reaches what the original does.
    return Known.copies().owns(A->getType()) ? Obj : A;
  }

  // `os << a << b` on a log stream or a file stream: one effect for the
  // whole chain, at its start. False: not a stream, a call like any other.
  bool visitShift(CXXOperatorCallExpr *OC, OverloadedOperatorKind Op,
                  const Expr *Obj) {
    if (InnerShifts.contains(OC))
      return true;
    // Mark the inner operators of a chain so a whole statement is one
    // effect, reported at its start.
    const Expr *Base = Obj->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<CXXOperatorCallExpr>(Base)) {
      if (Inner->getOperator() != Op || Inner->getNumArgs() == 0)
        break;
      InnerShifts.insert(Inner);
      Base = Inner->getArg(0)->IgnoreParenImpCasts();
    }
    if (const VarDecl *Stream = streamObject(Base)) {
      consume(Base);
      addEffect(EffectKind::Logging, Root::of(Root::Unconditional),
                canonicalName(*Stream), "", OC->getBeginLoc(), OC);
      return true;
    }
    if (Known.isFileStream(Base->getType())) {
      recordStream(Base, OC->getBeginLoc(), Op == OO_LessLess ? "<<" : ">>");
      return true;
    }
    return false;
  }

  // Assignments, increments and compound assignments of an object: a write
  // or a count, or a call of the user's operator. False: none of those.
  bool visitAssignment(CXXOperatorCallExpr *OC, OverloadedOperatorKind Op,
                       const FunctionDecl *Callee, const Expr *Obj) {
    // `out = make(v);` assigns the whole object: a write of `out`, named
    // as the code names it. An implicit or defaulted assignment does
    // nothing else; a user-provided one is followed for what else it does
    // (its writes of *this land on the same line and merge with this one).
    if (Op == OO_Equal && OC->getNumArgs() == 2) {
      if (const VarDecl *V = Alias.localVar(Obj))
        Alias.bindAssigned(*V, OC->getArg(1));
      else
        Alias.bindStored(Obj, OC->getArg(1));
    }
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
        MD && MD->isMoveAssignmentOperator() && OC->getNumArgs() == 2)
      recordMovedFrom(*MD, OC->getArg(1), OC->getBeginLoc());
    // `m[k] = v` on a map is the change operator[] makes: one effect.
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
        Op == OO_Equal && MD &&
        (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
        !Known.isModelled(*MD, SM)) {
      if (!isMapSubscript(Obj))
        record(EffectKind::StateWrite, Obj, OC->getBeginLoc(), "",
               /*Rebind=*/true);
      consume(Obj);
      if (MD->isUserProvided())
        addCall(*MD, OC, OC->getBeginLoc(), Obj,
                llvm::ArrayRef(OC->getArgs() + 1, OC->getNumArgs() - 1),
                MD->isVirtual());
      return true;
    }
    // A user-defined operator with a body here is a call like any other: its
    // summary says what it does to the object and to the world.
    if (Callee && isa<CXXMethodDecl>(Callee) &&
        !Known.isModelled(*Callee, SM) &&
        (Op == OO_Equal || Op == OO_PlusPlus || Op == OO_MinusMinus ||
         isCompoundAssignOperator(Op))) {
      consume(Obj);
      addCall(*Callee, OC, OC->getBeginLoc(), Obj,
              llvm::ArrayRef(OC->getArgs() + 1, OC->getNumArgs() - 1),
              cast<CXXMethodDecl>(Callee)->isVirtual());
      return true;
    }
    if (Op == OO_Equal && Callee && isa<CXXMethodDecl>(Callee)) {
      if (!isMapSubscript(Obj))
        record(EffectKind::StateWrite, Obj, OC->getBeginLoc(), "",
               /*Rebind=*/true);
      consume(Obj);
      return true;
    }
    if (Op == OO_PlusPlus || Op == OO_MinusMinus) {
      record(EffectKind::CounterUpdate, Obj, OC->getBeginLoc(),
             Op == OO_PlusPlus ? "++" : "--");
      return true;
    }
    if (isCompoundAssignOperator(Op)) {
      record(EffectKind::CounterUpdate, Obj, OC->getBeginLoc(),
             getOperatorSpelling(Op));
      return true;
    }
    return false;
  }

  // `gen()` or `dist(gen)`: a draw from the engine, replayed or not. False:
  // no engine involved.
  bool visitDraw(CXXOperatorCallExpr *OC, const Expr *Obj) {
    QualType T = Obj->getType();
    if (Known.isReplayedGenerator(T)) {
      consume(Obj);
      return true;
    }
    if (Known.isRandomDevice(T)) {
      consume(Obj);
      addEffect(EffectKind::UnreplayedRng, Root::of(Root::Unconditional),
                "std::random_device", "", OC->getBeginLoc());
      return true;
    }
    if (Known.isRandomEngine(T)) {
      record(EffectKind::UnreplayedRng, Obj, OC->getBeginLoc(), "");
      return true;
    }
    // A distribution called with an engine: the draw is from the engine.
    for (unsigned I = 1; I < OC->getNumArgs(); ++I) {
      const Expr *Arg = OC->getArg(I);
      if (Known.isReplayedGenerator(Arg->getType()) ||
          isReplayedEngineAccess(Arg)) {
        consume(Arg);
        return true;
      }
      if (Known.isRandomEngine(Arg->getType())) {
        record(EffectKind::UnreplayedRng, Arg, OC->getBeginLoc(), "");
        return true;
      }
      if (Known.isRandomDevice(Arg->getType())) {
        consume(Arg);
        addEffect(EffectKind::UnreplayedRng, Root::of(Root::Unconditional),
                  "std::random_device", "", OC->getBeginLoc());
        return true;
      }
    }
    return false;
  }

  // Any other operator: what the model says of it, or a call of it.
  void visitOperatorAsCall(CXXOperatorCallExpr *OC, const FunctionDecl &Callee,
                           const Expr *Obj) {
    const auto *MD = dyn_cast<CXXMethodDecl>(&Callee);
    bool Member = MD && !MD->isStatic();
    // A member operator's object is its first argument.
    llvm::ArrayRef<const Expr *> Args =
        Member ? llvm::ArrayRef(OC->getArgs() + 1, OC->getNumArgs() - 1)
               : llvm::ArrayRef(OC->getArgs(), OC->getNumArgs());
    if (applyModel(Callee, OC, Member ? Obj : nullptr, false, Args))
      return;
    addCall(Callee, OC, OC->getBeginLoc(), Member ? Obj : nullptr, Args,
            Member && MD->isVirtual());
  }

  bool visitMemberCall(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj)
      return true;
    Alias.bindInserted(*MC);
    // The object's own type, not the base class the method belongs to.
    QualType T = Obj->IgnoreParenImpCasts()->getType();
    const auto *Callee = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    bool Arrow = Callee && Callee->isArrow();
    if (Arrow)
      T = T->getPointeeType();
    // Through `->` the object is what the pointer points to.
    auto Record = [&](EffectKind K, std::string Detail) {
      consume(Obj);
      EffectFacts F;
      F.Kind = K;
      F.Detail = std::move(Detail);
      // A handle's member (an atomic_ref's fetch_add) acts on what it shares.
      recordOn(std::move(F), Arrow ? Alias.pointsInto(Obj) : changed(Obj),
               [&] { return describeObject(Obj, Arrow); }, MC->getBeginLoc());
    };
    llvm::StringRef Name = MD->getIdentifier() ? MD->getName() : "";

    if (applyModel(*MD, MC, MD->isStatic() ? nullptr : Obj, Arrow,
                   args(MC)))
      return true;

    switch (KindMember M = Known.kindMember(T, Name); M.What) {
    case KindMember::NotAKind:
      break;
    case KindMember::Nothing:
      return true;
    case KindMember::Consumed:
      consume(Obj);
      return true;
    case KindMember::Reads:
      readThrough(Obj, Arrow, MC);
      return true;
    case KindMember::OnObject:
      Record(M.Kind, Name.str());
      return true;
    case KindMember::Unconditional:
      addEffect(M.Kind, Root::of(Root::Unconditional), typeName(T), Name.str(),
                MC->getBeginLoc());
      return true;
    }
    if (const VarDecl *Stream = streamObject(Obj)) {
      consume(Obj);
      if (KnownFunctions::isStreamOutputMember(Name))
        addEffect(EffectKind::Logging, Root::of(Root::Unconditional),
                  canonicalName(*Stream), Name.str(), MC->getBeginLoc());
      return true;
    }
    if (MD->isStatic()) {
      addCall(*MD, MC, MC->getBeginLoc(), nullptr, args(MC), false);
      return true;
    }
    addCall(*MD, MC, MC->getBeginLoc(), Obj, args(MC),
            MD->isVirtual() && !(Callee && Callee->hasQualifier()), Arrow);
    return true;
  }

  // --- roots ----------------------------------------------------------------

  // Where a change to E lands: for a handle (a tensor, a module holder),
  // the object it shares; otherwise the object E designates.
  Places changed(const Expr *E) {
    // The object's own type: a base's member is called on a cast of it.
    if (E && Known.isHandle(E->IgnoreParenImpCasts()->getType()))
      return Alias.pointsInto(E);
    return Alias.designates(E);
  }

  bool isInside(const DeclContext *Inner) const {
    for (const DeclContext *DC = Inner; DC; DC = DC->getParent())
      if (DC == &FD)
        return true;
    return false;
  }

  std::string describeObject(const Expr *Obj, bool Arrow) const {
    std::string S = describe(Obj);
    return Arrow && S != "expression" ? "*" + S : S;
  }

  // --- recording ------------------------------------------------------------

  SourceLocation loc(SourceLocation L) const {
    return LocOverride.isValid() ? LocOverride : L;
  }

  void addEffect(EffectKind K, Root R, std::string Subject, std::string Detail,
                 SourceLocation L, const Expr *Source = nullptr) {
    EffectFacts F;
    F.Kind = K;
    addEffect(std::move(F), R, std::move(Subject), std::move(Detail), L,
              Source);
  }
  void addEffect(EffectFacts F, Root R, std::string Subject,
                 std::string Detail, SourceLocation L,
                 const Expr *Source = nullptr,
                 SourceLocation AliasAt = SourceLocation()) {
    if (GuardDepth > 0)
      return;
    F.Subject = std::move(Subject);
    F.Detail = std::move(Detail);
    Effect E;
    E.setFacts(Pool.intern(std::move(F)));
    E.Source = LocOverride.isValid() ? nullptr : Source;
    E.Target = R;
    E.Loc = loc(L);
    E.AliasAt = AliasAt;
    Out.Effects.push_back(std::move(E));
  }

  // A move out of an object (`auto d = std::move(pending_);`, `x =
  // std::move(m_)`) leaves it emptied: a write of that object, unless the
  // move only copies (a trivial one).
  void recordMovedFrom(const FunctionDecl &Move, const Expr *Source,
                       SourceLocation L) {
    if (Move.isTrivial() || !Source)
      return;
    const Expr *E = Source->IgnoreImplicit();
    if (!E->isXValue())
      return;
    if (const auto *C = dyn_cast<CallExpr>(E->IgnoreParens());
        C && isIdentityCall(*C) && C->getNumArgs() == 1)
      E = C->getArg(0);
    record(EffectKind::StateWrite, E, L, "std::move", /*Rebind=*/true);
  }

  // An effect on the object Target designates; nothing when it is local.
  // A change through a handle (a tensor) lands on the object it shares,
  // unless it rebinds the handle itself (Rebind: `t = ...`).
  void record(EffectKind K, const Expr *Target, SourceLocation L,
              std::string Detail, bool Rebind = false) {
    consume(Target);
    EffectFacts F;
    F.Kind = K;
    F.Detail = std::move(Detail);
    recordOn(std::move(F), Rebind ? Alias.designates(Target) : changed(Target),
             [&] { return describe(Target); }, L, Target);
  }

  // F (named Subject) happens to each place: now for a root outside; at the
  // end of the body for a local alias, whose bindings may come later; in
  // the summary for what a call returns.
  // Subject is asked only when something outside is changed: most changes
  // are of locals, and naming one takes the source text.
  void recordOn(EffectFacts F, const Places &Ps,
                llvm::function_ref<std::string()> Subject, SourceLocation L,
                const Expr *Target = nullptr) {
    if (GuardDepth > 0 || llvm::all_of(Ps, [](const Place &P) {
          return P.isLocal();
        }))
      return;
    F.Subject = Subject();
    for (const Place &P : Ps) {
      if (P.K != Place::Root) {
        Changes.push_back({F, P, Target, loc(L)});
        continue;
      }
      if (!P.R.isOutside())
        continue;
      if (logsThrough(P, F, L))
        continue;
      EffectFacts G = F;
      if (G.May.empty())
        G.May = P.May.str();
      // The object outside is changed, not read.
      if (P.Named)
        consume(P.Named);
      std::string Subject = F.Subject;
      SourceLocation AliasAt;
      // No subject given, or the change goes through a temporary view of
      // the object (`m.block(0, 0, 2, 2) = x`) or the pointers a local
      // copy of a structure holds: named by the object.
      if (P.Var) {
        G.Via = aliasName(*P.Var);
        Subject = nameOf(P);
        AliasAt = P.At;
      } else if (Subject.empty()) {
        Subject = nameOf(P);
      } else if (const Expr *Through = P.Named ? callThrough(Target) : nullptr) {
        G.Via = describe(Through);
        Subject = nameOf(P);
      }
      std::string Detail = G.Detail;
      addEffect(std::move(G), P.R, std::move(Subject), std::move(Detail), L,
                nullptr, AliasAt);
    }
  }

  // A read of what a handle shares (`r.load()` on an atomic_ref made from
  // a global): a read of that global at the call. The object's own read,
  // when it is a global, is recorded where it is named.
  void readThrough(const Expr *Obj, bool Arrow, const Expr *Call) {
    if (Arrow || !Known.isHandle(Obj->IgnoreParenImpCasts()->getType()))
      return;
    EffectFacts F;
    F.Kind = EffectKind::GlobalRead;
    for (const Place &P : Alias.pointsInto(Obj)) {
      if (P.K != Place::Root) // a local alias: once its bindings are known
        Changes.push_back({F, P, Call, loc(Call->getBeginLoc())});
      else
        readOf(P, Call, loc(Call->getBeginLoc()));
    }
  }

  void readOf(const Place &P, const Expr *Call, SourceLocation L) {
    const auto *DRE = P.Named ? dyn_cast<DeclRefExpr>(P.Named->IgnoreParenImpCasts())
                              : nullptr;
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && isMutableGlobal(VD))
      Reads.push_back({Call, VD, L, false});
  }

  // A write that lands on a log stream through an alias of it (an
  // ostream_iterator over std::cout): logging, whoever holds the alias.
  bool logsThrough(const Place &P, const EffectFacts &F, SourceLocation L) {
    const VarDecl *Stream =
        P.K == Place::Root && P.Named ? streamObject(P.Named) : nullptr;
    if (!Stream || !isWrite(F.Kind))
      return false;
    consume(P.Named);
    addEffect(EffectKind::Logging, Root::of(Root::Unconditional),
              canonicalName(*Stream), F.Detail, L);
    return true;
  }

  static bool isWrite(EffectKind K) {
    return K == EffectKind::StateWrite || K == EffectKind::CounterUpdate ||
           K == EffectKind::CacheWrite;
  }

  // --- models -----------------------------------------------------------------

  static llvm::ArrayRef<const Expr *> args(const CallExpr *CE) {
    return llvm::ArrayRef<const Expr *>(CE->getArgs(), CE->getNumArgs());
  }

  const Expr *argAt(const FunctionDecl &FD, const ArgRef &A,
                    llvm::ArrayRef<const Expr *> Args) const {
    int I = Known.paramIndex(FD, A);
    return I >= 0 && unsigned(I) < Args.size() ? Args[I] : nullptr;
  }

  Truth evaluate(const Condition &C, const FunctionDecl &FD,
                 llvm::ArrayRef<const Expr *> Args) const {
    int I = Known.paramIndex(FD, C.Arg);
    // No such parameter (another overload of the name has it): unknown, so
    // that one entry can speak of several overloads.
    if (I < 0)
      return Truth::Unknown;
    const Expr *A = unsigned(I) < Args.size() ? Args[I] : nullptr;
    const bool Absent = !A || isa<CXXDefaultArgExpr>(A);
    const Expr *V = A;
    if (const auto *D = dyn_cast_or_null<CXXDefaultArgExpr>(A))
      V = D->getExpr();
    switch (C.Is) {
    case Condition::Absent:
      return Absent ? Truth::Yes : Truth::No;
    case Condition::Nullopt:
      return isNullopt(V);
    case Condition::False:
    case Condition::True: {
      std::optional<bool> B = C.Field.empty()
                                  ? boolValue(V, Ctx)
                                  : fieldValue(V, C.Field, C.Default, Ctx);
      if (!B)
        return Truth::Unknown;
      return *B == (C.Is == Condition::True) ? Truth::Yes : Truth::No;
    }
    }
    return Truth::Unknown;
  }

  // Whether an entry's conditions let it apply to this call; what cannot be
  // known statically counts as applying.
  bool applies(const ModelEntry &E, const FunctionDecl &FD,
               llvm::ArrayRef<const Expr *> Args) const {
    for (const Condition &C : E.When)
      if (evaluate(C, FD, Args) == Truth::No)
        return false;
    for (const Condition &C : E.Unless)
      if (evaluate(C, FD, Args) == Truth::Yes)
        return false;
    return true;
  }

  // stdout, stderr, or the file descriptors 1 and 2.
  bool isStdStream(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (DRE->getDecl()->getIdentifier() &&
          Known.isStdHandle(DRE->getDecl()->getName()))
        return true;
    std::optional<llvm::APSInt> Fd = intValue(E, Ctx);
    return Fd && (*Fd == 1 || *Fd == 2);
  }

  // The callee as the call spells it, when it is qualified there
  // (`torch::dropout` for what is declared as at::dropout).
  std::string spelledCallee(const Expr *Call, const CallModel &M) const {
    const auto *CE = dyn_cast<CallExpr>(Call);
    const auto *DRE =
        CE ? dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts())
           : nullptr;
    if (DRE && DRE->hasQualifier() && !DRE->getBeginLoc().isMacroID()) {
      CharSourceRange R = CharSourceRange::getTokenRange(
          DRE->getQualifierLoc().getBeginLoc(), DRE->getNameInfo().getEndLoc());
      std::string Text =
          Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
      Text.erase(llvm::remove_if(Text, [](char C) { return std::isspace(C); }),
                 Text.end());
      if (!Text.empty() && Text.size() < 80)
        return Text;
    }
    return M.Name;
  }

  // What the models say a call does, recorded at the call; true when they
  // describe effects of it (the call is then not followed into a body).
  bool applyModel(const FunctionDecl &FD, const Expr *Call, const Expr *Obj,
                  bool Arrow, llvm::ArrayRef<const Expr *> Args) {
    const CallModel &M = Known.lookup(FD);
    if (M.Visits)
      visit(*M.Visits, FD, Args);
    if (M.Effects.empty())
      return false;
    for (const Expr *Arg : Args)
      if (streamObject(Arg))
        consume(Arg);
    for (const ModelEntry *E : M.Effects)
      if (applies(*E, FD, Args))
        recordModelled(*E, M, FD, Call, Obj, Arrow, Args);
    return true;
  }

  // std::for_each(first, last, [](float &x) { x = 0; }): the lambda's
  // parameter stands for each element, an alias taken at the call.
  void visit(const ModelVisit &V, const FunctionDecl &FD,
             llvm::ArrayRef<const Expr *> Args) {
    int C = Known.paramIndex(FD, V.Callable);
    int E = Known.paramIndex(FD, V.Elements);
    if (C < 0 || E < 0 || unsigned(C) >= Args.size() ||
        unsigned(E) >= Args.size())
      return;
    // Passed by value: the copy of the closure.
    const Expr *Fn = skipCopies(Args[C]);
    // A local initialised with the lambda (`auto scale = [](float &x)...`).
    if (const VarDecl *Local = Alias.localVar(Fn); Local && Local->getInit())
      Fn = skipCopies(Local->getInit());
    const auto *L = dyn_cast_or_null<LambdaExpr>(Fn);
    const CXXMethodDecl *Op = L ? L->getCallOperator() : nullptr;
    if (Op && Op->getNumParams() > 0)
      Alias.bindVisited(*Op->getParamDecl(0), Args[E]);
  }

  void recordModelled(const ModelEntry &ME, const CallModel &M,
                      const FunctionDecl &FD, const Expr *Call,
                      const Expr *Obj, bool Arrow,
                      llvm::ArrayRef<const Expr *> Args) {
    switch (ME.Effect) {
    case ModelEffect::Rng:
      return recordModelledDraw(ME, M, FD, Call, Args);
    case ModelEffect::StateWrite:
    case ModelEffect::CounterUpdate:
    case ModelEffect::CacheWrite:
      return recordModelledWrite(ME, FD, Call, Obj, Arrow, Args);
    case ModelEffect::Logging:
    case ModelEffect::Io:
    case ModelEffect::Nondeterminism:
      return recordModelledEvent(ME, M, FD, Call, Args);
    case ModelEffect::Pure:
      return;
    }
  }

  // A draw: from the generator passed in, or from the model's source.
  void recordModelledDraw(const ModelEntry &ME, const CallModel &M,
                          const FunctionDecl &FD, const Expr *Call,
                          llvm::ArrayRef<const Expr *> Args) {
    const SourceLocation L = Call->getBeginLoc();
    EffectFacts E;
    E.May = ME.May;
    E.Kind = EffectKind::UnreplayedRng;
    E.Draws = ME.Draws;
    // A generator passed in: the draw is from that object.
    if (ME.Generator)
      if (const Expr *G = argAt(FD, *ME.Generator, Args);
          G && !isa<CXXDefaultArgExpr>(G) && isNullopt(G) != Truth::Yes) {
        const Expr *Gen = optionalValue(G);
        consume(Gen);
        if (Known.isReplayedGenerator(Gen->getType()))
          return;
        recordOn(std::move(E), changed(Gen), [&] { return describe(Gen); }, L,
                 Gen);
        return;
      }
    E.RngSource = ME.Source;
    if (const ModelSource *S = Known.models().source(ME.Source))
      E.RngSourceText = S->Description;
    std::string Subject = !ME.Subject.empty() ? ME.Subject
                          : ME.Source.empty() ? M.Name
                                              : spelledCallee(Call, M);
    addEffect(std::move(E), Root::of(Root::Unconditional), std::move(Subject),
              "", L, Call);
  }

  // A write, count or cache change of the object or argument the model
  // names, when it outlives the call.
  void recordModelledWrite(const ModelEntry &ME, const FunctionDecl &FD,
                           const Expr *Call, const Expr *Obj, bool Arrow,
                           llvm::ArrayRef<const Expr *> Args) {
    EffectFacts E;
    E.May = ME.May;
    E.Kind = effectKindOf(ME.Effect);
    // State of the process (the seed of rand(), ATen's thread count): it
    // outlives every callable, as an event does.
    if (ME.On.K == ModelTarget::Process) {
      if (Obj) // `ctx.setFlag(true)`: the object's read is part of it
        consume(Obj);
      addEffect(std::move(E), Root::of(Root::Unconditional), ME.Subject,
                calledName(FD, Call), Call->getBeginLoc(), Call);
      return;
    }
    const Expr *Target =
        ME.On.K == ModelTarget::This ? Obj : argAt(FD, ME.On.Arg, Args);
    bool ThroughPointer = ME.On.K == ModelTarget::This && Arrow;
    if (!Target)
      return;
    // `const c10::optional<Tensor>& running_mean`: the tensor inside.
    if (ME.On.K == ModelTarget::Argument)
      Target = optionalValue(Target);
    consume(Target);
    // The object itself, or for an argument what it gives access to: the
    // range an iterator or pointer starts (std::fill, memcpy), the object
    // a handle shares.
    // A handle the model says is rebound (std::swap's): the handle itself.
    Places Ps = ME.Rebinds                      ? Alias.designates(Target)
                : ME.On.K == ModelTarget::Argument ? Alias.storageOf(Target)
                : ThroughPointer                ? Alias.pointsInto(Target)
                                                : changed(Target);
    // The other iterators of the range (std::fill's last) name the same
    // object: part of this change, not reads of their own.
    for (const Expr *Other : Args)
      if (Other != Target)
        if (Places Of = Alias.storageOf(Other); sameObject(Of, Ps))
          for (const Place &P : Of)
            if (P.Named)
              consume(P.Named);
    // What of the object the model says is written (a module's
    // running_mean), or the object; an iterator or pointer a call returns
    // (g_vec.begin()) by the object it points into.
    auto Subject = [&]() -> std::string {
      if (!ME.Subject.empty())
        return ME.Subject;
      if (ME.On.K == ModelTarget::Argument &&
          isa<CallExpr>(Target->IgnoreParenImpCasts()))
        return {};
      return describeObject(Target, ThroughPointer);
    };
    E.Detail = calledName(FD, Call);
    recordOn(std::move(E), Ps, Subject, Call->getBeginLoc(), Target);
  }

  // The name a call is written with: a function's, or for a function
  // object's operator() the object's (`std::ranges::sort(v)` calls the
  // variable `sort`).
  static std::string calledName(const FunctionDecl &FD, const Expr *Call) {
    const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
    if (OC && OC->getOperator() == OO_Call && OC->getNumArgs() > 0)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
        if (isa<VarDecl>(DRE->getDecl()) && DRE->getDecl()->getIdentifier())
          return DRE->getDecl()->getName().str();
    return FD.getNameAsString();
  }

  // An expression that hands out another object: a named function that
  // returns an alias (`std::get<0>(t)`, `std::tie(a, b)`), or a temporary
  // view or handle a call or constructor returns (`w.noalias()`,
  // `x.view(-1)`, `x[0]` of a tensor, `Map<V>(p, n)`). Operators on
  // objects (`v[i]`, `m(0, 0)`) are the object's own syntax.
  static bool isCallThrough(const Expr *E) {
    E = skipWrappers(E);
    if (!E)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      if (isIdentityCall(*CE))
        return false;
      if (!isa<CXXOperatorCallExpr>(CE))
        return true;
    } else if (!isa<CXXConstructExpr>(E)) {
      return false;
    }
    return E->isPRValue() && E->getType()->isRecordType();
  }

  // The part of a change's target that hands out the object changed, when
  // there is one: `std::get<0>(t)` in itself, `g.data()` in `g.data()[2]`
  // and `*std::begin(g)`.
  static const Expr *callThrough(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
      if (isCallThrough(E))
        return E;
      E = E->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(E);
          UO && UO->getOpcode() == UO_Deref)
        E = UO->getSubExpr();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase();
      else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
        E = ME->getBase();
      else
        return nullptr;
    }
    return nullptr;
  }

  // How a message names the alias variable a change went through.
  static std::string aliasName(const VarDecl &V) {
    const auto *D = dyn_cast<DecompositionDecl>(&V);
    if (!D)
      return V.getNameAsString();
    std::string Out = "[";
    for (const BindingDecl *B : D->bindings())
      Out += (Out.size() > 1 ? ", " : "") + B->getNameAsString();
    return Out + "]";
  }

  // The declaration that names a place's object, if any.
  static const Decl *namedDecl(const Place &P) {
    const Expr *N = P.Named ? P.Named->IgnoreParenImpCasts() : nullptr;
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(N))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(N))
      return ME->getMemberDecl();
    return nullptr;
  }

  // Whether two sets of places share an object.
  static bool sameObject(const Places &A, const Places &B) {
    for (const Place &X : A)
      for (const Place &Y : B)
        if (X.K == Y.K && !X.isLocal() &&
            (X.K == Place::Alias      ? X.Var == Y.Var
             : X.K == Place::Returned ? X.Call == Y.Call
                                      : X.R == Y.R &&
                                            namedDecl(X) == namedDecl(Y)))
          return true;
    return false;
  }

  // Logging, I/O or a nondeterministic read: happens whatever the roots.
  void recordModelledEvent(const ModelEntry &ME, const CallModel &M,
                           const FunctionDecl &FD, const Expr *Call,
                           llvm::ArrayRef<const Expr *> Args) {
    EffectFacts E;
    E.May = ME.May;
    E.Kind = effectKindOf(ME.Effect);
    if (ME.StdStreamArg)
      if (const Expr *S = argAt(FD, *ME.StdStreamArg, Args);
          S && isStdStream(S))
        E.Kind = EffectKind::Logging;
    std::string Subject = M.Name;
    if (!ME.Subject.empty())
      Subject = ME.Subject;
    else if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
      Subject = canonicalName(*Ctor->getParent());
    addEffect(std::move(E), Root::of(Root::Unconditional), std::move(Subject),
              "", Call->getBeginLoc(),
              isa<CXXConstructExpr>(Call) ? nullptr : Call);
  }

  // Reading or writing a file stream: I/O when the stream outlives the call;
  // a local stream's I/O was reported where it was opened.
  void recordStream(const Expr *Stream, SourceLocation L, std::string Op) {
    consume(Stream);
    EffectFacts F;
    F.Kind = EffectKind::Io;
    F.Detail = std::move(Op);
    recordOn(std::move(F), Alias.designates(Stream),
             [&] { return describe(Stream); }, L, Stream);
  }

  void addCall(const FunctionDecl &Callee, const Expr *Call, SourceLocation L,
               const Expr *Obj, llvm::ArrayRef<const Expr *> Args,
               bool Virtual, bool Arrow = false) {
    if (GuardDepth > 0)
      return;
    // A lambda defined in this body was walked as part of it.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&Callee))
      if (MD->getParent()->isLambda() && isInside(MD->getParent()))
        return;
    CallSite C;
    C.Callee = &Callee;
    C.Call = Call;
    C.Loc = loc(L);
    C.Virtual = Virtual;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&Callee);
        Obj && MD && !MD->isConst() && !MD->isStatic())
      markMutatedBy(objectPath(Obj, Arrow), C.Loc, 0);
    // The roots of the object and the arguments are known once the body's
    // aliases are (flushAliases).
    PendingCall P;
    P.Index = Out.Calls.size();
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&Callee))
      P.ObjectChanges = !MD->isConst() && !MD->isStatic();
    // A handle's methods act on the object it shares.
    if (Obj)
      P.Object = Arrow ? Alias.pointsInto(Obj) : changed(Obj);
    if (Virtual && Obj) {
      const Expr *O = Obj->IgnoreParenImpCasts();
      QualType T = Arrow ? O->getType()->getPointeeType() : O->getType();
      C.StaticClass = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
      // An object, not a reference or pointer: its dynamic type is known.
      const auto *DRE = dyn_cast<DeclRefExpr>(O);
      bool Exact = !Arrow && (isa<MaterializeTemporaryExpr>(O) ||
                              isa<CXXTemporaryObjectExpr>(O) ||
                              (DRE && isa<VarDecl>(DRE->getDecl()) &&
                               !DRE->getDecl()->getType()->isReferenceType()));
      const auto *MD = dyn_cast<CXXMethodDecl>(&Callee);
      if (Exact && MD && C.StaticClass) {
        if (const CXXMethodDecl *Final =
                MD->getCorrespondingMethodInClass(C.StaticClass))
          C.Callee = Final;
        C.Virtual = false;
      }
    }
    for (unsigned I = 0; I < Callee.getNumParams() && I < Args.size(); ++I) {
      QualType PT = Callee.getParamDecl(I)->getType();
      Places &Arg = P.Args.emplace_back();
      if (Known.isHandle(PT)) {
        // A handle, by value or by reference, shares its object: what the
        // callee changes through it lands there.
        if (PT->isReferenceType() &&
            !PT.getNonReferenceType().isConstQualified())
          consume(Args[I]);
        Arg = Alias.pointsInto(Args[I]);
      } else if (PT->isReferenceType() &&
                 !PT.getNonReferenceType().isConstQualified()) {
        // Bound to the callee, which says what it does with it.
        consume(Args[I]);
        Arg = Alias.designates(Args[I]);
      } else if (PT->isPointerType() &&
                 !PT->getPointeeType().isConstQualified()) {
        Arg = Alias.pointsInto(Args[I]);
      } else if (PT->isRecordType() && Alias.isAliasValue(Args[I])) {
        // An iterator, a span, a view passed by value: the callee reaches
        // what it points into.
        Arg = Alias.pointsInto(Args[I]);
      } else if (PT->isRecordType() && Known.copies().shares(PT)) {
        // A struct holding pointers passed by value: they still point at
        // what the argument's do.
        Arg = Alias.sharedBy(Args[I]);
      }
    }
    // Roots known now (most calls: no local alias, nothing returned) are
    // set now; the others wait for the body's aliases.
    auto Direct = [](const Places &Ps) {
      return llvm::all_of(Ps, [](const Place &X) { return X.K == Place::Root; });
    };
    if (Direct(P.Object) && llvm::all_of(P.Args, Direct)) {
      C.Object = pickRoot(P.Object, C.Loc, 0, P.ObjectChanges);
      for (unsigned I = 0; I < P.Args.size(); ++I)
        C.Args.push_back(pickRoot(P.Args[I], C.Loc, I + 1));
    } else {
      Pending.push_back(std::move(P));
    }
    Out.Calls.push_back(std::move(C));
  }

  // --- what aliases resolve to --------------------------------------------

  std::optional<unsigned> callIndex(const Expr *Call) const {
    // Asked only for what a call returns through a write or an alias: the
    // index is built the first time.
    if (CallIndex.empty())
      for (unsigned I = 0; I < Out.Calls.size(); ++I)
        if (Out.Calls[I].Call)
          CallIndex.try_emplace(Out.Calls[I].Call, I);
    auto It = CallIndex.find(Call);
    if (It == CallIndex.end() || It->second > 0xffff)
      return std::nullopt;
    return It->second;
  }

  // How a message names the object outside a place.
  std::string nameOf(const Place &P) const {
    if (P.Named)
      return describe(P.Named);
    return P.R.K == Root::This ? "*this" : "expression";
  }

  // A place's roots, through its local alias when it is one: roots outside
  // and what calls return (Root::Returned), each with the place it came
  // from.
  template <class Fn> void forEachTarget(const Place &P, Fn Each) {
    auto One = [&](const Place &T) {
      if (T.K == Place::Root) {
        if (T.R.isOutside())
          Each(T, T.R);
      } else if (T.K == Place::Returned) {
        if (std::optional<unsigned> I = callIndex(T.Call))
          Each(T, Root::of(Root::Returned, *I));
      }
    };
    if (P.K != Place::Alias)
      return One(P);
    for (const Place &T : Alias.resolve(P.Var))
      One(T);
  }

  // The first root outside among places: what a call's object or argument
  // is. The reads that name it are what the call may change (MutatedAt).
  // The object of a call (Slot 0) marks the reads that took an alias of it
  // when the method may change it (Changes); its own read is marked where
  // the call is made.
  Root pickRoot(const Places &Ps, SourceLocation CallLoc, unsigned Slot,
                bool Changes = true) {
    std::optional<Root> Chosen;
    for (const Place &P : Ps)
      forEachTarget(P, [&](const Place &T, Root R) {
        if (T.Named && (Slot || (Changes && P.K == Place::Alias)))
          markMutatedBy(T.Named, CallLoc, Slot);
        if (!Chosen)
          Chosen = R;
      });
    return Chosen.value_or(Root::local());
  }

  // Once the body is walked, every binding of its aliases is known: the
  // changes through them, the roots of its calls and what it returns.
  void flushAliases() {
    for (const PendingChange &C : Changes)
      forEachTarget(C.P, [&](const Place &T, Root R) {
        if (C.F.Kind == EffectKind::GlobalRead) // readThrough
          return T.K == Place::Root ? readOf(T, C.Target, C.Loc) : void();
        if (logsThrough(T, C.F, C.Loc))
          return;
        EffectFacts F = C.F;
        if (F.May.empty())
          F.May = T.May.str();
        SourceLocation At;
        if (C.P.K == Place::Alias) {
          F.Via = aliasName(*C.P.Var);
          At = T.At;
        }
        // Through a local alias of a global: the read that took it is part
        // of this change.
        if (T.K == Place::Root) {
          F.Subject = nameOf(T);
          if (T.Named)
            consume(T.Named);
        } else if (C.P.K == Place::Alias) {
          F.Subject = describe(T.Call);
        } else if (F.Subject.empty()) {
          F.Subject = describe(C.Target);
        }
        Effect E;
        E.setFacts(Pool.intern(std::move(F)));
        E.Target = R;
        E.Loc = C.Loc;
        E.AliasAt = At;
        Out.Effects.push_back(std::move(E));
      });
    for (const PendingCall &P : Pending) {
      CallSite &C = Out.Calls[P.Index];
      C.Object = pickRoot(P.Object, C.Loc, 0, P.ObjectChanges);
      for (unsigned I = 0; I < P.Args.size(); ++I)
        C.Args.push_back(pickRoot(P.Args[I], C.Loc, I + 1));
    }
    for (const Places &Ps : PendingReturns)
      for (const Place &P : Ps)
        forEachTarget(P, [&](const Place &T, Root R) {
          if (R.K == Root::Capture)
            return; // no caller can map it
          ReturnedAlias RA;
          RA.R = R;
          if (R.K == Root::Static && T.Named) {
            ReturnedReads.insert(T.Named->IgnoreParenImpCasts());
            if (const auto *DRE = dyn_cast<DeclRefExpr>(
                    T.Named->IgnoreParenImpCasts()))
              RA.Var = dyn_cast<VarDecl>(DRE->getDecl());
            else if (const auto *ME = dyn_cast<MemberExpr>(
                         T.Named->IgnoreParenImpCasts()))
              RA.Var = dyn_cast<VarDecl>(ME->getMemberDecl());
          }
          if (!llvm::is_contained(Out.Returns, RA))
            Out.Returns.push_back(RA);
        });
  }

  // The variable at the base of an lvalue path (g in g.a[i].b) is used by the
  // effect just recorded, not read for its value.
  void consume(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
      E = E->IgnoreParenImpCasts();
      Consumed.insert(E);
      if (const auto *ME = dyn_cast<MemberExpr>(E))
        E = ME->getBase();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase();
      else if (const auto *UO = dyn_cast<UnaryOperator>(E))
        E = UO->getSubExpr();
      else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
        E = OC->getNumArgs() ? OC->getArg(0) : nullptr;
      else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
        E = MC->getImplicitObjectArgument();
      else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
        E = Cast->getSubExpr();
      else
        break;
    }
  }

  // What names the object of a member call: Obj, or the pointer it is
  // reached through (`p->f()`, `sp->f()`, `(*p).f()`). Reading that pointer
  // takes an alias the call may change: the read is part of the change.
  static const Expr *objectPath(const Expr *Obj, bool Arrow) {
    const Expr *E = Obj->IgnoreParenImpCasts();
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
    if (OC && OC->getNumArgs() == 1 &&
        OC->getOperator() == (Arrow ? OO_Arrow : OO_Star))
      return OC->getArg(0);
    if (Arrow)
      return Obj;
    const auto *UO = dyn_cast<UnaryOperator>(E);
    return UO && UO->getOpcode() == UO_Deref ? UO->getSubExpr() : Obj;
  }

  // The objects along Obj's path (g in g.a[i]) are what a non-const member
  // call at L may change.
  // Slot: 0 when the object is the call's object, I + 1 when it is (or an
  // alias of it is) argument I.
  void markMutatedBy(const Expr *E, SourceLocation L, unsigned Slot) {
    for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
      E = E->IgnoreParenImpCasts();
      MutatedBy.try_emplace(E, L, Slot);
      if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
        E = ME->getBase();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
               AS && AS->getBase()->IgnoreParenImpCasts()->getType()
                         ->isArrayType())
        E = AS->getBase();
      else
        break;
    }
  }

  void flushReads() {
    for (const PendingRead &R : Reads) {
      if (Consumed.contains(R.E))
        continue;
      Effect E;
      if (auto It = MutatedBy.find(R.E); It != MutatedBy.end()) {
        E.MutatedAt = It->second.first;
        E.MutatedSlot = static_cast<std::uint16_t>(
            std::min<unsigned>(It->second.second, 0xffff));
      }
      E.ReturnedRead = ReturnedReads.contains(R.E);
      EffectFacts Facts;
      Facts.Kind = EffectKind::GlobalRead;
      Facts.Subject = canonicalName(*R.VD);
      E.setFacts(Pool.intern(std::move(Facts)));
      E.Target = Root::of(Root::Static);
      E.Loc = R.Loc;
      E.Var = R.VD;
      E.Spelled = R.Unqualified && R.VD->isFileVarDecl();
      Out.Effects.push_back(std::move(E));
    }
  }

  bool isMutableGlobal(const VarDecl *VD) {
    if (!VD->hasGlobalStorage() || VD->isConstexpr())
      return false;
    QualType T = Ctx.getBaseElementType(VD->getType().getNonReferenceType());
    if (T.isConstQualified() || isStateless(T))
      return false;
    if (SM.isInSystemHeader(VD->getLocation()))
      return false;
    if (Known.isAllowedGlobal(*VD))
      return false;
    return GuardDepth == 0;
  }

  // An object of a class of the project's own without data members, in it
  // or its bases (a stateless singleton, a policy object): nothing in it
  // can change between the passes; its virtual table pointer is not state.
  // A library's class, or one the models name (a project container), is
  // taken to hold state, whatever its declaration shows.
  bool isStateless(QualType T) const {
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition() || !RD->field_empty() ||
        SM.isInSystemHeader(RD->getLocation()) || Known.isModelledType(T))
      return false;
    return llvm::all_of(RD->bases(), [&](const CXXBaseSpecifier &B) {
      return isStateless(B.getType());
    });
  }

  bool isMapSubscript(const Expr *E) const {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
    return OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() > 0 &&
           Known.isMapLike(OC->getArg(0)->getType());
  }

  bool isReplayedEngineAccess(const Expr *E) const {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
    return MC && MC->getImplicitObjectArgument() &&
           Known.isReplayedGenerator(
               MC->getImplicitObjectArgument()->getType());
  }

  static bool isCompoundAssignOperator(OverloadedOperatorKind Op) {
    switch (Op) {
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
    case OO_PercentEqual:
    case OO_CaretEqual:
    case OO_AmpEqual:
    case OO_PipeEqual:
    case OO_LessLessEqual:
    case OO_GreaterGreaterEqual:
      return true;
    default:
      return false;
    }
  }

  const VarDecl *streamObject(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (Known.isLogStream(*VD))
          return VD;
    return nullptr;
  }

  std::string typeName(QualType T) const {
    T = T.getNonReferenceType().getUnqualifiedType();
    PrintingPolicy P(Ctx.getLangOpts());
    P.SuppressTagKeyword = true;
    P.SuppressScope = false;
    P.FullyQualifiedName = true;
    P.SuppressInlineNamespace = true;
    std::string S = T.getAsString(P);
    return S;
  }

  // How an lvalue is named in a message: the source text when it is short.
  std::string describe(const Expr *E) const { return describeExpr(E, Ctx); }

  const FunctionDecl &FD;
  ASTContext &Ctx;
  const SourceManager &SM;
  const KnownFunctions &Known;
  FactsPool &Pool;
  DirectFacts &Out;
  BodyObserver *Observer;
  unsigned Untold = 0; // inside what is not the body's own nodes

  Aliases Alias; // what the body's pointers, references and views reach
  // A change through a local alias or a returned value (recordOn).
  struct PendingChange {
    EffectFacts F;
    Place P;
    const Expr *Target;
    SourceLocation Loc;
  };
  std::vector<PendingChange> Changes;
  // A call's object and arguments, as places (addCall).
  struct PendingCall {
    unsigned Index;
    bool ObjectChanges = false; // a non-const method
    Places Object;
    llvm::SmallVector<Places, 4> Args;
  };
  std::vector<PendingCall> Pending;
  // Into Out.Calls, by call expression; built when first asked, once every
  // call is in.
  mutable llvm::DenseMap<const Expr *, unsigned> CallIndex;
  std::vector<Places> PendingReturns;
  llvm::SmallPtrSet<const Expr *, 4> ReturnedReads;
  unsigned Nested = 0; // inside a lambda or local class of the body
  unsigned GuardDepth = 0;
  SourceLocation LocOverride;
  std::vector<PendingRead> Reads;
  llvm::SmallPtrSet<const Expr *, 32> Consumed;
  llvm::DenseMap<const Expr *, std::pair<SourceLocation, unsigned>> MutatedBy;
  llvm::SmallPtrSet<const CXXOperatorCallExpr *, 8> InnerShifts;
};

} // namespace
DirectFacts collectDirectFacts(const FunctionDecl &FD, ASTContext &Ctx,
                               const KnownFunctions &Known, FactsPool &Pool,
                               BodyObserver *Observer) {
  DirectFacts Out;
  BodyWalker(FD, Ctx, Known, Pool, Out, Observer).run();
  return Out;
}

} // namespace clang::tidy::rematch
