// Records output written to std::cout, std::cerr and std::clog during a pass
// as "log" effects, without changes to the code that prints.
//
// A tee stream buffer is installed once, for the rest of the process: putting
// the original back after each pass would race with other threads printing.
// The tee keeps no buffer of its own, so concurrent writers share no state in
// it; what it records goes to the writing thread's pass, if it has one.
// C stdio (printf) is not captured: redirecting `stdout` is not safe while
// other threads print.
#include "trace.h"

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

} // namespace rematch::detail
