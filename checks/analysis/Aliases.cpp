//===--- Aliases.cpp - what a body's pointers, references and views reach -===//

#include "Aliases.h"
#include "CheckpointSites.h"
#include "Wrappers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::rematch {

bool isIdentityCall(const CallExpr &CE) {
  const FunctionDecl *FD = CE.getDirectCallee();
  if (!FD || CE.getNumArgs() != 1 || !FD->getIdentifier() ||
      !FD->isInStdNamespace())
    return false;
  StringRef N = FD->getName();
  return N == "move" || N == "forward" || N == "as_const";
}

namespace {

constexpr unsigned MaxDepth = 16;

void append(Places &Out, const Places &In) {
  for (const Place &P : In) {
    if (P.isLocal())
      continue;
    bool Known = llvm::any_of(Out, [&](const Place &Q) {
      return Q.K == P.K && Q.R == P.R && Q.Var == P.Var && Q.Call == P.Call;
    });
    if (!Known)
      Out.push_back(P);
  }
}

bool isClass(QualType T) { return T.getNonReferenceType()->isRecordType(); }

bool allLocal(const Places &Ps) {
  return llvm::all_of(Ps, [](const Place &P) { return P.isLocal(); });
}

} // namespace

Aliases::Aliases(const FunctionDecl &FD, ASTContext &Ctx,
                 const KnownFunctions &Known)
    : FD(FD), Ctx(Ctx), Known(Known) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD)) {
    const CXXRecordDecl *RD = MD->getParent();
    if (RD && RD->isLambda()) {
      Lambda = RD;
      LambdaMutable = !MD->isConst();
    }
  }
}

Root Aliases::thisRoot() const {
  if (!Lambda)
    return Root::of(Root::This);
  for (const LambdaCapture &C : Lambda->captures()) {
    if (C.getCaptureKind() == LCK_This)
      return Root::of(Root::This);
    if (C.getCaptureKind() == LCK_StarThis)
      return LambdaMutable ? Root::of(Root::Capture) : Root::local();
  }
  return Root::of(Root::This);
}

bool Aliases::declaredInside(const VarDecl *VD) const {
  for (const DeclContext *DC = VD->getDeclContext(); DC; DC = DC->getParent())
    if (DC == &FD)
      return true;
  return false;
}

const VarDecl *Aliases::localVar(const Expr *E) const {
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || VD->hasGlobalStorage() || isa<ParmVarDecl>(VD) ||
      !declaredInside(VD))
    return nullptr;
  return VD;
}

// Ref is the expression naming VD; Pointee: the question is about what VD
// points or refers to.
Places Aliases::variable(const VarDecl *VD, const Expr *Ref, bool Pointee) {
  if (VD->hasGlobalStorage())
    return {Place::root(Root::of(Root::Static), Ref)};
  QualType T = VD->getType();
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD);
      PVD && PVD->getDeclContext() == &FD) {
    Root Param = Root::of(Root::Param, PVD->getFunctionScopeIndex());
    if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
      return {Place::root(Param, Ref)};
    // A view by value (`Eigen::Ref<M> pred`): assigning to it writes what
    // it views, the caller's.
    if (!T->isReferenceType() && Known.isView(T) &&
        !T.isConstQualified())
      return {Place::root(Param, Ref)};
    if (std::optional<Places> Now = Pointee ? rebound(*VD, Ref) : std::nullopt)
      return std::move(*Now);
    // What a pointer, reference, handle or iterator parameter points to is
    // the caller's; a copy of a value (a vector, a string) is the callee's.
    if (Pointee && (T->isPointerType() || T->isReferenceType() ||
                    (T->isRecordType() && !Known.copies().owns(T))))
      return {Place::root(Param, Ref)};
    return {};
  }
  if (VD->isInitCapture() && Lambda) {
    // [m = g_steps]: a copy in the closure object (seen again by the
    // recomputation when the lambda is mutable), or a reference.
    if (T->isReferenceType() || LambdaMutable ||
        (Pointee && !Known.copies().owns(T)))
      return {Place::root(Root::of(Root::Capture), Ref)};
    return {};
  }
  if (declaredInside(VD)) {
    // An element of the callable's own container: a slot of it. (Of one
    // outside, the bindings below reach the same roots, with the notes.)
    if (auto It = ElementSlots.find(VD); !Pointee && It != ElementSlots.end())
      if (Places Slot = object(It->second, 1); allLocal(Slot))
        return Slot;
    // The variable itself is local; what it refers to is what its
    // bindings say. A reference, and a view (assigning to it writes
    // through), stand for what they are bound to.
    if (!Pointee && !T->isReferenceType() && !Known.isView(T))
      return {};
    if (std::optional<Places> Now = Pointee ? rebound(*VD, Ref) : std::nullopt)
      return std::move(*Now);
    Place P;
    P.K = Place::Alias;
    P.Var = VD;
    return {P};
  }
  // Declared outside this body: a lambda capture.
  if (Lambda)
    for (const LambdaCapture &C : Lambda->captures()) {
      if (!C.capturesVariable() || C.getCapturedVar() != VD)
        continue;
      // A copy is the closure's: seen again by the recomputation only when
      // the lambda is mutable; what a copied handle shares is outside.
      if (C.getCaptureKind() == LCK_ByRef || LambdaMutable ||
          (Pointee && !Known.copies().owns(T)))
        return {Place::root(Root::of(Root::Capture), Ref)};
      return {};
    }
  return {};
}

