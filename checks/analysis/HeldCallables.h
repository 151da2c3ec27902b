//===--- HeldCallables.h - what values that hold callables hold -*- C++ -*-===//
//
// A std::function, a torch::nn::Sequential or an AnyModule holds callables
// the program stored into it elsewhere: the models name such holders
// (CallableHolders:). The walk of the translation unit tells this index of
// every store into a place that holds them: a variable's or a member's
// initialisation, an assignment, a constructor's member initialiser, a
// returned value, an argument bound to a parameter, the holder's
// constructor arguments and the member calls the model lists (push_back).
// A place is a variable, a member (FieldDecl) or what a function returns.
//
// valuesOf() then answers what an expression may hold, through copies of
// copies, returns and holders built of holders, flow-insensitively: every
// value ever stored, each with where it was stored. What is stored where
// the index cannot see (another translation unit without summaries, a
// container filled by a loop over data) is not guessed.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_HELDCALLABLES_H
#define REMATCH_CHECKS_HELDCALLABLES_H

#include "Model.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

namespace clang::tidy::rematch {

class ModelSet;

// One value a holder may hold: the expression stored (a lambda, a
// function, a functor or module object), where, and into which place.
struct HeldValue {
  const Expr *Value = nullptr;
  SourceLocation At;
  const NamedDecl *In = nullptr;
};

class HeldCallables {
public:
  explicit HeldCallables(const ModelSet &Models);

  // The model of the holder T is (through a module holder or a shared_ptr),
  // or null.
  const ModelCallableHolder *holderOf(QualType T) const;
  // T is a container (models: Types container) of holders: a
  // std::vector<std::function<...>> holds what is added to it.
  bool holdsHolders(QualType T) const;
  // A call of FD runs what its object holds (std::function::operator(),
  // SequentialImpl::forward).
  bool runs(const FunctionDecl &FD) const;
  // The object of a call that runs what it holds.
  static const Expr *objectOf(const Expr *Call);

  // The walk's stores.
  void onCall(const CallExpr &CE);
  void onVarDecl(const VarDecl &VD);
  void onField(const FieldDecl &FD);
  void onFunction(const FunctionDecl &FD);
  void onRange(const VarDecl &Element, const Expr *Range);

  // What E may hold, each value once.
  void valuesOf(const Expr *E, llvm::SmallVectorImpl<HeldValue> &Out) const;
  // The place E names (a variable, a member, a function's result), if any.
  static const NamedDecl *placeOf(const Expr *E);
  // Whether other translation units can name Place (a global, a member, a
  // function with external linkage), so that their summaries speak of it.
  static bool isShared(const NamedDecl *Place);
  // Place when it is shared, else the shared place it is a copy of or an
  // element of (`for (auto &l : g_layers)`: g_layers), if any.
  const NamedDecl *sharedPlace(const NamedDecl *Place) const;
  // The places something was stored into.
  const llvm::DenseMap<const NamedDecl *, std::vector<HeldValue>> &
  stores() const {
    return Stores;
  }
  // What was stored into Place, followed through copies (valuesOf).
  void valuesIn(const NamedDecl *Place,
                llvm::SmallVectorImpl<HeldValue> &Out) const;

  // How many stores the walk has told of (BodyReplay: a body with one is
  // not replayed).
  size_t storeCount() const { return StoreCount; }

private:
  void store(const NamedDecl *Place, const Expr *Value, SourceLocation At);
  void expand(const Expr *E, const NamedDecl *In, SourceLocation At,
              llvm::SmallVectorImpl<HeldValue> &Out,
              llvm::SmallVectorImpl<const NamedDecl *> &Seen,
              unsigned Depth) const;
  void addElements(const Expr *E, const NamedDecl *In, SourceLocation At,
                   llvm::SmallVectorImpl<HeldValue> &Out,
                   llvm::SmallVectorImpl<const NamedDecl *> &Seen,
                   unsigned Depth) const;
  bool isCallableObject(const CXXRecordDecl *RD) const;
  bool isCallableValue(QualType T) const;
  const CXXRecordDecl *heldClass(const CXXRecordDecl *RD) const;
  bool anyClass(const CXXRecordDecl *RD,
                llvm::function_ref<bool(const CXXRecordDecl &)> Pred,
                unsigned Depth) const;

  const ModelSet &Models;
  llvm::StringSet<> RunNames; // every holder's Runs
  llvm::DenseMap<const NamedDecl *, std::vector<HeldValue>> Stores;
  size_t StoreCount = 0;
  mutable llvm::DenseMap<const Type *, const ModelCallableHolder *> Kinds;
  // valuesOf(): the calls whose returns are being followed, outermost
  // first: their parameters stand for their arguments.
  mutable std::vector<const CallExpr *> Frames;
};

} // namespace clang::tidy::rematch

#endif
