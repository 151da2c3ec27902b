//===--- KnownFunctions.h - the models, matched against one AST -*- C++ -*-===//
//
// Code we do not analyse body by body (the C and C++ standard libraries,
// POSIX, frameworks such as libtorch, MLX and Eigen, anything without a body
// here) is described by model files (ModelSet, docs/models.md). This is the
// per-translation-unit side: it matches declarations against the models and
// caches the answer per declaration, so that each call costs a lookup.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_KNOWNFUNCTIONS_H
#define REMATCH_CHECKS_ANALYSIS_KNOWNFUNCTIONS_H

#include "CopySemantics.h"
#include "Effect.h"
#include "ModelSet.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include <deque>
#include <string>

namespace clang {
class SourceManager;
}

namespace clang::tidy::rematch {

// The qualified name with inline namespaces (std::__1) dropped.
std::string canonicalName(const NamedDecl &D);

// Qualified name without template arguments: Runner<int>::run -> Runner::run.
std::string withoutTemplateArgs(llvm::StringRef Name);

// How messages and summaries name a function: "lambda" for a lambda's call
// operator, else the qualified name without template arguments.
std::string displayName(const FunctionDecl *FD);

// The effect a model's effect name stands for.
EffectKind effectKindOf(ModelEffect Effect);

// What the models say of one function.
struct CallModel {
  // The body, if any, is not analysed: the models describe the function
  // (possibly as having no effect at all).
  bool Modelled = false;
  // The entries whose effects a call has, before the call-site conditions.
  std::vector<const ModelEntry *> Effects;
  // The name the function is known by in messages (left empty where no
  // model can speak of the function: nothing then names it).
  std::string Name;
  // Its body is analysed even in a system header (Analyse:).
  bool Analysed = false;
  // What its result is an alias of (Returns:), when a model says.
  const AliasRule *Returns = nullptr;
  // Which argument it calls on the elements of which (Visits:).
  const ModelVisit *Visits = nullptr;
  // Which argument it binds to the ones after it (Binds:).
  const ModelBind *Binds = nullptr;
};

// What calling a member function does to an object whose class is of a
// kind the models' Types: name, when no model entry describes the call: the
// meaning of each kind (docs/models.md, "Types"), member by member.
struct KindMember {
  enum Action {
    NotAKind,      // the class is of no kind: a call like any other
    Nothing,       // of a kind, and this member changes nothing (a read)
    Consumed,      // the object is used, not read (a replayed generator)
    Reads,         // the object is read (through a handle: what it shares)
    OnObject,      // Kind happens to the object, mapped to its root
    Unconditional, // Kind happens whatever the object (opening a file)
  };
  Action What = NotAKind;
  EffectKind Kind = EffectKind::StateWrite;
};

class KnownFunctions {
public:
  explicit KnownFunctions(std::shared_ptr<const ModelSet> Models);
  KnownFunctions(const KnownFunctions &) = delete; // Copies refers to it
  KnownFunctions &operator=(const KnownFunctions &) = delete;

  const CallModel &lookup(const FunctionDecl &FD) const;

  // The parameter of FD an argument reference names, or -1.
  int paramIndex(const FunctionDecl &FD, const ArgRef &A) const;

  // Whether FD's body is described by the models rather than analysed:
  // anything without a body here, in a system header or in namespace std,
  // and whatever a model names.
  bool isModelled(const FunctionDecl &FD, const SourceManager &SM) const;

  bool isMapLike(QualType T) const { return is(T, TypeKind::Map); }
  bool isRandomEngine(QualType T) const {
    return is(T, TypeKind::RandomEngine);
  }
  bool isRandomDevice(QualType T) const {
    return is(T, TypeKind::RandomDevice);
  }
  bool isReplayedGenerator(QualType T) const {
    return is(T, TypeKind::ReplayedGenerator);
  }
  bool isFileStream(QualType T) const { return is(T, TypeKind::FileStream); }
  // A value whose copies share one object: an in-place change through any
  // copy changes them all. Only the type itself, not a pointer to it.
  bool isHandle(QualType T) const;
  // An object standing for part of another (Eigen's Block, Map): assigning
  // to it writes what it stands for.
  bool isView(QualType T) const;
  // The models list the class itself (not a base) as a value type.
  bool isDeclaredValue(const CXXRecordDecl &RD) const;
  // T's class is of a kind the models or the configuration name (a
  // container, a handle, ...): what it holds is what they say, whatever its
  // declaration shows.
  bool isModelledType(QualType T) const { return classInfo(T).Kinds != 0; }
  // Whether a copy of a type owns its state or shares it.
  const CopySemantics &copies() const { return Copies; }

  bool isContainerMutator(llvm::StringRef Member) const {
    return Models->isContainerMutator(Member);
  }
  // Member Method called on an object of type T (through `->`, T is the
  // pointee).
  KindMember kindMember(QualType T, llvm::StringRef Method) const;
  static KindMember memberAction(const ModelMember &M);
  // Member Method of a log stream (std::cout.write(...)) writes to it.
  static bool isStreamOutputMember(llvm::StringRef Method);
  // A free function that reads a file stream given as its first argument
  // (std::getline(file, line)).
  static bool readsStreamArgument(const FunctionDecl &FD);
  bool isLogStream(const VarDecl &VD) const;
  bool isStdHandle(llvm::StringRef Var) const {
    return Models->isStdHandle(Var);
  }
  bool isAllowedGlobal(const NamedDecl &D) const;

  const ModelSet &models() const { return *Models; }


private:
  // The qualified name of T's class (of its template, for a specialization),
  // or empty; cached, since every member call asks.
  const std::string &className(QualType T) const;
  struct ClassInfo {
    std::string Name;
    unsigned Kinds = 0;
  };
  const ClassInfo &classInfo(QualType T) const;
  bool is(QualType T, TypeKind K) const {
    return classInfo(T).Kinds & (1u << unsigned(K));
  }
  bool mayBeModelled(const FunctionDecl &FD) const;
  CallModel compute(const FunctionDecl &FD) const;

  std::shared_ptr<const ModelSet> Models;
  CopySemantics Copies{*this};
  // Per scope around a function (the innermost), whether a model may speak
  // of what it declares: asked for every callee, remembered per class or
  // namespace, so that functions no model can describe (most of them) cost
  // no entry of their own.
  mutable llvm::DenseMap<const DeclContext *, bool> Scopes;
  // Per function a model may describe, its model in Calls.
  mutable llvm::DenseMap<const FunctionDecl *, unsigned> Index;
  mutable std::deque<CallModel> Calls; // stable addresses
  mutable llvm::DenseMap<const CXXRecordDecl *, ClassInfo> Classes;
  mutable llvm::DenseMap<std::pair<const FunctionDecl *, const ArgRef *>, int>
      Params;
};

} // namespace clang::tidy::rematch

#endif