// A pointer or handle variable the body rebinds in straight line before
// Ref (Rebinds.h): what the values from that rebinding on point into. A
// chain of such rebindings is followed a few steps deep.
std::optional<Places> Aliases::rebound(const VarDecl &V, const Expr *Ref) {
  QualType T = V.getType();
  if (!Ref || T->isReferenceType() ||
      !(T->isPointerType() || Known.isHandle(T)) || RebindDepth > 4)
    return std::nullopt;
  if (!Order)
    Order = std::make_unique<Rebinds>(FD);
  llvm::SmallVector<const Expr *, 2> Values = Order->after(V, *Ref);
  if (Values.empty())
    return std::nullopt;
  Places Out;
  ++RebindDepth;
  for (const Expr *Value : Values)
    Out.append(pointee(Value, 1));
  --RebindDepth;
  return Out;
}

Places Aliases::object(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return {};
  E = skipWrappersToObject(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return variable(VD, DRE, /*Pointee=*/false);
    if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
      // A tuple-like binding is a hidden reference initialised with
      // get<I>(e), which the walk does not visit.
      if (const VarDecl *Holding = BD->getHoldingVar())
        return object(Holding->getInit(), Depth + 1);
      return object(BD->getBinding(), Depth + 1);
    }
    return {};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<VarDecl>(ME->getMemberDecl()))
      return {Place::root(Root::of(Root::Static), ME)};
    Places Out = ME->isArrow() ? pointee(ME->getBase(), Depth + 1)
                               : object(ME->getBase(), Depth + 1);
    // `this->cache_` is named by its member.
    for (Place &P : Out)
      if (P.K == Place::Root &&
          (!P.Named || isa<CXXThisExpr>(P.Named->IgnoreParenImpCasts())))
        P.Named = ME;
    return Out;
  }
  if (isa<CXXThisExpr>(E))
    return {Place::root(thisRoot())};
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return pointee(UO->getSubExpr(), Depth + 1);
    if (UO->isPrefix()) // ++x is x
      return object(UO->getSubExpr(), Depth + 1);
    return {};
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *B = AS->getBase()->IgnoreParenImpCasts();
    if (B->getType()->isArrayType())
      return object(B, Depth + 1);
    return pointee(AS->getBase(), Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) // (x = y) is x
      return object(BO->getLHS(), Depth + 1);
    if (BO->getOpcode() == BO_Comma)
      return object(BO->getRHS(), Depth + 1);
    return {};
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Places Out = object(CO->getTrueExpr(), Depth + 1);
    append(Out, object(CO->getFalseExpr(), Depth + 1));
    return Out;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return object(Cast->getSubExpr(), Depth + 1);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return objectOfOperator(*OC, Depth);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (isIdentityCall(*CE))
      return object(CE->getArg(0), Depth + 1);
    return result(CE, Depth + 1);
  }
  // A temporary that stands for another object (Eigen's Map): assigning to
  // it writes through.
  if (isa<CXXConstructExpr>(E) && aliasValue(E, Depth + 1))
    return pointee(E, Depth + 1);
  return {};
}

