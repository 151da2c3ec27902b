//===--- TUWalk.h - the translation unit, one walk per body -----*- C++ -*-===//
//
// The analysis reads a translation unit (outside system headers) for its
// checkpoint sites, the overrides of each virtual method, the definitions
// another TU may need and which globals anything writes; and it reads the
// bodies that checkpointed code can reach for their effects. Both come from
// one walk of each body:
//
//  1. declarations(): the declarations, each function body set aside (a
//     unit), in the order of the translation unit;
//  2. bodies(): the units from last to first (callers tend to follow their
//     callees, so a site is usually met before what it reaches). A unit
//     that is wanted by then (checkpointed code can reach it, or another TU
//     needs its facts) is walked once by the effect walk, which also finds
//     its sites and global uses (BodyObserver); any other is only scanned
//     for those. A checkpointed lambda inside a scanned unit is walked by
//     the effect walk where the scan meets it.
//
// A body found wanted only after it was scanned (its caller came first)
// has its effects read again later, as before; unitsWalkedTwice() counts
// them.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_TUWALK_H
#define REMATCH_CHECKS_TUWALK_H

#include "CheckpointSites.h"
#include "EffectCollector.h"
#include "GlobalWrites.h"
#include "KnownFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <memory>
#include <vector>

namespace clang {
class ASTContext;
}

namespace clang::tidy::rematch {

class BodyRecorder;
class BodyReplay;
class ExternalSummaries;
class HeldCallables;

using OverrideMap =
    llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>>;

// Why a function's effects are read: checkpointed code reaches it, another
// TU needs them (--summaries-dir), or both.
enum WantBits : uint8_t { Reached = 1, Exported = 2 };

class TUWalk {
public:
  // What the walk fills in.
  struct Output {
    std::vector<CheckpointSite> &Sites; // this TU's sites, in its order
    OverrideMap &Overrides;
    std::vector<const FunctionDecl *> *Definitions; // when exporting
    GlobalUseCollector &Uses;
    unsigned &FunctionsWithBody;
    // Functions another TU may checkpoint (ExternalSummaries), by name.
    std::vector<const FunctionDecl *> &Candidates;
    // The effect walk's facts, by definition.
    llvm::DenseMap<const FunctionDecl *, DirectFacts> &Facts;
    // Told of every store into a value that holds callables.
    HeldCallables &Held;
    // Bodies the parse skipped, whose recorded facts stand in for a walk,
    // and the recorder of the bodies walked (BodyReplay.h); either may be
    // null.
    BodyReplay *Replay = nullptr;
    BodyRecorder *Recorder = nullptr;
  };
  // Called for a function whose facts were read, with why they are wanted:
  // it wants what those facts reach (want()).
  using ExpandFn = std::function<void(TUWalk &, const FunctionDecl &,
                                      const DirectFacts &, uint8_t Why)>;

  TUWalk(ASTContext &Ctx, const KnownFunctions &Known, FactsPool &Pool,
         const EntryPoints &EP, const ExternalSummaries *Remote, Output Out,
         ExpandFn Expand);
  ~TUWalk();

  void declarations();
  // FD's effects are wanted, for Why.
  void want(const FunctionDecl *FD, uint8_t Why);
  void bodies();

  // The units, and those whose effects were read after a scan.
  unsigned units() const;
  unsigned unitsWalkedTwice() const;

  class Walker; // the visitor (TUWalk.cpp)

private:
  friend class Walker;
  struct Unit {
    const FunctionDecl *FD;
    unsigned Seq;        // its place among the units and outside sites
    uint8_t Want = 0;
    bool Done = false;   // scanned or walked
    bool Walked = false; // by the effect walk: its facts are in Out.Facts
  };
  void addUnit(const FunctionDecl *FD);
  void addSite(CheckpointSite Site);
  bool divert(const FunctionDecl *LambdaOperator);
  void walk(const FunctionDecl *FD, bool Observed);
  bool skipped(const FunctionDecl *FD) const;
  void replayUses(const FunctionDecl *FD);
  void drain();
  void unpark(const FunctionDecl *U);
  const FunctionDecl *enclosingUnit(const FunctionDecl *FD) const;

  ASTContext &Ctx;
  const KnownFunctions &Known;
  FactsPool &Pool;
  Output Out;
  ExpandFn Expand;
  std::unique_ptr<Walker> W;

  std::vector<Unit> Units;
  llvm::DenseMap<const FunctionDecl *, unsigned> UnitIndex;
  // Functions that are not units (lambdas and local classes inside one,
  // system headers): wants, and 0x80 once walked.
  llvm::DenseMap<const FunctionDecl *, uint8_t> Others;
  std::vector<const FunctionDecl *> Queue;
  // Wanted inside a unit not read yet, by that unit.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>>
      Parked;
  unsigned Seq = 0;         // declarations(): the next unit's or site's
  unsigned CurrentSeq = 0;  // bodies(): the unit being read
  std::vector<std::pair<unsigned, unsigned>> SiteOrder; // (Seq, found)
  unsigned WalkedTwice = 0;
  bool InBodies = false;
};

} // namespace clang::tidy::rematch

#endif
