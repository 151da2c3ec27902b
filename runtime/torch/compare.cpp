// rematch::torch::compare_gradients: the runtime's element-by-element
// comparison over two modules' named parameter gradients, with their shapes.
#include "rematch/torch.h"

#include <torch/nn/module.h>

#include <algorithm>
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
                                     const ::torch::nn::Module &b,
                                     Tolerance tolerance) {
  const Gradients ga = collect(a), gb = collect(b);
  GradientComparison out =
      ::rematch::compare_gradients(ga.views, gb.views, tolerance);
  for (ParameterComparison &p : out.parameters) {
    const auto &sa = ga.shapes.at(p.name), &sb = gb.shapes.at(p.name);
    p.shape = shape_name(sa);
    if (sa != sb) {
      // Same element count is not the same tensor.
      p.shape += "/" + shape_name(sb);
      p.size_mismatch = true;
      p.passes = false;
      p.summary_hides_difference = false;
    }
  }
  // A parameter without a gradient in one module but not the other is
  // already in `missing`; without one in both, it is listed separately.
  for (const std::string &n : ga.without)
    if (std::find(gb.without.begin(), gb.without.end(), n) != gb.without.end())
      out.no_gradient.push_back(n);
  return out;
}

} // namespace rematch::torch
