// The adapter's audit records (audit.h).
#include "audit.h"

#include "rematch/detail/recorder.h"
#include "rematch/fingerprint.h"

#include <torch/nn/module.h>

#include <algorithm>
#include <deque>
#include <mutex>
#include <sstream>

namespace rematch::torch {
namespace {

std::mutex g_reports_mutex;
std::deque<Report> g_reports;
constexpr std::size_t kKeptReports = 1024;

} // namespace

std::vector<Report> take_reports() {
  std::lock_guard<std::mutex> lock(g_reports_mutex);
  std::vector<Report> out(g_reports.begin(), g_reports.end());
  g_reports.clear();
  return out;
}

namespace detail {

void keep_report(const Report &report) {
  std::lock_guard<std::mutex> lock(g_reports_mutex);
  g_reports.push_back(report);
  if (g_reports.size() > kKeptReports)
    g_reports.pop_front();
}

std::uint64_t fingerprint(const at::Tensor &t) {
  if (!t.defined())
    return rematch::detail::mix(0x70c4, 0);
  std::uint64_t h =
      rematch::detail::mix(0x70c4, static_cast<std::uint64_t>(t.scalar_type()));
  // Values only of dense tensors: a sparse or nested one counts by its kind.
  if (t.layout() != at::kStrided || t.is_nested())
    return rematch::detail::mix(h, static_cast<std::uint64_t>(t.layout()) + 1);
  for (std::int64_t s : t.sizes())
    h = rematch::detail::mix(h, static_cast<std::uint64_t>(s));
  at::Tensor c = t.detach().to(at::kCPU).contiguous();
  return rematch::detail::mix(
      h, rematch::detail::hash_bytes(c.data_ptr(), c.nbytes()));
}

std::uint64_t fingerprint(const variable_list &tensors) {
  std::uint64_t h = 0x70c4;
  for (const at::Tensor &t : tensors)
    h = rematch::detail::mix(h, fingerprint(t));
  return rematch::detail::mix(h, tensors.size());
}

BufferSnapshot snapshot_buffers(const ModuleList &modules) {
  BufferSnapshot out;
  for (const auto &[prefix, module] : modules)
    for (const auto &item : module->named_buffers(/*recurse=*/true))
      if (item.value().defined())
        out.emplace_back(prefix + item.key(), item.value().detach().clone());
  return out;
}

void record_buffer_changes(const ModuleList &modules,
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

} // namespace detail
} // namespace rematch::torch
