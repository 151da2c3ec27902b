//===--- Aliases.h - what a body's pointers, references and views reach -*- C++
//-*-===//
//
// The alias state of one function body, kept apart from the effect
// collector that phrases what happens through it: for every local pointer,
// reference, iterator, structured binding, span, view or handle, the places
// it may point into, and for any expression, the object it designates or
// the places its value points into.
//
// A place is a root outside the call (a global, a capture, a parameter,
// `this` state: Root), a local alias variable still to be resolved
// (Alias), or what a call of an analysed function returns (Returned),
// which only the callee's summary can tell. What a call into a library
// returns comes from the models' `Returns: {AliasOf: ...}` rules
// (docs/models.md).
//
// Flow-insensitive: a variable may point into everything any of its
// bindings (its initialiser, an assignment, a range-for) points into,
// wherever the binding is in the body; but a pointer or handle that a
// statement of the body's outermost block assigns holds only what it is
// given from there on (Rebinds.h). A local container of handles built
// from a copy, an iterator range or an initializer list, or given handles
// by assignment or insertion, points where those handles do. Not tracked:
// aliases stored into structures, the heap or containers outside the
// body (a pointer kept in a struct member is that member's root), pointers
// to pointers, and aliases whose origin the
// body cannot see (a pointer read from a container of pointers): those are
// local, never guessed into a finding (docs/checks/state-write.md).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ALIASES_H
#define REMATCH_CHECKS_ALIASES_H

#include "Effect.h"
#include "KnownFunctions.h"
#include "Rebinds.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

// std::move, std::forward and std::as_const: casts written as calls. What
// they return is their argument's object.
bool isIdentityCall(const CallExpr &CE);

struct Place {
  enum Kind : unsigned char { Root, Alias, Returned };
  Kind K = Root;
  rematch::Root R;              // Root: Local when nothing outside
  // Alias: the local variable. Root: the local copy of a structure whose
  // pointer members reached it, if that is how (with At).
  const VarDecl *Var = nullptr;
  const Expr *Call = nullptr;   // Returned: the call whose result it is
  // Root: the expression that names the object outside (g_buffer in
  // `float *p = g_buffer;`): its read is part of a write through the alias.
  const Expr *Named = nullptr;
  SourceLocation At;   // resolved through a binding: where it was taken
  llvm::StringRef May; // from a model: when the result is an alias at all

  static Place root(rematch::Root R, const Expr *Named = nullptr) {
    Place P;
    P.R = R;
    P.Named = Named;
    return P;
  }
  bool isLocal() const { return K == Root && !R.isOutside(); }
};
using Places = llvm::SmallVector<Place, 1>;

class Aliases {
public:
  Aliases(const FunctionDecl &FD, ASTContext &Ctx, const KnownFunctions &Known);

  // The object an lvalue designates: `g.a[i]`, `*p`, `it->second`, `r`.
  Places designates(const Expr *E) { return object(E, 0); }
  // What a pointer, iterator, view or handle value points into.
  Places pointsInto(const Expr *E) { return pointee(E, 0); }
  // Where a change through E lands: what it points into when E is a
  // pointer, a handle or another alias value, else the object itself.
  Places storageOf(const Expr *E) { return storage(E, 0); }

  // What a copy of a class-typed value reaches through the pointers and
  // handles inside it (`Params{g_buf, 8}`, a struct passed by value).
  Places sharedBy(const Expr *E);

  // Whether a class-typed expression's value refers to another object (an
  // iterator, a span, a view, a handle, a local alias).
  bool isAliasValue(const Expr *E) { return aliasValue(E, 0); }

  // Bindings of a local variable V declared in the body.
  void bindInit(const VarDecl &V);                        // its initialiser
  void bindRange(const VarDecl &V, const Expr *Range);    // for (V : Range)
  void bindAssigned(const VarDecl &V, const Expr *Value); // `V = Value;`
  // A handle stored into a local container that holds its elements (`v[i]
  // = h`, `m["k"] = h`; Into the element or the container), or inserted
  // (`v.push_back(h)`, `m.emplace("k", h)`): the container's elements
  // point where the handle does.
  void bindStored(const Expr *Into, const Expr *Value);
  void bindInserted(const CXXMemberCallExpr &MC);
  // A lambda's parameter that a library call binds to each element of
  // Elements (a range, or the iterator to its first element): Visits.
  void bindVisited(const VarDecl &Param, const Expr *Elements);

