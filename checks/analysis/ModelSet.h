//===--- ModelSet.h - the models in force for one configuration -*- C++ -*-===//
//
// The built-in model files (models/*.yaml, installed beside the program)
// and a project's own (`Models:` in .rematch.yaml), merged into indexes
// that answer per name: loaded once per process and per configuration, and
// shared read-only by every analysis thread. The per-translation-unit side,
// which matches declarations against these indexes, is KnownFunctions.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_MODELSET_H
#define REMATCH_CHECKS_ANALYSIS_MODELSET_H

#include "Config.h"
#include "Model.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <memory>

namespace clang::tidy::rematch {

class ModelSet {
public:
  // Files in order: built-in ones first, then the project's. Config adds its
  // function lists, container types, allowed globals and entry points.
  ModelSet(std::vector<std::shared_ptr<const ModelFile>> Files,
           const Config &C);

  // Function entries by qualified name (a C function by its plain name).
  llvm::ArrayRef<const ModelEntry *> named(llvm::StringRef Name) const;
  llvm::ArrayRef<const ModelEntry *> rules() const { return Rules; }
  // Whether a function in a scope named Name (a namespace, class or
  // function anywhere around it) can be named by an entry, matched by a rule
  // or analysed: false when no entry, rule or Analyse: line starts with
  // Name::, so that most of a project's own functions cost no name.
  bool mayMatchWithin(llvm::StringRef Name) const {
    return AnyUnscopedRule || OuterScopes.contains(Name);
  }

  // TypeKind bits of a qualified class (template) name.
  unsigned typeKinds(llvm::StringRef ClassName) const;
  bool isContainerMutator(llvm::StringRef Member) const {
    return ContainerMutators.contains(Member);
  }
  // What the models say a member of a kind does (Members:): the last
  // entry that names it, or null. hasMembers: the kind has entries.
  const ModelMember *member(TypeKind K, llvm::StringRef Name) const;
  bool hasMembers(TypeKind K) const {
    return MemberKinds & (1u << unsigned(K));
  }
  bool isLogStream(llvm::StringRef QualifiedVar) const {
    return LogStreams.contains(QualifiedVar);
  }
  bool isStdHandle(llvm::StringRef Var) const {
    return StdHandles.contains(Var);
  }
  bool isAllowedGlobal(llvm::StringRef QualifiedVar) const {
    return AllowedGlobals.contains(QualifiedVar);
  }

  const ModelSource *source(llvm::StringRef Name) const;
  // The first entry point that replays each source that names one, with
  // the source, in the sources' order.
  std::vector<std::pair<std::string, std::string>> replayers() const;
  // The model files, in load order: what a summary depends on besides its
  // sources.
  std::vector<std::string> paths() const;
  // Whether code in this scope (a qualified class or namespace name) is
  // analysed even in system headers (Analyse:).
  bool isAnalysed(llvm::StringRef Scope) const;
  // Those scopes, sorted.
  std::vector<std::string> analysedScopes() const;
  // Whether a scope named Outer (outermost: a namespace or class at the
  // top) may hold an analysed one: false for most of a library's code,
  // which then costs no qualified name.
  bool mayAnalyseWithin(llvm::StringRef Outer) const {
    return AnalysedOuter.contains(Outer);
  }
  // The entry points the models and the configuration name, and what each
  // replays (empty: nothing).
  const llvm::StringMap<std::vector<std::string>> &entryPoints() const {
    return EntryPoints;
  }
  // The argument that is the checkpointed callable, where one is named
  // (Callable: N); otherwise the first callable argument.
  std::optional<unsigned> callableArg(llvm::StringRef EntryPoint) const {
    auto It = CallableArgs.find(EntryPoint);
    if (It == CallableArgs.end())
      return std::nullopt;
    return It->second;
  }

  // The entry point hands the callable fresh copies of its arguments on
  // every run (ArgumentsFresh: true): writes to them are its own.
  bool argumentsFresh(llvm::StringRef EntryPoint) const {
    return FreshArguments.contains(EntryPoint);
  }

  // What runs when an object is passed where a callable is expected.
  llvm::ArrayRef<ModelCallableObject> callableObjects() const {
    return CallableObjects;
  }

  // Values that hold callables stored into them elsewhere.
  llvm::ArrayRef<ModelCallableHolder> callableHolders() const {
    return CallableHolders;
  }

private:
  void indexOuterScopes();

  std::vector<std::shared_ptr<const ModelFile>> Files;
  std::vector<ModelEntry> ConfigEntries; // from the configuration's lists
  llvm::StringMap<std::vector<const ModelEntry *>> ByName;
  std::vector<const ModelEntry *> Rules;
  llvm::StringMap<unsigned> Types;
  llvm::StringSet<> ContainerMutators, LogStreams, StdHandles, AllowedGlobals;
  llvm::StringSet<> Analysed;
  llvm::StringSet<> AnalysedOuter; // first components of Analysed
  llvm::StringSet<> OuterScopes; // first components of the above
  bool AnyUnscopedRule = false;  // a rule with no Namespace: nor Class:
  llvm::StringMap<ModelSource> Sources;
  llvm::StringMap<std::vector<std::string>> EntryPoints;
  llvm::StringMap<unsigned> CallableArgs;
  llvm::StringSet<> FreshArguments; // entry points: ArgumentsFresh
  std::vector<ModelCallableObject> CallableObjects; // names trimmed
  std::vector<ModelCallableHolder> CallableHolders; // names trimmed
  std::vector<const ModelMember *> Members;          // in load order
  unsigned MemberKinds = 0;                          // TypeKind bits
};

// Where the built-in models are: $REMATCH_MODELS_DIR when set, else
// share/rematch/models beside the program or plugin this code is in
// (installed, or copied there in the build tree). Empty when none exists.
std::string builtinModelsDir();
// The model files in Dir (the built-in ones), sorted.
std::vector<std::string> builtinModelFiles(const std::string &Dir);

// The models for a configuration: the built-in files (read once per
// process), the configuration's Models (each file read once per process,
// relative paths against the configuration file's directory) and its lists.
// An unreadable or malformed file is an error "<file>:<line>:<col>: ...".
llvm::Expected<std::shared_ptr<const ModelSet>> modelsFor(const Config &C);

} // namespace clang::tidy::rematch

#endif
