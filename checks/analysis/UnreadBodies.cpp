//===--- UnreadBodies.cpp - function bodies the analysis never reads ------===//

#include "UnreadBodies.h"
#include "KnownFunctions.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::rematch {

bool UnreadBodies::unread(const FunctionDecl &FD,
                          const SourceManager &SM) const {
  if (!SM.isInSystemHeader(FD.getLocation()))
    return false;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
    if (Ctor->isCopyOrMoveConstructor())
      return false;
  // The outermost named scope first: most of a library's functions are in
  // none the models analyse, and cost no qualified name.
  const NamedDecl *Outer = nullptr;
  for (const DeclContext *DC = FD.getDeclContext();
       DC && !DC->isTranslationUnit(); DC = DC->getParent()) {
    const auto *ND = dyn_cast<NamedDecl>(Decl::castFromDeclContext(DC));
    if (const auto *NS = dyn_cast_or_null<NamespaceDecl>(ND);
        NS && NS->isInline())
      continue;
    if (ND)
      Outer = ND;
  }
  if (!Outer || !Outer->getIdentifier() ||
      !Models->mayAnalyseWithin(Outer->getName()))
    return true;
  // As KnownFunctions names it to ask the models.
  std::string Name = withoutTemplateArgs(canonicalName(FD));
  return !llvm::StringRef(Name).contains("::") || !Models->isAnalysed(Name);
}

std::string UnreadBodies::identity() const {
  std::string Out = "unread bodies 1: system headers but copy constructors";
  for (const std::string &S : Models->analysedScopes())
    Out += "; analysed " + S;
  return Out;
}

} // namespace clang::tidy::rematch
