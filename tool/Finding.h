//===--- Finding.h - what the rematch front end reports ---------*- C++ -*-===//
//
// The CLI turns clang-tidy's diagnostics into these plain records once, so
// the text, JSON and SARIF writers, baselines and filters never touch Clang.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_FINDING_H
#define REMATCH_TOOL_FINDING_H

#include <string>
#include <vector>

namespace rematch::tool {

struct Location {
  std::string File; // as given on the command line, or relative to the cwd
  unsigned Line = 0;   // 1-based; 0 when the location is unknown
  unsigned Column = 0; // 1-based
};

struct Note {
  Location Loc;
  std::string Message;
};

struct Finding {
  std::string Check;             // e.g. "rematch-counter-update"
  std::string Level = "warning"; // "warning" or "error" (--warnings-as-errors)
  std::string Message;
  Location Loc;
  std::string SourceLine; // the text of Loc's line, without the newline
  std::vector<Note> Notes;
  // Set by the driver over every finding of the run before --baseline and
  // line filters drop some, so the occurrence index (see fingerprints())
  // stays that of the whole run; empty: the writers compute it.
  std::string Fingerprint;
};

// What happened to one input file.
struct FileStatus {
  std::string File;
  enum class State { Analysed, Failed } Status = State::Analysed;
  std::vector<std::string> Errors; // compiler errors, clang style, one each
};

struct Results {
  std::vector<FileStatus> Files;  // in command-line order
  std::vector<Finding> Findings;  // sorted by file, line, column, check
  // The whole-program summaries' cache when no option named it (the text
  // output says where it is, once); empty otherwise.
  std::string SummariesCache;
};

// One rule of the SARIF rule table (one per check).
struct RuleInfo {
  std::string Id;
  std::string Description;
  std::string HelpUri;
};

} // namespace rematch::tool

#endif
