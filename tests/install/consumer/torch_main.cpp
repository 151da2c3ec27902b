// One checkpointed backward through rematch::torch: a dropout layer
// checkpointed and recomputed must give the gradients of the plain model,
// which it does only if the recomputation replays the dropout mask.
#include <rematch/torch.h>

#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(7);
  torch::nn::Linear lin(8, 4);
  const torch::Tensor x0 = torch::randn({16, 8});
  auto block = [&](const rematch::torch::variable_list &in)
      -> rematch::torch::variable_list {
    return {torch::relu(torch::dropout(lin(in[0]), 0.5, /*train=*/true))};
  };

  torch::manual_seed(1);
  torch::Tensor x = x0.clone().requires_grad_(true);
  rematch::torch::checkpoint(block, {x})[0].sum().backward();
  const torch::Tensor checkpointed = x.grad().clone();
  const torch::Tensor weight_grad = lin->weight.grad().clone();

  lin->zero_grad();
  torch::manual_seed(1);
  torch::Tensor y = x0.clone().requires_grad_(true);
  block({y})[0].sum().backward();

  const bool agree = torch::allclose(checkpointed, y.grad()) &&
                     torch::allclose(weight_grad, lin->weight.grad()) &&
                     checkpointed.abs().sum().item<double>() > 0;
  std::printf("consumer-torch: checkpointed backward %s the plain one\n",
              agree ? "agrees with" : "DIFFERS from");
  return agree ? 0 : 1;
}
