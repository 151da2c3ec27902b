//===--- BodyScope.cpp - where a function body is, what it sees -----------===//

#include "BodyScope.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::rematch {

bool hasBodyHere(const FunctionDecl &FD) {
  if (FD.hasBody())
    return true;
  const FunctionDecl *Def = FD.getDefinition();
  return Def && Def->hasSkippedBody();
}

bool inMainFile(SourceLocation L, const SourceManager &SM) {
  return L.isValid() && L.isFileID() && SM.isInMainFile(L);
}

namespace {

// The class around an inline member whose end bounds what the member's body
// can see, or null.
const CXXRecordDecl *outermostClass(const FunctionDecl &FD) {
  const CXXRecordDecl *Out = nullptr;
  for (const DeclContext *DC = FD.getLexicalDeclContext(); DC;
       DC = DC->getLexicalParent())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
      Out = RD;
    else
      break;
  return Out;
}

void collectBodies(const DeclContext &DC, const SourceManager &SM,
                   const LangOptions &LO, SkippedRangeFn SkippedRange,
                   std::vector<BodyRange> &Out) {
  for (const Decl *D : DC.decls()) {
    if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      // Opened in the file (a macro may spell it): a header's are not.
      if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        collectBodies(*cast<DeclContext>(D), SM, LO, SkippedRange, Out);
      continue;
    }
    if (!inMainFile(D->getLocation(), SM))
      continue;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      if (RD->isThisDeclarationADefinition() &&
          !RD->getDescribedClassTemplate() &&
          !isa<ClassTemplateSpecializationDecl>(RD))
        collectBodies(*RD, SM, LO, SkippedRange, Out);
      continue;
    }
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !isRemovable(*FD, SM))
      continue;
    BodyRange R{FD, 0, 0, 0};
    if (FD->hasSkippedBody()) {
      std::optional<std::pair<unsigned, unsigned>> S = SkippedRange(*FD);
      if (!S)
        continue;
      R.Begin = S->first;
      R.End = S->second;
    } else {
      const auto *CS = dyn_cast_or_null<CompoundStmt>(FD->getBody());
      if (!CS || !inMainFile(CS->getLBracLoc(), SM) ||
          !inMainFile(CS->getRBracLoc(), SM))
        continue;
      R.Begin = SM.getFileOffset(CS->getLBracLoc());
      R.End = SM.getFileOffset(CS->getRBracLoc());
      // Cut where the parse would cut it (BodyReplay::decide lexes it):
      // a body the lexer does not find stays in the skeleton.
      std::optional<BodyOffsets> Lexed = lexBody(*FD, SM, LO);
      if (!Lexed || Lexed->first != R.Begin || Lexed->second != R.End)
        continue;
    }
    R.Scope = R.Begin;
    if (const CXXRecordDecl *RD = outermostClass(*FD)) {
      SourceLocation E = RD->getBraceRange().getEnd();
      if (!inMainFile(E, SM))
        continue;
      R.Scope = SM.getFileOffset(E) + 1;
    }
    Out.push_back(R);
  }
}

} // namespace

std::vector<BodyHashes> scopeHashes(ASTContext &Ctx,
                                    SkippedRangeFn SkippedRange) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<BodyRange> Bodies;
  collectBodies(*Ctx.getTranslationUnitDecl(), SM, Ctx.getLangOpts(),
                SkippedRange, Bodies);
  llvm::StringRef Text = SM.getBufferData(SM.getMainFileID());
  std::vector<BodyRange> Cuts = Bodies;
  llvm::sort(Cuts, [](const BodyRange &A, const BodyRange &B) {
    return A.Begin < B.Begin;
  });
  // Two points per body: its '{' (the prefix) and its scope's end.
  std::vector<std::pair<unsigned, unsigned>> Points; // offset, 2 * body + end
  for (unsigned I = 0; I < Bodies.size(); ++I) {
    Points.push_back({Bodies[I].Begin, 2 * I});
    Points.push_back({Bodies[I].Scope, 2 * I + 1});
  }
  llvm::sort(Points);
  std::vector<BodyHashes> Out(Bodies.size());
  SkeletonHash H;
  size_t Pos = 0, Cut = 0;
  for (auto [At, Which] : Points) {
    unsigned Q = std::min<size_t>(At, Text.size());
    while (Cut < Cuts.size() && Cuts[Cut].Begin < Q) {
      if (Cuts[Cut].Begin >= Pos) {
        H.feed(Text.slice(Pos, Cuts[Cut].Begin));
        H.feed("{}");
        Pos = Cuts[Cut].End + 1;
      }
      ++Cut;
    }
    if (Q > Pos) {
      H.feed(Text.slice(Pos, Q));
      Pos = Q;
    }
    BodyHashes &B = Out[Which / 2];
    B.Range = Bodies[Which / 2];
    (Which % 2 ? B.Scope : B.Prefix) = H.digest();
  }
  return Out;
}

