//===--- CopySemantics.h - does a copy own its state, or share it? -*- C++ -*-===//
//
// A by-value parameter, a by-value capture or a local copy is the callable's
// own when its type is a *value* type: changing it changes nothing anybody
// else sees. It still reaches outside state when its type is a *handle*:
// its copies share an object (a pointer, a reference, a tensor, a span, an
// iterator, a struct with a pointer member, a vector of pointers).
//
// Decided from the type's definition, with the models for library types
// whose definition says nothing useful (docs/models.md, "Value and handle
// types"):
//
// - pointers (but not to functions) and references share; arithmetic,
//   enumerations and function pointers are values; an array is what its
//   element is;
// - a class the models list as `handle` or `view` shares; one they list as
//   `value` (std::vector, std::basic_string, std::optional, ...) is a value
//   when each of its type arguments is one (std::vector<float *> shares);
// - a lambda's closure shares when it captures by reference, else it is
//   what its copied captures are;
// - another class whose copy constructor is implicit or defaulted is what
//   its bases and fields are, member by member; one whose copy is deleted
//   (move-only, std::unique_ptr) owns what it holds; one with a
//   user-written copy constructor shares when that constructor copies a
//   pointer or handle member from the source (`p_(o.p_)`, `p_ = o.p_`), and
//   owns its state otherwise (it allocates, it clones). When the written
//   constructor's body is not visible, its fields decide.
//
// Unknown: a dependent or incomplete type. Callers keep their old,
// conservative answer there.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_COPYSEMANTICS_H
#define REMATCH_CHECKS_ANALYSIS_COPYSEMANTICS_H

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class CXXRecordDecl;
}

namespace clang::tidy::rematch {

class KnownFunctions;

enum class Copy : unsigned char { Value, Handle, Unknown };

class CopySemantics {
public:
  explicit CopySemantics(const KnownFunctions &Known) : Known(Known) {}

  // What copying a value of type T gives.
  Copy of(QualType T) const;
  // A copy of T is the copier's own: nothing outside changes through it.
  bool owns(QualType T) const { return of(T) == Copy::Value; }
  // A copy of T reaches what the original reaches.
  bool shares(QualType T) const { return of(T) == Copy::Handle; }

private:
  Copy ofClass(const CXXRecordDecl &RD) const;
  Copy members(const CXXRecordDecl &RD) const;
  Copy declared(const CXXRecordDecl &RD) const;

  const KnownFunctions &Known;
  // Per class definition; a class being decided counts as a value, so a
  // class that holds itself through a container ends.
  mutable llvm::DenseMap<const CXXRecordDecl *, Copy> Classes;
};

} // namespace clang::tidy::rematch

#endif
