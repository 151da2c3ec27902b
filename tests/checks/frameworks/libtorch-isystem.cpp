// models/libtorch.yaml with libtorch's API headers as system headers
// (-isystem), as CMake includes an imported target's: module calls go
// through torch::nn::ModuleHolder::operator(), which the model analyses
// (Analyse:) so that the module entries still apply, and torch::save and
// torch::load, which the model lists too.
// ARGS: -isystem /usr/include/torch/csrc/api/include -I{root}/runtime/include
// REQUIRES: /usr/include/torch/csrc/api/include/torch/torch.h
// OPTIONS: CheckpointFunctions=nn::checkpoint
#include <torch/torch.h>

namespace nn {
template <class Fn> torch::Tensor checkpoint(Fn f, const torch::Tensor &x) {
  return f(x);
}
} // namespace nn

struct Block : torch::nn::Module {
  torch::nn::Dropout drop{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
  torch::nn::Linear lin{nullptr};
  Block() {
    drop = register_module("drop", torch::nn::Dropout(0.5));
    bn = register_module("bn", torch::nn::BatchNorm1d(4));
    lin = register_module("lin", torch::nn::Linear(4, 4));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return nn::checkpoint([this](const torch::Tensor &in) { // expect-note: callable is checkpointed expect-note: checkpoint with 'rematch::torch::checkpoint', which replays torch's
      auto a = drop(in); // expect: rematch-unreplayed-rng {{'torch::nn::DropoutImpl::forward'}} {{(may: in training mode)}}
      auto b = drop->forward(a); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::nn::DropoutImpl::forward', which 'nn::checkpoint' does not replay (may: in training mode)}}
      auto c = bn(b); // expect: rematch-state-write {{'running_mean'}}, rematch-counter-update {{'num_batches_tracked'}}
      auto d = lin(c);
      return lin->forward(d) + torch::relu(d);
    }, x);
  }
};

// A module holder is a handle: a copy, in a mutable lambda or passed by
// value to a helper, shares the module outside.
torch::Tensor normalise(torch::nn::BatchNorm1d bn, const torch::Tensor &x) {
  return bn(x); // expect-note: 'normalise' calls 'torch::nn::ModuleHolder::operator()' here
}
torch::Tensor by_value(torch::nn::BatchNorm1d bn, const torch::Tensor &x) {
  return nn::checkpoint([bn](const torch::Tensor &in) mutable { // expect-note: callable is checkpointed
    auto a = bn(in); // expect: rematch-state-write {{calls 'torch::nn::ModuleHolder::operator()', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{calls 'torch::nn::ModuleHolder::operator()', which updates 'num_batches_tracked' with 'forward' (may: in training mode)}}
    return normalise(bn, a); // expect: rematch-state-write {{calls 'normalise', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{calls 'normalise', which updates 'num_batches_tracked' with 'forward' (may: in training mode)}}
  }, x);
}

// A module created inside the callable is local to one pass.
torch::Tensor local_module(const torch::Tensor &x) {
  return nn::checkpoint([](const torch::Tensor &in) {
    torch::nn::Linear lin(4, 4);
    return lin(in);
  }, x);
}

// torch::save and torch::load are templates in a system header: analysed all
// the same (Analyse:), so the archive call they make is found.
torch::Tensor serialization(const torch::Tensor &x, std::ostream &out) {
  return nn::checkpoint([&](const torch::Tensor &in) { // expect-note: callable is checkpointed
    torch::save(in, "activation.pt"); // expect: rematch-io {{'torch::serialize::OutputArchive::save_to'}}
    torch::save(in, out); // expect: rematch-state-write {{calls 'torch::save', which writes}}
    return in * 2;
  }, x);
}
