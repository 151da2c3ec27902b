// What a recompute found, and what happens when it found something.
#ifndef REMATCH_REPORT_H
#define REMATCH_REPORT_H

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rematch {

namespace detail {
struct ReportWriter;
} // namespace detail

/// Where a recorded event happened in the user's source; file is null when
/// the event has none (a generator draw, output captured from a stream).
struct EventLocation {
  const char *file = nullptr;
  unsigned line = 0;
  std::string to_string() const;
};

/// One thing the audit of a recompute found.
struct AuditFinding {
  enum class Kind { divergence, repeated_effect, outside_rng_disturbed };
  Kind kind = Kind::divergence;
  std::string message;
  /// Where the event happened in the forward and in the recompute; a side
  /// that has no such event keeps a default (null) location.
  EventLocation forward;
  EventLocation recompute;
  /// Side-by-side excerpt of both traces around the event (first divergence
  /// only; empty otherwise).
  std::string context;
};

const char *to_string(AuditFinding::Kind kind) noexcept;

class Report {
public:
  Report() = default;
  Report(std::string segment, std::size_t recompute_index);

  bool clean() const noexcept { return findings_.empty(); }
  const std::vector<AuditFinding> &findings() const noexcept {
    return findings_;
  }
  std::size_t count(AuditFinding::Kind kind) const noexcept;
  std::string to_string() const;

  const std::string &segment() const noexcept { return segment_; }
  /// 1 for the first recompute of a segment's forward, 2 for the second, ...
  std::size_t recompute_index() const noexcept { return index_; }

private:
  friend struct detail::ReportWriter; // the library fills reports
  std::string segment_;
  std::size_t index_ = 0;
  std::vector<AuditFinding> findings_;
};

class DivergenceError : public std::runtime_error {
public:
  explicit DivergenceError(Report report);
  const Report &report() const noexcept { return report_; }

private:
  Report report_;
};

/// What a recompute does with findings. The environment variable
/// REMATCH_POLICY=warn|throw|abort|off sets the initial value (default warn).
enum class Policy { off, warn, throw_error, abort };

void set_policy(Policy policy) noexcept;
/// Accepts the REMATCH_POLICY spellings; returns false (and changes nothing)
/// for anything else.
bool set_policy(std::string_view name) noexcept;
Policy policy() noexcept;

namespace detail {
/// How the library adds findings to a report; users only read reports.
struct ReportWriter {
  static void add(Report &report, AuditFinding f) {
    report.findings_.push_back(std::move(f));
  }
};

/// Applies the current policy to a finished report: nothing, print it to
/// stderr, throw DivergenceError, or abort.
void apply_policy(const Report &report);
} // namespace detail

} // namespace rematch

#endif
