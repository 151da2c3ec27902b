//===--- DeclPath.cpp - a declaration found again by lookup ---------------===//

#include "DeclPath.h"
#include "ExternalSummaries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::rematch {

bool isGenerated(const Decl *D) {
  if (!D)
    return false;
  if (D->isImplicit())
    return true;
  if (isa<ClassTemplateSpecializationDecl>(D->getDeclContext()))
    return true;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
           FD->isTemplateInstantiation();
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->getTemplateSpecializationKind() != TSK_Undeclared ||
           VD->getInstantiatedFromStaticDataMember();
  return false;
}

namespace {

// Components from the translation unit down, '\x1f'-separated: a namespace or
// class by name ("@" for an anonymous namespace), then the declaration's
// name ("#<n>" for operator n); then '\x1e' and its USR.
bool encodeName(DeclarationName N, std::string &Out) {
  if (N.isIdentifier() && N.getAsIdentifierInfo()) {
    Out += N.getAsIdentifierInfo()->getName();
    return true;
  }
  if (N.getNameKind() == DeclarationName::CXXOperatorName) {
    Out += "#" + std::to_string(N.getCXXOverloadedOperator());
    return true;
  }
  return false;
}

bool encodeContext(const DeclContext *DC, std::string &Out) {
  if (!DC || isa<TranslationUnitDecl>(DC))
    return true;
  if (isa<LinkageSpecDecl>(DC))
    return encodeContext(DC->getParent(), Out);
  if (!encodeContext(DC->getParent(), Out))
    return false;
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
    if (NS->isAnonymousNamespace())
      Out += "@";
    else
      Out += NS->getName();
  } else if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
    if (isa<ClassTemplateSpecializationDecl>(RD) || !RD->getIdentifier() ||
        RD->getDescribedClassTemplate())
      return false;
    Out += RD->getName();
  } else {
    return false; // a function, an enum, a block
  }
  Out += '\x1f';
  return true;
}

} // namespace

std::optional<std::string> encodeDecl(const NamedDecl *D) {
  if (!D || isGenerated(D))
    return std::nullopt;
  std::string Out;
  if (!encodeContext(D->getDeclContext(), Out) ||
      !encodeName(D->getDeclName(), Out))
    return std::nullopt;
  std::string Usr = usrOf(*D);
  if (Usr.empty())
    return std::nullopt;
  Out += '\x1e';
  Out += Usr;
  return Out;
}

const NamedDecl *resolveDecl(llvm::StringRef Code, ASTContext &Ctx) {
  auto [Path, Usr] = Code.split('\x1e');
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Path.split(Parts, '\x1f');
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  auto NameOf = [&](llvm::StringRef P) -> DeclarationName {
    unsigned Op = 0;
    if (P.consume_front("#") && !P.getAsInteger(10, Op))
      return Ctx.DeclarationNames.getCXXOperatorName(
          static_cast<OverloadedOperatorKind>(Op));
    return DeclarationName(&Ctx.Idents.get(P));
  };
  for (size_t I = 0; I + 1 < Parts.size(); ++I) {
    llvm::StringRef P = Parts[I];
    const DeclContext *Next = nullptr;
    if (P == "@") {
      if (const auto *TU = dyn_cast<TranslationUnitDecl>(DC))
        Next = TU->getAnonymousNamespace();
      else if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        Next = NS->getAnonymousNamespace();
    } else {
      for (const NamedDecl *D : DC->lookup(NameOf(P))) {
        if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
          Next = NS;
          break;
        }
        if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
          if (const CXXRecordDecl *Def = RD->getDefinition()) {
            Next = Def;
            break;
          }
      }
    }
    if (!Next)
      return nullptr;
    DC = Next->getPrimaryContext();
  }
  if (Parts.empty())
    return nullptr;
  DeclContext::lookup_result R = DC->lookup(NameOf(Parts.back()));
  const NamedDecl *Found = nullptr;
  unsigned Count = 0;
  for (const NamedDecl *D : R) {
    ++Count;
    Found = D;
  }
  if (Count == 1 && usrOf(*Found) == Usr)
    return Found;
  for (const NamedDecl *D : R)
    if (usrOf(*D) == Usr)
      return D;
  return nullptr;
}

} // namespace clang::tidy::rematch