  // Everything V may point into, through any chain of bindings: outside
  // roots (each with where it was named, At the binding that named it)
  // and returned values. Local places are left out.
  const Places &resolve(const VarDecl *V);

  // The root `this` stands for in this body (a lambda's captured object).
  rematch::Root thisRoot() const;
  // The local variable an expression names, when it is one of the body's.
  const VarDecl *localVar(const Expr *E) const;

private:
  Places object(const Expr *E, unsigned Depth);
  Places pointee(const Expr *E, unsigned Depth);
  Places objectOfOperator(const CXXOperatorCallExpr &OC, unsigned Depth);
  Places pointeeOfCall(const CallExpr &CE, unsigned Depth);
  Places pointeeOfMember(const MemberExpr &ME, unsigned Depth);
  Places pointeeOfConstruct(const CXXConstructExpr &CE, unsigned Depth);
  Places storage(const Expr *E, unsigned Depth);
  bool aliasValue(const Expr *E, unsigned Depth);
  // What the result of a call refers to.
  Places result(const CallExpr *CE, unsigned Depth);
  Places variable(const VarDecl *VD, const Expr *Ref, bool Pointee);
  std::optional<Places> rebound(const VarDecl &V, const Expr *Ref);
  void bind(const VarDecl &V, Places P, SourceLocation At);
  // V stands for each element of Elements (a range-for's variable, a
  // visitor's parameter): by reference, or a handle copied out.
  void bindElement(const VarDecl &V, const Expr *Elements);
  bool declaredInside(const VarDecl *VD) const;
  // The by-value parameter or by-copy capture of a type whose copies share
  // (a struct with a pointer member, a vector of pointers) that E names or
  // is a member of: a pointer in it points where the original's does.
  const DeclRefExpr *copiedIn(const Expr *E) const;
  // The container whose own storage holds the element a call returns a
  // reference to (`v[i]`, `v.front()`, `opt.value()` on a class the models
  // list as a value), or, with Iterator, an iterator into (`v.begin()`,
  // `m.find(k)`); null otherwise.
  const Expr *elementOwner(const CallExpr &CE, bool Iterator = false) const;
  // The first iterator of an iterator range a container is built from.
  const Expr *rangeCopied(const CXXConstructExpr *CE);
  const Expr *rangeOf(const Expr *First, const Expr *Last);
  // V, a copy of what reaches P (a struct, a container, an element): its
  // pointer and handle members, and its elements, point there.
  void bindCopy(const VarDecl &V, Places P, SourceLocation At);
  static void nameThrough(Places &P, const VarDecl &V, SourceLocation At);
  // bindStored's binding of the container Into holds (or is) to P.
  void bindStoredPlaces(const Expr *Into, Places P, SourceLocation At);
  // The initializer list a container is built from, and what the handles
  // in it point into.
  const Expr *listOf(const CXXConstructExpr *CE);
  Places listedHandles(const Expr *List);
  bool mayAlias(const VarDecl &V) const;

  const FunctionDecl &FD;
  ASTContext &Ctx;
  const KnownFunctions &Known;
  const CXXRecordDecl *Lambda = nullptr;
  bool LambdaMutable = false;

  struct Binding {
    Place P;
    SourceLocation At;
  };
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<Binding, 1>> Bindings;
  // A local copy of a structure (`Params p = model->params;`): its pointer
  // and handle members point where the original's do, which is, as for any
  // member, where the original is.
  llvm::DenseMap<const VarDecl *, Places> MemberPointees;
  // A reference a range-for binds to the elements of a container that
  // holds them: the container (its object is where the variable's is).
  llvm::DenseMap<const VarDecl *, const Expr *> ElementSlots;
  // The same for a local iterator initialised into such a container.
  llvm::DenseMap<const VarDecl *, const Expr *> IteratorSlots;
  llvm::DenseMap<const VarDecl *, Places> Resolved;
  // Straight-line rebindings, scanned when first asked.
  std::unique_ptr<Rebinds> Order;
  unsigned RebindDepth = 0;
};

} // namespace clang::tidy::rematch

#endif