Places Aliases::pointee(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return {};
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    if (IC->getCastKind() == CK_ArrayToPointerDecay)
      return object(IC->getSubExpr(), Depth + 1);
    if (IC->getCastKind() == CK_FunctionToPointerDecay ||
        IC->getCastKind() == CK_NullToPointer)
      return {};
    return pointee(IC->getSubExpr(), Depth + 1);
  }
  E = skipWrappersToObject(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return object(UO->getSubExpr(), Depth + 1);
    if (UO->isIncrementDecrementOp())
      return pointee(UO->getSubExpr(), Depth + 1);
    if (UO->getOpcode() == UO_Deref) // a pointer stored where *p is
      return object(UO, Depth + 1);
    return {};
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp() && BO->getType()->isPointerType())
      return pointee(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                              : BO->getRHS(),
                     Depth + 1);
    if (BO->getOpcode() == BO_Comma)
      return pointee(BO->getRHS(), Depth + 1);
    if (BO->isAssignmentOp())
      return pointee(BO->getLHS(), Depth + 1);
    return {};
  }
  if (isa<CXXThisExpr>(E))
    return {Place::root(thisRoot())};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return variable(VD, DRE, /*Pointee=*/true);
    if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
      if (const VarDecl *Holding = BD->getHoldingVar())
        return pointee(Holding->getInit(), Depth + 1);
      return pointee(BD->getBinding(), Depth + 1);
    }
    return {};
  }
  // A pointer or handle kept in a member, or in an element of an array or
  // container of them, points where that member or container is owned.
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return pointeeOfMember(*ME, Depth);
  if (isa<ArraySubscriptExpr>(E))
    return Known.isHandle(E->getType()) ? object(E, Depth + 1) : Places{};
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Places Out = pointee(CO->getTrueExpr(), Depth + 1);
    append(Out, pointee(CO->getFalseExpr(), Depth + 1));
    return Out;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return pointee(Cast->getSubExpr(), Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return pointeeOfCall(*CE, Depth);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return pointeeOfConstruct(*CE, Depth);
  return {};
}

// The object an overloaded operator's result designates: `*it`, `p->x`'s
// `p->`, the left operand of an assignment, else what the call returns.
Places Aliases::objectOfOperator(const CXXOperatorCallExpr &OC,
                                 unsigned Depth) {
  if (OC.getNumArgs() == 0)
    return {};
  OverloadedOperatorKind Op = OC.getOperator();
  if (Op == OO_Star && OC.getNumArgs() == 1)
    if (const VarDecl *It = localVar(OC.getArg(0)))
      if (auto Slot = IteratorSlots.find(It); Slot != IteratorSlots.end())
        if (Places P = object(Slot->second, Depth + 1); allLocal(P))
          return P;
  if ((Op == OO_Star && OC.getNumArgs() == 1) || Op == OO_Arrow)
    return pointee(OC.getArg(0), Depth + 1);
  // An assignment's result is its left operand.
  if (Op == OO_Equal || (Op >= OO_PlusEqual && Op <= OO_PipeEqual) ||
      Op == OO_LessLessEqual || Op == OO_GreaterGreaterEqual)
    return object(OC.getArg(0), Depth + 1);
  return result(&OC, Depth + 1);
}

// What a pointer or handle member points into.
Places Aliases::pointeeOfMember(const MemberExpr &ME, unsigned Depth) {
  if (!ME.isArrow())
    if (const VarDecl *V = localVar(ME.getBase())) {
      if (auto It = MemberPointees.find(V); It != MemberPointees.end())
        return It->second;
      // A copy of another copy of a structure that shares (`Workspace
      // w2 = ws;` of a captured ws): its members point where that one's
      // do, which its binding says.
      QualType T = V->getType();
      if (T->isRecordType() && !Known.isHandle(T) && !Known.isView(T) &&
          Bindings.count(V))
        return resolve(V);
    }
  // A pointer in a by-value parameter or capture points where the
  // original's does: outside, with what the copy shares.
  if (const DeclRefExpr *Copy = copiedIn(&ME))
    return variable(cast<VarDecl>(Copy->getDecl()), Copy, /*Pointee=*/true);
  return object(&ME, Depth + 1);
}

