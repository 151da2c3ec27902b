//===--- GlobalWrites.cpp - which globals anything writes -----------------===//

#include "GlobalWrites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
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
    } else {
      return;
    }
  }
}

} // namespace clang::tidy::rematch
