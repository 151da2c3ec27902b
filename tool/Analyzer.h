//===--- Analyzer.h - one file through clang-tidy and rematch's checks -*- C++ -*-===//
//
// What every front-end step shares: the database a command line names, the
// file contents a report quotes, how a path is named in a report, and the
// analysis of one file (a parse with rematch's checks, through a
// precompiled preamble when one is kept) into a FileOutcome.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TOOL_ANALYZER_H
#define REMATCH_TOOL_ANALYZER_H

#include "AnalysisHost.h"
#include "CommandLine.h"
#include "Paths.h"
#include "Preamble.h"
#include "Scheduler.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clang::tidy {
struct ClangTidyError;
struct ClangTidyOptions;
class GlobList;
} // namespace clang::tidy

namespace rematch::tool {

// File contents, for turning offsets into lines and columns. Each file's
// line starts are indexed once: a run reports thousands of notes.
class SourceCache {
  struct Entry {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<size_t> LineStarts;
  };

public:
  // 1-based line and column (in bytes) of Offset, and the line's text.
  bool locate(llvm::StringRef Path, unsigned Offset, unsigned &Line,
              unsigned &Column, std::string *Text = nullptr) {
    const Entry *E = get(Path);
    if (!E || Offset > E->Buffer->getBufferSize())
      return false;
    auto After = std::upper_bound(E->LineStarts.begin(), E->LineStarts.end(),
                                  size_t(Offset));
    size_t Index = (After - E->LineStarts.begin()) - 1;
    size_t LineStart = E->LineStarts[Index];
    Line = Index + 1;
    Column = Offset - LineStart + 1;
    if (Text) {
      llvm::StringRef Code = E->Buffer->getBuffer();
      size_t LineEnd = Code.find('\n', LineStart);
      *Text = Code.slice(LineStart, LineEnd).rtrim("\r").str();
    }
    return true;
  }

private:
  const Entry *get(llvm::StringRef Path) {
    std::lock_guard<std::mutex> Lock(Mutex); // shared by analysis threads
    auto It = Files.find(Path);
    if (It == Files.end()) {
      Entry E;
      if (auto Buf = llvm::MemoryBuffer::getFile(Path)) {
        E.Buffer = std::move(*Buf);
        llvm::StringRef Code = E.Buffer->getBuffer();
        E.LineStarts.push_back(0);
        // find() is memchr: a large generated file is indexed in a blink.
        for (size_t I = Code.find('\n'); I != llvm::StringRef::npos;
             I = Code.find('\n', I + 1))
          E.LineStarts.push_back(I + 1);
      }
      It = Files.try_emplace(Path, std::move(E)).first;
    }
    return It->second.Buffer ? &It->second : nullptr;
  }

  llvm::StringMap<Entry> Files;
  std::mutex Mutex;
};

// How a path appears in the report: as given on the command line when it
// names an input, otherwise relative to the working directory when below it.
class PathNamer {
public:
  explicit PathNamer(const std::vector<std::string> &Inputs) {
    llvm::sys::fs::current_path(Cwd);
    for (const std::string &In : Inputs)
      Given[absolute(In)] = In;
  }

  std::string name(llvm::StringRef Path) const {
    std::string Abs = absolute(Path);
    auto It = Given.find(Abs);
    if (It != Given.end())
      return It->second;
    llvm::StringRef Rel(Abs);
    std::string Prefix = (Cwd + "/").str();
    if (Rel.consume_front(Prefix))
      return Rel.str();
    return Abs;
  }

  std::string absolute(llvm::StringRef Path) const {
    return absolutePath(Path, Cwd);
  }

private:
  llvm::SmallString<256> Cwd;
  std::map<std::string, std::string> Given;
};

// The compilation database of -p, or of `--` flags, or the one Clang finds
// above the first file; null (said on Err) when -p names none.
std::unique_ptr<clang::tooling::CompilationDatabase>
makeDatabase(const CliOptions &O, llvm::raw_ostream &Err);

class Analyzer {
public:
  Analyzer(const CliOptions &O, const clang::tooling::CompilationDatabase &DB,
           SourceCache &Src, const PathNamer &Names,
           PreambleCache *Preambles = nullptr)
      : O(O), DB(DB), Src(Src), Names(Names), Preambles(Preambles) {}

  // One file, with what the checks get from this program for it (the
  // summaries of the others, where its own goes), through a precompiled
  // preamble when the cache has one; a parse that fails with it is done
  // again without. Findings carry absolute paths.
  FileOutcome analyse(const std::string &File,
                      clang::tidy::rematch::AnalysisHost Host = {});

private:
  FileOutcome analyseParsing(const std::string &File,
                             const clang::tidy::rematch::AnalysisHost &Host);
  FileOutcome analyseWhole(const std::string &File,
                           clang::tidy::rematch::AnalysisHost Host);
  // What goes after the compiler's name in every parse: see analyseWith.
  std::vector<std::string> baseArgs() const;
  clang::tidy::ClangTidyOptions tidyOptions(const PreambleUse &Pre,
                                            bool SkipBodies) const;
  Finding findingOf(const clang::tidy::ClangTidyError &E,
                    const clang::tidy::GlobList &AsErrors) const;
  FileOutcome analyseWith(const std::string &File,
                          clang::tidy::rematch::AnalysisHost Host,
                          const PreambleUse &Pre);

  const CliOptions &O;
  const clang::tooling::CompilationDatabase &DB;
  SourceCache &Src;
  const PathNamer &Names;
  PreambleCache *Preambles;
};

} // namespace rematch::tool

#endif
