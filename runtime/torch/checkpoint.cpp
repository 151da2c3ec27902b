// rematch::torch::checkpoint: PyTorch's non-reentrant activation checkpoint
// for C++. The forward runs the user's function in the caller's graph, but
// every tensor it saves for backward is replaced by a placeholder
// (saved-tensor hooks, saved_hooks.h) and freed. The first backward node that
// unpacks a placeholder recomputes the function inside a rematch Segment (RNG
// replayed, the forward's ambient state re-entered), compares what the
// recompute saves with what the forward saved, stops once it has them all,
// and hands each saved tensor to the node that asks for it.
#include "rematch/torch.h"

#include "ambient.h"
#include "audit.h"
#include "saved_hooks.h"

#include "rematch/detail/recorder.h"
#include "rematch/segment.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/graph_task.h>
#include <torch/csrc/autograd/saved_variable.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rematch::torch {
namespace {

namespace ag = ::torch::autograd;
using rematch::detail::Repr;

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

std::string shape_of(at::IntArrayRef sizes) {
  std::string s = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

/// What PyTorch's determinism_check="default" compares of a saved tensor.
struct Meta {
  std::vector<std::int64_t> sizes;
  at::ScalarType dtype = at::kFloat;
  at::Device device = at::kCPU;

  // A nested tensor has no single shape: its dtype and device only.
  explicit Meta(const at::Tensor &t)
      : sizes(t.is_nested() ? std::vector<std::int64_t>() : t.sizes().vec()),
        dtype(t.scalar_type()), device(t.device()) {}
};

/// One tensor the forward saved for backward.
struct Slot {
  explicit Slot(const at::Tensor &t)
      : meta(t), requires_grad(t.requires_grad()), version(t._version()) {}

  Meta meta;
  bool requires_grad;
  std::int64_t version; // when the forward saved it
  bool alive = true;    // its SavedVariable still holds the placeholder
  at::Tensor value;     // recomputed, until its node unpacks it
  std::int64_t value_version = 0; // when the recompute saved it
  std::uint64_t round = 0;        // the recompute that filled `value`
};

/// One input, kept with its version before the function runs.
struct Input {
  // A non-leaf is saved for backward: inside another checkpoint's function
  // that is the other checkpoint's to recompute, and nothing is held.
  ag::SavedVariable saved;
  // A leaf (a saved one would lose its gradient accumulator, which nothing
  // holds yet) or an inference tensor (which cannot be saved) is held.
  at::Tensor held;
  std::optional<c10::VariableVersion> counter; // none for inference tensors
  std::uint32_t version = 0;
  bool requires_grad = false;
  bool changed_by_fn = false;
};

/// Thrown by the recompute's hooks once every tensor the forward saved has
/// been recomputed; not a std::exception, so that a function catching those
/// does not swallow it.
struct StopRecompute {};

/// Everything one checkpointed call needs in backward. Owned by the
/// placeholders of the tensors its forward saved: it lives as long as the
/// graph needs one of them.
class Frame : public std::enable_shared_from_this<Frame> {
public:
  Frame(Function fn, detail::ModuleList modules, const Options &options,
        bool audit)
      : fn_(std::move(fn)), modules_(std::move(modules)), options_(options),
        audit_(audit), check_(options.determinism_check == "default"),
        early_stop_(options.early_stop && !audit),
        core_(options.name, {}, /*restrict=*/!options.replay_rng) {}

  variable_list forward(const variable_list &inputs);

  /// The forward's hooks: a tensor is being saved; returns its slot.
  std::size_t saved(const at::Tensor &t);
  /// The recompute's hooks: the next tensor the recompute saves.
  void recomputed(const at::Tensor &t);
  /// A backward node asks for slot `k`.
  at::Tensor unpack(std::size_t k);
  /// Slot `k`'s SavedVariable is gone (its node released its variables).
  void release(std::size_t k) noexcept;

private:
  std::string prefix() const {
    return "rematch::torch::checkpoint '" + options_.name + "': ";
  }
  std::string slot_name(std::size_t k) const {
    return "saved tensor " + std::to_string(k + 1) + " of " +
           std::to_string(slots_.size());
  }
  variable_list run(const variable_list &inputs);
  void recompute();
  variable_list unpack_inputs();
  void check(const Slot &s, const at::Tensor &t, std::size_t k) const;
  void drop_round(std::uint64_t round) noexcept;

  Function fn_;
  detail::ModuleList modules_;
  Options options_;
  bool audit_;
  bool check_;
  bool early_stop_;
  // Replays every registered generator (torch's CPU generator included), or
  // none when replay_rng is off.
  rematch::detail::SegmentCore core_;
  detail::AmbientState ambient_;
  std::vector<Input> inputs_;

  // Backward may run on several threads over one graph; a recompute holds
  // the lock while it runs (recursively: its own saves come back here).
  std::recursive_mutex mutex_;
  std::vector<Slot> slots_;
  bool forward_done_ = false;
  bool recomputing_ = false;
  std::size_t next_ = 0; // the recompute's next save
  std::uint64_t round_ = 0;
};

class PackHooks final : public ag::SavedVariableHooks {
public:
  explicit PackHooks(std::shared_ptr<Frame> frame) : frame_(std::move(frame)) {}
  ~PackHooks() override {
    if (packed_)
      frame_->release(index_);
  }
  void call_pack_hook(const at::Tensor &t) override {
    index_ = frame_->saved(t);
    packed_ = true;
  }
  at::Tensor call_unpack_hook() override { return frame_->unpack(index_); }

private:
  std::shared_ptr<Frame> frame_;
  std::size_t index_ = 0;
  bool packed_ = false;
};

/// The recompute's own graph keeps the tensor, in case the function
/// back-propagates through it; the frame is only told about the save.
class RecomputeHooks final : public ag::SavedVariableHooks {
public:
  explicit RecomputeHooks(Frame &frame) : frame_(&frame) {}
  void call_pack_hook(const at::Tensor &t) override {
    own_ = t.requires_grad() ? t.detach() : t;
    frame_->recomputed(t);
  }
  at::Tensor call_unpack_hook() override { return own_; }

private:
  Frame *frame_; // alive during the recompute, the only time it is used
  at::Tensor own_;
};

class Packing final : public detail::HookFactory {
public:
  explicit Packing(std::shared_ptr<Frame> frame) : frame_(std::move(frame)) {}
  std::unique_ptr<ag::SavedVariableHooks> make() override {
    return std::make_unique<PackHooks>(frame_);
  }

private:
  std::shared_ptr<Frame> frame_;
};

class Recomputing final : public detail::HookFactory {
public:
  explicit Recomputing(Frame &frame) : frame_(frame) {}
  std::unique_ptr<ag::SavedVariableHooks> make() override {
    return std::make_unique<RecomputeHooks>(frame_);
  }

private:
  Frame &frame_;
};

variable_list Frame::run(const variable_list &inputs) {
  const bool buffers = audit_ && !modules_.empty();
  detail::BufferSnapshot before;
  if (buffers)
    before = detail::snapshot_buffers(modules_);
  variable_list outs = fn_(inputs);
  if (buffers)
    detail::record_buffer_changes(modules_, before);
  return outs;
}

variable_list Frame::forward(const variable_list &inputs) {
  // Saved before fn runs, with their versions, as PyTorch saves them: an
  // input fn changes in place is found in backward, not recomputed from its
  // new value. Inside another checkpoint's function these saves are that
  // checkpoint's (its recompute gives them back).
  inputs_.reserve(inputs.size());
  for (const at::Tensor &x : inputs) {
    Input in;
    if (x.defined()) {
      in.requires_grad = x.requires_grad();
      if (!x.is_inference()) {
        in.counter = ag::impl::version_counter(x);
        in.version = in.counter->current_version();
      }
      if (x.is_inference() || x.is_leaf())
        in.held = x;
      else
        in.saved = ag::SavedVariable(x, /*is_output=*/false);
    }
    inputs_.push_back(std::move(in));
  }
  ambient_ = detail::AmbientState::capture();

  variable_list outs;
  {
    rematch::detail::ForwardScope scope(core_, audit_);
    Packing packing(shared_from_this());
    {
      detail::HooksScope hooks(packing);
      outs = run(inputs);
    }
    if (audit_)
      scope.result({detail::fingerprint(outs), Repr::hash});
    scope.finish();
  }
  for (Input &in : inputs_)
    in.changed_by_fn =
        in.counter && in.counter->current_version() != in.version;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  forward_done_ = true;
  return outs;
}

std::size_t Frame::saved(const at::Tensor &t) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  slots_.emplace_back(t);
  const std::size_t k = slots_.size() - 1;
  // Values of the saved tensors that require grad (activations, parameters):
  // buffers and masks show in the result and the buffer audit, and a
  // BatchNorm's running statistics, saved too, change in every pass.
  if (audit_ && slots_[k].requires_grad)
    rematch::detail::record_observe(nullptr, 0,
                                    "saved tensor " + std::to_string(k + 1),
                                    {detail::fingerprint(t), Repr::hash});
  return k;
}

void Frame::check(const Slot &s, const at::Tensor &t, std::size_t k) const {
  const Meta now(t);
  std::string what, a, b;
  if (now.sizes != s.meta.sizes) {
    what = "shape ";
    a = shape_of(s.meta.sizes);
    b = shape_of(now.sizes);
  } else if (now.dtype != s.meta.dtype) {
    what = "dtype ";
    a = c10::toString(s.meta.dtype);
    b = c10::toString(now.dtype);
  } else if (now.device != s.meta.device) {
    what = "device ";
    a = s.meta.device.str();
    b = now.device.str();
  } else if (s.requires_grad && t._version() != s.version) {
    throw RecomputeMismatch(
        prefix() + slot_name(k) + " (" + shape_of(s.meta.sizes) +
        ", requires grad) was modified in place since the forward saved it: "
        "version " +
        std::to_string(s.version) + " in the forward, " +
        std::to_string(t._version()) +
        " in the recompute (a parameter or input changed between the "
        "forward and this backward, where the plain run raises PyTorch's "
        "'modified by an inplace operation' error)");
  } else {
    return;
  }
  throw RecomputeMismatch(prefix() + slot_name(k) +
                          " differs from the forward's: " + what + a +
                          " in the forward, " + b + " in the recompute");
}

void Frame::recomputed(const at::Tensor &t) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::size_t k = next_++;
  if (k >= slots_.size())
    throw RecomputeMismatch(prefix() +
                            "the recompute saved more tensors for backward "
                            "than the forward, which saved " +
                            std::to_string(slots_.size()));
  Slot &s = slots_[k];
  if (check_)
    check(s, t, k);
  if (audit_ && s.requires_grad)
    rematch::detail::record_observe(nullptr, 0,
                                    "saved tensor " + std::to_string(k + 1),
                                    {detail::fingerprint(t), Repr::hash});
  if (s.alive) {
    s.value = t.requires_grad() ? t.detach() : t;
    s.value_version = t._version();
    s.round = round_;
  }
  if (early_stop_ && next_ == slots_.size())
    throw StopRecompute{};
}

