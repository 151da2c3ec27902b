// What a checkpoint's audit records besides the runtime's own events: tensor
// fingerprints, module buffers changed by a pass, and the reports kept for
// take_reports(). Internal to the adapter.
#ifndef REMATCH_TORCH_AUDIT_H
#define REMATCH_TORCH_AUDIT_H

#include "rematch/report.h"
#include "rematch/torch.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rematch::torch::detail {

/// A fingerprint of a tensor's dtype, shape and values (of a contiguous CPU
/// copy), or of its absence.
std::uint64_t fingerprint(const at::Tensor &t);
/// The same over a list, its length included.
std::uint64_t fingerprint(const variable_list &tensors);

using BufferSnapshot = std::vector<std::pair<std::string, at::Tensor>>;
BufferSnapshot snapshot_buffers(const ModuleList &modules);
/// Records every buffer that changed since `before` as a "buffer" effect: in
/// the forward that is the expected update, in the recompute a repeated one.
void record_buffer_changes(const ModuleList &modules,
                           const BufferSnapshot &before);

/// Keeps a recompute's report for take_reports() (the last 1024).
void keep_report(const Report &report);

} // namespace rematch::torch::detail

#endif