// What the pointer or handle a call returns points at.
Places Aliases::pointeeOfCall(const CallExpr &Call, unsigned Depth) {
  const CallExpr *CE = &Call;
  if (isIdentityCall(*CE))
    return pointee(CE->getArg(0), Depth + 1);
  // `it->`: the pointer operator-> returns points where `it` does.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      OC && OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
    return pointee(OC->getArg(0), Depth + 1);
  // inputs[0] of a list of handles shares the object the list holds; so
  // does a pointer in a by-value copy of a list of pointers.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
      (Known.isHandle(OC->getType()) ||
       (OC->getType()->isPointerType() && copiedIn(OC->getArg(0)))))
    return pointee(OC->getArg(0), Depth + 1);
  QualType T = CE->getType();
  if (!CE->isGLValue() && (T->isPointerType() || isClass(T)))
    return result(CE, Depth + 1);
  // A handle element of a container (`v.front()`, `opt.value()`) points
  // where the container's handles do. Another reference to a handle held
  // somewhere: its object is where it is held. A pointer read out of a
  // container points nobody knows where.
  if (CE->isGLValue() && Known.isHandle(T)) {
    if (const Expr *Owner = elementOwner(*CE))
      return pointee(Owner, Depth + 1);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
        OC && OC->getOperator() == OO_Star && OC->getNumArgs() == 1)
      return pointee(OC->getArg(0), Depth + 1);
    return object(CE, Depth + 1);
  }
  return {};
}

// What the pointer or handle a construction makes points at: the copied
// one's, or what the model says (span(v), Map(p, n), reference_wrapper(x)).
Places Aliases::pointeeOfConstruct(const CXXConstructExpr &Construct,
                                   unsigned Depth) {
  const CXXConstructExpr *CE = &Construct;
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
    return aliasValue(CE->getArg(0), Depth + 1)
               ? pointee(CE->getArg(0), Depth + 1)
               : Places{};
  // span(v), Map(p, n), reference_wrapper(x): what the model says.
  if (const AliasRule *R = Known.lookup(*Ctor).Returns) {
    llvm::ArrayRef<const Expr *> Args(CE->getArgs(), CE->getNumArgs());
    Places Out;
    if (R->K == AliasRule::Argument) {
      int I = Known.paramIndex(*Ctor, R->Arg);
      if (I >= 0 && unsigned(I) < Args.size())
        Out = storage(Args[I], Depth + 1);
    } else if (R->K == AliasRule::Arguments) {
      for (const Expr *A : Args)
        append(Out, storage(A, Depth + 1));
    }
    for (Place &P : Out)
      if (P.May.empty())
        P.May = R->May;
    return Out;
  }
  // A view the models list, built from what no rule describes (an
  // Eigen::Ref from a matrix, at a call's implicit conversion): it views
  // the objects, and what the pointers point to, it was built from.
  if (Known.isView(CE->getType())) {
    Places Out;
    for (const Expr *A : CE->arguments()) {
      QualType AT = A->getType();
      if (AT->isPointerType() || (isClass(AT) && A->isGLValue()))
        append(Out, storage(A, Depth + 1));
    }
    return Out;
  }
  return {};
}

Places Aliases::storage(const Expr *E, unsigned Depth) {
  if (!E)
    return {};
  QualType T = E->getType();
  if (T->isPointerType() || (isClass(T) && aliasValue(E, Depth + 1)))
    return pointee(E, Depth + 1);
  return object(E, Depth + 1);
}

Places Aliases::sharedBy(const Expr *E) {
  E = skipWrappersToObject(E);
  if (!E)
    return {};
  Places Out;
  auto Part = [&](const Expr *A) {
    if (A && Known.copies().shares(A->getType()))
      append(Out, storage(A, 0));
  };
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      Part(I);
    return Out;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 1 &&
        CE->getConstructor()->isCopyOrMoveConstructor())
      return sharedBy(CE->getArg(0));
    for (const Expr *A : CE->arguments())
      Part(A);
    return Out;
  }
  if (const DeclRefExpr *Copy = copiedIn(E))
    return variable(cast<VarDecl>(Copy->getDecl()), Copy, /*Pointee=*/true);
  if (const VarDecl *V = localVar(E)) {
    if (auto It = MemberPointees.find(V); It != MemberPointees.end())
      return It->second;
    // A local container given handles (`p_t.insert(...)`): what its
    // bindings say, once the body's are all known.
    const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
    if (RD && Known.isDeclaredValue(*RD))
      return variable(V, E, /*Pointee=*/true);
  }
  // A struct held somewhere: its pointers point where it is owned.
  return E->isGLValue() ? object(E, 0) : Places{};
}