void SkeletonHash::feed(llvm::StringRef S) {
  for (unsigned char C : S) {
    A = (A ^ C) * 0x100000001b3ull;
    B = (B ^ C) * 0x00000100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
}

std::string SkeletonHash::digest() const {
  return llvm::utohexstr(A, true, 16) + llvm::utohexstr(B, true, 16);
}

std::optional<BodyOffsets>
lexBody(const FunctionDecl &FD, const SourceManager &SM,
        const LangOptions &LO) {
  // The declarator's end (the function type's, which a parsed body does not
  // move): the body is the first '{' after it.
  SourceLocation End = FD.getTypeSourceInfo()
                           ? FD.getTypeSourceInfo()->getTypeLoc().getEndLoc()
                           : FD.getEndLoc();
  if (!inMainFile(End, SM))
    return std::nullopt;
  FileID FID = SM.getMainFileID();
  llvm::StringRef Buf = SM.getBufferData(FID);
  unsigned Off = SM.getFileOffset(End);
  Lexer L(SM.getLocForStartOfFile(FID), LO, Buf.begin(), Buf.begin() + Off,
          Buf.end());
  Token T;
  L.LexFromRawLexer(T); // the declarator's last token
  int Depth = 0;
  for (unsigned N = 0;; ++N) {
    // (LexFromRawLexer's result says the buffer ends after the token.)
    L.LexFromRawLexer(T);
    if (N > 256 || T.is(tok::eof))
      return std::nullopt;
    if (T.isOneOf(tok::l_paren, tok::l_square))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square))
      --Depth;
    else if (Depth == 0 && T.is(tok::l_brace))
      break;
    else if (Depth == 0 &&
             (T.isOneOf(tok::colon, tok::semi, tok::equal, tok::hash) ||
              (T.is(tok::raw_identifier) && T.getRawIdentifier() == "try")))
      return std::nullopt;
  }
  unsigned Begin = SM.getFileOffset(T.getLocation());
  int Braces = 1;
  while (Braces > 0) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      return std::nullopt;
    if (T.is(tok::hash) && T.isAtStartOfLine())
      return std::nullopt;
    if (T.is(tok::l_brace))
      ++Braces;
    else if (T.is(tok::r_brace))
      --Braces;
  }
  return std::make_pair(Begin, SM.getFileOffset(T.getLocation()));
}

bool isRemovable(const FunctionDecl &FD, const SourceManager &SM) {
  return FD.isThisDeclarationADefinition() && isRemovableKind(FD, SM);
}

// isRemovable() but for the definition, which the parser has not seen yet
// when it asks whether to skip the body.
bool isRemovableKind(const FunctionDecl &FD, const SourceManager &SM) {
  if (FD.isDefaulted() || FD.isDeleted() ||
      isa<CXXConstructorDecl, CXXDestructorDecl>(FD))
    return false;
  if (FD.isDependentContext() ||
      FD.getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
      FD.isConstexpr() || FD.getReturnType()->getContainedDeducedType())
    return false;
  if (!inMainFile(FD.getLocation(), SM))
    return false;
  for (const DeclContext *DC = FD.getLexicalDeclContext(); DC;
       DC = DC->getLexicalParent()) {
    if (isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl>(DC))
      continue;
    const auto *RD = dyn_cast<CXXRecordDecl>(DC);
    if (!RD || RD->isLambda() || RD->getDescribedClassTemplate() ||
        isa<ClassTemplateSpecializationDecl>(RD))
      return false;
  }
  return true;
}

} // namespace clang::tidy::rematch
