//===--- DeclPath.h - a declaration found again by lookup -------*- C++ -*-===//
//
// BodyReplay.h records what a body names (callees, globals, classes) and
// finds it again in the next parse of the file. A declaration is written as
// the path of names from the translation unit down to it and its USR, and
// found by looking each name up in turn, the USR choosing among overloads.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_DECLPATH_H
#define REMATCH_CHECKS_ANALYSIS_DECLPATH_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Decl;
class NamedDecl;
} // namespace clang

namespace clang::tidy::rematch {

// Whether a skipped body could leave D undeclared or undefined: implicit,
// or instantiated from a template.
bool isGenerated(const Decl *D);

// D's path, or nothing when lookup could not find it again (generated, in a
// function, an enum, a class template, or named otherwise than by an
// identifier or an operator).
std::optional<std::string> encodeDecl(const NamedDecl *D);

// The declaration of a path in Ctx, or null.
const NamedDecl *resolveDecl(llvm::StringRef Path, ASTContext &Ctx);

} // namespace clang::tidy::rematch

#endif
