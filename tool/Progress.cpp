//===--- Progress.cpp - the one-line progress indicator on stderr ---------===//

#include "Progress.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace rematch::tool {

ProgressLine::ProgressLine(bool Enabled, size_t Total)
    : Enabled(Enabled), Total(Total) {}

ProgressLine::~ProgressLine() {
  if (!Enabled || Width == 0)
    return;
  llvm::errs() << ("\r" + std::string(Width, ' ') + "\r");
  llvm::errs().flush();
}

void ProgressLine::started(const std::string &File) {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  Current = File;
  draw();
}

void ProgressLine::finished() {
  if (!Enabled)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  ++Done;
  draw();
}

void ProgressLine::draw() {
  std::string Line =
      "rematch: [" + std::to_string(Done) + "/" + std::to_string(Total) + "] ";
  // A line that wraps cannot be rewritten with '\r': keep it one column
  // short of the terminal, shortening the file name from the left.
  unsigned Columns = llvm::sys::Process::StandardErrColumns();
  size_t Max = (Columns ? Columns : 80) - 1;
  if (Line.size() + Current.size() <= Max)
    Line += Current;
  else if (Line.size() + 4 < Max)
    Line += "..." + Current.substr(Current.size() - (Max - Line.size() - 3));
  std::string Out = "\r" + Line;
  if (Line.size() < Width)
    Out += std::string(Width - Line.size(), ' ') + "\r" + Line;
  Width = Line.size();
  // One write per update: stderr is unbuffered.
  llvm::errs() << Out;
  llvm::errs().flush();
}

} // namespace rematch::tool
