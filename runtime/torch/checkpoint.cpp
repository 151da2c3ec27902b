// rematch::torch::checkpoint: a custom autograd Function whose forward runs
// the user's function without a graph and whose backward recomputes it through
// a rematch Segment (RNG replay, outside-stream protection, audit) and then
// back-propagates through the recomputation, returning the gradients of its
// arguments to the engine that called it (torch::autograd::grad included).
#include "rematch/torch.h"

#include "rematch/fingerprint.h"
#include "rematch/detail/recorder.h"
#include "rematch/segment.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/SequenceNumber.h>
#include <torch/autograd.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/functions/accumulate_grad.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/graph_task.h>
#include <torch/custom_class.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <sstream>
#include <unordered_set>

namespace rematch::torch {
namespace {

using ::torch::autograd::AutogradContext;
using ::torch::autograd::Edge;
using ::torch::autograd::edge_list;
using ::torch::autograd::Node;
using ExecInfoMap =
    std::unordered_map<Node *, ::torch::autograd::GraphTask::ExecInfo>;

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

BufferSnapshot snapshot_buffers(const detail::ModuleList &modules) {
  BufferSnapshot out;
  for (const auto &[prefix, module] : modules)
    for (const auto &item : module->named_buffers(/*recurse=*/true))
      if (item.value().defined())
        out.emplace_back(prefix + item.key(), item.value().detach().clone());
  return out;
}

/// Records every buffer the pass changed as a "buffer" effect: in the forward
/// that is the expected update, in the recompute a repeated one.
void record_buffer_changes(const detail::ModuleList &modules,
                           const BufferSnapshot &before) {
  std::vector<std::pair<std::string, at::Tensor>> now;
  for (const auto &[prefix, module] : modules)
    for (const auto &item : module->named_buffers(/*recurse=*/true))
      now.emplace_back(prefix + item.key(), item.value());
  for (const auto &entry : before) {
    const std::string &name = entry.first;
    const at::Tensor &old = entry.second;
    auto cur = std::find_if(now.begin(), now.end(),
                            [&](const auto &b) { return b.first == name; });
    if (cur == now.end() || !cur->second.defined())
      continue;
    const at::Tensor value = cur->second.detach();
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
  State(Function f, detail::ModuleList m, const Options &o, bool a)
      : fn(std::move(f)), modules(std::move(m)), options(o), audit(a),
        core(o.name, {}, /*restrict=*/!o.replay_rng) {}

  Function fn;
  detail::ModuleList modules;
  Options options;
  bool audit;
  // Replays every registered generator (torch's CPU generator included), or
  // none when replay_rng is off.
  rematch::detail::SegmentCore core;
  std::size_t num_inputs = 0;
  // The node's arguments after the inputs: the tensors requiring grad that
  // fn used without receiving them (captured parameters, tensors of the outer
  // graph), found in the forward.
  variable_list extras;
  // The forward's outputs, computed before the node exists, detached.
  variable_list pending;
  std::vector<bool> input_requires_grad;
  std::vector<OutputMeta> meta;

  std::size_t num_args() const { return num_inputs + extras.size(); }

  variable_list run(const variable_list &inputs) {
    const bool buffers = audit && !modules.empty();
    BufferSnapshot before;
    if (buffers)
      before = snapshot_buffers(modules);
    variable_list outs = fn(inputs);
    if (buffers)
      record_buffer_changes(modules, before);
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

// --- What fn uses, and back-propagation through the recompute ---------------
//
// A graph built by fn from (detached) inputs ends in edges of two kinds: the
// inputs' own, and "strays": tensors fn used without receiving them
// (parameters a lambda or a module captured, tensors of the outer graph).
// The forward records fn's graph once to find the strays and makes them
// arguments of the checkpoint node ("extras"): the engine then asks the node
// for their gradients like for any argument, torch::autograd::grad and
// backward(inputs) included, and the node returns them instead of
// accumulating them itself.
//
// The recompute can still use a tensor the forward did not (control flow
// that differs between the passes). The engine's request decides what such a
// stray gets: a plain backward() (the graph task's exec_info is empty) wants
// every gradient, so it is accumulated by a second engine pass, as the outer
// backward would have done; torch::autograd::grad and backward(inputs) want
// only some: a stray they do not want gets nothing, one they want is an
// error, since its gradient has no way back to them.

using EdgeKey = std::pair<const Node *, std::uint32_t>;
EdgeKey key_of(const Edge &e) { return {e.function.get(), e.input_nr}; }

// The request of the outermost engine call on this thread, kept while a
// checkpoint back-propagates through its recompute, so that checkpoints
// nested in it judge strays by what the user asked for, not by what the
// enclosing checkpoint's inner engine call asks for.
struct Request {
  bool active = false;
  const ExecInfoMap *info = nullptr;
};
thread_local Request t_request;

class RequestScope {
public:
  explicit RequestScope(const ExecInfoMap *info) : saved_(t_request) {
    if (!t_request.active)
      t_request = {true, info};
  }
  ~RequestScope() { t_request = saved_; }
  RequestScope(const RequestScope &) = delete;
  RequestScope &operator=(const RequestScope &) = delete;

private:
  Request saved_;
};

bool is_leaf_node(const Node *n) {
  return dynamic_cast<const ::torch::autograd::AccumulateGrad *>(n) != nullptr;
}

/// The edges leaving fn's graph that are not arguments. Nodes of fn's graph
/// are those created on this thread while fn ran (sequence numbers in
/// [begin, end)) that the current graph task, if any, does not know.
edge_list find_strays(const edge_list &roots, const std::set<EdgeKey> &args,
                      std::uint64_t begin, std::uint64_t end) {
  const std::unordered_set<Node *> *outer =
      ::torch::autograd::get_current_graph_task_nodes_in_graph();
  auto inside = [&](Node *n) {
    const std::uint64_t nr = n->sequence_nr();
    return nr >= begin && nr < end && !is_leaf_node(n) &&
           !(outer && outer->count(n));
  };
  edge_list strays;
  std::set<EdgeKey> seen;
  std::unordered_set<Node *> visited;
  std::vector<Node *> stack;
  auto visit = [&](const Edge &e) {
    if (!e.is_valid() || args.count(key_of(e)))
      return;
    Node *n = e.function.get();
    if (inside(n)) {
      if (visited.insert(n).second)
        stack.push_back(n);
    } else if (seen.insert(key_of(e)).second) {
      strays.push_back(e);
    }
  };
  for (const Edge &e : roots)
    visit(e);
  while (!stack.empty()) {
    Node *n = stack.back();
    stack.pop_back();
    for (const Edge &e : n->next_edges())
      visit(e);
  }
  return strays;
}

/// Whether the request executes anything at or behind this edge.
bool wanted(const Edge &e, const ExecInfoMap &info) {
  std::unordered_set<Node *> visited;
  std::vector<Node *> stack{e.function.get()};
  while (!stack.empty()) {
    Node *n = stack.back();
    stack.pop_back();
    if (!visited.insert(n).second)
      continue;
    auto it = info.find(n);
    if (it != info.end() && it->second.should_execute())
      return true;
    for (const Edge &next : n->next_edges())
      if (next.is_valid())
        stack.push_back(next.function.get());
  }
  return false;
}

/// Whether the request asks for a tensor that had no place in any graph when
/// it was made: torch::autograd::grad and backward(inputs) stand an Identity
/// node in for a leaf without a gradient accumulator. A leaf that only the
/// recompute uses is such a tensor (its accumulator is made by the
/// recompute), so a stray leaf with such a request is taken as asked for.
bool asks_for_unreachable(const ExecInfoMap &info) {
  for (const auto &entry : info)
    if (entry.second.should_execute() && entry.first->next_edges().empty() &&
        dynamic_cast<const ::torch::autograd::Identity *>(entry.first))
      return true;
  return false;
}

std::string describe(const Edge &e) {
  if (auto *acc = dynamic_cast<const ::torch::autograd::AccumulateGrad *>(
          e.function.get()))
    return "a leaf tensor of shape " + shape_of(acc->variable.sizes()) +
           " (a parameter the function captured?)";
  return "a tensor computed outside the function (by " + e.function->name() +
         ")";
}

variable_list backprop(AutogradContext *ctx, const State &s,
                       const variable_list &inputs, const variable_list &outs,
                       const variable_list &grads, std::uint64_t seq_begin,
                       std::uint64_t seq_end) {
  namespace ag = ::torch::autograd;
  variable_list result(1 + s.num_args()); // the state argument first
  edge_list roots;
  variable_list root_grads;
  for (std::size_t i = 0; i < outs.size() && i < grads.size(); ++i)
    if (outs[i].defined() && outs[i].requires_grad() && grads[i].defined()) {
      roots.push_back(ag::impl::gradient_edge(outs[i]));
      root_grads.push_back(grads[i]);
    }
  if (roots.empty())
    return result;

  edge_list args(s.num_args());
  for (std::size_t i = 0; i < s.num_inputs; ++i)
    if (inputs[i].defined() && inputs[i].requires_grad())
      args[i] = ag::impl::gradient_edge(inputs[i]);
  for (std::size_t j = 0; j < s.extras.size(); ++j)
    args[s.num_inputs + j] = ag::impl::gradient_edge(s.extras[j]);
  std::set<EdgeKey> arg_keys;
  for (const Edge &e : args)
    if (e.is_valid())
      arg_keys.insert(key_of(e));
  const edge_list strays = find_strays(roots, arg_keys, seq_begin, seq_end);

  const ExecInfoMap *request = t_request.active
                                   ? t_request.info
                                   : ag::get_current_graph_task_exec_info();
  const bool everything = !request || request->empty();
  if (!everything)
    for (const Edge &e : strays)
      if (wanted(e, *request) ||
          (is_leaf_node(e.function.get()) && asks_for_unreachable(*request)))
        throw GradientNotReachable(
            s.prefix() +
            "torch::autograd::grad (or backward with `inputs`) asks for a "
            "gradient through " +
            describe(e) +
            ", which the recompute used but the forward did not, so the "
            "checkpoint cannot return that gradient (its autograd node was "
            "built in the forward, from the tensors the forward used). Make "
            "the function use the same tensors in both passes, or pass this "
            "one in the inputs");

  edge_list outputs;
  std::vector<std::size_t> slot; // result index of each argument output
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i].is_valid() && ctx->needs_input_grad(i)) {
      outputs.push_back(args[i]);
      slot.push_back(1 + i);
    }
  const std::size_t num_arg_outputs = outputs.size();
  if (everything)
    outputs.insert(outputs.end(), strays.begin(), strays.end());
  if (outputs.empty())
    return result;

  variable_list captured;
  {
    RequestScope scope(request);
    captured = ag::Engine::get_default_engine().execute(
        roots, root_grads, /*keep_graph=*/false, /*create_graph=*/false,
        /*accumulate_grad=*/false, outputs);
  }
  for (std::size_t k = 0; k < num_arg_outputs; ++k)
    result[slot[k]] = captured[k];

  // A plain backward: strays get their gradients as if fn had run in the
  // outer graph (accumulated into captured parameters, or continued into the
  // outer history of a captured tensor).
  edge_list stray_roots;
  variable_list stray_grads;
  for (std::size_t k = num_arg_outputs; k < captured.size(); ++k)
    if (captured[k].defined()) {
      stray_roots.push_back(outputs[k]);
      stray_grads.push_back(captured[k]);
    }
  if (!stray_roots.empty())
    ag::Engine::get_default_engine().execute(
        stray_roots, stray_grads, ag::get_current_graph_task_keep_graph(),
        /*create_graph=*/false, /*accumulate_grad=*/true);
  return result;
}

struct CheckpointFunction : ::torch::autograd::Function<CheckpointFunction> {
  static variable_list forward(AutogradContext *ctx,
                               c10::intrusive_ptr<State> state,
                               at::TensorList args) {
    State &s = *state;
    variable_list inputs(args.begin(), args.begin() + s.num_inputs);
    ctx->save_for_backward(inputs);
    ctx->saved_data["state"] = c10::IValue::make_capsule(state);
    // Outputs that do not reach the loss get no gradient: no zeros to
    // allocate and back-propagate.
    ctx->set_materialize_grads(false);
    // fn already ran (detail::checkpoint): the node's arguments had to be
    // known before the node was made.
    variable_list outs = std::move(s.pending);
    s.pending.clear();
    for (const at::Tensor &t : outs)
      if (t.defined() && !t.is_floating_point() && !t.is_complex())
        ctx->mark_non_differentiable({t});
    return outs;
  }

  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    auto state = c10::static_intrusive_pointer_cast<State>(
        ctx->saved_data["state"].toCapsule());
    State &s = *state;
    // The engine runs backward with grad mode on only for create_graph.
    if (at::GradMode::is_enabled())
      throw GradientNotReachable(
          s.prefix() +
          "create_graph=true (double backward) is not supported through a "
          "checkpoint: its gradients are computed from a recompute that is "
          "not part of the graph being built. Run this part without "
          "rematch::torch::checkpoint");
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
    std::uint64_t seq_begin = 0, seq_end = 0;
    try {
      rematch::detail::RecomputeScope scope(s.core, s.audit);
      {
        at::AutoGradMode enable_grad(true);
        seq_begin = at::sequence_number::peek();
        outs = s.run(inputs);
        seq_end = at::sequence_number::peek();
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
    return backprop(ctx, s, inputs, outs, grads, seq_begin, seq_end);
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
                         const ModuleList &modules, const Options &options,
                         bool audit) {
  if (!fn)
    throw std::invalid_argument("rematch::torch::checkpoint: empty function");
  // Without gradients there is nothing to drop and nothing to recompute.
  if (!at::GradMode::is_enabled())
    return fn(inputs);
  if (options.replay_rng)
    (void)default_cpu_generator();

  auto state = c10::make_intrusive<State>(fn, modules, options, audit);
  State &s = *state;
  s.num_inputs = inputs.size();
  bool any_requires_grad = false;
  variable_list detached;
  detached.reserve(inputs.size());
  for (const at::Tensor &x : inputs) {
    const bool r = x.defined() && x.requires_grad();
    s.input_requires_grad.push_back(r);
    any_requires_grad |= r;
    detached.push_back(x.defined() ? x.detach().requires_grad_(r) : x);
  }

  // The forward, with autograd recording on, as the recompute will run: its
  // graph shows which tensors fn uses besides its inputs. The graph is
  // dropped when this function returns; until then it keeps this segment's
  // activations, which the recompute will hold again in backward.
  variable_list outs;
  std::uint64_t begin = 0, end = 0;
  {
    rematch::detail::ForwardScope scope(s.core, s.audit);
    begin = at::sequence_number::peek();
    outs = s.run(detached);
    end = at::sequence_number::peek();
    if (s.audit)
      scope.result({fingerprint_outputs(outs), rematch::detail::Repr::hash});
    scope.finish();
  }
  edge_list roots;
  for (const at::Tensor &t : outs)
    if (t.defined() && t.requires_grad())
      roots.push_back(::torch::autograd::impl::gradient_edge(t));
  std::set<EdgeKey> input_edges;
  for (const at::Tensor &x : detached)
    if (x.defined() && x.requires_grad())
      input_edges.insert(key_of(::torch::autograd::impl::gradient_edge(x)));
  for (const Edge &e : find_strays(roots, input_edges, begin, end)) {
    if (auto *acc = dynamic_cast<const ::torch::autograd::AccumulateGrad *>(
            e.function.get())) {
      s.extras.push_back(acc->variable); // a leaf: a parameter
    } else {
      // A tensor of the outer graph: an argument standing for its edge.
      at::Tensor alias = at::empty({0});
      ::torch::autograd::impl::set_gradient_edge(alias, e);
      s.extras.push_back(alias);
    }
  }
  for (const at::Tensor &t : outs)
    s.meta.push_back(meta_of(t));
  // Nothing requires grad: neither would the plain run's outputs.
  if (!any_requires_grad && s.extras.empty())
    return outs;
  for (const at::Tensor &t : outs)
    s.pending.push_back(t.defined() ? t.detach() : t);
  outs.clear(); // drops fn's graph

  variable_list args = inputs;
  args.insert(args.end(), s.extras.begin(), s.extras.end());
  return CheckpointFunction::apply(state, at::TensorList(args));
}

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

} // namespace detail
} // namespace rematch::torch
