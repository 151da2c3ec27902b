//===--- Model.h - what code we cannot read does, as data ------*- C++ -*-===//
//
// A model file (models/*.yaml, or a project's own, docs/models.md) says what
// library functions do to the world: a function by name, or a family by a
// structural rule (its namespace or class, a name suffix, a parameter the
// overload set takes), with the effect, its target, the random source it
// draws from and the conditions under which it happens. It also names the
// library's types (containers, engines, handles), its random sources and its
// checkpoint entry points with the sources they replay.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_MODEL_H
#define REMATCH_CHECKS_ANALYSIS_MODEL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::rematch {

// What a modelled function does. Pure: nothing; the function is modelled
// (its body, if visible, is not analysed) and has no effect.
enum class ModelEffect {
  Rng,
  StateWrite,
  CounterUpdate,
  CacheWrite,
  Logging,
  Io,
  Nondeterminism,
  Pure,
};

// One argument of a call: by position (0-based, the object of a member call
// not counted), by parameter name, or by the type of the parameter.
struct ArgRef {
  int Index = -1;
  std::string Param;
  std::string Type;
  bool empty() const { return Index < 0 && Param.empty() && Type.empty(); }
};

// A fact about one argument at the call site.
struct Condition {
  ArgRef Arg;
  enum Kind {
    Absent,  // not written: the default argument is used
    Nullopt, // absent, or written as nullopt / {} / an empty optional
    False,   // a constant false (a literal, or a default of false)
    True,    // a constant true
  } Is = Absent;
  // An options object: the condition is about the value its builder chain
  // gives this field (`Options().training(false)`), or Default when the
  // chain does not set it.
  std::string Field;
  std::optional<bool> Default;
};

// What an effect lands on.
struct ModelTarget {
  // World: no object (an event); Process: state of the process no argument
  // names (the seed of rand(), ATen's thread count), named by Subject.
  enum Kind { World, This, Argument, Process } K = World;
  ArgRef Arg;
};

// What a call's result is an alias of (Returns: {AliasOf: ...}): a pointer,
// reference, iterator or view into the object it is called on, into one
// argument, or into every argument (std::tie). A write through the result
// lands there.
struct AliasRule {
  enum Kind { This, Argument, Arguments } K = This;
  ArgRef Arg;
  std::string May; // only sometimes ("when it returns a view")
};

// A function that calls one of its arguments on each element of another
// (std::for_each(first, last, f)): f's first parameter is bound to those
// elements, so a write through it writes them.
struct ModelVisit {
  ArgRef Callable; // the callable argument
  ArgRef Elements; // the range, or the iterator to its first element
};

// A function that binds a callable to arguments and returns an object
// that calls it (std::bind, std::bind_front): calling the result calls the
// callable with the bound arguments. A bound copy lives in that object; a
// reference wrapper (std::ref) is the object it refers to. With
// Placeholders, a variable of that namespace named _N stands for the call's
// N-th argument (std::bind); without, the call's arguments follow the bound
// ones (std::bind_front).
struct ModelBind {
  ArgRef Callable;          // the callable argument; the bound ones follow
  std::string Placeholders; // the namespace of the placeholders, if any
};

struct ModelEntry {
  // -- which functions ----------------------------------------------------
  std::string Id;   // for Disable; a function entry's defaults to its Name
  std::string Name; // a function entry: the qualified name
  std::optional<std::vector<std::string>> Params; // one overload by types
  // A rule entry: every condition set must hold.
  // Declared in one of these namespaces (or nested in it, or in a class in
  // it); a member of one of these classes (or class templates).
  std::vector<std::string> Namespaces;
  std::vector<std::string> Classes;
  std::string NamePrefix, NameSuffix;
  std::vector<std::string> Names; // unqualified names
  std::vector<ArgRef> HasParam; // the function has each of these parameters
  std::optional<ArgRef> OverloadHasParam; // some overload of its name has it

  // -- what they do --------------------------------------------------------
  ModelEffect Effect = ModelEffect::Pure;
  bool HasEffect = false; // Effect was given (an entry may only say Returns)
  std::optional<AliasRule> Returns;
  std::optional<ModelVisit> Visits;
  std::optional<ModelBind> Binds;
  ModelTarget On;
  // The write assigns the argument object itself (std::swap): a handle is
  // given another object, what it shared is untouched.
  bool Rebinds = false;
  std::string Source;              // rng: the named source drawn from
  std::optional<ArgRef> Generator; // rng: the generator or key, when passed
  std::vector<Condition> When;     // all must hold (or be unknown)
  std::vector<Condition> Unless;   // none may hold
  std::string May;      // only sometimes ("in training mode"): "may" wording
  std::string Draws;    // rng: what is drawn ("mask"), for the message
  std::string Subject;  // what the message names instead of the function
  std::optional<ArgRef> StdStreamArg; // logging when this is stdout/stderr
                                      // or fd 1/2, Effect otherwise

