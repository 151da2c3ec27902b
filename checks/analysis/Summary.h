//===--- Summary.h - effect summaries that cross translation units -*- C++ -*-===//
//
// What one translation unit tells the others: for each function it defines
// (keyed by USR), its own effects on roots its callers can map (globals,
// *this, reference parameters, the world) and the calls it makes, with the
// roots of what each call can reach, in plain file:line:column form. A
// summary depends on its own file alone: the front end composes all of them
// (Compose.h) into what each function does transitively, without an AST,
// so that a call into a function defined in another file is followed like a
// local one.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_SUMMARY_H
#define REMATCH_CHECKS_SUMMARY_H

#include "Effect.h"
#include "NoLint.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FileManager;
class SourceManager;
} // namespace clang

namespace clang::tidy::rematch {

// Bumped whenever the format or its meaning changes: older files are stale.
inline constexpr int SummaryFormatVersion = 12;

struct PlainLocation {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

// One step of a chain inside the defining TU: "<Function> calls <Callee>"
// (Callee set) or the effect itself.
struct SummaryStep {
  std::string Function; // qualified name of the function the step is in
  std::string Callee;   // qualified name when the step is a call
  PlainLocation Loc;
};

struct SummaryEffect : EffectFacts {
  Root Target;
  bool Virtual = false;
  std::string VarUsr; // rematch-global-read: the global's USR
  std::vector<SummaryStep> Chain; // from the function's body to the effect
  // An own read of a global as the object of a non-const member call made
  // here (Effect::MutatedAt): part of that change when the callee changes
  // its object (MutatedSlot 0) or argument MutatedSlot - 1. Line 0: none.
  PlainLocation MutatedAt;
  unsigned MutatedSlot = 0;
  // A read that only takes an alias the function returns (Effect).
  bool ReturnedRead = false;
  // A change through an alias (Via): where the alias was taken. Line 0:
  // none.
  PlainLocation AliasAt;
  // A change through what a call returns (Target Returned): the call as
  // written, named when what it returns is a global.
  std::string ViaCall;
};

// What a function returns an alias of: a global (Static, with its USR and
// name), its object (This), a parameter's object (Param), or, in the
// function's own facts, what its call number Index returns (Returned).
struct SummaryReturn {
  Root R;
  std::string VarUsr;
  std::string VarName;
};

// What a function does, transitively: the composed view (Compose.h) that
// the analysis of another TU inherits at a call.
struct FunctionEffects {
  std::string Usr;
  std::string Name; // qualified, for messages
  std::vector<SummaryEffect> Effects;
  std::vector<SummaryReturn> Returns; // resolved: no Returned root
};

// One call a function makes to a function that has, or may have, effects
// (defined in another TU, or here with effects, or virtual), with the roots
// of what the callee can reach, seen from the caller.
struct SummaryCall {
  std::string Callee;     // USR of the function called, as written
  std::string CalleeName; // qualified, for chains
  PlainLocation Loc;
  Root Object;            // the implicit object of a member call
  std::vector<Root> Args; // per parameter, up to the last one outside
  bool Virtual = false;
  std::string StaticClass; // a virtual call: USR of the object's class (may
                           // be empty: any class)
  // A call that runs what a value holds (`act_(x)` on a std::function
  // member, `seq_->forward(x)`): the USR of that variable or member, whose
  // callables the summaries list (SummaryHeld). Empty otherwise.
  std::string HeldPlace;
};

// What a function does by itself: its own effects (each with a one-step
// chain) and its calls.
struct FunctionFacts {
  std::string Usr;
  std::string Name;
  // Targets may be Returned: what call number Index of Calls returns.
  std::vector<SummaryEffect> Effects;
  std::vector<SummaryCall> Calls;
  std::vector<SummaryReturn> Returns;
};

// A callable this TU checkpoints whose body is in another TU: that TU
// reports its effects, with a note at this call.
struct SummaryCheckpoint {
  // The callable: a function, or a functor's operator(); or (Kind "value")
  // a variable, member or function whose value holds callables that the
  // TU storing into it reports (HeldCallables.h).
  std::string Usr;
  std::string Kind;       // "function", "functor", "module" or "value"
  std::string Name;       // qualified, for messages
  std::string EntryPoint; // the entry point called
  std::vector<std::string> Replays;
  PlainLocation Call;     // the checkpoint call
  bool ArgumentsFresh = false; // written only when set
};

// An override defined in this TU of a virtual method declared anywhere: a
// virtual call in another TU may run it.
struct SummaryOverride {
  std::string Method;               // USR of the overridden method
  std::string Override;             // USR of the overriding definition
  std::vector<std::string> Classes; // its class and all the class's bases
};

// A callable this TU stores into a variable or member that other TUs can
// name (HeldCallables.h): a call there that runs what the place holds may
// run it.
struct SummaryHeld {
  std::string Place;     // USR of the variable or member
  std::string PlaceName; // its name, for messages ('act_')
  std::string Callable;  // USR of the body that runs
  std::string Name;      // qualified name of that body, for messages
  bool Lambda = false;   // the body is a lambda's
  PlainLocation StoredAt;
};

// A callable this TU checkpoints and reports, as `rematch report` needs it
// to add, without the AST, the findings that calls into other TUs bring
// (docs/architecture.md, "Reporting from facts"): its body's facts, as a
// function's, but with its effects on captures; the site that checkpoints
// it; and the text its findings print.
struct SummaryCallable {
  FunctionFacts Facts; // Usr: "callable:<n>", n its place in the list
  std::string Text;    // "checkpointed lambda held by 'step_'"
  std::string EntryPoint;
  std::vector<std::string> Replays;
  bool ArgumentsFresh = false;   // written only when set
  PlainLocation Call;            // the checkpoint call
  PlainLocation StoredAt;        // line 0: handed over directly
  std::string StoredNote;        // the note there
  // The text of each line of the main file a call of Facts is on.
  std::vector<std::pair<std::string, std::string>> Lines; // line, text
  // The bodies of the lambdas written inside it, first and last character
  // (NestedLambdas.h): an effect there that a chain through this TU also
  // ends at is reported through the chain only.
  std::vector<std::pair<PlainLocation, PlainLocation>> Nested;
};

struct TUSummary {
  int Version = SummaryFormatVersion;
  std::string MainFile;       // absolute path
  std::string CommandHash;    // hash of the compile command
  // Every file the TU read, with its content hash: the summary is reused
  // only while all of them are unchanged.
  std::vector<std::pair<std::string, std::string>> Inputs;
  // The system headers it read. Shared by most TUs and most of a summary's
  // size, so the store keeps each distinct list once, in a file named by
  // SystemInputsKey; only the key is part of this summary's text.
  std::vector<std::string> SystemInputs;
  std::string SystemInputsKey;
  std::vector<FunctionFacts> Functions;
  std::vector<std::string> GlobalsWritten; // USRs of globals written anywhere
  std::vector<std::string> GlobalsEscaping; // USRs whose address escapes
  unsigned CheckpointSites = 0;
  std::vector<SummaryCheckpoint> Checkpoints; // of callables defined elsewhere
  std::vector<SummaryOverride> Overrides;
  std::vector<SummaryHeld> Held; // those with effects, by place
  // The callables this TU's checkpoint calls run whose bodies are in a
  // header (callableIdentity): every TU that runs one finds the same effects
  // in it, and a sharded run lets one of them report them (ownerDependency).
  std::vector<std::string> HeaderCallables;
  // What `rematch report` needs to make the findings that other TUs' facts
  // bring without parsing the file again; FromFacts false when it cannot
  // (a callable it does not list, a NOLINTBEGIN without its NOLINTEND, a
  // location in a macro, a checkpoint call of another TU, the
  // configuration's Checks).
  bool FromFacts = false; // written only when set
  std::vector<SummaryCallable> Callables;
  // The main file's NOLINT comments, which drop those findings as they drop
  // a parse's (kept only with Callables).
  std::vector<NoLintComment> NoLints;
  // Where the analysis made a finding of each kind (before NOLINT), and
  // for each random source of the models the entry point that replays it
  // (the suggestions name it).
  std::vector<std::pair<std::string, PlainLocation>> Reported; // kind, where
  std::vector<std::pair<std::string, std::string>> ReplayedBy; // entry, source
  // Not part of what the TU says: what the findings of the run that wrote
  // the summary were computed with (other TUs' functions, globals, overrides
  // and checkpoint calls, with their composed hash then), and a token naming
  // that run. The run reports those findings as final when the composition
  // of all summaries still gives every dependency the same hash.
  std::vector<std::pair<std::string, std::string>> Dependencies;
  std::string Writer;
};

// An effect kind as summaries name it: its check's stem ("logging").
const char *effectKindName(EffectKind K);
std::optional<EffectKind> effectKindNamed(llvm::StringRef Name);

// L as summaries write it: the file of its expansion, absolute, with its
// presumed line and column (a default PlainLocation when L is invalid).
PlainLocation plainLocation(SourceLocation L, const SourceManager &SM);
// The main file as summaries name it (absolute, like every path in them).
std::string plainMainFile(const SourceManager &SM);

// The path a summary or a preamble records for a file the parse read
// (Name as the file manager opened it): absolute, with `.` and `..` removed
// as text; when that names no file, because a `..` came after a symbolic
// link (`/../lib/gcc/x86_64-linux-gnu/12/../../../../include`, as the
// driver finds GCC's headers for a compile command whose compiler is a bare
// `clang++`, where /lib links to usr/lib), the file's real path.
std::string inputPath(llvm::StringRef Name, const FileManager &Files);

// The dependency key of the decision whether the TU of MainFile reports the
// findings in a header callable (ExternalSummaries::reportsIn): "yes" or
// "no". The one key that holds a path.
std::string ownerDependency(llvm::StringRef Callable, llvm::StringRef MainFile);
bool isOwnerDependency(llvm::StringRef Key);
// The parts of an owner dependency's key; false for another key.
bool splitOwnerDependency(llvm::StringRef Key, llvm::StringRef &Callable,
                          llvm::StringRef &MainFile);
// Calls Map on the main file of an owner dependency's key, if Key is one.
void mapOwnerDependencyFile(std::string &Key,
                            llvm::function_ref<void(std::string &)> Map);

// Calls Map on every path a summary records (its main file, its inputs,
// every location, the main file in an owner dependency's key), so that a
// front end can write them relative to a root and read them back.
void forEachPath(TUSummary &S, llvm::function_ref<void(std::string &)> Map);

// The hash every summary and dependency is written with: 16 hex digits of
// xxh3 over Text.
std::string hashText(llvm::StringRef Text);

// A hash of one function's composed effects, for Dependencies.
std::string hashFunctionEffects(const FunctionEffects &F);

// JSON text of a summary: one object on two lines. The first holds its
// head (format, version, main file, command hash, inputs, system inputs,
// writer, and the hash of the body's text), the second its body ("body":
// what the TU says of the program). A store reads every head and a body
// only when asked for it: a run that finds a file changed, or its findings
// kept, never parses the body, which on a file of thousands of functions
// costs a tenth of the file's own parse. The hash finds a damaged or
// half-written body as a whole parse would.
std::string serializeSummary(const TUSummary &S);

// Why a summary file is not used: the file, and what is wrong with it. Its
// message is clang's "<path>: error: <what>"; a caller that loses nothing
// by it (the summary is rebuilt) says the same as a warning.
class SummaryError : public llvm::ErrorInfo<SummaryError> {
public:
  static char ID;
  SummaryError(std::string Path, std::string What, int OtherVersion = -1)
      : Path(std::move(Path)), What(std::move(What)),
        OtherVersion(OtherVersion) {}
  const std::string &path() const { return Path; }
  const std::string &what() const { return What; }
  // A whole summary of another format version (an older or newer rematch
  // wrote it): that version; -1 for a damaged or foreign file.
  int otherVersion() const { return OtherVersion; }
  void log(llvm::raw_ostream &OS) const override {
    OS << Path << ": error: " << What;
  }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Path, What;
  int OtherVersion;
};

// Reads the summary file at Path and parses it (parseSummary); a file that
// cannot be read is an error naming it too. Every error of the functions
// below is a SummaryError.
llvm::Expected<TUSummary> readSummaryFile(llvm::StringRef Path);

// Parses and validates a summary; any malformed, truncated or wrong-version
// input is an error naming Path, never a partial summary.
llvm::Expected<TUSummary> parseSummary(llvm::StringRef Text,
                                       llvm::StringRef Path);
// The same in two steps: the head, with Body set to the body's text (its
// hash checked), then the body's fields into S.
llvm::Expected<TUSummary> parseSummaryHead(llvm::StringRef Text,
                                           llvm::StringRef Path,
                                           llvm::StringRef &Body);
llvm::Error parseSummaryBody(llvm::StringRef Body, llvm::StringRef Path,
                             TUSummary &S);

} // namespace clang::tidy::rematch

#endif
