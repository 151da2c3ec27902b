// rematch::torch::compare_gradients: the runtime's element-by-element
// comparison over two modules' named parameter gradients, plus shapes.
#include "rematch/torch.h"

#include <torch/nn/module.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace rematch::torch {
namespace {

std::string dtype_name(at::ScalarType t) {
  switch (t) {
  case at::kFloat:
    return "float32";
  case at::kDouble:
    return "float64";
  case at::kHalf:
    return "float16";
  case at::kBFloat16:
    return "bfloat16";
  default:
    return c10::toString(t);
  }
}

std::string shape_name(at::IntArrayRef sizes) {
  std::string s = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    s += (i ? "x" : "") + std::to_string(sizes[i]);
  return s + "]";
}

/// The gradients of one module as float64 copies the views can point into.
struct Gradients {
  std::vector<at::Tensor> storage;
  std::vector<GradientView> views;
  std::map<std::string, std::vector<std::int64_t>> shapes;
  std::vector<std::string> without;
};

Gradients collect(const ::torch::nn::Module &m) {
  Gradients g;
  for (const auto &item : m.named_parameters(/*recurse=*/true)) {
    const at::Tensor grad = item.value().grad();
    if (!grad.defined()) {
      g.without.push_back(item.key());
      continue;
    }
    at::Tensor d = grad.detach().to(at::kCPU).to(at::kDouble).contiguous();
    g.views.emplace_back(item.key(), d.data_ptr<double>(),
                         static_cast<std::size_t>(d.numel()),
                         dtype_name(grad.scalar_type()));
    g.shapes[item.key()] = grad.sizes().vec();
    g.storage.push_back(std::move(d));
  }
  return g;
}

} // namespace

GradientComparison compare_gradients(const ::torch::nn::Module &a,
                                     const ::torch::nn::Module &b, double rtol,
                                     double atol) {
  const Gradients ga = collect(a), gb = collect(b);
  GradientComparison out;
  static_cast<::rematch::GradientComparison &>(out) =
      ::rematch::compare_gradients(ga.views, gb.views, Tolerance{rtol, atol});
  for (ParameterComparison &p : out.parameters) {
    const auto &sa = ga.shapes.at(p.name), &sb = gb.shapes.at(p.name);
    std::string shape = shape_name(sa);
    if (sa != sb) {
      // Same element count is not the same tensor.
      shape += "/" + shape_name(sb);
      p.size_mismatch = true;
      p.passes = false;
      p.summary_hides_difference = false;
    }
    out.shapes.push_back(std::move(shape));
  }
  // A parameter without a gradient in one module but not the other is
  // already in `missing`; without one in both, it is listed separately.
  for (const std::string &n : ga.without)
    if (std::find(gb.without.begin(), gb.without.end(), n) != gb.without.end())
      out.no_gradient.push_back(n);
  return out;
}

std::string GradientComparison::table() const {
  std::size_t wn = 9, wd = 5, ws = 5;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    wn = std::max(wn, parameters[i].name.size());
    wd = std::max(wd, parameters[i].dtype.size());
    ws = std::max(ws, shapes[i].size());
  }
  const int n = static_cast<int>(wn), d = static_cast<int>(wd),
            s = static_cast<int>(ws);
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "rtol=%g atol=%g\n", tolerance.rtol,
                tolerance.atol);
  out += line;
  std::snprintf(line, sizeof line,
                "%-*s %-*s %-*s %8s %10s %10s %11s %11s %8s  %s\n", n,
                "parameter", d, "dtype", s, "shape", "count", "max_abs",
                "max_rel", "ref_norm", "cand_norm", "mismatch", "verdict");
  out += line;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const ParameterComparison &p = parameters[i];
    std::snprintf(
        line, sizeof line,
        "%-*s %-*s %-*s %8zu %10.3e %10.3e %11.5g %11.5g %8zu  %s%s\n", n,
        p.name.c_str(), d, p.dtype.c_str(), s, shapes[i].c_str(), p.count,
        p.max_abs_error, p.max_rel_error, p.reference_norm, p.candidate_norm,
        p.mismatches,
        p.size_mismatch ? "FAIL (shape differs)" : (p.passes ? "ok" : "FAIL"),
        p.summary_hides_difference ? "  <- norm/sum agree, values do not" : "");
    out += line;
  }
  for (const std::string &m : missing)
    out += m + ": gradient in only one module  FAIL\n";
  for (const std::string &m : no_gradient)
    out += m + ": no gradient in either module\n";
  return out;
}

} // namespace rematch::torch
