//===--- CheckpointSites.h - where callables become recomputed -*- C++ -*-===//
//
// A checkpoint site is a call to an entry point (built-in, configured, or a
// parameter annotated [[clang::annotate("rematch::recomputed")]]). What is
// checkpointed (runs again in backward) is the argument the entry point
// names (Callable: N), else every annotated parameter's argument, else the
// first argument that is callable; the others are data, even a functor (a
// random engine passed along is not recomputed code).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_CHECKPOINTSITES_H
#define REMATCH_CHECKS_CHECKPOINTSITES_H

#include "Wrappers.h"
#include "clang/AST/Decl.h"
#include "ModelSet.h"
#include "Summary.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

class HeldCallables;

struct Callable {
  // Module: an object the models say runs a member function where a
  // callable is expected (a torch module's forward).
  enum Kind { Lambda, Function, Functor, Module } K = Lambda;
  const FunctionDecl *Body = nullptr;
  std::string Name; // the function, functor or module type; empty for lambdas
  const LambdaExpr *Expr = nullptr; // the lambda expression, when visible
  const clang::Expr *Arg = nullptr;  // the argument of the checkpoint call
  // Body is null when the callable is defined in another translation unit:
  // its declaration here, for the summary that tells that unit.
  const FunctionDecl *Declared = nullptr;
  // Handed over in a value that holds callables (a std::function, a
  // torch::nn::Sequential): the place it was stored into and where, and how
  // many callables that value may hold (more than one: "may").
  const NamedDecl *StoredIn = nullptr;
  SourceLocation StoredAt;
  unsigned Alternatives = 0;
};

struct CheckpointSite {
  const CallExpr *Call = nullptr; // null when the call is in another TU
  PlainLocation RemoteCall;       // then: where it is
  std::string EntryPoint; // qualified name of the called entry point
  std::vector<Callable> Callables;
  std::vector<std::string> Replays; // the random sources it replays
  // The entry point hands the callable fresh copies of its arguments on
  // every run: writes to them are not reported.
  bool ArgumentsFresh = false;
  // Arguments that are values holding callables (HeldCallables.h): what
  // they hold is known once the whole translation unit is read.
  std::vector<const Expr *> HeldArgs;
  // Of those, the places whose contents no store here tells (a member
  // filled, or a getter defined, in another TU): the TU that stores into
  // one reports what it holds, with a note at this call.
  std::vector<const NamedDecl *> HeldElsewhere;
};

class EntryPoints {
public:
  // The entry points the models and the configuration name.
  explicit EntryPoints(const ModelSet &Models);

  // The name FD is known by, when it is an entry point.
  std::optional<std::string> match(const FunctionDecl &FD) const;

  // The random sources the entry point replays.
  const std::vector<std::string> &replays(llvm::StringRef Name) const {
    return Replays.find(Name)->second;
  }
  // The argument position it names as the callable, if any.
  std::optional<unsigned> callableArg(llvm::StringRef Name) const {
    return Models.callableArg(Name);
  }

  // Some parameter of FD might carry the rematch::recomputed annotation.
  bool mayBeAnnotated(const FunctionDecl &FD) const;

  const ModelSet &models() const { return Models; }

private:
  // match's answer for the callees whose last name an entry point has.
  mutable llvm::DenseMap<const FunctionDecl *, std::optional<std::string>>
      Matches;
  llvm::StringMap<std::vector<std::string>> Replays; // by qualified name
  llvm::StringSet<> LastNames; // "forward", "checkpoint", ...
  const ModelSet &Models;
};

// Parameter I of FD (or of the template it was instantiated from) carries
// [[clang::annotate("rematch::recomputed")]].
bool isRecomputedParam(const FunctionDecl &FD, unsigned I);
// The random sources that annotation names after its tag:
// [[clang::annotate("rematch::recomputed", "torch.default")]] replays
// torch's default generator.
std::vector<std::string> recomputedReplays(const FunctionDecl &FD, unsigned I);

// Adds the checkpoint site CE is, if it is one. Called for every call of the
// translation unit by the analysis' one walk.
// Held: the index of values that hold callables, whose arguments are
// resolved after the walk (CheckpointSite::HeldArgs).
void collectCheckpointSite(const CallExpr &CE, const EntryPoints &EP,
                           const HeldCallables *Held,
                           std::vector<CheckpointSite> &Out);

// The callables an expression denotes: a lambda, a function, a functor, a
// module (what a held value is).
void collectCallables(const Expr *E, const ModelSet &Models,
                      std::vector<Callable> &Out);

} // namespace clang::tidy::rematch

#endif
