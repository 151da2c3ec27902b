// Views of tensors on Debian's libtorch 1.13 headers (models/libtorch.yaml):
// an in-place op on a view changes the tensor it views (`narrow`, `view`,
// `select`, `operator[]`, `transpose`, the elements of `chunk`), a view
// that may be a copy says so (`reshape`, `flatten`), raw access through
// `data_ptr` writes the storage, and every ATen op that takes running
// statistics with a momentum updates them in training. Views of a local
// clone, and a view that is rebound, stay quiet.
// ARGS: -I/usr/include/torch/csrc/api/include -I{root}/runtime/include
// REQUIRES: /usr/include/torch/csrc/api/include/torch/torch.h
#include <rematch/torch.h>
#include <torch/torch.h>

using torch::autograd::variable_list;

struct KVCache {
  torch::Tensor k = torch::zeros({16, 4});
  torch::Tensor v = torch::zeros({16, 4});
};
KVCache g_cache;

// ---- positives ---------------------------------------------------------

variable_list kv_write(const torch::Tensor &x, int64_t pos) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed by this call to 'rematch::torch::checkpoint'
      [pos](const variable_list &in) {
        g_cache.k.narrow(0, pos, 1).copy_(in[0]); // expect: rematch-state-write {{checkpointed lambda writes 'g_cache' with 'copy_' through 'g_cache.k.narrow(0,pos,1)'}}
        g_cache.v[pos].copy_(in[0][0]); // expect: rematch-state-write {{writes 'g_cache' with 'copy_' through 'g_cache.v[pos]'}}
        auto slot = g_cache.v.select(0, pos); // expect-note: 'slot' is an alias of 'g_cache' taken here
        slot.zero_(); // expect: rematch-state-write {{writes 'g_cache' with 'zero_' through 'slot'}}
        return variable_list{in[0] * 2};
      },
      {x});
}

variable_list inputs_in_place(const torch::Tensor &x, torch::Tensor w) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [w](const variable_list &in) {
        auto flat = in[0].view({-1}); // expect-note: 'flat' is an alias of 'in' taken here
        flat.mul_(0.5); // expect: rematch-state-write {{writes 'in' with 'mul_' through 'flat'}}
        auto parts = w.chunk(2); // expect-note: 'parts' is an alias of 'w' taken here
        parts[0].add_(1); // expect: rematch-state-write {{writes 'w' with 'add_' through 'parts'}}
        w.t().mul_(2); // expect: rematch-state-write {{writes 'w' with 'mul_' through 'w.t()'}}
        w.reshape({-1}).zero_(); // expect: rematch-state-write {{writes 'w' with 'zero_' through 'w.reshape({-1})' (may: if it returns a view rather than a copy)}}
        float *raw = w.data_ptr<float>(); // expect-note: 'raw' is an alias of 'w' taken here
        raw[0] = 1; // expect: rematch-state-write {{writes 'w' through 'raw'}}
        return variable_list{in[0] + w.sum()};
      },
      {x});
}

// Running statistics: every op with running_mean and a momentum.
struct Norm : torch::nn::Module {
  torch::Tensor running_mean = torch::zeros({4}), running_var = torch::ones({4});
  torch::Tensor forward(const torch::Tensor &x) {
    auto out = rematch::torch::checkpoint( // expect-note: callable is checkpointed
        [this](const variable_list &in) {
          auto r = at::native_batch_norm(in[0], {}, {}, running_mean, running_var, true, 0.1, 1e-5); // expect: rematch-state-write {{writes 'running_mean' with 'native_batch_norm'}}
          at::batch_norm_update_stats(in[0], running_mean, running_var, 0.1); // expect: rematch-state-write {{'running_mean' with 'batch_norm_update_stats'}}
          return variable_list{std::get<0>(r)};
        },
        {x});
    return out[0];
  }
};

// ---- negatives -------------------------------------------------------------

variable_list negatives(const torch::Tensor &x, torch::Tensor rm, torch::Tensor rv) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [rm, rv](const variable_list &in) {
        auto local = in[0].clone();
        local.view({-1}).mul_(2); // a view of a local clone
        auto v = local.narrow(0, 0, 1);
        v.zero_();
        auto rebound = g_cache.k.view({-1}); // expect: rematch-global-read {{'g_cache'}}
        rebound = torch::ones({4}); // rebinds the handle: the cache is only read
        auto y = at::native_batch_norm(in[0], {}, {}, rm, rv, false, 0.1, 1e-5); // not training
        auto g = at::native_batch_norm_backward(in[0], in[0], {}, rm, rv, {}, {}, true, 1e-5, {true, true, true}); // reads the statistics
        return variable_list{std::get<0>(y) + rebound.sum() + std::get<0>(g).sum()};
      },
      {x});
}

// ---- elements of containers of tensors -------------------------------------

// Giving an element of the callable's own list of tensors another tensor
// (a by-value parameter, a local copy, a range-for over a local vector of
// views) changes that list only; an in-place op on an element writes the
// tensor it shares, and a slot of a global list is the global's.
std::vector<torch::Tensor> g_list(2);

