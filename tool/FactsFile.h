//===--- FactsFile.h - the .rsum and .rlink files ---------------*- C++ -*-===//
//
// What `rematch summarize` writes for one file (.rsum) and `rematch link`
// for a set of them (.rlink). Both are deterministic: the same bytes for the
// same source content, flags and build of rematch, whatever the checkout's
// absolute path, the time, the process or the machine. Paths are relative to
// a root (absolute only outside it); identities are content hashes.
//
// The text: a first line naming the kind and its format, a second holding
// the hash of everything after it (a damaged or truncated file is caught
// before anything is trusted), then named fields, each `<name> <bytes>\n`
// followed by that many bytes and a newline.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_FACTSFILE_H
#define REMATCH_TOOL_FACTSFILE_H

#include "llvm/Support/Error.h"
#include <string>
#include <tuple>
#include <vector>

namespace rematch::tool {

// Bumped whenever the layout or the meaning of a field changes.
inline constexpr int FactsFormatVersion = 1;

// The analysis one file's facts were made with. Every file of a link and a
// report must share them.
struct FactsSettings {
  std::string Tool; // rematch's version, LLVM's, the built-in models' hash
  std::string CheckpointFunctions, ConfigFile, Checks, Chain,
      WarningsAsErrors;
  auto tie() const {
    return std::tie(Tool, CheckpointFunctions, ConfigFile, Checks, Chain,
                    WarningsAsErrors);
  }
};

// One file's facts (.rsum).
struct FileFacts {
  std::string File; // the source, relative to the root
  FactsSettings Settings;
  // The compile command, to parse the file again when a report needs it:
  // its directory relative to the root and its arguments, in which the
  // root is written @ROOT@.
  std::string Directory;
  std::vector<std::string> Arguments;
  // The summary (serializeSummary, paths relative to the root); empty when
  // the file could not be parsed.
  std::string Summary;
  // The outcome of the file's analysis alone (encodeOutcome, paths
  // relative to the root): its findings, fix-its, or its errors.
  std::string Outcome;
};

std::string writeFileFacts(const FileFacts &F);
// Whether A and B hold the same facts (as writeFileFacts would write them).
bool sameFacts(const FileFacts &A, const FileFacts &B);
// Any malformed, truncated or foreign text is an error naming Path.
llvm::Expected<FileFacts> readFileFacts(llvm::StringRef Text,
                                        llvm::StringRef Path);

// A link (.rlink): the facts of every file, ordered by path, each once.
std::string writeLinkFacts(const std::vector<FileFacts> &Files);
llvm::Expected<std::vector<FileFacts>> readLinkFacts(llvm::StringRef Text,
                                                     llvm::StringRef Path);

// Reads a .rsum or a .rlink (by its first line) into Into; IsLink says
// which it was.
llvm::Error readFactsFile(llvm::StringRef Path, std::vector<FileFacts> &Into,
                          bool *IsLink = nullptr);

// Path relative to Root when below it ("." for Root itself); unchanged
// otherwise. And back.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);
std::string underRoot(llvm::StringRef Path, llvm::StringRef Root);

} // namespace rematch::tool

#endif
