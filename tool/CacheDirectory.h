//===--- CacheDirectory.h - how the cache's entries are written -*- C++ -*-===//
//
// Every entry of a summaries directory and of the preamble cache beside it
// (checks/analysis/CacheLayout.h names them: summaries, bodies, findings,
// system lists, preambles) is written here, and only here, the same way:
//
// - into a temporary file beside the entry, renamed over it when whole: a
//   reader sees the old entry or the new one, never a part, and runs that
//   share the directory (in other processes, on other machines) need no
//   lock: the last rename wins, and both wrote the same facts;
// - the temporary is removed if the run is interrupted (SIGINT, SIGTERM:
//   Ctrl-C in a pre-commit hook) before the rename;
// - what a run killed outright (SIGKILL, a power cut) leaves is removed by
//   the next run that opens the directory (repairCache), once it is older
//   than any write takes.
//
// A damaged entry (truncated, edited by hand) is not repaired here: each
// reader rejects it with a warning and it is written again.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_CACHEDIRECTORY_H
#define REMATCH_TOOL_CACHEDIRECTORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <chrono>
#include <string>
#include <system_error>

namespace rematch::tool {

// Writes Text as Path, as above. Also for the steps' outputs (-o).
std::error_code writeAtomically(llvm::StringRef Path, llvm::StringRef Text);

// An entry written by someone else (a compiler writing a precompiled
// header): a temporary beside Path, removed on interruption and when this
// object goes without commit().
class PendingEntry {
public:
  static llvm::Expected<PendingEntry> create(llvm::StringRef Path);
  PendingEntry(PendingEntry &&Other) noexcept;
  PendingEntry &operator=(PendingEntry &&) = delete;
  ~PendingEntry();

  const std::string &temporary() const { return Temp; }
  // Renames the temporary over the entry.
  std::error_code commit();

private:
  PendingEntry(std::string Path, std::string Temp)
      : Path(std::move(Path)), Temp(std::move(Temp)) {}
  std::string Path, Temp;
};

// Whether a file's name is one of the temporaries above (or one a compiler
// made of it).
bool isTemporary(llvm::StringRef Name);

// Removes from the summaries directory Dir, and from its preamble cache,
// the temporaries older than MaxAge (younger ones may be another run's
// writes in progress); how many it removed.
unsigned repairCache(llvm::StringRef Dir,
                     std::chrono::seconds MaxAge = std::chrono::hours(1));

} // namespace rematch::tool

#endif
