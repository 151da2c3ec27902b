// rematch::torch::checkpoint_sequential: PyTorch's segmenting rule over a list
// of stages or a torch::nn::Sequential, each segment one checkpoint.
#include "rematch/torch.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace rematch::torch::detail {

at::Tensor checkpoint_sequential(std::vector<Stage> stages, int segments,
                                 const at::Tensor &input,
                                 const Options &options, bool audit) {
  const std::size_t n = stages.size();
  if (segments < 1 || static_cast<std::size_t>(segments) > n)
    throw std::invalid_argument(
        "rematch::torch::checkpoint_sequential: segments must be between 1 "
        "and the number of modules, " +
        std::to_string(n) + "; got " + std::to_string(segments));
  auto all = std::make_shared<const std::vector<Stage>>(std::move(stages));
  const std::string base =
      options.name == Options().name ? "checkpoint_sequential" : options.name;
  // PyTorch's rule (torch/utils/checkpoint.py): segments - 1 checkpointed
  // segments of n / segments modules; the rest runs plainly.
  const std::size_t size = n / static_cast<std::size_t>(segments);
  at::Tensor x = input;
  std::size_t end = 0;
  for (std::size_t start = 0; start < size * (segments - 1); start += size) {
    end = start + size;
    ModuleList modules;
    for (std::size_t k = start; k < end; ++k)
      if ((*all)[k].module)
        modules.emplace_back((*all)[k].name + ".", (*all)[k].module);
    Options o = options;
    o.name = base + " modules " + std::to_string(start) + "-" +
             std::to_string(end - 1);
    Function fn = [all, start, end](const variable_list &in) -> variable_list {
      at::Tensor h = in[0];
      for (std::size_t k = start; k < end; ++k)
        h = (*all)[k].fn(h);
      return {h};
    };
    x = checkpoint(fn, {x}, modules, o, audit)[0];
  }
  for (std::size_t k = end; k < n; ++k)
    x = (*all)[k].fn(x);
  return x;
}

at::Tensor checkpoint_sequential(::torch::nn::Sequential &seq, int segments,
                                 const at::Tensor &input,
                                 const Options &options, bool audit) {
  const auto names = seq->named_children();
  std::vector<Stage> stages;
  std::size_t i = 0;
  for (const ::torch::nn::AnyModule &m : *seq) {
    Stage s;
    s.name = i < names.size() ? names[i].key() : std::to_string(i);
    s.module = m.ptr().get();
    s.fn = [any = ::torch::nn::AnyModule(m)](const at::Tensor &x) mutable {
      return any.forward(x);
    };
    stages.push_back(std::move(s));
    ++i;
  }
  return checkpoint_sequential(std::move(stages), segments, input, options,
                               audit);
}

} // namespace rematch::torch::detail
