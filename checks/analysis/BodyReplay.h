//===--- BodyReplay.h - unchanged bodies, not parsed again ------*- C++ -*-===//
//
// An edited file is parsed again, but most of its function bodies did not
// change. A run that analyses a file records, for each body it may skip
// next time, what the walk found in it (its DirectFacts, the globals it
// modifies) with the body's text hash and the hash of everything its
// meaning depends on in the file (the "scope": the file's text up to the
// body, or up to the end of the outermost class around an inline member,
// with every other removable body cut out). The next run asks clang to
// skip a body whose text is recorded (FrontendOptions::SkipFunctionBodies,
// decided per body by ASTConsumer::shouldSkipFunctionBody), checks once the
// parse is done that every skipped body's scope hashes as recorded, and the
// walk then takes the recorded facts, their locations moved with the body.
//
// Only bodies whose facts the record carries whole are recorded: no
// checkpoint site, lambda, local class, static local, macro, preprocessor
// directive or store into a callable holder inside; no reference to an
// implicit or instantiated declaration (skipping the body would leave it
// undeclared or undefined); every declaration it names reachable by
// qualified lookup. A run whose checks would need a skipped body itself
// (a checkpointed callable's body) is not used: the front end parses the
// file again without skipping (failed()).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_ANALYSIS_BODYREPLAY_H
#define REMATCH_CHECKS_ANALYSIS_BODYREPLAY_H

#include "BodyScope.h"
#include "EffectCollector.h"
#include "GlobalWrites.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::rematch {

class BodyReplay {
public:
  // The records of the file's last analysis (BodyRecorder::text()), but
  // those of the functions in Rejected (USRs).
  explicit BodyReplay(llvm::StringRef Text, llvm::StringSet<> Rejected = {});

  // Parse time: whether to skip FD's body (a recorded one).
  bool decide(const FunctionDecl &FD, const SourceManager &SM,
              const LangOptions &LO);
  // After the parse: whether every skipped body's scope is as recorded.
  void verify(ASTContext &Ctx);
  // The analysis could not use this parse: it must be done again without
  // skipping. Set by verify(), or by the analysis.
  void fail() { Failed = true; }
  // The records cannot stand in this parse at all (it read other files
  // than they were made with): fail(), and no retry().
  void failAll() { Failed = AllFailed = true; }
  bool failed() const { return Failed; }
  // FD's record cannot stand in for its body in this parse (its scope
  // changed, a declaration it names is gone, the checks need the body):
  // fail(), and leave it out of retry().
  void reject(const FunctionDecl &FD);
  // After failed(): the records that were not rejected, for another parse
  // that skips only those; null when nothing was rejected (the failure
  // was not about one body) or nothing would be left.
  std::shared_ptr<BodyReplay> retry() const;

  bool isSkipped(const FunctionDecl *FD) const {
    return !Skipped.empty() && Skipped.count(FD);
  }
  size_t skippedCount() const { return Skipped.size(); }
  // The recorded facts of a skipped body, in this parse's locations, and
  // into Modified (when given) the globals it modifies (GlobalUseCollector).
  // On a declaration that cannot be found again, reject() and nothing.
  DirectFacts facts(const FunctionDecl &FD, ASTContext &Ctx, FactsPool &Pool,
                    std::vector<const VarDecl *> *Modified = nullptr);
  // Only the globals a skipped body modifies (a body nothing wants).
  std::vector<const VarDecl *> modified(const FunctionDecl &FD,
                                        ASTContext &Ctx);
  // A skipped body's record as it was read: kept for the next run.
  llvm::StringRef recordOf(const FunctionDecl *FD) const;
  // Where the parse skipped FD's body: its '{' and '}'.
  std::optional<BodyOffsets> rangeOf(const FunctionDecl &FD) const;

private:
  void replay(const FunctionDecl &FD, ASTContext &Ctx, FactsPool *Pool,
              DirectFacts *Out, std::vector<const VarDecl *> *Modified);
  struct Record {
    std::string Usr, BodyHash, PrefixHash, ScopeHash;
    llvm::StringRef Line; // the whole line, for recordOf()
    llvm::StringRef Facts;
  };
  struct Skip {
    const Record *R;
    BodyOffsets Body; // of '{' and '}' in the main file
  };
  std::string Text;
  llvm::StringSet<> Rejected;
  std::vector<Record> Records;
  llvm::StringMap<std::vector<const Record *>> ByBodyHash;
  llvm::DenseMap<const FunctionDecl *, Skip> Skipped;
  // decide()'s skeleton so far: hashed up to Fed, each body met cut.
  SkeletonHash Prefix;
  unsigned Fed = 0;
  bool Failed = false;
  bool AllFailed = false;
};

// The recording side: told of each unit the walk reads (TUWalk), it keeps
// those whose facts can be replayed, and writes them once the analysis is
// done.
class BodyRecorder {
public:
  // A unit's walk begins; Sites and HeldStores count what the walk found so
  // far, Uses is where the walk's uses of globals go.
  void begin(const FunctionDecl &FD, size_t Sites, size_t HeldStores,
             const GlobalUseCollector &Uses);
  // Told of every node of the unit's body.
  void onStmt(const Stmt &S);
  void onVarDecl(const VarDecl &VD);
  void onNestedFunction() { Tainted = true; }
  // The unit's walk ended with Facts; it is recorded when it was a
  // candidate and nothing in it taints it (RunsHeld: a call that runs what
  // a holder holds).
  void end(size_t Sites, size_t HeldStores, const DirectFacts &Facts,
           const GlobalUseCollector &Uses, ASTContext &Ctx,
           const std::function<bool(const FunctionDecl &)> &RunsHeld);
  // A skipped unit: its record is carried over as it was.
  void carry(const FunctionDecl &FD, llvm::StringRef Line) {
    Carried.push_back({&FD, Line.str()});
  }
  bool active() const { return Current != nullptr; }

  // The records, with each body's scope hash computed now (Replay: what
  // this parse skipped).
  std::string text(ASTContext &Ctx, const BodyReplay *Replay) const;

private:
  struct Pending {
    const FunctionDecl *FD;
    std::string Facts; // serialised, offsets from the body's '{'
  };
  const FunctionDecl *Current = nullptr;
  bool Tainted = false;
  size_t SitesAt = 0, HeldAt = 0, UsesAt = 0;
  std::vector<Pending> Done;
  std::vector<std::pair<const FunctionDecl *, std::string>> Carried;
};

} // namespace clang::tidy::rematch

#endif
