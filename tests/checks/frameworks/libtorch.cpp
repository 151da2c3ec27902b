// models/libtorch.yaml on Debian's libtorch 1.13 headers: default-generator
// draws, explicit generators, in-place ops on outside tensors, norms and
// modules, the conditions that switch them off, and entry points that
// replay torch's default generator.
// ARGS: -I/usr/include/torch/csrc/api/include -I{root}/runtime/include
// REQUIRES: /usr/include/torch/csrc/api/include/torch/torch.h
// OPTIONS: CheckpointFunctions=nn::checkpoint,nn::replaying_checkpoint[torch.default]
#include <rematch/torch.h>
#include <torch/torch.h>

#include <sstream>

namespace nn {
// Hand-written checkpoints: one replays nothing, the other is declared
// (in OPTIONS) to save and restore torch's default generator.
template <class Fn> torch::Tensor checkpoint(Fn f, const torch::Tensor &x) {
  return f(x);
}
template <class Fn>
torch::Tensor replaying_checkpoint(Fn f, const torch::Tensor &x) {
  return f(x);
}
} // namespace nn

namespace F = torch::nn::functional;

// ---- default-generator draws ----------------------------------------------

torch::Tensor draws(const torch::Tensor &x) {
  return nn::checkpoint([](const torch::Tensor &in) { // expect-note: callable is checkpointed by this call to 'nn::checkpoint' expect-note: checkpoint with 'rematch::torch::checkpoint', which replays torch's
    // expect-next-line: rematch-unreplayed-rng {{checkpointed lambda draws from torch's default generator through 'torch::dropout', which 'nn::checkpoint' does not replay; the recomputation in backward draws a different mask}}
    auto a = torch::dropout(in, 0.5, true);
    auto b = torch::randn_like(in); // expect: rematch-unreplayed-rng {{'torch::randn_like'}}
    auto c = torch::rand({2, 2}); // expect: rematch-unreplayed-rng {{'torch::rand'}}
    auto d = torch::randint(0, 10, {2, 2}); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::randint', which 'nn::checkpoint' does not replay}}
    auto e = torch::randperm(4); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::randperm', which 'nn::checkpoint' does not replay}}
    auto f = at::bernoulli(torch::sigmoid(in)); // expect: rematch-unreplayed-rng {{'at::bernoulli'}}
    auto g = torch::multinomial(torch::softmax(in, 0), 1); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::multinomial', which 'nn::checkpoint' does not replay}}
    auto h = at::normal(in, 1.0); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'at::normal', which 'nn::checkpoint' does not replay}}
    auto i = torch::poisson(in.abs()); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::poisson', which 'nn::checkpoint' does not replay}}
    auto j = F::dropout(in, F::DropoutFuncOptions().p(0.2)); // expect: rematch-unreplayed-rng {{'F::dropout'}}
    auto k = F::alpha_dropout(in, F::AlphaDropoutFuncOptions().p(0.2)); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'F::alpha_dropout', which 'nn::checkpoint' does not replay}}
    auto l = torch::rrelu(in, 0.1, 0.3, /*training=*/true); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::rrelu', which 'nn::checkpoint' does not replay}}
    auto m = in.clone();
    m.bernoulli_(0.5); // expect: rematch-unreplayed-rng {{'at::Tensor::bernoulli_'}}
    m.uniform_(); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'at::Tensor::uniform_', which 'nn::checkpoint' does not replay}}
    torch::nn::init::xavier_uniform_(m); // expect: rematch-unreplayed-rng {{draws from torch's default generator through 'torch::nn::init::xavier_uniform_', which 'nn::checkpoint' does not replay}}
    torch::nn::init::zeros_(m);
    return a + b + c + d + e + f + g + h + i + j + k + l + m;
  }, x);
}

// The same ops where nothing is drawn: training off (a literal, an
// options chain, rrelu's default), or no sampler at all.
torch::Tensor draws_negatives(const torch::Tensor &x) {
  return nn::checkpoint([](const torch::Tensor &in) {
    auto a = torch::dropout(in, 0.5, /*train=*/false);
    auto b = F::dropout(in, F::DropoutFuncOptions().p(0.2).training(false));
    auto c = F::dropout(in, F::DropoutFuncOptions().training(false).p(0.1));
    auto d = torch::rrelu(in);
    auto e = torch::matmul(in, in.t()) + torch::relu(in) * in.sum();
    auto f = torch::zeros_like(in) + torch::ones({1}) + torch::arange(3);
    auto g = F::feature_alpha_dropout(
        in, F::FeatureAlphaDropoutFuncOptions().training(false));
    return a + b + c + d + e + f + g;
  }, x);
}

