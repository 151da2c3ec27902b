// rematch::torch on a small model: linear -> dropout -> batchnorm -> relu
// blocks, trained with and without checkpointed blocks from the same seed.
//
// 1. The gradients agree parameter by parameter, dropout included.
// 2. Peak tensor memory and step time of both, same model, batch and dtype,
//    beside the floor checkpointing must cost (1 + F / (F + B) in time).
// 3. The wrong variant (RNG replay off): the comparison rejects it.
// 4. The audit: BatchNorm's running statistics are updated twice per step.
// 5. checkpoint_sequential over the model of part 2 as a torch::nn::Sequential:
//    PyTorch's segmenting rule, memory and time per number of segments, the
//    buffer audit per segment.
//
// Output: docs/torch.md.
#include "rematch/torch.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace rt = rematch::torch;

namespace {

struct BlockImpl : torch::nn::Module {
  BlockImpl(std::int64_t in, std::int64_t out, double p)
      : fc(register_module("fc", torch::nn::Linear(in, out))),
        drop(register_module("drop", torch::nn::Dropout(p))),
        bn(register_module("bn", torch::nn::BatchNorm1d(out))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    return torch::relu(bn(drop(fc(x))));
  }
  torch::nn::Linear fc;
  torch::nn::Dropout drop;
  torch::nn::BatchNorm1d bn;
};
TORCH_MODULE(Block);

struct ModelImpl : torch::nn::Module {
  ModelImpl(std::int64_t in, std::int64_t width, int depth, std::int64_t out) {
    for (int i = 0; i < depth; ++i)
      blocks.push_back(register_module("b" + std::to_string(i),
                                       Block(i ? width : in, width, 0.2)));
    head = register_module("head", torch::nn::Linear(width, out));
  }
  /// `ckpt` null: the plain model; otherwise every block is checkpointed
  /// with these options.
  torch::Tensor forward(torch::Tensor x, const rt::Options *ckpt) {
    for (Block &b : blocks)
      x = ckpt ? rt::checkpoint(b, {x}, *ckpt)[0] : b(x);
    return head(x);
  }
  std::vector<Block> blocks;
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Model);

void copy_state(const torch::nn::Module &from, torch::nn::Module &to) {
  torch::NoGradGuard no_grad;
  auto p = from.named_parameters();
  for (auto &t : to.named_parameters())
    t.value().copy_(p[t.key()]);
  auto b = from.named_buffers();
  for (auto &t : to.named_buffers())
    t.value().copy_(b[t.key()]);
}

/// One training step's forward and backward from a fixed RNG seed.
torch::Tensor loss_and_grad(Model &m, const torch::Tensor &x,
                            const torch::Tensor &y, const rt::Options *ckpt,
                            std::uint64_t seed) {
  torch::manual_seed(seed);
  m->zero_grad();
  torch::Tensor loss = torch::mse_loss(m->forward(x, ckpt), y);
  loss.backward();
  return loss;
}

double max_abs(const rt::GradientComparison &c) {
  double e = 0;
  for (const auto &p : c.parameters)
    e = std::max(e, p.max_abs_error);
  return e;
}

} // namespace

