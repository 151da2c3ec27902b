// Helpers shared by the rematch::torch tests.
#ifndef REMATCH_TESTS_TORCH_TEST_UTIL_H
#define REMATCH_TESTS_TORCH_TEST_UTIL_H

#include "rematch/rematch.h"
#include "rematch/torch.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace rematch_test {

/// A torch test that starts with the policy off and no kept reports.
class CleanSlate : public ::testing::Test {
protected:
  void SetUp() override {
    rematch::set_policy(rematch::Policy::off);
    (void)rematch::torch::take_reports();
  }
};

/// Copies parameters and buffers by name: two modules built alike then
/// compute the same thing.
inline void copy_state(const torch::nn::Module &from, torch::nn::Module &to) {
  torch::NoGradGuard no_grad;
  auto src = from.named_parameters();
  for (auto &p : to.named_parameters())
    p.value().copy_(src[p.key()]);
  auto bsrc = from.named_buffers();
  for (auto &b : to.named_buffers())
    b.value().copy_(bsrc[b.key()]);
}

/// The full state of torch's default CPU generator.
inline std::vector<unsigned char> cpu_rng_state() {
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  at::Tensor s = gen.get_state();
  std::vector<unsigned char> out(s.nbytes());
  std::memcpy(out.data(), s.data_ptr(), out.size());
  return out;
}

/// What `f` throws, or "(no exception)".
inline std::string message_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "(no exception)";
}

} // namespace rematch_test

#endif