  // -- where it was written -----------------------------------------------
  std::string File;
  unsigned Line = 0, Column = 0;

};

struct ModelSource {
  std::string Name;        // "torch.default"
  std::string Description; // "torch's default generator"
  std::vector<std::string> ReplayedBy; // entry points that replay it
};

struct ModelEntryPoint {
  std::string Name;                 // qualified
  std::vector<std::string> Replays; // source names
  std::optional<unsigned> Callable; // the checkpointed argument, from 0
  // The callable's arguments are fresh copies on every run (a runtime that
  // clones what the callable mutates): in-place writes to them are the
  // callable's own.
  bool ArgumentsFresh = false;
};

// Kinds of types the collector treats specially (docs/models.md).
enum class TypeKind {
  Container,         // member calls listed in ContainerMutators write it
  Map,               // operator[] inserts
  RandomEngine,      // operator(), discard draw; seed writes
  RandomDevice,      // every draw is fresh entropy
  ReplayedGenerator, // replayed by the runtime, never a hazard
  FileStream,        // opening is I/O, reading and writing too
  Atomic,            // fetch_* count, store/exchange write
  Handle,            // a copy shares the object (tensors, arrays)
  View,              // stands for part of another object: assigning to it
                     // writes that object (Eigen's Block, Map, NoAlias)
  Value,             // a copy owns its state (a container, a string), when
                     // its type arguments are values too (CopySemantics.h)
};

// What calling a member does to an object of a kind (Members:), when no
// function entry describes the call: the effect lands on the object (for a
// handle, on what it shares), or on the world. A kind with entries has no
// other effects: its unlisted members only read it.
struct ModelMember {
  TypeKind Kind = TypeKind::Container;
  // Member names; one ending in '*' is a prefix (fetch_*).
  std::vector<std::string> Names;
  ModelEffect Effect = ModelEffect::Pure;
  bool Reads = false; // `read`: reads the object (an atomic_ref's load)
  bool World = false; // On: world (opening a file is I/O whatever the file)
  std::string File;
  unsigned Line = 0;
};

// Objects that run a member function where a checkpoint expects a callable:
// a module passed to rematch::torch::checkpoint runs its forward().
struct ModelCallableObject {
  std::string Class;  // qualified; classes derived from it are such objects
  std::string Method; // the member function that runs ("forward")
  // Class templates whose first template argument is the object that runs:
  // holders (torch::nn::ModuleHolder, std::shared_ptr) and lists of such
  // objects (std::vector, for checkpoint_sequential).
  std::vector<std::string> Holders;
};

// Values that hold callables the program stores into them elsewhere
// (CallableHolders:): a std::function, a torch::nn::Sequential. Calling Runs
// on one runs what was stored into it: by initialisation, assignment, copy,
// return or argument, by the holder's constructor arguments, or by the
// member calls Adds names (push_back). docs/models.md.
struct ModelCallableHolder {
  std::string Class;             // qualified; derived classes hold too
  std::string Runs;              // the member that runs them; empty: none
  std::vector<std::string> Adds; // member calls whose arguments it holds
};

struct ModelTypes {
  TypeKind Kind;
  std::vector<std::string> Names;
};

struct ModelFile {
  std::string Path;
  std::string Name; // the Model: key
  std::vector<ModelSource> Sources;
  std::vector<ModelEntryPoint> EntryPoints;
  std::vector<ModelTypes> Types;
  std::vector<ModelCallableObject> CallableObjects;
  std::vector<ModelCallableHolder> CallableHolders;
  std::vector<std::string> ContainerMutators;
  std::vector<ModelMember> Members;
  std::vector<std::string> LogStreams; // variables: std::cout, ...
  std::vector<std::string> StdHandles; // C FILE* variables: stdout, ...
  std::vector<ModelEntry> Functions;
  std::vector<ModelEntry> Rules;
  std::vector<std::string> Disable; // ids of entries switched off
  // Classes or namespaces whose code is analysed even in system headers:
  // glue that only forwards to what the entries describe
  // (torch::nn::ModuleHolder::operator() calls the module's forward()).
  std::vector<std::string> Analyse;
};

// Parses one model file. Errors are "<Path>:<line>:<column>: error: <what>".
llvm::Expected<ModelFile> parseModel(llvm::StringRef Text,
                                     llvm::StringRef Path);
llvm::Expected<ModelFile> loadModelFile(llvm::StringRef Path);

llvm::StringRef effectName(ModelEffect E);

} // namespace clang::tidy::rematch

#endif