variable_list Frame::unpack_inputs() {
  variable_list out;
  out.reserve(inputs_.size());
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    Input &in = inputs_[i];
    if (in.counter && in.counter->current_version() != in.version)
      throw std::runtime_error(
          prefix() + "input " + std::to_string(i) + " was modified in place " +
          (in.changed_by_fn ? "by the checkpointed function during the "
                              "forward"
                            : "after the forward") +
          " (one of the variables needed for gradient computation has been "
          "modified by an inplace operation: it is at version " +
          std::to_string(in.counter->current_version()) +
          "; expected version " + std::to_string(in.version) +
          "), so the recompute cannot start from the value the forward "
          "started from; clone it before changing it" +
          (in.changed_by_fn ? " inside the function" : ""));
    at::Tensor x = in.held.defined() ? in.held : in.saved.unpack();
    if (x.defined()) {
      x = x.detach();
      if (in.requires_grad)
        x.requires_grad_(true);
    }
    out.push_back(std::move(x));
  }
  return out;
}

void Frame::recompute() {
  // The inputs first: a nested checkpoint's inputs are tensors its parent
  // saved, and unpacking them recomputes the parent, before this pass.
  const variable_list in = unpack_inputs();
  detail::AmbientScope ambient(ambient_);
  Recomputing recomputing(*this);
  next_ = 0;
  ++round_;
  recomputing_ = true;
  struct Done {
    bool &flag;
    ~Done() { flag = false; }
  } done{recomputing_};
  try {
    rematch::detail::RecomputeScope scope(core_, audit_);
    variable_list outs;
    bool stopped = false;
    try {
      detail::HooksScope hooks(recomputing);
      outs = run(in);
    } catch (const StopRecompute &) {
      stopped = true;
    }
    if (!stopped && next_ < slots_.size())
      throw RecomputeMismatch(
          prefix() + "the forward saved " + std::to_string(slots_.size()) +
          " tensors for backward, the recompute " + std::to_string(next_));
    if (audit_)
      scope.result({detail::fingerprint(outs), Repr::hash});
    scope.finish(); // restores the outside RNG state, applies the policy
  } catch (const DivergenceError &e) {
    detail::keep_report(e.report());
    drop_round(round_);
    throw;
  } catch (...) {
    drop_round(round_);
    throw;
  }
  if (audit_)
    detail::keep_report(core_.report());
}

