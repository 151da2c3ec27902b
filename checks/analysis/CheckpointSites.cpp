//===--- CheckpointSites.cpp - where callables become recomputed ----------===//

#include "CheckpointSites.h"
#include "KnownFunctions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::rematch {

EntryPoints::EntryPoints(const ModelSet &Models) : Models(Models) {
  for (const auto &Entry : Models.entryPoints()) {
    std::string Name = withoutTemplateArgs(Entry.getKey());
    Replays[Name] = Entry.getValue();
    size_t Colon = Name.rfind("::");
    LastNames.insert(Colon == std::string::npos ? Name
                                                : Name.substr(Colon + 2));
  }
}

bool EntryPoints::mayBeAnnotated(const FunctionDecl &FD) const {
  // Attributes are on the declaration (or the template pattern) only when
  // the parameter carries any at all.
  auto Any = [](const FunctionDecl *F) {
    if (!F)
      return false;
    for (const ParmVarDecl *P : F->parameters())
      if (P->hasAttrs())
        return true;
    return false;
  };
  if (Any(&FD) || Any(FD.getTemplateInstantiationPattern()))
    return true;
  if (const FunctionTemplateDecl *T = FD.getPrimaryTemplate())
    return Any(T->getTemplatedDecl());
  return false;
}

bool EntryPoints::mayCheckpoint(const FunctionDecl &FD) const {
  auto [It, Inserted] = Candidates.try_emplace(&FD, false);
  if (Inserted)
    It->second = match(FD) || mayBeAnnotated(FD);
  return It->second;
}

std::optional<std::string> EntryPoints::match(const FunctionDecl &FD) const {
  // Most calls are not to an entry point: reject them by their last name
  // before printing a qualified one.
  if (!FD.getIdentifier() || !LastNames.contains(FD.getName()))
    return std::nullopt;
  std::string Name = withoutTemplateArgs(canonicalName(FD));
  if (Replays.contains(Name))
    return Name;
  return std::nullopt;
}

bool isRecomputedParam(const FunctionDecl &FD, unsigned I) {
  auto HasAttr = [I](const FunctionDecl *F) {
    if (!F || I >= F->getNumParams())
      return false;
    for (const auto *A : F->getParamDecl(I)->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "rematch::recomputed")
        return true;
    return false;
  };
  if (HasAttr(&FD))
    return true;
  if (HasAttr(FD.getTemplateInstantiationPattern()))
    return true;
  if (const FunctionTemplateDecl *T = FD.getPrimaryTemplate())
    return HasAttr(T->getTemplatedDecl());
  return false;
}

namespace {

void addCallOperators(const CXXRecordDecl *RD, Callable::Kind K,
                      std::vector<Callable> &Out,
                      const LambdaExpr *Lambda = nullptr) {
  if (!RD || !RD->hasDefinition())
    return;
  RD = RD->getDefinition();
  std::string Name = K == Callable::Functor ? canonicalName(*RD) : "";
  for (const Decl *D : RD->decls()) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      if (MD->getOverloadedOperator() != OO_Call)
        continue;
      if (MD->hasBody())
        Out.push_back({K, MD, Name, Lambda});
      else if (K == Callable::Functor)
        Out.push_back({K, nullptr, Name, nullptr, nullptr, MD});
    } else if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D)) {
      // Generic lambdas and templated operator(): the instantiations are
      // what runs.
      const auto *MD = dyn_cast<CXXMethodDecl>(FTD->getTemplatedDecl());
      if (!MD || MD->getOverloadedOperator() != OO_Call)
        continue;
      for (const FunctionDecl *Spec : FTD->specializations())
        if (Spec->hasBody())
          Out.push_back({K, Spec, Name, Lambda});
    }
  }
}


bool isStdFunction(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "function" &&
         canonicalName(*RD) == "std::function";
}

void collect(const Expr *E, std::vector<Callable> &Out, unsigned Depth) {
  E = skipWrappers(E);
  if (!E || Depth > 8)
    return;
  if (const auto *L = dyn_cast<LambdaExpr>(E)) {
    addCallOperators(L->getLambdaClass(), Callable::Lambda, Out, L);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return collect(UO->getSubExpr(), Out, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      if (const FunctionDecl *Def = FD->getDefinition())
        Out.push_back({Callable::Function, Def, canonicalName(*FD), nullptr});
      else if (!FD->isTemplateInstantiation())
        Out.push_back({Callable::Function, nullptr, canonicalName(*FD),
                       nullptr, nullptr, FD});
      return;
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      // A local initialised with a lambda (or a std::function built from
      // one) is that lambda.
      if (VD->hasLocalStorage() && VD->getInit() &&
          !VD->getType()->isReferenceType()) {
        size_t Before = Out.size();
        collect(VD->getInit(), Out, Depth + 1);
        if (Out.size() != Before)
          return;
      }
      QualType T = VD->getType().getNonReferenceType();
      if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
        if (!isStdFunction(T))
          addCallOperators(RD, RD->isLambda() ? Callable::Lambda
                                              : Callable::Functor,
                           Out);
    }
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    QualType T = CE->getType();
    if (isStdFunction(T) || CE->getConstructor()->isCopyOrMoveConstructor()) {
      if (CE->getNumArgs() > 0)
        collect(CE->getArg(0), Out, Depth + 1);
      return;
    }
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      addCallOperators(RD, Callable::Functor, Out);
    return;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    if (const CXXRecordDecl *RD = IL->getType()->getAsCXXRecordDecl())
      addCallOperators(RD, Callable::Functor, Out);
    return;
  }
}

} // namespace

const Expr *skipWrappers(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else
      return E;
  }
  return E;
}

std::vector<Callable> callablesOf(const Expr *Arg) {
  std::vector<Callable> Out;
  collect(Arg, Out, 0);
  return Out;
}

void collectCheckpointSite(const CallExpr &CE, const EntryPoints &EP,
                           std::vector<CheckpointSite> &Out) {
  const FunctionDecl *FD = CE.getDirectCallee();
  if (!FD || !EP.mayCheckpoint(*FD)) // an entry point or maybe annotated
    return;
  std::optional<std::string> Entry = EP.match(*FD);
  // Arguments of an operator call on an object start after the object.
  unsigned Offset = 0;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&CE))
    if (isa<CXXMethodDecl>(FD) && OC->getNumArgs() > 0)
      Offset = 1;
  CheckpointSite Site;
  Site.Call = &CE;
  std::optional<unsigned> Named = Entry ? EP.callableArg(*Entry) : std::nullopt;
  bool Annotated = false;
  if (!Named && EP.mayBeAnnotated(*FD))
    for (unsigned P = 0; P < FD->getNumParams() && !Annotated; ++P)
      Annotated = isRecomputedParam(*FD, P);
  if (!Entry && !Annotated)
    return;
  for (unsigned I = Offset; I < CE.getNumArgs(); ++I) {
    unsigned Param = I - Offset;
    if (Named ? Param != *Named
              : Annotated && !isRecomputedParam(*FD, Param))
      continue;
    size_t Before = Site.Callables.size();
    collect(CE.getArg(I), Site.Callables, 0);
    for (size_t C = Before; C < Site.Callables.size(); ++C)
      Site.Callables[C].Arg = CE.getArg(I);
    if (!Named && !Annotated && Site.Callables.size() != Before)
      break; // the first callable argument; the rest are its data
  }
  if (Site.Callables.empty())
    return;
  Site.EntryPoint = Entry ? *Entry : canonicalName(*FD);
  if (Entry)
    Site.Replays = EP.replays(*Entry);
  Out.push_back(std::move(Site));
}

} // namespace clang::tidy::rematch