int main() {
  rematch::set_policy(rematch::Policy::off); // reports are printed below
  torch::set_num_threads(1);
  bool ok = true;
  const rt::Options checkpointed; // replay on; audit as the build says (off)
  const double rtol = 1e-5, atol = 1e-6;

  // --- 1. gradients, plain vs checkpointed --------------------------------
  std::printf("== 1. gradients, plain vs checkpointed (dropout p=0.2, 3 SGD "
              "steps) ==\n");
  torch::manual_seed(0);
  Model plain(32, 64, 4, 8), ckpt(32, 64, 4, 8);
  copy_state(*plain, *ckpt);
  const torch::Tensor x = torch::randn({16, 32}), y = torch::randn({16, 8});
  torch::optim::SGD opt_p(plain->parameters(), 0.05),
      opt_c(ckpt->parameters(), 0.05);
  rt::GradientComparison last;
  for (int step = 1; step <= 3; ++step) {
    const double lp =
        loss_and_grad(plain, x, y, nullptr, 100 + step).item<double>();
    const double lc =
        loss_and_grad(ckpt, x, y, &checkpointed, 100 + step).item<double>();
    last = rt::compare_gradients(*plain, *ckpt, {rtol, atol});
    std::printf(
        "step %d: loss %.6f / %.6f; %zu parameters, max abs error %.3g: %s\n",
        step, lp, lc, last.parameters.size(), max_abs(last),
        last.passes() ? "agree" : "DIFFER");
    ok &= last.passes();
    opt_p.step();
    opt_c.step();
  }
  std::printf("gradient comparison at step 3:\n%s", last.table().c_str());
  std::printf("gradients, plain vs checkpointed: %s\n\n",
              last.passes() ? "all parameters agree" : "FAIL");

  // --- 2. peak memory and time, beside their floors ----------------------
  // Checkpointing must run the blocks' forward twice, so a checkpointed step
  // costs at least 1 + F / (F + B) times the plain one (F, B: the plain
  // forward and backward of the blocks), and must hold at least the blocks'
  // stored inputs and one block's activations. F, B and the activations are
  // measured on the plain model in the same run, interleaved with the steps.
  const std::int64_t width = 512, batch = 256;
  const int depth = 8, reps = 5;
  std::printf("== 2. peak tensor memory and time (width %lld, depth %d, batch "
              "%lld, float32, 1 thread, medians of %d interleaved steps by "
              "CPU time) ==\n",
              static_cast<long long>(width), depth,
              static_cast<long long>(batch), reps);
  torch::manual_seed(1);
  Model big_p(width, width, depth, 10), big_c(width, width, depth, 10);
  copy_state(*big_p, *big_c);
  const torch::Tensor bx = torch::randn({batch, width}),
                      by = torch::randn({batch, 10});
  auto step_of = [&](Model &m, const rt::Options *o) {
    return [&m, o, &bx, &by] {
      m->zero_grad(/*set_to_none=*/false);
      torch::mse_loss(m->forward(bx, o), by).backward();
    };
  };
  std::vector<rt::TensorFunction> blocks;
  for (Block &b : big_p->blocks)
    blocks.push_back([b](const torch::Tensor &t) mutable { return b(t); });
  const rt::TensorFunction head_and_loss = [&](const torch::Tensor &h) {
    return torch::mse_loss(big_p->head(h), by);
  };
  auto phases = [&] {
    big_p->zero_grad(/*set_to_none=*/false);
    return rt::measure_plain_phases(blocks, bx, head_and_loss);
  };
  // Gradients are allocated here, outside the measurements.
  step_of(big_p, nullptr)();
  step_of(big_c, &checkpointed)();
  std::vector<rt::StepMeasurement> plain_steps, ckpt_steps;
  std::vector<rt::PlainStepPhases> plain_phases;
  for (int i = 0; i < reps; ++i) {
    torch::manual_seed(7);
    plain_phases.push_back(phases());
    torch::manual_seed(7);
    plain_steps.push_back(rt::measure_step(step_of(big_p, nullptr)));
    torch::manual_seed(7);
    ckpt_steps.push_back(rt::measure_step(step_of(big_c, &checkpointed)));
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  auto median_step = [](std::vector<rt::StepMeasurement> ms) {
    std::sort(ms.begin(), ms.end(), [](const auto &a, const auto &b) {
      return a.cpu_seconds < b.cpu_seconds;
    });
    return ms[ms.size() / 2];
  };
  const rt::StepMeasurement mp = median_step(plain_steps);
  const rt::StepMeasurement mc = median_step(ckpt_steps);
  std::vector<double> fs, bs, rests;
  for (const rt::PlainStepPhases &ph : plain_phases) {
    fs.push_back(ph.forward.cpu_seconds);
    bs.push_back(ph.backward.cpu_seconds);
    rests.push_back(ph.rest.cpu_seconds);
  }
  const double f = median(fs), b = median(bs), time_floor = 1 + f / (f + b);
  const std::size_t peak_floor = plain_phases[0].peak_floor(mp.peak_bytes);
  const rt::GradientComparison bc =
      rt::compare_gradients(*big_p, *big_c, {rtol, atol});
  std::printf("%-13s %18s %12s %12s %12s\n", "", "peak tensor memory",
              "allocated", "CPU time", "wall time");
  for (const auto &[name, m] :
       {std::pair{"plain", mp}, std::pair{"checkpointed", mc}})
    std::printf("%-13s %14.2f MiB %8.2f MiB %9.1f ms %9.1f ms\n", name,
                m.peak_bytes / 1048576.0, m.allocated_bytes / 1048576.0,
                m.cpu_seconds * 1e3, m.seconds * 1e3);
  std::printf("%-13s %14.2f MiB %12s %9.1f ms\n", "floor",
              peak_floor / 1048576.0, "", mp.cpu_seconds * time_floor * 1e3);
  std::printf("plain step's phases (CPU time): blocks' forward F %.1f ms, "
              "blocks' backward B %.1f ms, head and loss %.1f ms\n",
              f * 1e3, b * 1e3, median(rests) * 1e3);
  const rt::PlainStepPhases &ph = plain_phases[0];
  std::size_t activations = 0, outputs = 0;
  for (std::size_t k = 0; k < ph.activation_bytes.size(); ++k) {
    activations += ph.activation_bytes[k];
    outputs += ph.output_bytes[k];
  }
  std::printf("blocks' activations in the plain step %.2f MiB, of which "
              "their outputs (the next blocks' inputs) %.2f MiB\n",
              activations / 1048576.0, outputs / 1048576.0);
  std::printf("checkpointed / plain: time %.2f (CPU; floor 1 + F/(F+B) = "
              "%.2f), %.2f (wall); memory %.2f (floor %.2f); gradients %s\n\n",
              mc.cpu_seconds / mp.cpu_seconds, time_floor,
              mc.seconds / mp.seconds,
              double(mc.peak_bytes) / double(mp.peak_bytes),
              double(peak_floor) / double(mp.peak_bytes),
              bc.passes() ? "agree" : "DIFFER");
  ok &= bc.passes() && mc.peak_bytes < mp.peak_bytes;

  // --- 3. the wrong variant: no RNG replay ----------------------------------
  std::printf("== 3. wrong variant: RNG replay disabled ==\n");
  torch::manual_seed(0);
  Model wp(32, 64, 4, 8), wc(32, 64, 4, 8);
  copy_state(*wp, *wc);
  rt::Options no_replay;
  no_replay.replay_rng = false;
  loss_and_grad(wp, x, y, nullptr, 5);
  loss_and_grad(wc, x, y, &no_replay, 5);
  const rt::GradientComparison wrong =
      rt::compare_gradients(*wp, *wc, {rtol, atol});
  std::printf("%s", wrong.table().c_str());
  std::printf("RNG replay disabled: %s\n\n",
              wrong.passes() ? "comparison passed (unexpected)"
                             : "comparison FAILs, as it must");
  ok &= !wrong.passes();

  // --- 4. the audit: BatchNorm updated twice ------------------------------
  std::printf("== 4. audit: buffers changed by the recompute ==\n");
  std::printf(
      "after the 3 steps of part 1: num_batches_tracked plain %lld, "
      "checkpointed %lld; running_mean max difference %.3g\n",
      static_cast<long long>(
          plain->blocks[0]->bn->num_batches_tracked.item<std::int64_t>()),
      static_cast<long long>(
          ckpt->blocks[0]->bn->num_batches_tracked.item<std::int64_t>()),
      (plain->blocks[0]->bn->running_mean - ckpt->blocks[0]->bn->running_mean)
          .abs()
          .max()
          .item<double>());
  rt::Options audited;
  audited.audit = true;
  audited.name = "block";
  (void)rt::take_reports();
  loss_and_grad(ckpt, x, y, &audited, 9);
  const std::vector<rematch::Report> reports = rt::take_reports();
  std::size_t repeated = 0, divergences = 0;
  for (const rematch::Report &r : reports) {
    repeated += r.count(rematch::AuditFinding::Kind::repeated_effect);
    divergences += r.count(rematch::AuditFinding::Kind::divergence);
  }
  std::printf(
      "%zu recomputes audited: %zu repeated effect(s), %zu divergence(s); "
      "the last block's report:\n%s",
      reports.size(), repeated, divergences,
      reports.empty() ? "(none)\n" : reports.front().to_string().c_str());
  ok &= repeated == 3 * reports.size() && divergences == 0;

  // --- 5. checkpoint_sequential -------------------------------------------
  // The blocks and head of part 2's checkpointed model, shared (same
  // parameters) in a Sequential: the plain model of part 2 is the reference.
  torch::nn::Sequential seq;
  for (Block &b : big_c->blocks)
    seq->push_back(b);
  seq->push_back(big_c->head);
  const int n = static_cast<int>(seq->size()), seq_reps = 3;
  std::printf("\n== 5. checkpoint_sequential: the model of part 2 as a "
              "torch::nn::Sequential of %d modules (median of %d steps) ==\n",
              n, seq_reps);
  std::printf("%-9s %-22s %18s %12s %14s  %s\n", "segments",
              "checkpointed modules", "peak tensor memory", "CPU time",
              "vs plain", "gradients");
  for (int segments : {2, 4, 9}) {
    // PyTorch's rule: segments - 1 segments of n / segments modules are
    // checkpointed, the rest runs plainly.
    const int size = n / segments;
    std::string ranges;
    for (int start = 0; start < size * (segments - 1); start += size)
      ranges += (ranges.empty() ? "" : ",") + std::to_string(start) +
                (size > 1 ? "-" + std::to_string(start + size - 1) : "");
    auto step = [&] {
      big_c->zero_grad(/*set_to_none=*/false);
      torch::mse_loss(rt::checkpoint_sequential(seq, segments, bx), by)
          .backward();
    };
    step();
    std::vector<rt::StepMeasurement> ms;
    for (int i = 0; i < seq_reps; ++i) {
      torch::manual_seed(7);
      ms.push_back(rt::measure_step(step));
    }
    std::sort(ms.begin(), ms.end(), [](const auto &a, const auto &b) {
      return a.cpu_seconds < b.cpu_seconds;
    });
    const rt::StepMeasurement &m = ms[ms.size() / 2];
    const rt::GradientComparison g =
        rt::compare_gradients(*big_p, *big_c, {rtol, atol});
    std::printf("%-9d %-22s %14.2f MiB %9.1f ms %8.2f, %4.2f  %s\n", segments,
                ranges.c_str(), m.peak_bytes / 1048576.0, m.cpu_seconds * 1e3,
                double(m.peak_bytes) / double(mp.peak_bytes),
                m.cpu_seconds / mp.cpu_seconds,
                g.passes() ? "agree" : "DIFFER");
    ok &= g.passes() && m.peak_bytes < mp.peak_bytes;
  }
  rt::Options seq_audit;
  seq_audit.audit = true;
  (void)rt::take_reports();
  torch::mse_loss(rt::checkpoint_sequential(seq, 3, bx, seq_audit), by)
      .backward();
  std::vector<rematch::Report> seq_reports = rt::take_reports();
  std::reverse(seq_reports.begin(), seq_reports.end()); // forward order
  std::printf("audit, 3 segments: %zu segments recomputed\n",
              seq_reports.size());
  for (const rematch::Report &r : seq_reports) {
    std::string buffers;
    for (const rematch::AuditFinding &f : r.findings())
      if (f.kind == rematch::AuditFinding::Kind::repeated_effect &&
          f.message.find("running_mean") != std::string::npos)
        buffers += (buffers.empty() ? "" : ", ") +
                   f.message.substr(f.message.find("buffer: ") + 8,
                                    f.message.find(".running_mean") -
                                        f.message.find("buffer: ") - 8);
    std::printf("  '%s': %zu repeated effect(s), BatchNorms updated twice: "
                "%s\n",
                r.segment().c_str(),
                r.count(rematch::AuditFinding::Kind::repeated_effect),
                buffers.c_str());
  }
  ok &= seq_reports.size() == 2 &&
        seq_reports[0].count(rematch::AuditFinding::Kind::repeated_effect) == 9;

  std::printf("\n%s\n", ok ? "all checks passed" : "SOME CHECKS FAILED");
  return ok ? 0 : 1;
}
