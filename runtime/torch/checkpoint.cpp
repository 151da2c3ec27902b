// rematch::torch::checkpoint: a custom autograd Function whose forward runs
// the user's function without a graph and whose backward recomputes it through
// a rematch Segment (RNG replay, outside-stream protection, audit) and then
// back-propagates through the recomputation.
#include "rematch/torch.h"

#include "rematch/fingerprint.h"
#include "rematch/recorder.h"
#include "rematch/segment.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/autograd.h>
#include <torch/custom_class.h>
#include <torch/nn/module.h>

#include <cstring>
#include <deque>
#include <mutex>
#include <sstream>

namespace rematch::torch {
namespace {

using ::torch::autograd::AutogradContext;

GeneratorState save_cpu_generator() {
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  at::Tensor state;
  {
    std::lock_guard<std::mutex> lock(gen.mutex());
    state = gen.get_state();
  }
  GeneratorState out(state.nbytes());
  std::memcpy(out.data(), state.data_ptr(), out.size());
  return out;
}

void restore_cpu_generator(const GeneratorState &in) {
  at::Tensor state =
      at::empty({static_cast<std::int64_t>(in.size())}, at::kByte);
  std::memcpy(state.data_ptr(), in.data(), in.size());
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_state(state);
}

std::mutex g_reports_mutex;
std::deque<Report> g_reports;
constexpr std::size_t kKeptReports = 1024;

void keep_report(const Report &report) {
  std::lock_guard<std::mutex> lock(g_reports_mutex);
  g_reports.push_back(report);
  if (g_reports.size() > kKeptReports)
    g_reports.pop_front();
}

std::string shape_of(at::IntArrayRef sizes) {
  std::string s = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

struct OutputMeta {
  bool defined = false;
  std::vector<std::int64_t> sizes;
  at::ScalarType dtype = at::kFloat;
  at::Device device = at::kCPU;
};

OutputMeta meta_of(const at::Tensor &t) {
  OutputMeta m;
  m.defined = t.defined();
  if (m.defined) {
    m.sizes = t.sizes().vec();
    m.dtype = t.scalar_type();
    m.device = t.device();
  }
  return m;
}

/// Output fingerprints from tensor values: dtype, shape and bytes.
std::uint64_t fingerprint_outputs(const variable_list &outs) {
  std::uint64_t h = 0x70c4;
  for (const at::Tensor &t : outs) {
    if (!t.defined()) {
      h = rematch::detail::mix(h, 0);
      continue;
    }
    h = rematch::detail::mix(h, static_cast<std::uint64_t>(t.scalar_type()));
    for (std::int64_t s : t.sizes())
      h = rematch::detail::mix(h, static_cast<std::uint64_t>(s));
    at::Tensor c = t.detach().to(at::kCPU).contiguous();
    h = rematch::detail::mix(
        h, rematch::detail::hash_bytes(c.data_ptr(), c.nbytes()));
  }
  return rematch::detail::mix(h, outs.size());
}

using BufferSnapshot = std::vector<std::pair<std::string, at::Tensor>>;

BufferSnapshot snapshot_buffers(const ::torch::nn::Module &module) {
  BufferSnapshot out;
  for (const auto &item : module.named_buffers(/*recurse=*/true))
    if (item.value().defined())
      out.emplace_back(item.key(), item.value().detach().clone());
  return out;
}

/// Records every buffer the pass changed as a "buffer" effect: in the forward
/// that is the expected update, in the recompute a repeated one.
void record_buffer_changes(const ::torch::nn::Module &module,
                           const BufferSnapshot &before) {
  auto now = module.named_buffers(/*recurse=*/true);
  for (const auto &[name, old] : before) {
    const at::Tensor *cur = now.find(name);
    if (!cur || !cur->defined())
      continue;
    const at::Tensor value = cur->detach();
    if (value.sizes() == old.sizes() &&
        value.scalar_type() == old.scalar_type() && at::equal(value, old))
      continue;
    std::ostringstream text;
    text << name;
    if (value.numel() == 1 && old.numel() == 1 && !value.is_floating_point())
      text << " " << old.item<std::int64_t>() << " -> "
           << value.item<std::int64_t>();
    else if (value.sizes() == old.sizes() && value.is_floating_point())
      text << " changed (max |delta| "
           << (value.to(at::kDouble) - old.to(at::kDouble))
                  .abs()
                  .max()
                  .item<double>()
           << ")";
    else
      text << " changed";
    rematch::detail::record_effect(nullptr, 0, "buffer", text.str());
  }
}

/// Everything one checkpointed call needs in backward; held by the autograd
/// context.
struct State : ::torch::CustomClassHolder {
  State(Function f, ::torch::nn::Module *m, const Options &o, bool a)
      : fn(std::move(f)), module(m), options(o), audit(a),
        core(o.name, {}, /*restrict=*/!o.replay_rng) {}

  Function fn;
  ::torch::nn::Module *module;
  Options options;
  bool audit;
  // Replays every registered generator (torch's CPU generator included), or
  // none when replay_rng is off.
  rematch::detail::SegmentCore core;
  std::size_t num_inputs = 0;
  std::size_t num_args = 0; // inputs + parameters or the anchor
  std::vector<bool> input_requires_grad;
  std::vector<OutputMeta> meta;

  variable_list run(const variable_list &inputs) {
    const bool buffers = audit && module;
    BufferSnapshot before;
    if (buffers)
      before = snapshot_buffers(*module);
    variable_list outs = fn(inputs);
    if (buffers)
      record_buffer_changes(*module, before);
    return outs;
  }

  std::string prefix() const {
    return "rematch::torch::checkpoint '" + options.name + "': ";
  }

  /// determinism_check="default": number, shape, dtype and device.
  void check(const variable_list &outs) const {
    if (outs.size() != meta.size())
      throw RecomputeMismatch(
          prefix() + "the forward returned " + std::to_string(meta.size()) +
          " outputs, the recompute " + std::to_string(outs.size()));
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const OutputMeta now = meta_of(outs[i]);
      const OutputMeta &was = meta[i];
      std::string what, a, b;
      if (now.defined != was.defined) {
        what = "definedness";
        a = was.defined ? "defined" : "undefined";
        b = now.defined ? "defined" : "undefined";
      } else if (!now.defined) {
        continue;
      } else if (now.sizes != was.sizes) {
        what = "shape";
        a = shape_of(was.sizes);
        b = shape_of(now.sizes);
      } else if (now.dtype != was.dtype) {
        what = "dtype";
        a = c10::toString(was.dtype);
        b = c10::toString(now.dtype);
      } else if (now.device != was.device) {
        what = "device";
        a = was.device.str();
        b = now.device.str();
      } else {
        continue;
      }
      throw RecomputeMismatch(prefix() + "recomputed output " +
                              std::to_string(i) +
                              " differs from the forward: " + what + " " + a +
                              " in the forward, " + b + " in the recompute");
    }
  }
};

struct CheckpointFunction : ::torch::autograd::Function<CheckpointFunction> {
  static variable_list forward(AutogradContext *ctx,
                               c10::intrusive_ptr<State> state,
                               at::TensorList args) {
    State &s = *state;
    variable_list inputs(args.begin(), args.begin() + s.num_inputs);
    ctx->save_for_backward(inputs);
    ctx->saved_data["state"] = c10::IValue::make_capsule(state);

    variable_list outs;
    {
      rematch::detail::ForwardScope scope(s.core, s.audit);
      outs = s.run(inputs);
      if (s.audit)
        scope.result({fingerprint_outputs(outs), rematch::detail::Repr::hash});
      scope.finish();
    }
    s.meta.clear();
    for (const at::Tensor &t : outs) {
      s.meta.push_back(meta_of(t));
      if (t.defined() && !t.is_floating_point() && !t.is_complex())
        ctx->mark_non_differentiable({t});
    }
    return outs;
  }

  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    auto state = c10::static_intrusive_pointer_cast<State>(
        ctx->saved_data["state"].toCapsule());
    State &s = *state;
    const variable_list saved = ctx->get_saved_variables();
    variable_list inputs;
    inputs.reserve(saved.size());
    for (std::size_t i = 0; i < saved.size(); ++i) {
      at::Tensor x = saved[i].detach();
      if (s.input_requires_grad[i])
        x.requires_grad_(true);
      inputs.push_back(std::move(x));
    }