bool Aliases::aliasValue(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  E = skipWrappersToObject(E);
  QualType T = E->getType();
  if (Known.isHandle(T) || Known.isView(T))
    return true;
  // A value's copy refers to nothing: a vector returned or passed by value.
  if (isClass(T) && Known.copies().owns(T.getNonReferenceType()))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // A local: its bindings, found by the end of the body, tell. A
    // captured copy of a handle (a span, an iterator) refers where the
    // original does.
    return VD && !VD->hasGlobalStorage() &&
           (declaredInside(VD) || copiedIn(DRE));
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return aliasValue(CO->getTrueExpr(), Depth + 1) ||
           aliasValue(CO->getFalseExpr(), Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (isIdentityCall(*CE))
      return aliasValue(CE->getArg(0), Depth + 1);
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return false;
    if (Known.lookup(*Callee).Returns)
      return true;
    // An analysed function: its summary says what it returns.
    return !Known.isModelled(*Callee, Ctx.getSourceManager()) ||
           (!Callee->getDefinition() &&
            !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()));
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
      return aliasValue(CE->getArg(0), Depth + 1);
    return Known.lookup(*Ctor).Returns != nullptr;
  }
  return false;
}

Places Aliases::result(const CallExpr *CE, unsigned Depth) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || Depth > MaxDepth)
    return {};
  CallParts Parts = partsOf(*CE);
  auto ObjectStorage = [&]() -> Places {
    if (!Parts.Object)
      return {};
    return Parts.Arrow ? pointee(Parts.Object, Depth + 1)
                       : storage(Parts.Object, Depth + 1);
  };
  const CallModel &M = Known.lookup(*Callee);
  if (const AliasRule *R = M.Returns) {
    Places Out;
    switch (R->K) {
    case AliasRule::This:
      // An element a container holds lives in the container's own storage
      // (`in[0]` of a copy is the copy's): assigning it rebinds that slot.
      // What a handle element points to is pointeeOfCall's question.
      // Only a container of the callable's own decides that way; outside,
      // the slot and what the handles share have the same roots, and the
      // way through ObjectStorage keeps the aliases that reached them.
      Out = ObjectStorage();
      if (const Expr *Owner = elementOwner(*CE))
        if (Places Slot = Parts.Arrow ? pointee(Owner, Depth + 1)
                                      : object(Owner, Depth + 1);
            allLocal(Slot))
          Out = std::move(Slot);
      break;
    case AliasRule::Argument: {
      int I = Known.paramIndex(*Callee, R->Arg);
      if (I >= 0 && unsigned(I) < Parts.Args.size())
        Out = storage(Parts.Args[I], Depth + 1);
      // `std::get<0>(t)` of the callable's own tuple: a slot of it, as
      // above.
      if (const Expr *Owner = elementOwner(*CE))
        if (Places Slot = object(Owner, Depth + 1); allLocal(Slot))
          Out = std::move(Slot);
      break;
    }
    case AliasRule::Arguments:
      // A reference parameter (std::tie's) refers to the argument object
      // itself, a handle included: assigning through it rebinds the handle.
      for (unsigned I = 0; I < Parts.Args.size(); ++I) {
        bool ByReference = I < Callee->getNumParams() &&
                           Callee->getParamDecl(I)->getType()->isReferenceType();
        append(Out, ByReference ? object(Parts.Args[I], Depth + 1)
                                : storage(Parts.Args[I], Depth + 1));
      }
      break;
    }
    for (Place &P : Out)
      if (P.May.empty())
        P.May = R->May;
    return Out;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = Callee->getDefinition();
  bool Analysed = Def && !Known.isModelled(*Def, SM);
  bool External =
      !Def && !M.Modelled && !SM.isInSystemHeader(Callee->getLocation());
  Places Out;
  if (Analysed || External) {
    // Its summary says what it returns; the composition resolves it.
    Place P;
    P.K = Place::Returned;
    P.Call = CE;
    Out.push_back(P);
    if (Analysed)
      return Out;
  }
  // A library accessor (or one whose summary may be missing) returning a
  // reference hands out part of its object.
  if (CE->isGLValue())
    append(Out, ObjectStorage());
  return Out;
}

