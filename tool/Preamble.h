//===--- Preamble.h - precompiled preambles of edited files -----*- C++ -*-===//
//
// Most of the cost of analysing a libtorch file is parsing <torch/torch.h>,
// which an edit of the file's own code does not change. As clangd does, the
// leading block of #include and #define lines (the preamble, as Clang's
// lexer bounds it) is compiled once into a precompiled header kept in the
// cache directory, and the file is analysed with it (-include-pch, and
// -preamble-bytes so that the block is not read again).
//
// An entry is keyed by the preamble's text, the file's path, its compile
// command and the Clang version; it records the content hash of every file
// the preamble read and is used only while all of them are unchanged. It is
// built when a run sees a key an earlier run saw (a file analysed again with
// the same preamble: an edit of its body), so that a first run costs what a
// parse costs. Entries are evicted, least recently used first, beyond a size cap.
// A preamble that cannot be built, written or read changes nothing: the
// file is analysed without one.
//
// The preamble skips the bodies the analysis never reads (UnreadBodies.h:
// a system header's, but a copy constructor's or an analysed scope's), as
// clangd's preambles skip theirs: building it then costs about half a
// parse, and a parse with it instantiates no template of those headers
// (issue 39: the run that builds it <= 1.10 x the parse).
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_PREAMBLE_H
#define REMATCH_TOOL_PREAMBLE_H

#include "analysis/UnreadBodies.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rematch::tool {

// What the analysis of one file gets from the cache.
struct PreambleUse {
  // Compiler arguments that make the parse use the preamble; empty: none.
  std::vector<std::string> Args;
  // The files the preamble read (true: a system header), which the parse
  // then does not list among its own.
  std::vector<std::pair<std::string, bool>> Inputs;
  std::string Key; // the entry, to drop it when the parse fails with it
  // The header the preamble was compiled from: the first bytes of the file,
  // so a location in it is the same offset in the file.
  std::string Header;
  // Why the file has no preamble although its key was due one: the build
  // failed now, or failed in an earlier run (remembered beside the entry's
  // key as <key>.failed, and not tried again). For --verbose.
  std::string Failure;
};

class PreambleCache {
public:
  // Dir: where entries live (created on first use). CapBytes: the most the
  // precompiled headers may take together.
  PreambleCache(std::string Dir, uint64_t CapBytes);

  // The preamble for the file of Command, compiled with Extra inserted after
  // the compiler's name: a valid entry, one built now (a key an earlier run
  // saw), or none. Unread: the bodies it may skip (none: it skips none).
  PreambleUse prepare(const clang::tooling::CompileCommand &Command,
                      llvm::ArrayRef<std::string> Extra,
                      const clang::tidy::rematch::UnreadBodies *Unread);
  // Removes an entry the parse could not use.
  void drop(const PreambleUse &Use);

private:
  // Builds the entry; the files its preamble read (true: a system header),
  // or none when it could not be built or written, with why in Failure.
  std::optional<std::vector<std::pair<std::string, bool>>>
  build(const std::string &Key, const std::string &File,
        const std::string &Text, std::vector<std::string> Args,
        const std::string &WorkingDir,
        const clang::tidy::rematch::UnreadBodies *Unread, std::string &Failure);
  void evict(const std::string &Keep);
  // What the preamble built under Use.Key read, all unchanged; none when
  // there is none, or it is stale (then dropped).
  std::optional<std::vector<std::pair<std::string, bool>>>
  builtInputs(PreambleUse &Use);
  // Whether an earlier run saw Key; remembers that this one did.
  bool seenBefore(const std::string &Key);
  std::string path(const std::string &Key, const char *Ext) const;

  std::string Dir;
  uint64_t CapBytes;
  // The keys this run saw first: a file parsed twice in one run (phase two
  // of a whole-program run) is not an edited file.
  std::set<std::string> SeenHere;
  std::mutex SeenMutex;
};

} // namespace rematch::tool

#endif