    variable_list outs;
    try {
      rematch::detail::RecomputeScope scope(s.core, s.audit);
      {
        at::AutoGradMode enable_grad(true);
        outs = s.run(inputs);
      }
      s.check(outs);
      if (s.audit)
        scope.result({fingerprint_outputs(outs), rematch::detail::Repr::hash});
      scope.finish(); // restores the outside RNG state, applies the policy
    } catch (const DivergenceError &e) {
      keep_report(e.report());
      throw;
    }
    if (s.audit)
      keep_report(s.core.report());

    variable_list roots, root_grads;
    for (std::size_t i = 0; i < outs.size() && i < grads.size(); ++i)
      if (outs[i].defined() && outs[i].requires_grad() && grads[i].defined()) {
        roots.push_back(outs[i]);
        root_grads.push_back(grads[i]);
      }
    // Accumulates into the parameters the function used, and into the
    // detached inputs, whose gradients are returned to the outer graph.
    if (!roots.empty())
      ::torch::autograd::backward(roots, root_grads);

    variable_list result;
    result.reserve(1 + s.num_args);
    result.emplace_back(); // the state argument
    for (const at::Tensor &x : inputs)
      result.push_back(x.requires_grad() ? x.grad() : at::Tensor());
    // The extra arguments (parameters, the anchor) get none from this node:
    // the inner backward has already accumulated the parameters' gradients.
    result.resize(1 + s.num_args);
    return result;
  }
};

} // namespace

