//===--- Effect.h - one thing a function does to the world -----*- C++ -*-===//
//
// The vocabulary shared by the effect collector, the per-function summaries
// and the checks. An effect says what happened (Kind), to whose state (Root,
// seen from the function it is recorded in) and where.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_EFFECT_H
#define REMATCH_CHECKS_EFFECT_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace clang::tidy::rematch {

// One kind per check, from the one list (checks/Checks.def).
enum class EffectKind : unsigned char {
#define REMATCH_CHECK(Name, Class, Stem, Kind, Description) Kind,
#include "Checks.def"
};
inline constexpr unsigned NumEffectKinds = 0
#define REMATCH_CHECK(Name, Class, Stem, Kind, Description) +1
#include "Checks.def"
    ;

// Whose state an effect touches, relative to the function that records it.
// Everything but Local outlives one call of a checkpointed callable.
struct Root {
  enum Kind : unsigned char {
    Local,         // a local, a temporary, a by-value copy nobody sees twice
    Static,        // static storage duration
    This,          // *this (for a lambda: the captured enclosing object)
    Param,         // what reference/pointer parameter Index refers to
    Capture,       // a by-reference capture, a mutable lambda's copy, or
                   // what a captured pointer points to
    Unconditional, // not about state: logging, I/O, clocks, hidden RNG
    // What the function's call number Index returns an alias of: known
    // only from the callee's summary, and resolved with it (never left in
    // a finished summary).
    Returned,
  };
  Kind K = Local;
  // A parameter's index: clang allows no more than 2^16 - 1 parameters.
  std::uint16_t Index = 0;

  static Root local() { return {}; }
  static Root of(Kind K, unsigned Index = 0) {
    Root R;
    R.K = K;
    R.Index = static_cast<std::uint16_t>(Index);
    return R;
  }
  bool isOutside() const { return K != Local; }
  bool operator==(const Root &O) const {
    return K == O.K && ((K != Param && K != Returned) || Index == O.Index);
  }
};

// What happens, as a message says it: the same wherever it was recorded
// (Effect here, SummaryEffect in another TU's summary), and all a check
// needs to describe it.
struct EffectFacts {
  EffectKind Kind = EffectKind::StateWrite;
  std::string Subject; // 'g_steps', 'std::cout', 'fopen'
  std::string Detail;  // '+=', 'push_back'; empty when there is nothing to add
  // From a model: the named random source drawn from ("torch.default"),
  // how messages call it, what is drawn ("mask"), and the condition under
  // which the effect happens at all ("in training mode"), when only then.
  std::string RngSource;
  std::string RngSourceText;
  std::string Draws;
  std::string May;
  // The alias the change went through ('p' in `float *p = g_buffer; p[0] =
  // 1;`, whose Subject is then 'g_buffer'); empty when the object was
  // named directly.
  std::string Via;
};

// The facts of one analysis' own effects, each distinct one kept once: many
// effects say the same thing (every read of one global, every `++steps_`),
// and every caller that inherits an effect points at its facts too.
class FactsPool {
public:
  // The pooled copy of F; its address is stable for the pool's lifetime.
  const EffectFacts *intern(EffectFacts F) {
    return &*Pool.insert(std::move(F)).first;
  }

private:
  struct Hash {
    size_t operator()(const EffectFacts &F) const {
      return llvm::hash_combine(static_cast<unsigned>(F.Kind), F.Subject,
                                F.Detail, F.RngSource, F.RngSourceText,
                                F.Draws, F.May, F.Via);
    }
  };
  struct Same {
    bool operator()(const EffectFacts &A, const EffectFacts &B) const {
      return A.Kind == B.Kind && A.Subject == B.Subject &&
             A.Detail == B.Detail && A.RngSource == B.RngSource &&
             A.RngSourceText == B.RngSourceText && A.Draws == B.Draws &&
             A.May == B.May && A.Via == B.Via;
    }
  };
  std::unordered_set<EffectFacts, Hash, Same> Pool; // nodes do not move
};

// The text of a string held elsewhere, or nothing.
inline llvm::StringRef textOf(const std::string *S) {
  return S ? llvm::StringRef(*S) : llvm::StringRef();
}

// One effect in a summary of this translation unit: the function's own, or
// one of a callee's that reaches it through a call (Origin). What happened
// (Facts) is shared by the effect and every caller that inherits it: a
// summary holds an effect per call chain through it, and copying the words
// of each would make the summaries of long chains grow with the square of
// their length in bytes as well as in entries. For the same reason an
// effect is kept small (80 bytes): it points at what it shares and owns
// nothing.
struct Effect {
  enum class Origin : unsigned char {
    Own,       // the function's own code does it, at Loc
    Callee,    // a callee's effect CalleeEffect, summarised in this TU
    OtherTU,   // a callee's effect CalleeEffect, summarised in another TU
  };
  Origin From = Origin::Own;
  bool inherited() const { return From != Origin::Own; }

