// Report text, DivergenceError and the policy switch.
#include "rematch/report.h"

#include "trace.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rematch {
namespace {

Policy policy_from_env() noexcept {
  const char *v = std::getenv("REMATCH_POLICY");
  if (!v)
    return Policy::warn;
  const std::string_view s(v);
  if (s == "off")
    return Policy::off;
  if (s == "throw")
    return Policy::throw_error;
  if (s == "abort")
    return Policy::abort;
  if (s != "warn")
    std::fprintf(detail::diagnostics_stream(), "rematch: unknown REMATCH_POLICY '%s', using warn\n",
                 v);
  return Policy::warn;
}

std::atomic<Policy> &policy_storage() {
  static std::atomic<Policy> p{policy_from_env()};
  return p;
}

} // namespace

std::string EventLocation::to_string() const {
  if (!file)
    return "-";
  if (line == 0)
    return file;
  return std::string(file) + ":" + std::to_string(line);
}

const char *to_string(AuditFinding::Kind kind) noexcept {
  switch (kind) {
  case AuditFinding::Kind::divergence:
    return "divergence";
  case AuditFinding::Kind::repeated_effect:
    return "repeated effect";
  case AuditFinding::Kind::outside_rng_disturbed:
    return "outside RNG disturbed";
  }
  return "?";
}

Report::Report(std::string segment, std::size_t recompute_index)
    : segment_(std::move(segment)), index_(recompute_index) {}

std::size_t Report::count(AuditFinding::Kind kind) const noexcept {
  std::size_t n = 0;
  for (const AuditFinding &f : findings_)
    n += f.kind == kind;
  return n;
}

std::string Report::to_string() const {
  std::string out = "rematch: segment '" + segment_ + "', recompute #" +
                    std::to_string(index_) + ": ";
  if (clean())
    return out + "clean\n";
  out += std::to_string(count(AuditFinding::Kind::divergence)) + " divergence(s), " +
         std::to_string(count(AuditFinding::Kind::repeated_effect)) +
         " repeated effect(s), " +
         std::to_string(count(AuditFinding::Kind::outside_rng_disturbed)) +
         " outside-RNG finding(s)\n";
  // A recompute inside a loop can repeat one effect thousands of times; the
  // first few of each kind say everything, count() has the totals.
  constexpr std::size_t kShownPerKind = 10;
  std::size_t shown[3] = {0, 0, 0};
  std::size_t hidden = 0;
  for (const AuditFinding &f : findings_) {
    auto &n = shown[static_cast<int>(f.kind)];
    if (n++ >= kShownPerKind) {
      ++hidden;
      continue;
    }
    out += "  [" + std::string(rematch::to_string(f.kind)) + "] " + f.message +
           "\n";
    if (f.forward.file || f.recompute.file)
      out += "      forward: " + f.forward.to_string() +
             "   recompute: " + f.recompute.to_string() + "\n";
    if (!f.context.empty())
      out += f.context;
  }
  if (hidden)
    out += "  ... and " + std::to_string(hidden) + " more\n";
  return out;
}

DivergenceError::DivergenceError(Report report)
    : std::runtime_error(report.to_string()), report_(std::move(report)) {}

void set_policy(Policy p) noexcept { policy_storage().store(p); }

bool set_policy(std::string_view name) noexcept {
  if (name == "off")
    set_policy(Policy::off);
  else if (name == "warn")
    set_policy(Policy::warn);
  else if (name == "throw")
    set_policy(Policy::throw_error);
  else if (name == "abort")
    set_policy(Policy::abort);
  else
    return false;
  return true;
}

Policy policy() noexcept { return policy_storage().load(); }

void detail::apply_policy(const Report &report) {
  if (report.clean())
    return;
  switch (policy()) {
  case Policy::off:
    return;
  case Policy::warn: {
    // C stdio, not std::cerr: an enclosing audited pass captures the
    // iostreams, and the warning is not the user's output.
    const std::string text = report.to_string();
    std::fwrite(text.data(), 1, text.size(), detail::diagnostics_stream());
    return;
  }
  case Policy::throw_error:
    throw DivergenceError(report);
  case Policy::abort: {
    const std::string text = report.to_string();
    std::fwrite(text.data(), 1, text.size(), detail::diagnostics_stream());
    std::abort();
  }
  }
}

} // namespace rematch