// ---- generators -------------------------------------------------------------

// A generator created and seeded inside the callable is the same in both
// passes; one reached from outside is not.
torch::Tensor generators(const torch::Tensor &x, at::Generator &outside) {
  return nn::checkpoint([&](const torch::Tensor &in) { // expect-note: callable is checkpointed
    auto local = at::detail::createCPUGenerator(42);
    auto a = torch::randn({2}, local);
    auto b = torch::randn({2}, outside); // expect: rematch-unreplayed-rng {{draws from 'outside', which is not replayed}}
    auto c = in.clone();
    c.normal_(0, 1, local);
    c.normal_(0, 1, outside); // expect: rematch-unreplayed-rng {{'outside'}}
    return a + b + c;
  }, x);
}

// ---- in-place ops on outside tensors ------------------------------------------

torch::Tensor in_place(const torch::Tensor &x, torch::Tensor &acc,
                       torch::Tensor shared, torch::Tensor out) {
  return nn::checkpoint([&acc, shared, &out](const torch::Tensor &in) { // expect-note: callable is checkpointed
    acc.add_(in); // expect: rematch-state-write {{writes 'acc' with 'add_'}}
    shared.mul_(2); // expect: rematch-state-write {{writes 'shared' with 'mul_'}}
    in.relu_(); // expect: rematch-state-write {{writes 'in' with 'relu_'}}
    acc += in; // expect: rematch-counter-update {{updates 'acc' with '+='}}
    torch::relu_(out); // expect: rematch-state-write {{'out'}}
    at::add_out(out, in, in); // expect: rematch-state-write {{'out'}}
    acc.zero_(); // expect: rematch-state-write {{writes 'acc' with 'zero_'}}
    return in * 2;
  }, x);
}

// Tensors created inside: clones, op results, factories. Rebinding a
// by-value handle is no write. Autograd flags are bookkeeping.
torch::Tensor in_place_negatives(const torch::Tensor &x, torch::Tensor w) {
  return nn::checkpoint([w](torch::Tensor in) {
    auto y = in.clone();
    y.mul_(2);
    auto z = in * 2;
    z.add_(1);
    z += y;
    auto t = torch::zeros({2});
    t.fill_(3);
    at::add_out(t, y, z);
    in = in * 3;
    w.requires_grad_(true);
    return y + z + t + in;
  }, x);
}

// ---- batch norm, modules ------------------------------------------------------