variable_list element_rebinds(const torch::Tensor &x) {
  return rematch::torch::checkpoint(
      [](variable_list in) {
        in[0] = in[0] * 2;
        variable_list outs = in;
        outs[0] = outs[0] + 1;
        outs.front() = outs.back();
        std::vector<torch::Tensor> parts = in[0].split(2, 0);
        for (auto &p : parts) p = p * 0.5;
        auto local = in[0].clone();
        auto lacc = local.accessor<float, 2>();
        lacc[0][0] = 1.f; // the accessor of a local clone
        return variable_list{torch::cat(parts, 0) + outs[0] + local};
      },
      {x});
}

variable_list element_writes(const torch::Tensor &x) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [](const variable_list &in) {
        variable_list outs = in; // expect-note: 'outs' is an alias of 'in' taken here
        outs.front().mul_(2); // expect: rematch-state-write {{writes 'in' with 'mul_' through 'outs'}}
        std::vector<torch::Tensor> parts = in[0].split(2, 0); // expect-note: 'p' is an alias of 'in' taken here
        for (auto &p : parts) p.add_(1); // expect: rematch-state-write {{writes 'in' with 'add_' through 'p'}}
        g_list[0] = in[0] * 2; // expect: rematch-state-write {{writes 'g_list[0]'}}
        auto acc = g_list[1].accessor<float, 1>(); // expect-note: 'acc' is an alias of 'g_list' taken here
        acc[0] = 1.f; // expect: rematch-state-write {{writes 'g_list' through 'acc'}}
        return variable_list{outs[0]};
      },
      {x});
}


// A module's parameters() and named_parameters() hand out its own tensors
// in a new list: writing them in place writes the module's weights;
// rebinding the list's slots or changing a clone does not.
variable_list module_parameters(torch::nn::Linear &fc, const torch::Tensor &x) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [&fc](const variable_list &in) {
        for (auto &p : fc->parameters()) p.mul_(0.5); // expect: rematch-state-write {{writes 'fc' with 'mul_' through 'p'}} expect-note: 'p' is an alias of 'fc' taken here
        auto ps = fc->parameters(); // expect-note: 'ps' is an alias of 'fc' taken here
        ps[0].add_(1); // expect: rematch-state-write {{writes 'fc' with 'add_' through 'ps'}}
        ps[1] = ps[1] * 2;
        auto c = fc->parameters()[0].clone();
        c.add_(1);
        torch::Tensor s = torch::zeros({1});
        for (const auto &b : fc->buffers()) s = s + b.sum();
        fc->bias.set_data(fc->bias.data() * 0.5); // expect: rematch-state-write {{writes 'fc->bias' with 'set_data'}}
        for (auto &p : fc->buffers()) torch::nn::init::zeros_(p); // expect: rematch-state-write {{writes 'fc' with 'zeros_' through 'p'}} expect-note: 'p' is an alias of 'fc' taken here
        torch::nn::init::ones_(c);
        c.set_data(c * 2);
        return variable_list{fc->forward(in[0]) + s};
      },
      {x});
}

// An optional tensor (c10::optional, as ATen's signatures take them) holds
// the caller's tensor: a callee's in-place op through a copy of it, and
// through value_or's result, writes it; giving the copy another tensor
// does not.
static void halve(c10::optional<torch::Tensor> b) {
  if (b)
    b->mul_(0.5); // expect-note: 'halve' writes '*b' with 'mul_' here
}
static void rebind(c10::optional<torch::Tensor> b) { b = torch::zeros({1}); }

variable_list optional_tensors(c10::optional<torch::Tensor> bias,
                               const torch::Tensor &x) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [&bias](const variable_list &in) {
        halve(bias); // expect: rematch-state-write {{calls 'halve', which writes}}
        rebind(bias);
        torch::Tensor b = bias.value_or(torch::zeros({1})); // expect-note: 'b' is an alias of 'bias' taken here
        b.sub_(1); // expect: rematch-state-write {{writes 'bias' with 'sub_' through 'b'}}
        torch::Tensor fresh = c10::optional<torch::Tensor>().value_or(torch::ones({1}));
        fresh.add_(1);
        return variable_list{in[0] + b + fresh};
      },
      {x});
}

// A custom autograd function's apply() runs its static forward(): an
// in-place op there writes the caller's tensor; a pure one is silent, and
// so is apply's own bookkeeping (its graph node, its context).
struct InplaceScale : torch::autograd::Function<InplaceScale> {
  static torch::Tensor forward(torch::autograd::AutogradContext *ctx,
                               torch::Tensor x) {
    ctx->mark_dirty({x});
    return x.mul_(2); // expect-note: 'InplaceScale::forward' writes 'x' with 'mul_' here
  }
  static variable_list backward(torch::autograd::AutogradContext *,
                                variable_list g) {
    return {g[0] * 2};
  }
};
struct PureScale : torch::autograd::Function<PureScale> {
  static torch::Tensor forward(torch::autograd::AutogradContext *ctx,
                               torch::Tensor x) {
    ctx->save_for_backward({x});
    return x * 2;
  }
  static variable_list backward(torch::autograd::AutogradContext *ctx,
                                variable_list g) {
    return {g[0] * 2};
  }
};

variable_list custom_functions(const torch::Tensor &x) {
  return rematch::torch::checkpoint( // expect-note: callable is checkpointed
      [](const variable_list &in) {
        torch::Tensor y = PureScale::apply(in[0]);
        torch::Tensor z = InplaceScale::apply(in[1]); // expect: rematch-state-write {{calls 'torch::autograd::Function::apply', which writes 'x' with 'mul_'}}
        return variable_list{y + z};
      },
      {x, x});
}
