//===--- GlobalWrites.cpp - which globals anything writes -----------------===//

#include "GlobalWrites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::rematch {

// Reading is the narrow, provable case: every use this does not recognise
// as a read counts as a possible write.
void GlobalUseCollector::onStmt(const Stmt &S) {
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(&S)) {
    // A read, or a binding to a reference to const (`return g;` from a
    // function returning `const T &`): nothing writes through it.
    if (IC->getCastKind() == CK_LValueToRValue ||
        (IC->getCastKind() == CK_NoOp && IC->isGLValue() &&
         IC->getType().isConstQualified()))
      markRead(IC->getSubExpr());
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&S)) {
    if (isGlobal(DRE->getDecl()))
      Uses.push_back(DRE);
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(&S)) {
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
      if (VD->hasGlobalStorage())
        Uses.push_back(ME);
    return;
  }
  // `for (float v : g_table)`: the loop reads the elements of a library
  // container when its variable is a copy or a reference to const.
  if (const auto *FR = dyn_cast<CXXForRangeStmt>(&S)) {
    const VarDecl *V = FR->getLoopVariable();
    QualType T = V ? V->getType() : QualType();
    if (V && (!T->isReferenceType() ||
              T.getNonReferenceType().isConstQualified()) &&
        readsThroughTwins(*FR))
      markRead(FR->getRangeInit());
    return;
  }
  const auto *CE = dyn_cast<CallExpr>(&S);
  if (!CE)
    return;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const auto *Callee = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (MD && (MD->isConst() || MD->isStatic()) && Callee &&
        !Callee->isArrow())
      markRead(MC->getImplicitObjectArgument());
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getCalleeDecl()))
      if (MD->isConst() && OC->getNumArgs() > 0)
        markRead(OC->getArg(0));
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return;
  // std::as_const takes a T& to hand back a const T&.
  if (FD->isInStdNamespace() && FD->getIdentifier() &&
      FD->getName() == "as_const" && CE->getNumArgs() == 1) {
    markRead(CE->getArg(0));
    return;
  }
  unsigned Offset = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
  for (unsigned I = Offset; I < CE->getNumArgs(); ++I) {
    unsigned P = I - Offset;
    if (P >= FD->getNumParams())
      break;
    QualType T = FD->getParamDecl(P)->getType();
    if (T->isReferenceType() && T.getNonReferenceType().isConstQualified())
      markRead(CE->getArg(I));
  }
}

void GlobalUseCollector::onVarDecl(const VarDecl &VD) {
  // `const T &r = g;` reads.
  QualType T = VD.getType();
  if (VD.getInit() && T->isReferenceType() &&
      T.getNonReferenceType().isConstQualified())
    markRead(VD.getInit());
}

namespace {
const VarDecl *usedVar(const Expr *E) {
  const ValueDecl *D = isa<DeclRefExpr>(E)
                           ? cast<DeclRefExpr>(E)->getDecl()
                           : cast<MemberExpr>(E)->getMemberDecl();
  return cast<VarDecl>(D)->getCanonicalDecl();
}
} // namespace

llvm::DenseSet<const VarDecl *> GlobalUseCollector::result() const {
  llvm::DenseSet<const VarDecl *> Out;
  for (const Expr *E : Uses)
    if (!ReadOnly.contains(E))
      Out.insert(usedVar(E));
  for (const VarDecl *VD : Replayed)
    Out.insert(VD->getCanonicalDecl());
  return Out;
}

std::vector<const VarDecl *>
GlobalUseCollector::modifiedSince(size_t Mark) const {
  std::vector<const VarDecl *> Out;
  for (size_t I = Mark; I < Uses.size(); ++I)
    if (!ReadOnly.contains(Uses[I]))
      if (const VarDecl *VD = usedVar(Uses[I]); !llvm::is_contained(Out, VD))
        Out.push_back(VD);
  return Out;
}

// A variable with static (or thread) storage duration. Parameters and
// plain locals, the commonest names in a body, are answered without asking
// for the storage duration.
bool GlobalUseCollector::isGlobal(const ValueDecl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || isa<ParmVarDecl>(VD))
    return false;
  if (VD->getStorageClass() == SC_None &&
      VD->getTSCSpec() == TSCS_unspecified &&
      VD->getDeclContext()->isFunctionOrMethod())
    return false;
  return VD->hasGlobalStorage();
}

// A library's non-const accessor that has a const twin (the same name and
// parameters, const-qualified: `vector::operator[]`, `at`, `front`,
// `begin`): called on a non-const object only because the object is not
// const, it changes nothing, so when its result is only read, so is its
// object. `map::operator[]`, which inserts, has no twin. Only in system
// headers: a user's non-const twin may initialise or mark state.
bool GlobalUseCollector::hasConstTwin(const CXXMethodDecl *MD) {
  if (!MD || MD->isConst() || MD->isStatic())
    return false;
  const SourceManager &SM = MD->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(SM.getExpansionLoc(MD->getLocation())))
    return false;
  for (const NamedDecl *ND : MD->getParent()->lookup(MD->getDeclName())) {
    const auto *Twin = dyn_cast<CXXMethodDecl>(ND->getUnderlyingDecl());
    if (!Twin || !Twin->isConst() ||
        Twin->getNumParams() != MD->getNumParams())
      continue;
    bool Same = true;
    for (unsigned I = 0; Same && I < MD->getNumParams(); ++I)
      Same = Twin->getParamDecl(I)->getType().getCanonicalType() ==
             MD->getParamDecl(I)->getType().getCanonicalType();
    if (Same)
      return true;
  }
  return false;
}

// Whether a range-for's begin() and end() are such accessors (or a
// built-in array's): its elements are reached without changing the range.
bool GlobalUseCollector::readsThroughTwins(const CXXForRangeStmt &FR) {
  auto Accessor = [](const Stmt *S) {
    const auto *VD = S ? dyn_cast_or_null<VarDecl>(
                             cast<DeclStmt>(S)->getSingleDecl())
                       : nullptr;
    const Expr *Init = VD ? VD->getInit() : nullptr;
    if (!Init)
      return false;
    Init = Init->IgnoreImplicit();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Init))
      return hasConstTwin(MC->getMethodDecl());
    return !isa<CallExpr>(Init); // an array: a pointer to its element
  };
  return Accessor(FR.getBeginStmt()) && Accessor(FR.getEndStmt());
}

// The global at the base of an access path (g, g.a, g.a[2]) is only read.
void GlobalUseCollector::markRead(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
    // Most reads are of a variable named right there: nothing to skip.
    if (!isa<DeclRefExpr>(E))
      E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      // Only uses of globals are looked up in ReadOnly: a local's reads
      // (most of any body) need no entry.
      if (isGlobal(DRE->getDecl()))
        ReadOnly.insert(E);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<VarDecl>(ME->getMemberDecl())) {
        ReadOnly.insert(E);
        return;
      }
      if (ME->isArrow())
        return; // reading through a pointer says nothing of the pointer
      E = ME->getBase();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return;
      E = AS->getBase();
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const auto *Callee = dyn_cast<MemberExpr>(MC->getCallee());
      if (!Callee || Callee->isArrow() || !hasConstTwin(MC->getMethodDecl()))
        return;
      E = MC->getImplicitObjectArgument();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (OC->getNumArgs() == 0 ||
          !hasConstTwin(dyn_cast_or_null<CXXMethodDecl>(OC->getCalleeDecl())))
        return;
      E = OC->getArg(0);
    } else {
      return;
    }
  }
}

} // namespace clang::tidy::rematch