const Expr *Aliases::elementOwner(const CallExpr &CE, bool Iterator) const {
  const FunctionDecl *Callee = CE.getDirectCallee();
  if (!Callee || CE.isGLValue() == Iterator ||
      (Iterator && !isClass(CE.getType())))
    return nullptr;
  const AliasRule *R = Known.lookup(*Callee).Returns;
  if (!R)
    return nullptr;
  // Of its object (`v[i]`, `v.begin()`), or of the argument a free
  // accessor hands part of (`std::get<0>(t)`, `std::begin(v)`).
  CallParts Parts = partsOf(CE);
  const Expr *Owner = nullptr;
  if (R->K == AliasRule::This) {
    Owner = Parts.Object;
  } else if (R->K == AliasRule::Argument && !isa<CXXMethodDecl>(Callee)) {
    int I = Known.paramIndex(*Callee, R->Arg);
    if (I >= 0 && unsigned(I) < Parts.Args.size())
      Owner = Parts.Args[I];
  }
  if (!Owner)
    return nullptr;
  QualType T = Owner->getType().getNonReferenceType();
  if (Owner == Parts.Object && Parts.Arrow && T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && Known.isDeclaredValue(*RD) ? Owner : nullptr;
}

const DeclRefExpr *Aliases::copiedIn(const Expr *E) const {
  // Down the members of an object (`p.inner.w`) to the variable.
  E = E ? skipWrappersToObject(E) : nullptr;
  while (const auto *ME = dyn_cast_or_null<MemberExpr>(E)) {
    if (ME->isArrow())
      return nullptr;
    E = skipWrappersToObject(ME->getBase());
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || VD->getType()->isReferenceType() ||
      !VD->getType()->isRecordType() || !Known.copies().shares(VD->getType()))
    return nullptr;
  if (isa<ParmVarDecl>(VD) && VD->getDeclContext() == &FD)
    return DRE;
  if (VD->isInitCapture())
    return Lambda ? DRE : nullptr;
  if (Lambda && !declaredInside(VD))
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCapturedVar() == VD &&
          C.getCaptureKind() == LCK_ByCopy)
        return DRE;
  return nullptr;
}

bool Aliases::mayAlias(const VarDecl &V) const {
  return !V.hasGlobalStorage() && !isa<ParmVarDecl>(V) && declaredInside(&V);
}

void Aliases::bind(const VarDecl &V, Places P, SourceLocation At) {
  for (const Place &Each : P)
    if (!Each.isLocal())
      Bindings[&V].push_back({Each, At});
}

// The first iterator of a container built from an iterator range
// (`T s(first, last)`, `T s{first, last}`, with an allocator or not): two
// arguments of one iterator or pointer type.
const Expr *Aliases::rangeCopied(const CXXConstructExpr *CE) {
  if (!CE || CE->getNumArgs() < 2 ||
      CE->getConstructor()->isCopyOrMoveConstructor())
    return nullptr;
  return rangeOf(CE->getArg(0), CE->getArg(1));
}

// First, when First and Last are an iterator range: one iterator or pointer
// type.
const Expr *Aliases::rangeOf(const Expr *First, const Expr *Last) {
  QualType A = First->getType().getCanonicalType().getUnqualifiedType();
  QualType B = Last->getType().getCanonicalType().getUnqualifiedType();
  if (A != B || !(A->isPointerType() || aliasValue(First, 0)))
    return nullptr;
  return First;
}

// The initializer list a container is built from (`std::vector<T> v{a, b}`,
// `std::map<K, T> m{{"a", a}}`), or null.
const Expr *Aliases::listOf(const CXXConstructExpr *CE) {
  if (!CE)
    return nullptr;
  for (const Expr *A : CE->arguments())
    if (const auto *L =
            dyn_cast<CXXStdInitializerListExpr>(A->IgnoreImplicit()))
      return L->getSubExpr();
  return nullptr;
}

