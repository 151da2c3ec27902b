// rematch::torch::measure_step: peak CPU tensor memory and wall time of one
// step, through a counting allocator put in front of the current one for the
// duration of the step; measure_plain_phases: the same for the phases of a
// plain step that give the floor of a checkpointed one.
#include "rematch/torch.h"

#include <c10/core/CPUAllocator.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>
#include <unordered_map>

namespace rematch::torch {
namespace {

// Highest priority: a lower one is ignored by c10::SetAllocator once anything
// has been installed above the default.
constexpr std::uint8_t kPriority = 255;

class CountingAllocator final : public c10::Allocator {
public:
  static CountingAllocator &instance() {
    // Never destroyed: tensors allocated through it may be freed at exit.
    static auto *a = new CountingAllocator;
    return *a;
  }

  void begin(c10::Allocator *base) {
    std::lock_guard<std::mutex> lock(mutex_);
    base_ = base;
    ++epoch_;
    live_ = peak_ = total_ = count_ = 0;
  }

  StepMeasurement end() {
    std::lock_guard<std::mutex> lock(mutex_);
    StepMeasurement m;
    m.peak_bytes = peak_;
    m.allocated_bytes = total_;
    m.allocations = count_;
    m.retained_bytes = live_;
    return m;
  }

  c10::DataPtr allocate(std::size_t n) const override {
    c10::DataPtr inner = base_->allocate(n);
    void *data = inner.get();
    if (!data)
      return inner;
    const c10::Device device = inner.device();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      live_ += n;
      total_ += n;
      ++count_;
      peak_ = std::max(peak_, live_);
      blocks_.emplace(data, Block{n, epoch_, std::move(inner)});
    }
    // Context == data and a raw deleter: raw_allocate keeps working.
    return c10::DataPtr(data, data, &CountingAllocator::release, device);
  }

  c10::DeleterFnPtr raw_deleter() const override { return &release; }

private:
  struct Block {
    std::size_t bytes;
    std::uint64_t epoch;
    c10::DataPtr inner; // frees the memory through the wrapped allocator
  };

  static void release(void *data) {
    CountingAllocator &a = instance();
    c10::DataPtr inner;
    {
      std::lock_guard<std::mutex> lock(a.mutex_);
      auto it = a.blocks_.find(data);
      if (it == a.blocks_.end())
        return;
      // Blocks of an earlier step do not count against this one.
      if (it->second.epoch == a.epoch_)
        a.live_ -= it->second.bytes;
      inner = std::move(it->second.inner);
      a.blocks_.erase(it);
    }
  } // `inner` frees the memory here, outside the lock

  mutable std::mutex mutex_;
  c10::Allocator *base_ = nullptr;
  mutable std::unordered_map<void *, Block> blocks_;
  std::uint64_t epoch_ = 0;
  mutable std::size_t live_ = 0, peak_ = 0, total_ = 0, count_ = 0;
};

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

} // namespace

StepMeasurement measure_step(const std::function<void()> &step) {
  CountingAllocator &counting = CountingAllocator::instance();
  c10::Allocator *previous = c10::GetCPUAllocator();
  if (previous == &counting)
    throw std::logic_error("rematch::torch::measure_step: already measuring");
  counting.begin(previous);
  c10::SetCPUAllocator(&counting, kPriority);
  if (c10::GetCPUAllocator() != &counting)
    throw std::runtime_error("rematch::torch::measure_step: could not install "
                             "the counting allocator");

  struct Restore {
    c10::Allocator *previous;
    ~Restore() { c10::SetCPUAllocator(previous, kPriority); }
  } restore{previous};

  const double c0 = process_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  step();
  const auto t1 = std::chrono::steady_clock::now();
  const double c1 = process_cpu_seconds();
  StepMeasurement m = counting.end();
  m.seconds = std::chrono::duration<double>(t1 - t0).count();
  m.cpu_seconds = c1 - c0;
  return m;
}

double PlainStepPhases::time_floor() const {
  const double f = forward.cpu_seconds, b = backward.cpu_seconds;
  return f + b > 0 ? 1.0 + f / (f + b) : 1.0;
}

std::size_t PlainStepPhases::peak_floor(std::size_t plain_peak_bytes) const {
  std::size_t saved = 0, worst = 0, kept = 0;
  for (std::size_t k = 0; k < activation_bytes.size(); ++k) {
    saved += activation_bytes[k];
    worst = std::max(worst, kept + activation_bytes[k]);
    if (k < output_bytes.size())
      kept += output_bytes[k];
  }
  // What the plain peak holds besides the blocks' activations (the rest of
  // the step, gradients in flight) is held by the checkpointed step too.
  const std::size_t other =
      plain_peak_bytes > saved ? plain_peak_bytes - saved : 0;
  return other + worst;
}

PlainStepPhases measure_plain_phases(const std::vector<TensorFunction> &blocks,
                                     const at::Tensor &input,
                                     const TensorFunction &rest) {
  PlainStepPhases p;
  // Each block is measured on its own, so that its activations are known;
  // the forward's figures are their sums, its peak the highest point of the
  // blocks' peaks over what the earlier blocks left alive.
  at::Tensor h = input;
  std::size_t alive = 0;
  for (const TensorFunction &block : blocks) {
    at::Tensor out;
    const StepMeasurement m = measure_step([&] { out = block(h); });
    p.forward.peak_bytes = std::max(p.forward.peak_bytes, alive + m.peak_bytes);
    alive += m.retained_bytes;
    p.forward.allocated_bytes += m.allocated_bytes;
    p.forward.allocations += m.allocations;
    p.forward.seconds += m.seconds;
    p.forward.cpu_seconds += m.cpu_seconds;
    p.activation_bytes.push_back(m.retained_bytes);
    p.output_bytes.push_back(out.defined() ? out.nbytes() : 0);
    h = std::move(out);
  }
  p.forward.retained_bytes = alive;

  // The rest runs on a detached copy of the blocks' output: its backward
  // stops there and yields the gradient that the blocks' backward starts
  // from, as one backward through the whole step would pass it on.
  at::Tensor cut = h.detach().requires_grad_(h.requires_grad());
  p.rest = measure_step([&] { rest(cut).backward(); });
  at::Tensor grad = cut.grad();
  cut = at::Tensor();
  if (h.requires_grad() && grad.defined())
    p.backward = measure_step([&] { h.backward(grad); });
  return p;
}

} // namespace rematch::torch
