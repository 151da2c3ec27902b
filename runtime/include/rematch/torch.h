// rematch::torch: activation checkpointing for the PyTorch C++ API, built on
// the rematch runtime. See docs/torch.md.
//
// checkpoint() is PyTorch's non-reentrant checkpoint: it runs a function in
// the caller's graph without keeping the tensors the function saves for
// backward; the first backward node that needs one recomputes the function,
// with the RNG replayed (the default CPU generator and every generator
// registered with the runtime restart from their state before the original
// forward, and the outside stream continues afterwards as if the recompute had
// not happened, also when it throws) and the forward's autocast state, checks
// that the recompute saves the same tensors, and stops once it has them. In
// audit mode (REMATCH_AUDIT=1, or Options::audit) both passes are recorded
// through a rematch::Segment and compared, values included.
//
// checkpoint_sequential() checkpoints a torch::nn::Sequential or a list of
// modules or functions in segments, with PyTorch's segmenting rule.
#ifndef REMATCH_TORCH_H
#define REMATCH_TORCH_H

#include "rematch/compare.h"
#include "rematch/config.h"
#include "rematch/detail/recomputed.h"
#include "rematch/registry.h"
#include "rematch/report.h"

#include <torch/csrc/autograd/variable.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch::nn {
class Module;
class Sequential;
} // namespace torch::nn