// What the handles and pointers in an initializer list point into, through
// the pairs and aggregates that hold them.
Places Aliases::listedHandles(const Expr *List) {
  Places Out;
  llvm::SmallVector<const Expr *, 8> Work{List};
  for (size_t I = 0; I < Work.size(); ++I) { // in the order written
    const Expr *E = Work[I]->IgnoreImplicit();
    QualType T = E->getType();
    if (Known.isHandle(T) ||
        (T->isPointerType() && !T->getPointeeType().isConstQualified())) {
      append(Out, pointee(E, 0));
    } else if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      Work.append(IL->inits().begin(), IL->inits().end());
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      Work.append(C->arg_begin(), C->arg_end());
    }
  }
  return Out;
}

void Aliases::bindInit(const VarDecl &V) {
  const Expr *Init = V.getInit();
  if (!Init || !mayAlias(V))
    return;
  QualType T = V.getType();
  SourceLocation At = Init->getBeginLoc();
  // An iterator into a container that holds its elements (`auto it =
  // v.begin();`): `*it` is a slot of that container.
  if (const auto *CE =
          dyn_cast_or_null<CallExpr>(skipWrappersToObject(Init)))
    if (const Expr *Owner = elementOwner(*CE, /*Iterator=*/true))
      IteratorSlots[&V] = Owner;
  if (T->isReferenceType()) {
    // A const reference only reads, unless it is to a handle, whose
    // in-place methods are const.
    if (T.getNonReferenceType().isConstQualified() && !Known.isHandle(T))
      return;
    bind(V, object(Init, 0), At);
  } else if (T->isPointerType()) {
    if (!T->getPointeeType().isConstQualified())
      bind(V, pointee(Init, 0), At);
  } else if (T->isRecordType() && aliasValue(Init, 0)) {
    bind(V, pointee(Init, 0), At);
  } else if (T->isRecordType() && !T->isDependentType() &&
             !Known.copies().owns(T)) {
    // A copy of a structure that holds pointers or handles.
    const Expr *From = skipWrappersToObject(Init);
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(From);
    if (CE && CE->getNumArgs() == 1 &&
        CE->getConstructor()->isCopyOrMoveConstructor())
      From = CE->getArg(0);
    const Expr *Range = rangeCopied(CE);
    const Expr *List = listOf(CE);
    if (Range || List || (From && From->isGLValue())) {
      // Of a by-value parameter or capture: what that copy shares. Of an
      // iterator range (`std::vector<T> s(v.begin(), v.end())`): what the
      // elements it copies share, which is where the iterator points. Of
      // an initializer list: what the handles listed point into.
      const DeclRefExpr *Copy = Range || List ? nullptr : copiedIn(From);
      Places P = Range  ? pointee(Range, 0)
                 : List ? listedHandles(List)
                 : Copy ? variable(cast<VarDecl>(Copy->getDecl()), Copy, true)
                        : object(From, 0);
      bindCopy(V, std::move(P), At);
    }
  }
}

void Aliases::bindCopy(const VarDecl &V, Places P, SourceLocation At) {
  llvm::erase_if(P, [](const Place &X) { return X.isLocal(); });
  nameThrough(P, V, At);
  // A container of handles copied (`auto saved = saved_;`): its elements
  // point where the original's do.
  const CXXRecordDecl *RD = V.getType()->getAsCXXRecordDecl();
  if (RD && Known.isDeclaredValue(*RD))
    bind(V, P, At);
  // A range-for's variable gets its element's (bindElement), then its
  // initialiser's.
  if (!P.empty())
    append(MemberPointees[&V], P);
}

// Reached through V: named so, and taken at At.
void Aliases::nameThrough(Places &P, const VarDecl &V, SourceLocation At) {
  for (Place &X : P)
    if (X.K == Place::Root) {
      X.Var = &V;
      X.At = At;
    }
}

void Aliases::bindElement(const VarDecl &V, const Expr *Elements) {
  QualType T = V.getType();
  bool ByReference =
      T->isReferenceType() &&
      (!T.getNonReferenceType().isConstQualified() || Known.isHandle(T));
  // A handle copied out of the range still shares its element's object.
  if (ByReference || Known.isHandle(T))
    bind(V, storage(Elements, 0), Elements->getBeginLoc());
  // So does a copy of an element that holds handles (`for (auto kv : m)`,
  // `for (auto [name, t] : m)`): its handles point where the element's do.
  if (!ByReference && !T->isReferenceType() && T->isRecordType() &&
      !T->isDependentType() && !Known.isHandle(T) &&
      !Known.copies().owns(T))
    bindCopy(V, storage(Elements, 0), Elements->getBeginLoc());
  // By reference into a container that holds its elements: V is a slot of
  // that container (`p = p * 2` rebinds it), while what V points to, as a
  // handle, is what the container's handles point to (the binding above).
  const CXXRecordDecl *RD =
      Elements->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (T->isReferenceType() && RD && Known.isDeclaredValue(*RD))
    ElementSlots[&V] = Elements;
}

