//===--- KnownFunctions.h - library functions with known effects -*- C++ -*-===//
//
// Code we do not analyse body by body (the C and C++ standard libraries,
// logging libraries, anything without a body) is modelled by name. The
// built-in lists are extended by the project's .rematch.yaml.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_KNOWNFUNCTIONS_H
#define REMATCH_CHECKS_KNOWNFUNCTIONS_H

#include "Config.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace clang::tidy::rematch {

// What calling a function does, as far as recomputation is concerned.
enum class Family {
  None,
  Logging,   // writes to stdout/stderr or a log
  Io,        // other file or process I/O
  Rng,       // draws from a hidden global random state
  Clock,     // reads a clock, the environment or a thread id
};

// The qualified name with inline namespaces (std::__1) dropped and C library
// functions reached through std:: reduced to their plain name, so that one
// list serves libstdc++, libc++ and `using namespace std`.
std::string canonicalName(const NamedDecl &D);

class KnownFunctions {
public:
  explicit KnownFunctions(const Config &C);

  Family classify(const FunctionDecl &FD) const;

  // std::vector, std::map, ... and the configured ContainerTypes.
  bool isContainer(QualType T) const;
  // std::map / std::unordered_map, whose operator[] inserts.
  bool isMapLike(QualType T) const;
  // A standard random engine or an adaptor of one.
  bool isRandomEngine(QualType T) const;
  bool isRandomDevice(QualType T) const;
  // rematch::Generator<E>: replayed by the runtime, never a hazard.
  bool isReplayedGenerator(QualType T) const;
  bool isFileStream(QualType T) const;
  bool isAllowedGlobal(const NamedDecl &D) const;

  // Container members that change the container.
  static bool isMutatingContainerMethod(llvm::StringRef Name);

  // The qualified name of T's class (of its template, for a specialization),
  // or empty; cached, since every member call asks.
  const std::string &className(QualType T) const;

private:
  // What a class is, named once per class: every member call asks.
  enum ClassKind : unsigned {
    Container = 1u << 0,
    MapLike = 1u << 1,
    RandomEngine = 1u << 2,
    RandomDevice = 1u << 3,
    ReplayedGenerator = 1u << 4,
    FileStream = 1u << 5,
  };
  struct ClassInfo {
    std::string Name;
    unsigned Kinds = 0;
  };
  const ClassInfo &classInfo(QualType T) const;
  bool is(QualType T, ClassKind K) const { return classInfo(T).Kinds & K; }

  llvm::StringMap<Family> Functions;
  mutable llvm::DenseMap<const FunctionDecl *, Family> FamilyCache;
  mutable llvm::DenseMap<const CXXRecordDecl *, ClassInfo> Classes;
  llvm::StringSet<> Containers;
  llvm::StringSet<> AllowedGlobals;
};

} // namespace clang::tidy::rematch

#endif
