// A hand-written activation checkpoint in libtorch, which has none of its
// own: `nn::checkpoint` (named in .rematch.yaml) runs the block again in
// backward and replays no random state. What the block does inside
// libtorch's calls is known to rematch from models/libtorch.yaml.
//
// rematch examples/lint/libtorch_block.cpp -- -std=c++17 \
//   -I/usr/include/torch/csrc/api/include
#include <torch/torch.h>

namespace nn {
// Recomputes `fn` in backward (a stand-in for a project's own checkpoint).
template <class Fn>
torch::Tensor checkpoint(Fn fn, const torch::Tensor &x) {
  return fn(x);
}
} // namespace nn

struct Block : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor activity = torch::zeros({1});

  Block() {
    fc = register_module("fc", torch::nn::Linear(512, 512));
    bn = register_module("bn", torch::nn::BatchNorm1d(512));
  }

  torch::Tensor forward(const torch::Tensor &x) {
    return nn::checkpoint([this](const torch::Tensor &in) {
      auto h = torch::relu(bn(fc(in)));      // running stats updated twice
      h = torch::dropout(h, 0.1, is_training()); // a new mask in backward
      auto noise = torch::randn_like(h) * 0.01;  // new noise in backward
      activity += h.abs().mean();                // counted twice
      return h + noise;
    }, x);
  }
};