  EffectKind Kind = EffectKind::StateWrite; // Facts->Kind, asked everywhere
  bool Spelled = false; // Var was named unqualified at Loc (fix-it is safe)
  bool PartOfChange = false; // see MutatedAt: set once the summary is complete
  bool Virtual = false; // a virtual call on the way: the effect may happen
  // The call runs one of the callables a value holds (a std::function, a
  // Sequential): the effect may happen (EffectAnalysis::heldAt says which).
  bool Held = false;
  // A global read that only takes an alias the function returns (`return
  // s_stats;` from `Stats &stats()`): part of the change when a caller
  // writes through what it returns.
  bool ReturnedRead = false;
  Root Target;
  // With MutatedAt: what the call does with the read object: 0 it is the
  // object of the call, I + 1 it is (or an alias of it is) argument I.
  std::uint16_t MutatedSlot = 0;
  SourceLocation Loc;  // the effect, or the call it comes through
  // A global read as the object of a non-const member call made at
  // MutatedAt: when the callee changes its object there, the read is part
  // of that change and not reported on its own.
  SourceLocation MutatedAt;
  // A change through an alias (Facts->Via): where the alias was taken.
  SourceLocation AliasAt;
  unsigned CalleeEffect = 0; // inherited only: see Callee
  // Never null in a summary. Held by the analysis (its FactsPool), or by
  // the other TUs' summaries (ExternalSummaries), which the analysis holds
  // as long as its own.
  const EffectFacts *Facts = nullptr;
  const EffectFacts &facts() const { return *Facts; }
  // Sets Facts and the copy of its kind together.
  void setFacts(const EffectFacts *F) {
    Kind = F->Kind;
    Facts = F;
  }
  const Expr *Source = nullptr; // the expression, where a fix-it needs it
  // Set for a read of a namespace-scope global, for the init-capture fix-it.
  const VarDecl *Var = nullptr;
  // A global read in another TU: the global's USR, in the other TUs'
  // summaries (ExternalSummaries) like ExternalUsr.
  const std::string *VarUsr = nullptr;
  llvm::StringRef varUsr() const { return textOf(VarUsr); }

  // Inherited only: the callee whose effect this is, and the index of that
  // effect in its summary (this TU's, or ExternalUsr's in another TU: the
  // USR of an override there that a virtual call may run, else Callee's).
  const FunctionDecl *Callee = nullptr;
  const std::string *ExternalUsr = nullptr;
  const FunctionDecl *Called = nullptr; // the callee as written at the call
};
static_assert(sizeof(void *) != 8 || sizeof(Effect) <= 88,
              "an Effect is held once per call chain: keep it small");

// One call made by a function, with the roots of what the callee can reach.
struct CallSite {
  const FunctionDecl *Callee = nullptr;
  const Expr *Call = nullptr; // the call as written, for messages
  SourceLocation Loc;
  Root Object;             // root of the implicit object (member calls)
  llvm::SmallVector<Root, 4> Args; // per parameter: what it refers to
  bool Virtual = false;
  // For a virtual call: the static class of the object; only overrides in
  // it or classes derived from it can run.
  const CXXRecordDecl *StaticClass = nullptr;
};

// Where a callee's effect lands in the caller, or nothing when it stays
// local to the call. Call is a CallSite here or a SummaryCall of another TU:
// both give the roots of the object (Object) and of each argument (Args).
template <class Call>
std::optional<Root> mapRoot(const Root &R, const Call &C) {
  switch (R.K) {
  case Root::Static:
  case Root::Unconditional:
    return R;
  case Root::This:
    return C.Object.isOutside() ? std::optional<Root>(C.Object) : std::nullopt;
  case Root::Param:
    if (R.Index < C.Args.size() && C.Args[R.Index].isOutside())
      return C.Args[R.Index];
    return std::nullopt;
  case Root::Capture:
  case Root::Local:
  case Root::Returned: // resolved in its own function's summary
    return std::nullopt;
  }
  return std::nullopt;
}

// What a function returns an alias of, seen from the function: a global
// (Static, with its declaration here or its USR in another TU's summary),
// its object (This), a parameter's object (Param), or in its direct facts
// what one of its calls returns (Returned).
struct ReturnedAlias {
  Root R;
  const VarDecl *Var = nullptr;         // Static, in this TU
  const std::string *VarUsr = nullptr;  // Static, in another TU's summary
  const std::string *VarName = nullptr; // its name there, for messages
  bool operator==(const ReturnedAlias &O) const {
    return R == O.R && Var == O.Var &&
           (VarUsr == O.VarUsr || (VarUsr && O.VarUsr && *VarUsr == *O.VarUsr));
  }
};

} // namespace clang::tidy::rematch

#endif
