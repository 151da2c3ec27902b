// rematch::torch::checkpoint against its floor (issue 16): the cost of a
// step that checkpoints every block, beside what checkpointing must cost.
//
// The model is docs/torch.md's: blocks of linear -> dropout -> batchnorm ->
// relu and a linear head, trained with an MSE loss. Each run interleaves, per
// repetition, the plain step split into its phases (F: the blocks' forward,
// B: their backward; rematch::torch::measure_plain_phases), the plain step
// and the checkpointed step, and prints medians by CPU time:
//
//   ratio  checkpointed / plain step time (the default determinism check:
//          every tensor the recompute saves compared with the forward's)
//   floor  1 + F / (F + B): the blocks' forward runs twice
//   checks checkpointed / checkpointed with determinism_check "none": what
//          the checks cost
//   peak   checkpointed peak tensor memory, beside the plain step's peak with
//          the blocks' activations replaced by what checkpointing must hold
//
// Every run's figures are printed, with the load average before and after it,
// since on a shared machine one run says little. Nothing is asserted.
//
//   torch_checkpoint_bench [--width 512] [--depth 8] [--batch 256]
//                          [--reps 5] [--runs 3] [--threads 1]
#include "rematch/torch.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

struct Config {
  std::int64_t width = 512, batch = 256;
  int depth = 8, reps = 5, runs = 3, threads = 1;
};

struct RunFigures {
  rt::StepMeasurement plain, checkpointed, unchecked;
  double forward = 0, backward = 0, rest = 0; // CPU seconds, medians
  double time_floor = 0;
  std::size_t peak_floor = 0;
};

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five;
  if (!(in >> one >> five))
    return "n/a";
  return one + " (1 min), " + five + " (5 min)";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

rt::StepMeasurement median_step(std::vector<rt::StepMeasurement> ms) {
  std::sort(ms.begin(), ms.end(), [](const auto &a, const auto &b) {
    return a.cpu_seconds < b.cpu_seconds;
  });
  return ms[ms.size() / 2];
}

RunFigures run_once(const Config &c, std::vector<Block> &blocks,
                    torch::nn::Linear &head, const torch::Tensor &x,
                    const torch::Tensor &y) {
  const rt::Options options; // replay on, audit off, the default check
  rt::Options unchecked_options;
  unchecked_options.determinism_check = "none";
  auto zero_grad = [&] {
    for (Block &b : blocks)
      b->zero_grad(/*set_to_none=*/false);
    head->zero_grad(/*set_to_none=*/false);
  };
  // `o` null: the plain step.
  auto step = [&](const rt::Options *o) {
    return [&, o] {
      zero_grad();
      torch::Tensor h = x;
      for (Block &b : blocks)
        h = o ? rt::checkpoint(b, {h}, *o)[0] : b(h);
      torch::mse_loss(head(h), y).backward();
    };
  };
  std::vector<rt::TensorFunction> fns;
  for (Block &b : blocks)
    fns.push_back([b](const torch::Tensor &t) mutable { return b(t); });
  const rt::TensorFunction rest = [&](const torch::Tensor &h) {
    return torch::mse_loss(head(h), y);
  };

  std::vector<rt::StepMeasurement> plain, ckpt, unchecked;
  std::vector<rt::PlainStepPhases> phases;
  for (int i = 0; i < c.reps; ++i) {
    torch::manual_seed(7);
    zero_grad();
    phases.push_back(rt::measure_plain_phases(fns, x, rest));
    torch::manual_seed(7);
    plain.push_back(rt::measure_step(step(nullptr)));
    torch::manual_seed(7);
    ckpt.push_back(rt::measure_step(step(&options)));
    torch::manual_seed(7);
    unchecked.push_back(rt::measure_step(step(&unchecked_options)));
  }
  RunFigures r;
  r.plain = median_step(plain);
  r.checkpointed = median_step(ckpt);
  r.unchecked = median_step(unchecked);
  std::vector<double> f, b, rs;
  for (const rt::PlainStepPhases &p : phases) {
    f.push_back(p.forward.cpu_seconds);
    b.push_back(p.backward.cpu_seconds);
    rs.push_back(p.rest.cpu_seconds);
  }
  r.forward = median(f);
  r.backward = median(b);
  r.rest = median(rs);
  r.time_floor = 1 + r.forward / (r.forward + r.backward);
  r.peak_floor = phases.front().peak_floor(r.plain.peak_bytes);
  return r;
}

