// Gradient comparison and its table.
#include "rematch/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rematch {
namespace {

bool close(double a, double b, const Tolerance &t) {
  return std::fabs(a - b) <= t.atol + t.rtol * std::fabs(a);
}

ParameterComparison compare_one(const GradientView &a, const GradientView &b,
                                const Tolerance &t) {
  ParameterComparison p;
  p.name = a.name();
  p.dtype = a.dtype() == b.dtype() ? a.dtype() : a.dtype() + "/" + b.dtype();
  p.size_mismatch = a.size() != b.size();
  p.count = std::min(a.size(), b.size());
  double sa = 0, sb = 0, na = 0, nb = 0, nd = 0;
  for (std::size_t i = 0; i < p.count; ++i) {
    const double x = a[i], y = b[i], d = std::fabs(x - y);
    sa += x;
    sb += y;
    na += x * x;
    nb += y * y;
    nd += d * d;
    if (!(d <= p.max_abs_error)) // also catches NaN
      p.max_abs_error = std::isnan(d) ? d : std::max(p.max_abs_error, d);
    if (x != 0)
      p.max_rel_error = std::max(p.max_rel_error, d / std::fabs(x));
    if (!close(x, y, t))
      ++p.mismatches;
  }
  p.reference_norm = std::sqrt(na);
  p.candidate_norm = std::sqrt(nb);
  p.difference_norm = std::sqrt(nd);
  p.passes = !p.size_mismatch && p.mismatches == 0;
  p.summary_hides_difference =
      !p.passes && !p.size_mismatch &&
      (close(p.reference_norm, p.candidate_norm, t) || close(sa, sb, t));
  return p;
}

} // namespace

bool GradientComparison::passes() const noexcept {
  return missing.empty() &&
         std::all_of(parameters.begin(), parameters.end(),
                     [](const ParameterComparison &p) { return p.passes; });
}

bool GradientComparison::summary_hides_difference() const noexcept {
  return std::any_of(
      parameters.begin(), parameters.end(),
      [](const ParameterComparison &p) { return p.summary_hides_difference; });
}

std::string GradientComparison::table() const {
  // Columns as wide as their longest entry; the shape column only when some
  // parameter has a shape.
  std::size_t wn = 9, wd = 5, ws = 0;
  for (const ParameterComparison &p : parameters) {
    wn = std::max(wn, p.name.size());
    wd = std::max(wd, p.dtype.size());
    ws = std::max(ws, p.shape.size());
  }
  if (ws)
    ws = std::max<std::size_t>(ws, 5);
  const int n = static_cast<int>(wn), d = static_cast<int>(wd),
            s = static_cast<int>(ws);
  const char *gap = ws ? " " : "";
  std::string out;
  char line[1024];
  std::snprintf(line, sizeof line, "rtol=%g atol=%g\n", tolerance.rtol,
                tolerance.atol);
  out += line;
  std::snprintf(line, sizeof line,
                "%-*s %-*s %s%-*s%8s %10s %10s %11s %11s %8s  %s\n", n,
                "parameter", d, "dtype", gap, s, ws ? "shape" : "", "count",
                "max_abs", "max_rel", "ref_norm", "cand_norm", "mismatch",
                "verdict");
  out += line;
  for (const ParameterComparison &p : parameters) {
    std::snprintf(
        line, sizeof line,
        "%-*.200s %-*.100s %s%-*.100s%8zu %10.3e %10.3e %11.5g %11.5g %8zu  "
        "%s%s\n",
        n, p.name.c_str(), d, p.dtype.c_str(), gap, s, p.shape.c_str(),
        p.count, p.max_abs_error, p.max_rel_error, p.reference_norm,
        p.candidate_norm, p.mismatches,
        p.size_mismatch ? (p.shape.empty() ? "FAIL (size differs)"
                                           : "FAIL (shape differs)")
                        : (p.passes ? "ok" : "FAIL"),
        p.summary_hides_difference ? "  <- norm/sum agree, values do not" : "");
    out += line;
  }
  for (const std::string &m : missing)
    out += m + ": in only one of the two sets  FAIL\n";
  for (const std::string &m : no_gradient)
    out += m + ": no gradient in either\n";
  return out;
}

GradientComparison compare_gradients(const std::vector<GradientView> &reference,
                                     const std::vector<GradientView> &candidate,
                                     Tolerance tolerance) {
  GradientComparison c;
  c.tolerance = tolerance;
  for (const GradientView &r : reference) {
    auto it = std::find_if(candidate.begin(), candidate.end(),
                           [&](const GradientView &x) { return x.name() == r.name(); });
    if (it == candidate.end())
      c.missing.push_back(r.name());
    else
      c.parameters.push_back(compare_one(r, *it, tolerance));
  }
  for (const GradientView &x : candidate)
    if (std::none_of(reference.begin(), reference.end(),
                     [&](const GradientView &r) { return r.name() == x.name(); }))
      c.missing.push_back(x.name());
  return c;
}

} // namespace rematch