at::Tensor Frame::unpack(std::size_t k) {
  std::unique_lock<std::recursive_mutex> lock(mutex_);
  if (!forward_done_ || recomputing_)
    throw std::logic_error(
        prefix() + "a backward inside the checkpointed function reached a "
                   "tensor the function saved for backward, which is not "
                   "supported: run that backward outside the checkpoint");
  bool ran = false;
  if (!slots_[k].value.defined()) {
    recompute();
    ran = true;
  }
  Slot &s = slots_[k];
  at::Tensor v = std::move(s.value);
  s.value = at::Tensor();
  const std::uint64_t round = round_;
  if (!v.defined())
    throw RecomputeMismatch(prefix() + slot_name(k) + " was not recomputed");
  if (v._version() != s.value_version)
    throw std::runtime_error(
        prefix() +
        "one of the variables needed for gradient computation has "
        "been modified by an inplace operation: " +
        slot_name(k) + " (" + shape_of(s.meta.sizes) + ") is at version " +
        std::to_string(v._version()) + "; expected version " +
        std::to_string(s.value_version) +
        " (the function changes it in place after saving it, which the "
        "plain run refuses too)");
  lock.unlock();
  // What this recompute filled and this backward does not take is freed when
  // the backward ends, as PyTorch drops recomputed tensors per backward.
  if (ran && ag::get_current_graph_task_exec_info() != nullptr)
    ag::Engine::get_default_engine().queue_callback(
        [frame = weak_from_this(), round] {
          if (auto f = frame.lock())
            f->drop_round(round);
        });
  return v;
}