bool parse(int argc, char **argv, Config &c) {
  for (int i = 1; i < argc; ++i) {
    auto value = [&](const char *name) -> const char * {
      if (std::strcmp(argv[i], name) != 0 || i + 1 >= argc)
        return nullptr;
      return argv[++i];
    };
    const char *v = nullptr;
    if ((v = value("--width")))
      c.width = std::atoll(v);
    else if ((v = value("--depth")))
      c.depth = std::atoi(v);
    else if ((v = value("--batch")))
      c.batch = std::atoll(v);
    else if ((v = value("--reps")))
      c.reps = std::atoi(v);
    else if ((v = value("--runs")))
      c.runs = std::atoi(v);
    else if ((v = value("--threads")))
      c.threads = std::atoi(v);
    else {
      std::fprintf(stderr, "torch_checkpoint_bench: unknown argument '%s'\n",
                   argv[i]);
      return false;
    }
  }
  if (c.width < 1 || c.batch < 2 || c.depth < 1 || c.reps < 1 || c.runs < 1 ||
      c.threads < 1) {
    std::fprintf(stderr, "torch_checkpoint_bench: sizes, --reps, --runs and "
                         "--threads must be positive (--batch at least 2)\n");
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Config c;
  if (!parse(argc, argv, c))
    return 2;
  rematch::set_policy(rematch::Policy::off);
  torch::set_num_threads(c.threads);
  torch::manual_seed(1);
  std::vector<Block> blocks;
  for (int i = 0; i < c.depth; ++i)
    blocks.emplace_back(c.width, c.width, 0.2);
  torch::nn::Linear head(c.width, 10);
  const torch::Tensor x = torch::randn({c.batch, c.width}),
                      y = torch::randn({c.batch, 10});

  std::printf("rematch::torch::checkpoint against its floor: %d blocks of "
              "linear %lld -> dropout 0.2 -> batchnorm -> relu, linear head, "
              "batch %lld, float32, %d thread(s); %d run(s) of %d interleaved "
              "steps, medians by CPU time\n",
              c.depth, static_cast<long long>(c.width),
              static_cast<long long>(c.batch), c.threads, c.runs, c.reps);
  std::printf("ratio: checkpointed / plain step; floor: 1 + F/(F+B), F and B "
              "the blocks' plain forward and backward; checks: checkpointed / "
              "checkpointed with determinism_check \"none\"; peak: measured "
              "/ floor\n");
  std::printf("%-4s %9s %9s %7s %7s %9s %9s %8s %6s %7s %10s %10s %10s  %s\n",
              "run", "plain ms", "ckpt ms", "ratio", "floor", "F ms", "B ms",
              "rest ms", "wall", "checks", "plain MiB", "ckpt MiB", "floor MiB",
              "load average before -> after");
  // Warm-up: gradients and the allocator's first blocks, outside the runs.
  {
    Config warm = c;
    warm.reps = 1;
    run_once(warm, blocks, head, x, y);
  }
  std::vector<double> ratios, floors;
  for (int run = 1; run <= c.runs; ++run) {
    const std::string before = load_average();
    const RunFigures r = run_once(c, blocks, head, x, y);
    const double ratio = r.checkpointed.cpu_seconds / r.plain.cpu_seconds;
    ratios.push_back(ratio);
    floors.push_back(r.time_floor);
    std::printf(
        "%-4d %9.1f %9.1f %7.3f %7.3f %9.1f %9.1f %8.2f %6.3f %7.3f %10.2f "
        "%10.2f %10.2f  %s -> %s\n",
        run, r.plain.cpu_seconds * 1e3, r.checkpointed.cpu_seconds * 1e3, ratio,
        r.time_floor, r.forward * 1e3, r.backward * 1e3, r.rest * 1e3,
        r.checkpointed.seconds / r.plain.seconds,
        r.checkpointed.cpu_seconds / r.unchecked.cpu_seconds,
        r.plain.peak_bytes / 1048576.0, r.checkpointed.peak_bytes / 1048576.0,
        r.peak_floor / 1048576.0, before.c_str(), load_average().c_str());
  }
  std::printf("ratio - floor per run:");
  for (std::size_t i = 0; i < ratios.size(); ++i)
    std::printf(" %+.3f", ratios[i] - floors[i]);
  std::printf("\n");
  return 0;
}