GeneratorId default_cpu_generator() {
  // Registered once for the life of the process (the handle is never
  // destroyed, so there is no exit-time ordering with the registry).
  static const GeneratorId id =
      (new GeneratorHandle(register_generator("torch.cpu", save_cpu_generator,
                                              restore_cpu_generator)))
          ->id();
  return id;
}

std::vector<Report> take_reports() {
  std::lock_guard<std::mutex> lock(g_reports_mutex);
  std::vector<Report> out(g_reports.begin(), g_reports.end());
  g_reports.clear();
  return out;
}

namespace detail {

void throw_bad_arity(std::size_t n) {
  throw std::invalid_argument(
      "rematch::torch::checkpoint: the module's forward does not take " +
      std::to_string(n) + " tensor argument(s); pass a function instead");
}

variable_list checkpoint(const Function &fn, const variable_list &inputs,
                         ::torch::nn::Module *module, const Options &options,
                         bool audit) {
  if (!fn)
    throw std::invalid_argument("rematch::torch::checkpoint: empty function");
  // Without gradients there is nothing to drop and nothing to recompute.
  if (!at::GradMode::is_enabled())
    return fn(inputs);
  if (options.replay_rng)
    (void)default_cpu_generator();

  auto state = c10::make_intrusive<State>(fn, module, options, audit);
  state->num_inputs = inputs.size();
  variable_list args = inputs;
  bool any_requires_grad = false;
  for (const at::Tensor &x : inputs) {
    const bool r = x.defined() && x.requires_grad();
    state->input_requires_grad.push_back(r);
    any_requires_grad |= r;
  }
  // The outputs only join the graph when an argument requires grad. When no
  // input does, the parameters the function uses must still get gradients:
  // pass the module's parameters, or an empty anchor tensor for a bare
  // function, as extra arguments (their own gradients come from the inner
  // backward, not from this node).
  if (!any_requires_grad) {
    std::size_t before = args.size();
    if (module)
      for (const at::Tensor &p : module->parameters(/*recurse=*/true))
        if (p.requires_grad())
          args.push_back(p);
    if (args.size() == before)
      args.push_back(at::empty({0}).requires_grad_(true));
  }
  state->num_args = args.size();
  return CheckpointFunction::apply(state, at::TensorList(args));
}

} // namespace detail
} // namespace rematch::torch
