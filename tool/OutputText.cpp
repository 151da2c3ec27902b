//===--- OutputText.cpp - clang-style text output -------------------------===//
//
// The format editors and terminals already understand: the same shape as
// clang and clang-tidy diagnostics, so "jump to error" works unchanged.
//
//===----------------------------------------------------------------------===//

#include "Output.h"

using namespace llvm;

namespace rematch::tool {
namespace {

void printLocation(raw_ostream &OS, const Location &Loc) {
  OS << Loc.File;
  if (Loc.Line == 0)
    return;
  OS << ':' << Loc.Line;
  if (Loc.Column != 0)
    OS << ':' << Loc.Column;
}

// The caret's prefix copies the tabs of the source line so that it lines up
// whatever the tab width; a multi-byte UTF-8 character takes one cell.
void printCaret(raw_ostream &OS, StringRef SourceLine, unsigned Column) {
  for (unsigned I = 0; I + 1 < Column; ++I) {
    if (I >= SourceLine.size()) {
      OS << ' ';
      continue;
    }
    unsigned char C = SourceLine[I];
    if (C == '\t')
      OS << '\t';
    else if ((C & 0xC0) != 0x80) // continuation bytes add no cell
      OS << ' ';
  }
  OS << "^\n";
}

void printFailedFile(raw_ostream &OS, const FileStatus &File) {
  for (const std::string &Error : File.Errors)
    OS << Error << '\n';
  OS << File.File << ": error: file could not be analysed\n";
}

void printFinding(raw_ostream &OS, const Finding &F) {
  printLocation(OS, F.Loc);
  OS << ": " << (F.Level == "error" ? "error" : "warning") << ": " << F.Message
     << " [" << F.Check << "]\n";
  if (F.Loc.Line != 0 && F.Loc.Column != 0 && !F.SourceLine.empty()) {
    OS << F.SourceLine << '\n';
    printCaret(OS, F.SourceLine, F.Loc.Column);
  }
  for (const Note &N : F.Notes) {
    printLocation(OS, N.Loc);
    OS << ": note: " << N.Message << '\n';
  }
}

} // namespace

void writeText(raw_ostream &OS, const Results &R) {
  if (!R.SummariesCache.empty())
    OS << "rematch: whole-program summaries in " << R.SummariesCache
       << " (--no-summaries: each file alone)\n";
  for (const FileStatus &File : R.Files)
    if (File.Status == FileStatus::State::Failed)
      printFailedFile(OS, File);
  for (const Finding &F : R.Findings)
    printFinding(OS, F);
  // clang-tidy's wording, so scripts written for it keep working.
  if (size_t N = R.Findings.size())
    OS << N << (N == 1 ? " warning" : " warnings") << " generated.\n";
}

} // namespace rematch::tool
