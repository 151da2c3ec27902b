//===--- Progress.h - the one-line progress indicator on stderr -*- C++ -*-===//
#ifndef REMATCH_TOOL_PROGRESS_H
#define REMATCH_TOOL_PROGRESS_H

#include <cstddef>
#include <mutex>
#include <string>

namespace rematch::tool {

// "rematch: [3/8] src/train.cpp", rewritten in place with '\r' as files start
// and finish, and erased by the destructor so the report that follows starts
// on a clean line. Disabled, it prints nothing; callers enable it only when
// stderr is a terminal. Thread-safe.
class ProgressLine {
public:
  ProgressLine(bool Enabled, size_t Total);
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  void started(const std::string &File);
  void finished();

private:
  void draw(); // with Mutex held

  const bool Enabled;
  const size_t Total;
  size_t Done = 0;
  std::string Current;
  size_t Width = 0; // of the line on screen, to erase it
  std::mutex Mutex;
};

} // namespace rematch::tool

#endif
