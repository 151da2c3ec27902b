// Module containers on Debian's libtorch 1.13 headers: a Sequential or an
// AnyModule runs, in forward, the modules the program built it with
// (constructor arguments, push_back, extend, insert, register_module), so
// its forward has the "may" effects of theirs, with a note that names the
// module and where it was added. A container whose contents cannot be seen
// gets no finding.
// ARGS: -I/usr/include/torch/csrc/api/include -I{root}/runtime/include
// REQUIRES: /usr/include/torch/csrc/api/include/torch/torch.h
// OPTIONS: CheckpointFunctions=nn::checkpoint
#include <rematch/torch.h>
#include <torch/torch.h>

namespace nn {
// A hand-written checkpoint that replays nothing.
template <class Fn> torch::Tensor checkpoint(Fn f, const torch::Tensor &x) {
  return f(x);
}
} // namespace nn

int g_steps = 0;

struct CountImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    ++g_steps; // expect: rematch-counter-update {{checkpointed module 'CountImpl' held by 'seq' (may: one of 3 callables it holds) increments 'g_steps'}} expect-note: 'CountImpl::forward' increments 'g_steps' here
    return x;
  }
};
TORCH_MODULE(Count);

struct BlockImpl : torch::nn::Module {
  torch::nn::Sequential seq_{nullptr};
  torch::nn::Sequential quiet_{nullptr};
  BlockImpl() {
    seq_ = register_module("seq", // expect-note: 'seq_' holds 'CountImpl::forward', stored here
                            torch::nn::Sequential(torch::nn::Linear(4, 4), Count()));
    quiet_ = register_module("quiet", torch::nn::Sequential(torch::nn::Linear(4, 4), torch::nn::ReLU()));
  }
  torch::Tensor forward(torch::Tensor x) {
    return nn::checkpoint([this](const torch::Tensor &in) { return seq_->forward(in); }, x); // expect: rematch-counter-update {{checkpointed lambda calls 'seq_', which may run 'CountImpl::forward' it holds that increments 'g_steps'}} expect-note: callable is checkpointed by this call to 'nn::checkpoint'
  }
  // ---- negative: only pure modules -------------------------------------
  torch::Tensor calm(torch::Tensor x) {
    return nn::checkpoint([this](const torch::Tensor &in) { return quiet_->forward(in); }, x);
  }
};

torch::Tensor built(torch::Tensor x) {
  torch::nn::Sequential seq(torch::nn::Linear(4, 4));
  seq->push_back(Count()); // expect-note: 'seq' holds 'CountImpl::forward', stored here
  auto y = nn::checkpoint([&](const torch::Tensor &in) { return seq->forward(in); }, x); // expect: rematch-counter-update {{calls 'seq', which may run 'CountImpl::forward' it holds}} expect-note: callable is checkpointed
  torch::nn::AnyModule any{Count()}; // expect-note: 'any' holds 'CountImpl::forward', stored here
  return nn::checkpoint([&](const torch::Tensor &in) { return any.forward(in); }, y); // expect: rematch-counter-update {{calls 'any', which may run 'CountImpl::forward' it holds}} expect-note: callable is checkpointed
}

// The container itself checkpointed by rematch::torch::checkpoint, which
// replays torch's generator but not a global counter.
torch::Tensor whole(torch::Tensor x) {
  torch::nn::Sequential seq(torch::nn::Linear(4, 4), torch::nn::Dropout(0.5), Count()); // expect-note: 'seq' holds the module 'CountImpl' stored here
  return rematch::torch::checkpoint(seq, {x})[0]; // expect-note: callable is checkpointed by this call to 'rematch::torch::checkpoint'
}

// A global container, and a module that counts in its own member: the
// count is the container's state (the read of the global that takes it is
// part of that change, not a finding of its own).
struct TallyImpl : torch::nn::Module {
  int64_t seen_ = 0;
  torch::Tensor forward(torch::Tensor x) {
    ++seen_; // expect-note: 'TallyImpl::forward' increments 'seen_' here
    return x;
  }
};
TORCH_MODULE(Tally);
torch::nn::Sequential g_stack{Tally()}; // expect-note: 'g_stack' holds 'TallyImpl::forward', stored here
torch::Tensor global_container(torch::Tensor x) {
  return nn::checkpoint([](const torch::Tensor &in) { return g_stack->forward(in); }, x); // expect: rematch-counter-update {{calls 'g_stack', which may run 'TallyImpl::forward' it holds that increments 'seen_'}} expect-note: callable is checkpointed
}

// ---- negatives ---------------------------------------------------------

// A container filled where the program cannot see (a parameter), and one
// of pure modules checkpointed whole.
torch::Tensor unseen(torch::nn::Sequential &given, torch::Tensor x) {
  torch::nn::Sequential plain(torch::nn::Linear(4, 4), torch::nn::Tanh());
  auto y = rematch::torch::checkpoint(plain, {x})[0];
  return nn::checkpoint([&](const torch::Tensor &in) { return given->forward(in); }, y);
}
