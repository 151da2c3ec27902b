// Internal: the recorded form of a pass, shared by the recorder, the diff and
// the segment. Not installed; tests and benchmarks include it directly.
#ifndef REMATCH_SRC_TRACE_H
#define REMATCH_SRC_TRACE_H

#include "rematch/detail/recorder.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rematch::detail {

/// One recorded event in 32 bytes: the budget is what keeps a
/// million-event pass at 32 MB.
struct Event {
  const char *file;    // static string (__FILE__ or a stream name) or null
  std::uint64_t key;   // what: object id, generator id, hash of a name
  std::uint64_t value; // the value, see Repr
  std::uint32_t line : 24;
  std::uint32_t kind : 4;
  std::uint32_t repr : 4;
  std::uint32_t text; // 1-based index into Trace::texts, 0 for none

  EventKind event_kind() const noexcept { return EventKind(kind); }
  Repr value_repr() const noexcept { return Repr(repr); }
};
static_assert(sizeof(Event) == 32, "events must stay at 32 bytes");

struct Trace {
  std::vector<Event> events;
  std::vector<std::string> texts; // effect and observe names, output lines

  const std::string *text_of(const Event &e) const {
    return e.text ? &texts[e.text - 1] : nullptr;
  }
  void clear() {
    events.clear();
    texts.clear();
  }
};

/// Starts recording a pass on this thread (passes nest: the events of an inner
/// pass belong to the outer pass too).
void begin_pass();
/// Ends the innermost pass and returns its events.
Trace end_pass();

void enter_recompute() noexcept;
void leave_recompute() noexcept;

/// Installs the std::cout/cerr/clog tee once per process.
void install_stream_capture();
/// Streams whose output is captured: std::cout, std::cerr, std::clog, and
/// (after rematch::capture_c_stdio()) C stdout and stderr.
inline constexpr int kCapturedStreams = 5;
/// Called by the tees: appends output of stream `which` on this thread.
void capture_output(int which, const char *data, std::size_t size);
/// Flushes this thread's partial output lines into the current pass.
void flush_output() noexcept;
/// Where rematch writes its own messages: the process's original stderr,
/// also after capture_c_stdio() replaced `stderr`.
std::FILE *diagnostics_stream() noexcept;
/// Number of passes recording on this thread; trivially destructible storage
/// so the tee can ask during thread and process exit.
int active_passes() noexcept;

/// The name given to a Tracked object, or "tracked#<id>".
std::string object_name(std::uint64_t id);

} // namespace rematch::detail

#endif
