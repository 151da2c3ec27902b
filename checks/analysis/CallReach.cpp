//===--- CallReach.cpp - where a call leads among this TU's bodies -------===//

#include "CallReach.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::rematch {

CallReach CallReacher::operator()(const CallSite &C,
                                  const FunctionDecl *&Local) const {
  if (!C.Callee || Known.lookup(*C.Callee).Modelled)
    return CallReach::Nothing;
  if (C.Virtual)
    return CallReach::External; // overrides anywhere in the program
  if (const FunctionDecl *Def = C.Callee->getDefinition()) {
    if (!Analysable.contains(Def))
      return CallReach::Nothing; // in a system header, or a model's
    Local = Def;
    return CallReach::Local;
  }
  if (SM.isInSystemHeader(C.Callee->getLocation()))
    return CallReach::Nothing;
  return CallReach::External;
}

bool exportSeed(const FunctionDecl &FD, const SourceManager &SM) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return (MD && MD->isVirtual()) || SM.isInMainFile(FD.getLocation()) ||
         FD.getTemplateSpecializationKind() ==
             TSK_ExplicitInstantiationDefinition;
}

} // namespace clang::tidy::rematch
