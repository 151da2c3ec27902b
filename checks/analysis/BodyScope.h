//===--- BodyScope.h - where a function body is, what it sees --*- C++ -*-===//
//
// For BodyReplay.h: which bodies may be cut out of the file and skipped, where
// a body is before it is parsed (raw lexing from the declarator), and the
// hash of each body's scope: the file's text up to the body (to the end of
// the outermost class for an inline member) with every such body cut out.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_BODYSCOPE_H
#define REMATCH_CHECKS_ANALYSIS_BODYSCOPE_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class LangOptions;
class SourceManager;
} // namespace clang

namespace clang::tidy::rematch {

// Whether FD has a definition in this TU whose body was parsed or skipped.
bool hasBodyHere(const FunctionDecl &FD);

// Whether FD's body may be cut out of the file's skeleton and skipped: a
// plain (non-template, non-constexpr, no deduced return type) function or
// method defined in the main file at namespace or class scope, not a
// constructor or destructor.
bool isRemovable(const FunctionDecl &FD, const SourceManager &SM);
// The same for a declaration whose body the parser is about to read (it is
// not a definition yet).
bool isRemovableKind(const FunctionDecl &FD, const SourceManager &SM);

// A location spelled in the main file itself.
bool inMainFile(SourceLocation L, const SourceManager &SM);

// The offsets of a body's '{' and '}' in the main file.
using BodyOffsets = std::pair<unsigned, unsigned>;
using SkippedRangeFn =
    llvm::function_ref<std::optional<BodyOffsets>(const FunctionDecl &)>;

// The body that follows FD's declarator, by raw lexing; nothing when it is
// not a plain compound statement or holds a preprocessor directive.
std::optional<BodyOffsets> lexBody(const FunctionDecl &FD,
                                   const SourceManager &SM,
                                   const LangOptions &LO);

struct BodyRange {
  const FunctionDecl *FD;
  unsigned Begin, End; // '{' and '}'
  unsigned Scope;      // the end of what the body's meaning depends on
};

// The skeleton's text hashed as it is fed (two 64-bit FNV-1a hashes).
class SkeletonHash {
public:
  void feed(llvm::StringRef S);
  std::string digest() const; // of what was fed so far
private:
  uint64_t A = 0xcbf29ce484222325ull, B = 0x84222325cbf29ce4ull;
};

struct BodyHashes {
  BodyRange Range;
  std::string Prefix; // the skeleton up to the body's '{'
  std::string Scope;  // up to the end of its scope
};

// Every removable body of the main file (whose body lexBody finds where
// the parser found it), with its hashes; a body the parse skipped is where
// SkippedRange says (or left out).
std::vector<BodyHashes> scopeHashes(ASTContext &Ctx,
                                    SkippedRangeFn SkippedRange);

} // namespace clang::tidy::rematch

#endif