struct Block : torch::nn::Module {
  torch::nn::Dropout drop{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
  torch::nn::Linear lin{nullptr};
  torch::Tensor running_mean, running_var;
  Block() {
    drop = register_module("drop", torch::nn::Dropout(0.5));
    bn = register_module("bn", torch::nn::BatchNorm1d(4));
    lin = register_module("lin", torch::nn::Linear(4, 4));
    running_mean = register_buffer("rm", torch::zeros({4}));
    running_var = register_buffer("rv", torch::ones({4}));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    return nn::checkpoint([this](const torch::Tensor &in) { // expect-note: callable is checkpointed expect-note: checkpoint with 'rematch::torch::checkpoint', which replays torch's
      auto a = drop(in); // expect: rematch-unreplayed-rng {{(may: in training mode)}}
      auto b = bn(a); // expect: rematch-state-write {{calls 'torch::nn::ModuleHolder::operator()', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{'num_batches_tracked'}}
      // expect-next-line: rematch-state-write {{'running_mean'}}
      auto c = torch::batch_norm(b, {}, {}, running_mean, running_var,
                                 /*training=*/true, 0.1, 1e-5, false);
      return lin(c);
    }, x);
  }
  // Evaluation-mode norms and a linear layer write nothing.
  torch::Tensor eval_forward(const torch::Tensor &x) {
    return nn::checkpoint([this](const torch::Tensor &in) {
      auto c = torch::batch_norm(in, {}, {}, running_mean, running_var,
                                 /*training=*/false, 0.1, 1e-5, false);
      auto d = F::batch_norm(c, running_mean, running_var);
      return lin(d);
    }, x);
  }
};

// ---- entry points that replay the default generator ---------------------------

torch::Tensor replayed(const torch::Tensor &x) {
  auto y = nn::replaying_checkpoint([](const torch::Tensor &in) {
    return torch::dropout(in, 0.5, true) + torch::randn_like(in);
  }, x);
  auto outputs = rematch::torch::checkpoint(
      [](const torch::autograd::variable_list &in)
          -> torch::autograd::variable_list {
        return {torch::dropout(in[0], 0.5, true)};
      },
      {y});
  return outputs[0];
}

// A function may say in its declaration that it checkpoints a parameter and
// what it replays, as rematch's own do; with no source it replays nothing.
namespace nn {
template <class Fn>
torch::Tensor annotated_checkpoint(
    [[clang::annotate("rematch::recomputed", "torch.default")]] Fn f,
    const torch::Tensor &x) {
  return f(x);
}
template <class Fn>
torch::Tensor annotated_plain([[clang::annotate("rematch::recomputed")]] Fn f,
                              const torch::Tensor &x) {
  return f(x);
}
} // namespace nn

torch::Tensor annotated(const torch::Tensor &x) {
  auto y = nn::annotated_checkpoint([](const torch::Tensor &in) {
    return torch::dropout(in, 0.5, true);
  }, x);
  return nn::annotated_plain([](const torch::Tensor &in) { // expect-note: callable is checkpointed expect-note: checkpoint with 'rematch::torch::checkpoint', which replays torch's
    return torch::dropout(in, 0.5, true); // expect: rematch-unreplayed-rng {{through 'torch::dropout', which 'nn::annotated_plain' does not replay}}
  }, y);
}

// A replaying entry point replays the default generator only: an outside
// generator is still another stream.
torch::Tensor replayed_but_outside(const torch::Tensor &x, at::Generator &gen) {
  return nn::replaying_checkpoint([&](const torch::Tensor &in) { // expect-note: callable is checkpointed
    return in + torch::randn({2}, gen); // expect: rematch-unreplayed-rng {{'gen'}}
  }, x);
}

// ---- serialization and printing --------------------------------------------------
// torch::save and torch::load to a file name are I/O; to a stream they write
// or consume it, a hazard only when the stream outlives the callable.
// Tensor::print writes to stdout.

torch::Tensor serialization(const torch::Tensor &x, std::ostream &out) {
  return nn::checkpoint([&](const torch::Tensor &in) { // expect-note: callable is checkpointed
    torch::save(in, "activation.pt"); // expect: rematch-io {{calls 'torch::save', which performs I/O through 'torch::serialize::OutputArchive::save_to'}}
    in.print(); // expect: rematch-logging {{logs through 'at::TensorBase::print'}}
    torch::save(in, out); // expect: rematch-state-write {{calls 'torch::save', which writes}}
    torch::Tensor w;
    torch::load(w, "weights.pt"); // expect: rematch-io {{'torch::load'}}
    std::ostringstream local;
    torch::save(in, local);
    torch::serialize::OutputArchive archive;
    archive.write("in", in);
    archive.save_to(local);
    return in * w;
  }, x);
}

// ---- modules passed as the callable ------------------------------------------
// checkpoint(module, inputs) runs the module's forward(), whether it gets the
// module holder, an element of a list of them or a shared_ptr to the module;
// checkpoint_sequential runs each module of a list. One module type per form,
// so that each finding has its own line.

struct HeldNormImpl : torch::nn::Module {
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor forward(const torch::Tensor &x) {
    return bn(x); // expect: rematch-state-write {{'HeldNormImpl' calls 'torch::nn::ModuleHolder::operator()', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{checkpointed module 'HeldNormImpl'}}
  }
};
TORCH_MODULE(HeldNorm);

struct ListedNormImpl : torch::nn::Module {
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor forward(const torch::Tensor &x) {
    return bn(x); // expect: rematch-state-write {{'ListedNormImpl' calls 'torch::nn::ModuleHolder::operator()', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{checkpointed module 'ListedNormImpl'}}
  }
};
TORCH_MODULE(ListedNorm);

struct SharedNormImpl : torch::nn::Module {
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor forward(const torch::Tensor &x) {
    return bn(x); // expect: rematch-state-write {{'SharedNormImpl' calls 'torch::nn::ModuleHolder::operator()', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{checkpointed module 'SharedNormImpl'}}
  }
};

struct SequentialNormImpl : torch::nn::Module {
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor forward(const torch::Tensor &x) {
    return bn(x); // expect: rematch-state-write {{'SequentialNormImpl' calls 'torch::nn::ModuleHolder::operator()', which writes 'running_mean' with 'forward' (may: in training mode)}}, rematch-counter-update {{checkpointed module 'SequentialNormImpl'}}
  }
};
TORCH_MODULE(SequentialNorm);

torch::Tensor module_forms(HeldNorm &held, std::vector<ListedNorm> &listed,
                           std::shared_ptr<SharedNormImpl> shared,
                           const std::vector<SequentialNorm> &sequence,
                           torch::Tensor x) {
  x = rematch::torch::checkpoint(held, {x})[0]; // expect-note: callable is checkpointed by this call to 'rematch::torch::checkpoint'
  x = rematch::torch::checkpoint(listed[1], {x})[0]; // expect-note: callable is checkpointed by this call to 'rematch::torch::checkpoint'
  x = rematch::torch::checkpoint(shared, {x})[0]; // expect-note: callable is checkpointed by this call to 'rematch::torch::checkpoint'
  return rematch::torch::checkpoint_sequential(sequence, 2, x); // expect-note: callable is checkpointed by this call to 'rematch::torch::checkpoint_sequential'
}

// Look-alikes: a module whose forward has no effect (its dropout is
// replayed), and checkpoint(module, fn, inputs), which runs fn and only
// audits the module's buffers.
struct QuietImpl : torch::nn::Module {
  torch::nn::Linear lin{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::Tensor forward(const torch::Tensor &x) { return drop(lin(x)); }
};
TORCH_MODULE(Quiet);

struct AuditedNormImpl : torch::nn::Module {
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor forward(const torch::Tensor &x) { return bn(x); }
};
TORCH_MODULE(AuditedNorm);

torch::Tensor quiet_module_forms(Quiet &quiet, AuditedNorm &audited,
                                 torch::Tensor x) {
  x = rematch::torch::checkpoint(quiet, {x})[0];
  return rematch::torch::checkpoint(
      audited,
      [](const torch::autograd::variable_list &in)
          -> torch::autograd::variable_list { return {in[0] * 2}; },
      {x})[0];
}

// Module and autograd bookkeeping that outlives the pass: switching a
// member module to eval mode, a hook registered on a member tensor (each
// recomputation adds another), a warning through TORCH_WARN. A hook on a
// tensor made inside the callable stays there.
struct Tagged : torch::nn::Module {
  torch::nn::Linear fc{4, 4};
  torch::Tensor w = torch::ones({4}, torch::requires_grad());
  torch::Tensor step(const torch::Tensor &x) {
    return nn::checkpoint([this](const torch::Tensor &in) { // expect-note: callable is checkpointed by this call to 'nn::checkpoint'
      fc->eval(); // expect: rematch-state-write {{writes '*fc' with 'eval'}}
      w.register_hook([](torch::Tensor g) { return g * 2; }); // expect: rematch-state-write {{writes 'w' with 'register_hook'}}
      TORCH_WARN("slow path"); // expect: rematch-logging {{logs through 'c10::Warning::warn'}}
      auto t = in.clone();
      t.register_hook([](torch::Tensor g) { return g; });
      return fc(t);
    }, x);
  }
};

// Process-wide settings: reseeding the default generator (what is drawn
// after the recomputation starts over), the thread counts, ATen's global
// context, the grad mode, directly and through a helper. Reading them, a
// grad-mode guard (its constructor is libtorch's, in a system header) and
// the same calls outside a checkpoint stay silent.
void configure_determinism(uint64_t seed) {
  torch::manual_seed(seed); // expect-note: 'configure_determinism' writes 'the default generator' with 'manual_seed' here
  at::globalContext().setDeterministicAlgorithms(true, false);
}
torch::Tensor process_settings(const torch::Tensor &x) {
  return nn::checkpoint([](const torch::Tensor &in) { // expect-note: callable is checkpointed by this call to 'nn::checkpoint'
    torch::manual_seed(7); // expect: rematch-state-write {{writes 'the default generator' with 'manual_seed'}}
    torch::set_num_threads(2); // expect: rematch-state-write {{writes 'ATen's intra-op thread count' with 'set_num_threads'}}
    at::globalContext().setDeterministicAlgorithms(true, true); // expect: rematch-state-write {{writes 'ATen's global context' with 'setDeterministicAlgorithms'}}
    torch::autograd::GradMode::set_enabled(true); // expect: rematch-state-write {{writes 'the grad mode' with 'set_enabled'}}
    configure_determinism(42); // expect: rematch-state-write {{calls 'configure_determinism', which writes 'the default generator'}}
    torch::NoGradGuard no_grad;
    bool det = at::globalContext().deterministicAlgorithms();
    int threads = at::get_num_threads();
    return det && threads > 0 ? in * 2 : in;
  }, x);
}

// ---- outside any checkpoint ----------------------------------------------------

torch::Tensor plain(torch::Tensor &acc, const torch::Tensor &x) {
  configure_determinism(1);
  torch::set_num_threads(4);
  acc.add_(x);
  return torch::dropout(x, 0.5, true) + torch::randn_like(x);
}