namespace rematch::torch {

using ::torch::autograd::variable_list;
using Function = std::function<variable_list(const variable_list &)>;

struct Options {
  /// The segment's name in reports and error messages.
  std::string name = "checkpoint";
  /// Replay the RNG for the recompute. Off only to demonstrate what goes
  /// wrong without it: the recompute then draws new dropout masks.
  bool replay_rng = true;
  /// Audit this call (record both passes, snapshot module buffers) whatever
  /// the translation unit's REMATCH_AUDIT; unset follows REMATCH_AUDIT.
  std::optional<bool> audit;
  /// PyTorch's determinism_check. "default": every tensor the recompute saves
  /// for backward must have the shape, dtype and device of the one the
  /// forward saved in its place (and, if it requires grad, its version: a
  /// tensor changed in place in between is PyTorch's version error, as in
  /// the plain run). "none": only their number is compared. Audit mode also
  /// compares their values.
  std::string determinism_check = "default";
  /// PyTorch's early_stop: the recompute stops as soon as every tensor the
  /// forward saved has been recomputed, so the tail of the function does not
  /// run again. Audit mode always runs the whole recompute, to compare its
  /// result and effects with the forward's.
  bool early_stop = true;
};

/// Thrown from backward when the recompute does not save what the forward
/// saved for backward: another number of tensors, or (determinism_check
/// "default") a tensor of another shape, dtype or device, or one requiring
/// grad that was changed in place since the forward (PyTorch's
/// CheckpointError). The message names the checkpoint and the tensor.
class RecomputeMismatch : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The runtime id of torch's default CPU generator, registered with the
/// runtime on first use (also by the first checkpoint), so that any
/// rematch::Segment replays it too.
GeneratorId default_cpu_generator();

/// Audit mode: the report of every recompute since the last call, oldest
/// first (at most the last 1024 are kept). Policies apply as for Segment.
std::vector<Report> take_reports();

namespace detail {
/// The modules whose buffers a checkpoint audits, each with the prefix of
/// its buffer names in reports.
using ModuleList = std::vector<std::pair<std::string, ::torch::nn::Module *>>;

variable_list checkpoint(const Function &fn, const variable_list &inputs,
                         const ModuleList &modules, const Options &options,
                         bool audit);

/// One step of checkpoint_sequential: a tensor-to-tensor function, and the
/// module behind it (null for a plain function).
struct Stage {
  std::string name;
  std::function<at::Tensor(const at::Tensor &)> fn;
  ::torch::nn::Module *module = nullptr;
};
at::Tensor checkpoint_sequential(std::vector<Stage> stages, int segments,
                                 const at::Tensor &input,
                                 const Options &options, bool audit);
at::Tensor checkpoint_sequential(::torch::nn::Sequential &seq, int segments,
                                 const at::Tensor &input,
                                 const Options &options, bool audit);

template <class M>
inline constexpr bool is_module_class_v =
    std::is_class_v<M> &&std::is_base_of_v<::torch::nn::Module, M>;

template <class M> auto &deref(M &m) {
  if constexpr (is_module_class_v<M>)
    return m;
  else
    return *m; // a ModuleHolder or a shared_ptr
}

// What `*m` is, when it is a module. A captureless lambda or a function
// pointer is dereferenceable too (to a function): that must be a substitution
// failure here, not a hard error, so such callables reach the function
// overload.
template <class M, class = void> struct module_of {};
template <class M> struct module_of<M, std::enable_if_t<is_module_class_v<M>>> {
  using type = M;
};
template <class M>
struct module_of<M, std::enable_if_t<!is_module_class_v<M> &&
                                     is_module_class_v<std::remove_reference_t<
                                         decltype(*std::declval<M &>())>>>> {
  using type = std::remove_reference_t<decltype(*std::declval<M &>())>;
};

/// A module, a module holder (torch::nn::Linear) or a shared_ptr to a module.
template <class M, class = void> struct is_module_like : std::false_type {};
template <class M>
struct is_module_like<M, std::void_t<typename module_of<std::decay_t<M>>::type>>
    : std::true_type {};

inline variable_list to_list(variable_list v) { return v; }
inline variable_list to_list(const at::Tensor &t) { return {t}; }

template <class Impl, class Seq, class = void>
struct takes : std::false_type {};
template <class Impl, std::size_t... I>
struct takes<Impl, std::index_sequence<I...>,
             std::void_t<decltype(to_list(std::declval<Impl &>().forward(
                 ((void)I, std::declval<const at::Tensor &>())...)))>>
    : std::true_type {};

template <class Impl, std::size_t... I>
variable_list call_forward(Impl &m, const variable_list &in,
                           std::index_sequence<I...>) {
  return to_list(m.forward(in[I]...));
}

template <std::size_t N, class Impl>
bool try_forward(Impl &m, const variable_list &in, variable_list &out) {
  if constexpr (takes<Impl, std::make_index_sequence<N>>::value) {
    if (in.size() == N) {
      out = call_forward(m, in, std::make_index_sequence<N>());
      return true;
    }
  }
  return false;
}

[[noreturn]] void throw_bad_arity(std::size_t n);

template <class P, class Impl, class = void>
struct has_ptr : std::false_type {};
template <class P, class Impl>
struct has_ptr<P, Impl,
               std::enable_if_t<std::is_convertible_v<
                   decltype(std::declval<P &>().ptr()), std::shared_ptr<Impl>>>>
    : std::true_type {};

/// A shared_ptr to the module that keeps it alive as long as the graph when
/// the caller passed a holder or a shared_ptr; a non-owning one for a module
/// object, which the caller keeps alive (as for anything fn captures).
template <class M, class Impl = typename module_of<std::remove_cv_t<M>>::type>
std::shared_ptr<Impl> share(M &m) {
  if constexpr (is_module_class_v<std::remove_cv_t<M>>)
    return std::shared_ptr<Impl>(std::shared_ptr<Impl>(), &m);
  else if constexpr (std::is_convertible_v<M &, std::shared_ptr<Impl>>)
    return m;
  else if constexpr (has_ptr<M, Impl>::value)
    return m.ptr(); // torch::nn::ModuleHolder
  else
    return std::shared_ptr<Impl>(std::shared_ptr<Impl>(), &*m);
}

template <class Impl> Function module_function(std::shared_ptr<Impl> impl) {
  return [impl = std::move(impl)](const variable_list &in) {
    variable_list out;
    if (try_forward<1>(*impl, in, out) || try_forward<2>(*impl, in, out) ||
        try_forward<3>(*impl, in, out) || try_forward<4>(*impl, in, out))
      return out;
    throw_bad_arity(in.size());
  };
}

template <class T> Stage stage_of(const T &f, std::size_t index) {
  Stage s;
  s.name = std::to_string(index);
  if constexpr (is_module_like<T>::value) {
    auto impl = share(const_cast<T &>(f));
    s.module = impl.get();
    s.fn = [impl](const at::Tensor &x) -> at::Tensor {
      variable_list out = to_list(impl->forward(x));
      if (out.size() != 1)
        throw std::invalid_argument(
            "rematch::torch::checkpoint_sequential: a module returned " +
            std::to_string(out.size()) + " tensors; each step must return one");
      return out[0];
    };
  } else {
    static_assert(
        std::is_invocable_r_v<at::Tensor, const T &, const at::Tensor &>,
        "checkpoint_sequential: each element must be a module, a "
        "module holder or a function from one tensor to one tensor");
    s.fn = f;
  }
  return s;
}
} // namespace detail

// The mode-dependent entry points live in the runtime's inline namespace, as
// Segment does: audit and plain translation units call different symbols.
inline namespace REMATCH_MODE_NS {

/// Runs `fn(inputs)` in the caller's graph without keeping the tensors it
/// saves for backward; backward recomputes them (see the top of this file).
/// The outputs are `fn`'s own, as in the plain run (requires_grad, undefined
/// outputs, views); gradients reach `inputs` and every tensor `fn` uses,
/// through backward(), backward with `inputs`, torch::autograd::grad and
/// create_graph alike. `fn` is copied into the graph: state it captures by
/// value is kept with the checkpoint, as PyTorch keeps non-tensor arguments;
/// state captured by reference must not change before the backward.
///
/// `fn` is anything a Function is constructible from (a lambda with or
/// without captures, a function or function pointer, a functor, a Function).
/// The overload is a constrained template rather than a plain
/// `Function` parameter because testing whether a torch::nn module holder
/// converts to std::function is a hard error inside libtorch, not a
/// substitution failure; module holders go to the overload below.
template <class F,
          std::enable_if_t<
              std::conjunction_v<std::negation<detail::is_module_like<F>>,
                                 std::is_constructible<Function, F>>,
              int> = 0>
variable_list
checkpoint(REMATCH_DETAIL_RECOMPUTED_REPLAYING("torch.default") F &&fn,
           const variable_list &inputs, const Options &options = {}) {
  return detail::checkpoint(Function(std::forward<F>(fn)), inputs, {}, options,
                            options.audit.value_or(::rematch::detail::kAudit));
}

/// As above for a module's forward computed by `fn` (a module, module holder
/// or shared_ptr to one): in audit mode the module's buffers (BatchNorm
/// running statistics) are snapshotted around both passes and every buffer
/// the recompute changes is reported as a repeated effect.
template <
    class M, class F,
    std::enable_if_t<std::conjunction_v<detail::is_module_like<M>,
                                        std::is_constructible<Function, F>>,
                     int> = 0>
variable_list
checkpoint(M &module,
           REMATCH_DETAIL_RECOMPUTED_REPLAYING("torch.default") F &&fn,
           const variable_list &inputs, const Options &options = {}) {
  return detail::checkpoint(Function(std::forward<F>(fn)), inputs,
                            {{"", &detail::deref(module)}}, options,
                            options.audit.value_or(::rematch::detail::kAudit));
}

/// A module (or holder: `torch::nn::Linear`, `std::shared_ptr<M>`) whose
/// forward takes `inputs.size()` tensors (1 to 4) and returns a tensor or a
/// variable_list. A holder or shared_ptr is kept alive by the graph.
template <class M, class Impl = typename detail::module_of<M>::type>
variable_list
checkpoint(REMATCH_DETAIL_RECOMPUTED_REPLAYING("torch.default") M &module,
           const variable_list &inputs, const Options &options = {}) {
  std::shared_ptr<Impl> impl = detail::share(module);
  ::torch::nn::Module *base = impl.get();
  return detail::checkpoint(detail::module_function(std::move(impl)), inputs,
                            {{"", base}}, options,
                            options.audit.value_or(::rematch::detail::kAudit));
}

/// PyTorch's checkpoint_sequential: the modules of `seq` in `segments`
/// segments of `size() / segments` modules each; the first `segments - 1`
/// are checkpointed, the last one (the rest of the modules) runs without
/// checkpointing, as its activations are needed by the backward right away.
/// Each checkpointed segment audits the buffers of its modules. Throws
/// std::invalid_argument unless 1 <= segments <= size().
inline at::Tensor
checkpoint_sequential(REMATCH_DETAIL_RECOMPUTED_REPLAYING("torch.default")
                          ::torch::nn::Sequential &seq,
                      int segments, const at::Tensor &input,
                      const Options &options = {}) {
  return detail::checkpoint_sequential(
      seq, segments, input, options,
      options.audit.value_or(::rematch::detail::kAudit));
}

/// The same over a list of modules, module holders or shared_ptrs to modules
/// whose forward takes and returns one tensor, or of functions from one
/// tensor to one tensor (lambdas, function pointers, std::function). Elements
/// are copied into the graph: holders and shared_ptrs keep their modules
/// alive.
template <class T>
at::Tensor
checkpoint_sequential(REMATCH_DETAIL_RECOMPUTED_REPLAYING("torch.default")
                          const std::vector<T> &functions,
                      int segments, const at::Tensor &input,
                      const Options &options = {}) {
  std::vector<detail::Stage> stages;
  stages.reserve(functions.size());
  for (std::size_t i = 0; i < functions.size(); ++i)
    stages.push_back(detail::stage_of(functions[i], i));
  return detail::checkpoint_sequential(
      std::move(stages), segments, input, options,
      options.audit.value_or(::rematch::detail::kAudit));
}

} // namespace REMATCH_MODE_NS

/// Per named parameter: dtype, shape, element count, max absolute and
/// relative error of the gradients, norms and a verdict: the runtime's
/// rematch::compare_gradients over the two modules' gradients (`a` is the
/// reference, `b` the candidate), with each parameter's shape, and the
/// parameters without a gradient in either module in `no_gradient`.
using ::rematch::GradientComparison;

GradientComparison compare_gradients(const ::torch::nn::Module &a,
                                     const ::torch::nn::Module &b,
                                     Tolerance tolerance = {});

/// Tensor memory and wall time of one call of `step`.
struct StepMeasurement {
  /// The most bytes of CPU tensor memory allocated during the step that were
  /// alive at the same time.
  std::size_t peak_bytes = 0;
  /// All bytes allocated during the step, and how many allocations.
  std::size_t allocated_bytes = 0;
  std::size_t allocations = 0;
  /// Bytes allocated during the step and still alive after it.
  std::size_t retained_bytes = 0;
  /// Wall time, and CPU time of the whole process (all threads): on a loaded
  /// machine the second still measures the step's own work.
  double seconds = 0;
  double cpu_seconds = 0;
};

/// Runs `step` once with a counting CPU allocator installed in front of the
/// current one. Tensors allocated before the step are not counted.
StepMeasurement measure_step(const std::function<void()> &step);

/// A tensor-to-tensor function: one block of a model, or the rest of a step
/// after the blocks (the head and the loss).
using TensorFunction = std::function<at::Tensor(const at::Tensor &)>;

/// One plain (not checkpointed) step, split where checkpointing acts: what a
/// step that checkpoints every block must cost at least, measured in the same
/// run as the steps it is compared with.
struct PlainStepPhases {
  /// F: the forward of every block, with autograd recording (the recompute
  /// runs it once more). `peak_bytes` is the peak over the whole forward.
  StepMeasurement forward;
  /// B: the backward through the blocks alone.
  StepMeasurement backward;
  /// The rest of the step: the loss's forward and backward up to the blocks'
  /// output.
  StepMeasurement rest;
  /// Per block: the bytes its plain forward left alive (the tensors autograd
  /// saved for its backward, and its output), and the bytes of its output.
  std::vector<std::size_t> activation_bytes, output_bytes;

  /// 1 + F / (F + B), by CPU time: checkpointing runs the blocks' forward
  /// twice, so a checkpointed step costs at least this times the plain one
  /// (slightly less when `rest` is not negligible: 1 + F / (F + B + rest)).
  double time_floor() const;
  /// The least peak a step that checkpoints every block can have, given the
  /// plain step's measured peak: the blocks' activations leave it, and come
  /// back at the worst moment of the backward, when block k is recomputed
  /// while the outputs of blocks 0..k-1 are kept as the next blocks' inputs.
  std::size_t peak_floor(std::size_t plain_peak_bytes) const;
};

/// Runs one plain step of `blocks` applied in order to `input`, then `rest`
/// (which returns the loss), forward and backward, and measures its phases.
/// Gradients accumulate as in `rest(blocks(input)).backward()`. Warm up and
/// seed the RNG as for the steps it is compared with.
PlainStepPhases measure_plain_phases(const std::vector<TensorFunction> &blocks,
                                     const at::Tensor &input,
                                     const TensorFunction &rest);

} // namespace rematch::torch

#endif
