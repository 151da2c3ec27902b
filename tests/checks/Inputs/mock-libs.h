// Stand-ins for the third-party libraries the checks know by name: spdlog,
// glog, fmt, and the checkpoint entry points of PyTorch-style, MLX and
// tt-metal (ttml) code. Shapes follow the real headers where it matters to
// the checks (glog's LOG macro builds a google::LogMessage; mlx and ttml take
// a std::function that is built from the lambda at the call).
#ifndef REMATCH_TEST_MOCK_LIBS_H
#define REMATCH_TEST_MOCK_LIBS_H

#include "mock-std.h"

namespace spdlog {
template <class... Args> void trace(const char *fmt, const Args &...args);
template <class... Args> void debug(const char *fmt, const Args &...args);
template <class... Args> void info(const char *fmt, const Args &...args);
template <class... Args> void warn(const char *fmt, const Args &...args);
template <class... Args> void error(const char *fmt, const Args &...args);
template <class... Args> void critical(const char *fmt, const Args &...args);
class logger {
public:
  template <class... Args> void trace(const char *fmt, const Args &...args);
  template <class... Args> void debug(const char *fmt, const Args &...args);
  template <class... Args> void info(const char *fmt, const Args &...args);
  template <class... Args> void warn(const char *fmt, const Args &...args);
  template <class... Args> void error(const char *fmt, const Args &...args);
  template <class... Args>
  void critical(const char *fmt, const Args &...args);
};
logger *default_logger_raw();
std::shared_ptr<logger> get(const std::string &name);
} // namespace spdlog

namespace google {
typedef int LogSeverity;
const LogSeverity GLOG_INFO = 0, GLOG_WARNING = 1, GLOG_ERROR = 2;
class LogMessage {
public:
  LogMessage(const char *file, int line);
  LogMessage(const char *file, int line, LogSeverity severity);
  ~LogMessage();
  std::ostream &stream();
};
} // namespace google
#define COMPACT_GOOGLE_LOG_INFO google::LogMessage(__FILE__, __LINE__)
#define COMPACT_GOOGLE_LOG_WARNING                                             \
  google::LogMessage(__FILE__, __LINE__, google::GLOG_WARNING)
#define COMPACT_GOOGLE_LOG_ERROR                                               \
  google::LogMessage(__FILE__, __LINE__, google::GLOG_ERROR)
#define LOG(severity) COMPACT_GOOGLE_LOG_##severity.stream()

namespace fmt {
template <class... T> void print(const char *fmt, T &&...args);
template <class... T> std::string format(const char *fmt, T &&...args);
} // namespace fmt

namespace mlx::core {
struct array {
  float item() const { return 0; }
};
// As in mlx/transforms.h: the lambda becomes a std::function at the call.
std::function<std::vector<array>(const std::vector<array> &)>
checkpoint(std::function<std::vector<array>(const std::vector<array> &)> fun);
} // namespace mlx::core

namespace ttml {
namespace autograd {
struct Tensor {
  float value = 0;
};
typedef std::shared_ptr<Tensor> TensorPtr;
} // namespace autograd
namespace models::common::transformer {
// As in tt-train: forward_impl runs once in forward and again in backward.
autograd::TensorPtr memory_efficient_runner(
    std::function<autograd::TensorPtr(const autograd::TensorPtr &,
                                      const autograd::TensorPtr &)> &&
        forward_impl,
    const autograd::TensorPtr &input, const autograd::TensorPtr &mask);
} // namespace models::common::transformer
} // namespace ttml

#endif
