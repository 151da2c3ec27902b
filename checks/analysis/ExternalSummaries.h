//===--- ExternalSummaries.h - other translation units' effects -*- C++ -*-===//
//
// The front end of a --summaries-dir run composes the summaries of all
// translation units (Compose.h) into one ExternalSummaries and installs it
// before the analysis, so a call to a function defined elsewhere is followed
// like a local one; while it summarises, it installs a sink that receives
// each analysed TU's own summary.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_EXTERNALSUMMARIES_H
#define REMATCH_CHECKS_EXTERNALSUMMARIES_H

#include "Summary.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <memory>
#include <mutex>

namespace clang {
class Decl;
class VarDecl;
} // namespace clang

namespace clang::tidy::rematch {

class ExternalSummaries {
public:
  // Adds what one TU's summary says of the program: the globals it writes,
  // its overrides and its checkpoint calls.
  void add(const TUSummary &S);
  // Adds a function's composed effects; a function defined in several TUs
  // (inline, in a header) keeps the first.
  void addFunction(FunctionEffects F);

  const FunctionEffects *lookup(llvm::StringRef Usr) const;
  // hashFunctionEffects of the function's summary, or "absent"; for a
  // dependency on a global (globalDependency()), "written" or "constant".
  std::string hashOf(llvm::StringRef Usr) const;
  // Some TU writes the global, or lets its address escape.
  bool isModifiable(llvm::StringRef Usr) const;
  bool isModifiable(const VarDecl &VD) const;
  size_t size() const { return Functions.size(); }

  // Checkpoint calls in other TUs of the callable with this USR.
  llvm::ArrayRef<SummaryCheckpoint> checkpointsOf(llvm::StringRef Usr) const;
  // Whether some TU checkpoints a callable of this unqualified name defined
  // elsewhere (a cheap filter before computing USRs).
  bool mayBeCheckpointed(llvm::StringRef LastName) const {
    return CheckpointedNames.contains(LastName);
  }
  // The overrides, in any TU, of the virtual method with this USR.
  llvm::ArrayRef<SummaryOverride> overridesOf(llvm::StringRef Usr) const;
  // The callables with effects that any TU stores into the variable or
  // member with this USR.
  llvm::ArrayRef<SummaryHeld> heldIn(llvm::StringRef Place) const;

  // A sharded run's owner of a callable whose body is in a header: the
  // first file of the whole run (all shards, in command-line order) whose
  // summary lists it. Only that file's analysis reports the findings in the
  // callable's body, so the shards report each of them once.
  void setOwner(llvm::StringRef Callable, llvm::StringRef MainFile) {
    Owners.try_emplace(Callable, MainFile.str());
  }
  // Whether the TU of MainFile reports the findings in Callable: it owns
  // it, or nobody does (not a sharded run, or a callable no summary lists).
  bool reportsIn(llvm::StringRef Callable, llvm::StringRef MainFile) const;

private:
  llvm::StringMap<FunctionEffects> Functions;
  // Computed on first use: a pre-commit run asks for a handful of them.
  mutable llvm::StringMap<std::string> Hashes;
  mutable std::mutex HashMutex;
  llvm::StringSet<> Modifiable;
  llvm::StringMap<std::vector<SummaryCheckpoint>> Checkpoints;
  llvm::StringSet<> CheckpointedNames;
  llvm::StringMap<std::vector<SummaryOverride>> Overrides; // by method
  llvm::StringMap<std::vector<SummaryHeld>> Held;          // by place
  llvm::StringMap<std::string> Owners; // header callable -> main file
};

// Receives a translation unit's summary (AnalysisHost.h).
using SummarySink = std::function<void(TUSummary)>;

// The dependency key of a global whose reads were judged by whether any
// translation unit writes it: a summary that recorded it is stale once
// that changes.
std::string globalDependency(llvm::StringRef Usr);
bool isGlobalDependency(llvm::StringRef Key);
// The dependency key of a function defined here on the checkpoint calls of
// other TUs that checkpoint it ("none" when there are none). Every function
// a summary lists depends on it, recorded or not.
std::string checkpointDependency(llvm::StringRef Usr);
// The dependency key of a virtual call on the set of overrides of the
// method with this USR in the whole program.
std::string overridesDependency(llvm::StringRef Usr);
bool isOverridesDependency(llvm::StringRef Key);
// The method of an overrides dependency's key; empty for another key.
llvm::StringRef overriddenMethod(llvm::StringRef Key);
// The dependency key of a call that runs what a value holds on the set of
// callables the whole program stores into the place with this USR.
std::string heldDependency(llvm::StringRef Usr);

// Whether a dependency key is one of the keys above: a fact add() records,
// whose hash needs no composition (a function's USR is the other kind).
bool isProgramFactKey(llvm::StringRef Key);

// The USR of a declaration; empty when it has none.
std::string usrOf(const Decl &D);

} // namespace clang::tidy::rematch

#endif
