// Per-thread recording of passes. Every thread has one growing event log;
// a pass is the slice of it from where the pass began, so nested passes cost
// nothing extra while recording and one copy when an inner pass ends.
#include "trace.h"

#include "rematch/segment.h"

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>

namespace rematch::detail {
namespace {

struct ThreadLog {
  Trace log;
  std::vector<std::size_t> pass_begin; // index into log.events per pass
  std::vector<std::size_t> text_begin;
  std::string pending[kCapturedStreams]; // partial lines, by stream
  // Observed names already stored in the innermost pass, by hash: a name
  // observed in a loop is stored once (1-based text index, 0 for none).
  std::uint32_t names[16] = {};
};

ThreadLog &thread_log() {
  thread_local ThreadLog log;
  return log;
}

// Trivially destructible, so readable during thread exit.
thread_local int t_passes = 0;
thread_local int t_recompute_depth = 0;

std::atomic<std::uint64_t> g_next_object{1};

std::mutex &names_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<std::uint64_t, std::string> &object_names() {
  static auto *names = new std::unordered_map<std::uint64_t, std::string>();
  return *names;
}

std::uint32_t add_text(ThreadLog &t, std::string text) {
  t.log.texts.push_back(std::move(text));
  return static_cast<std::uint32_t>(t.log.texts.size());
}

// The text index of `name` in the innermost pass, stored on first use. A cached
// index is reused only if it lies in the innermost pass (so every enclosing
// pass's slice holds it too) and still holds the same text.
std::uint32_t intern_name(ThreadLog &t, std::uint64_t key, std::string_view name) {
  std::uint32_t &slot = t.names[key & 15u];
  if (slot != 0 && slot - 1 >= t.text_begin.back() && slot <= t.log.texts.size() &&
      t.log.texts[slot - 1] == name)
    return slot;
  slot = add_text(t, std::string(name));
  return slot;
}

void push(ThreadLog &t, EventKind kind, std::uint64_t key, Encoded value,
          const char *file, unsigned line, std::uint32_t text) noexcept {
  try {
    Event e;
    e.file = file;
    e.key = key;
    e.value = value.bits;
    e.line = line & 0xffffffu;
    e.kind = static_cast<std::uint32_t>(kind);
    e.repr = static_cast<std::uint32_t>(value.repr);
    e.text = text;
    t.log.events.push_back(e);
  } catch (...) {
    // Out of memory while auditing: dropping an event is better than
    // terminating the training step that the audit observes.
  }
}

} // namespace

bool recording() noexcept { return t_passes > 0; }
int active_passes() noexcept { return t_passes; }

void record_value(EventKind kind, std::uint64_t key, Encoded value,
                  const char *file, unsigned line) noexcept {
  if (t_passes == 0)
    return;
  push(thread_log(), kind, key, value, file, line, 0);
}

void record_draw(std::uint64_t generator, std::uint64_t value) noexcept {
  if (t_passes == 0)
    return;
  push(thread_log(), EventKind::draw, generator, {value, Repr::uint}, nullptr,
       0, 0);
}

void record_effect(const char *file, unsigned line, std::string_view kind,
                   std::string_view detail) noexcept {
  if (t_passes == 0)
    return;
  ThreadLog &t = thread_log();
  try {
    std::string text(kind);
    text += ": ";
    text += detail;
    const std::uint32_t idx = add_text(t, std::move(text));
    push(t, EventKind::effect, hash_bytes(kind.data(), kind.size()),
         {hash_bytes(detail.data(), detail.size()), Repr::hash}, file, line,
         idx);
  } catch (...) {
  }
}

void record_observe(const char *file, unsigned line, std::string_view name,
                    Encoded value) noexcept {
  if (t_passes == 0)
    return;
  ThreadLog &t = thread_log();
  try {
    const std::uint64_t key = hash_bytes(name.data(), name.size());
    push(t, EventKind::observe, key, value, file, line, intern_name(t, key, name));
  } catch (...) {
  }
}

std::uint64_t new_object_id() noexcept {
  return g_next_object.fetch_add(1, std::memory_order_relaxed);
}

void name_object(std::uint64_t id, const char *name) {
  std::lock_guard<std::mutex> lock(names_mutex());
  object_names()[id] = name;
}

std::string object_name(std::uint64_t id) {
  {
    std::lock_guard<std::mutex> lock(names_mutex());
    auto it = object_names().find(id);
    if (it != object_names().end())
      return it->second;
  }
  return "tracked#" + std::to_string(id);
}

void begin_pass() {
  install_stream_capture();
  ThreadLog &t = thread_log();
  flush_output(); // output before the pass belongs to the enclosing one
  t.pass_begin.push_back(t.log.events.size());
  t.text_begin.push_back(t.log.texts.size());
  ++t_passes;
}

Trace end_pass() {
  ThreadLog &t = thread_log();
  flush_output();
  const std::size_t eb = t.pass_begin.back();
  const std::size_t tb = t.text_begin.back();
  t.pass_begin.pop_back();
  t.text_begin.pop_back();
  --t_passes;

  // An exactly sized copy: a stored trace costs 32 bytes per event, and the
  // thread's log keeps its capacity for the next pass.
  Trace out;
  out.events.assign(t.log.events.begin() + static_cast<std::ptrdiff_t>(eb),
                    t.log.events.end());
  out.texts.assign(t.log.texts.begin() + static_cast<std::ptrdiff_t>(tb),
                   t.log.texts.end());
  for (Event &e : out.events)
    if (e.text)
      e.text -= static_cast<std::uint32_t>(tb);
  if (t_passes == 0) {
    t.log.events.resize(eb);
    t.log.texts.resize(tb);
  }
  return out;
}

void capture_output(int which, const char *data, std::size_t size) {
  ThreadLog &t = thread_log();
  std::string &line = t.pending[which];
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      static const char *const names[kCapturedStreams] = {
          "<std::cout>", "<std::cerr>", "<std::clog>", "<stdout>", "<stderr>"};
      const std::uint32_t idx = add_text(t, "log: " + line);
      push(t, EventKind::effect, hash_bytes("log", 3),
           {hash_bytes(line.data(), line.size()), Repr::hash}, names[which], 0,
           idx);
      line.clear();
    } else {
      line += data[i];
    }
  }
}

void flush_output() noexcept {
  if (t_passes == 0)
    return;
  try {
    ThreadLog &t = thread_log();
    for (int i = 0; i < kCapturedStreams; ++i)
      if (!t.pending[i].empty())
        capture_output(i, "\n", 1);
  } catch (...) {
  }
}

void enter_recompute() noexcept { ++t_recompute_depth; }
void leave_recompute() noexcept { --t_recompute_depth; }

} // namespace rematch::detail

bool rematch::recomputing() noexcept {
  return detail::t_recompute_depth > 0;
}