void Frame::release(std::size_t k) noexcept {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  slots_[k].alive = false;
  slots_[k].value = at::Tensor();
}

void Frame::drop_round(std::uint64_t round) noexcept {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (Slot &s : slots_)
    if (s.round == round)
      s.value = at::Tensor();
}

} // namespace

GeneratorId default_cpu_generator() {
  // Registered once for the life of the process (the handle is never
  // destroyed, so there is no exit-time ordering with the registry; the
  // static keeps it reachable).
  static GeneratorHandle *const handle = new GeneratorHandle(register_generator(
      "torch.cpu", save_cpu_generator, restore_cpu_generator));
  return handle->id();
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
  if (options.determinism_check != "default" &&
      options.determinism_check != "none")
    throw std::invalid_argument(
        "rematch::torch::checkpoint '" + options.name +
        "': determinism_check must be \"default\" or \"none\"; got \"" +
        options.determinism_check + "\"");
  // Without gradients there is nothing to drop and nothing to recompute.
  if (!at::GradMode::is_enabled())
    return fn(inputs);
  require_saved_tensor_hooks("rematch::torch::checkpoint");
  if (options.replay_rng)
    (void)default_cpu_generator();
  auto frame = std::make_shared<Frame>(fn, modules, options, audit);
  return frame->forward(inputs);
}

} // namespace detail
} // namespace rematch::torch