void Aliases::bindRange(const VarDecl &V, const Expr *Range) {
  if (Range && mayAlias(V))
    bindElement(V, Range);
}

void Aliases::bindVisited(const VarDecl &Param, const Expr *Elements) {
  if (Elements && declaredInside(&Param))
    bindElement(Param, Elements);
}

void Aliases::bindAssigned(const VarDecl &V, const Expr *Value) {
  if (!Value || !mayAlias(V))
    return;
  QualType T = V.getType();
  if (T->isReferenceType() || Known.isView(T))
    return; // assigning through it, not rebinding it
  if (T->isPointerType()) {
    if (!T->getPointeeType().isConstQualified())
      bind(V, pointee(Value, 0), Value->getBeginLoc());
  } else if (T->isRecordType() && aliasValue(Value, 0)) {
    bind(V, pointee(Value, 0), Value->getBeginLoc());
  }
}

void Aliases::bindStored(const Expr *Into, const Expr *Value) {
  if (Into && Value)
    bindStoredPlaces(Into, listedHandles(Value), Value->getBeginLoc());
}

void Aliases::bindStoredPlaces(const Expr *Into, Places P, SourceLocation At) {
  // `v[i] = h`, `m["k"] = h`: into the container that holds the slot.
  if (const auto *CE = dyn_cast<CallExpr>(skipWrappersToObject(Into)))
    if (const Expr *Owner = elementOwner(*CE))
      Into = Owner;
  const VarDecl *V = localVar(Into);
  if (!V || !mayAlias(*V))
    return;
  const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
  if (!RD || !Known.isDeclaredValue(*RD))
    return;
  // Named through V where it was stored, as a copy's are.
  nameThrough(P, *V, At);
  bind(*V, std::move(P), At);
}

void Aliases::bindInserted(const CXXMemberCallExpr &MC) {
  const CXXMethodDecl *MD = MC.getMethodDecl();
  if (!MD || !MD->getIdentifier())
    return;
  static const llvm::StringSet<> Inserters = {
      "push_back",   "emplace_back", "push_front",       "emplace_front",
      "insert",      "emplace",      "emplace_hint",     "insert_or_assign",
      "try_emplace", "assign",       "push"};
  if (!Inserters.contains(MD->getName()))
    return;
  const Expr *Into = MC.getImplicitObjectArgument();
  unsigned N = MC.getNumArgs();
  // An iterator range, last (`v.insert(v.end(), p.begin(), p.end())`,
  // `v.assign(first, last)`): what its elements share.
  if (N >= 2)
    if (const Expr *First = rangeOf(MC.getArg(N - 2), MC.getArg(N - 1))) {
      bindStoredPlaces(Into, pointee(First, 0), First->getBeginLoc());
      return;
    }
  for (const Expr *Arg : MC.arguments())
    bindStored(Into, Arg);
}

const Places &Aliases::resolve(const VarDecl *V) {
  if (auto It = Resolved.find(V); It != Resolved.end())
    return It->second;
  // Empty while V is being resolved: a cycle of bindings (p = q; q = p;)
  // adds nothing a first pass has not.
  Resolved[V];
  Places Out;
  if (auto It = Bindings.find(V); It != Bindings.end()) {
    // By copy: resolving another variable may grow the map.
    llvm::SmallVector<Binding, 1> Own = It->second;
    for (const Binding &B : Own) {
      if (B.P.K == Place::Alias) {
        Places Through = resolve(B.P.Var);
        append(Out, Through);
        continue;
      }
      Place P = B.P;
      P.At = B.At;
      append(Out, {P});
    }
  }
  Places &Slot = Resolved[V];
  Slot = std::move(Out);
  return Slot;
}

} // namespace clang::tidy::rematch
