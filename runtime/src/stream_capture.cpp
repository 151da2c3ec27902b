// Records output written to std::cout, std::cerr and std::clog during a pass
// as "log" effects, without changes to the code that prints.
//
// A tee stream buffer is installed once, for the rest of the process: putting
// the original back after each pass would race with other threads printing.
// The tee keeps no buffer of its own, so concurrent writers share no state in
// it; what it records goes to the writing thread's pass, if it has one.
//
// C stdio (printf) is captured only after rematch::capture_c_stdio(), which
// the program calls once before it starts threads: replacing the global
// `stdout`/`stderr` while other threads print would be a data race, and the
// replacement changes fileno(), so it is opt-in (see rematch/audit.h).
#include "trace.h"

#include "rematch/audit.h"

#include <cstdio>
#include <iostream>
#include <mutex>
#include <streambuf>

namespace rematch::detail {
namespace {

class TeeBuf final : public std::streambuf {
public:
  TeeBuf(std::streambuf *target, int which) : target_(target), which_(which) {}

protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof()))
      return target_->pubsync() == 0 ? traits_type::not_eof(ch)
                                     : traits_type::eof();
    const char c = traits_type::to_char_type(ch);
    note(&c, 1);
    return target_->sputc(c);
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    note(s, static_cast<std::size_t>(n));
    return target_->sputn(s, n);
  }
  int sync() override { return target_->pubsync(); }

private:
  void note(const char *s, std::size_t n) {
    if (active_passes() > 0)
      capture_output(which_, s, n);
  }

  std::streambuf *target_;
  int which_;
};

} // namespace

void install_stream_capture() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Leaked on purpose: the streams outlive every static destructor.
    std::ostream *streams[3] = {&std::cout, &std::cerr, &std::clog};
    for (int i = 0; i < 3; ++i) {
      if (std::streambuf *orig = streams[i]->rdbuf())
        streams[i]->rdbuf(new TeeBuf(orig, i));
    }
  });
}

#if defined(__GLIBC__)
namespace {

std::FILE *g_original_stderr = nullptr; // set once, before threads start

struct StdioCookie {
  std::FILE *target;
  int which;
};

ssize_t cookie_write(void *cookie, const char *buf, size_t size) {
  auto *c = static_cast<StdioCookie *>(cookie);
  // Record first: the recorder never prints, so this cannot recurse.
  if (active_passes() > 0) {
    try {
      capture_output(c->which, buf, size);
    } catch (...) {
    }
  }
  const size_t n = std::fwrite(buf, 1, size, c->target);
  // The replacement is unbuffered; flushing the target keeps fflush(stdout)
  // meaningful (glibc does not pass a flush through a cookie stream).
  std::fflush(c->target);
  return n == 0 && size != 0 ? -1 : static_cast<ssize_t>(n);
}

std::FILE *make_tee(std::FILE *target, int which) {
  cookie_io_functions_t io{};
  io.write = cookie_write;
  // The cookies live as long as the process, in static storage so that
  // leak checkers see them as reachable. Installed once (capture_c_stdio).
  static StdioCookie cookies[kCapturedStreams];
  StdioCookie *cookie = &cookies[which];
  *cookie = StdioCookie{target, which};
  std::FILE *f = fopencookie(cookie, "w", io);
  if (!f)
    return nullptr;
  std::setvbuf(f, nullptr, _IONBF, 0); // write() runs in the printing thread
  return f;
}

} // namespace

std::FILE *diagnostics_stream() noexcept {
  return g_original_stderr ? g_original_stderr : stderr;
}

} // namespace rematch::detail

bool rematch::capture_c_stdio() noexcept {
  static const bool installed = [] {
    std::fflush(stdout);
    std::fflush(stderr);
    std::FILE *out = detail::make_tee(stdout, 3);
    std::FILE *err = detail::make_tee(stderr, 4);
    if (!out || !err)
      return false; // leaked, harmless: nothing was replaced
    detail::g_original_stderr = stderr;
    stdout = out;
    stderr = err;
    return true;
  }();
  return installed;
}
#else
std::FILE *diagnostics_stream() noexcept { return stderr; }
} // namespace rematch::detail

bool rematch::capture_c_stdio() noexcept { return false; }
#endif
