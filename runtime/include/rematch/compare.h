// Parameter-by-parameter gradient comparison (checkpointed vs. not).
//
// A matching loss, a matching summed gradient or matching norms prove
// nothing: vectors with one norm can differ everywhere and errors can cancel
// in a sum. This compares every element and flags the deceptive case.
#ifndef REMATCH_COMPARE_H
#define REMATCH_COMPARE_H

#include <cstddef>
#include <string>
#include <vector>

namespace rematch {

/// A read-only view of one parameter's gradient.
class GradientView {
public:
  GradientView(std::string name, const float *data, std::size_t size,
               std::string dtype = "float32")
      : name_(std::move(name)), dtype_(std::move(dtype)), f_(data),
        size_(size) {}
  GradientView(std::string name, const double *data, std::size_t size,
               std::string dtype = "float64")
      : name_(std::move(name)), dtype_(std::move(dtype)), d_(data),
        size_(size) {}
  GradientView(std::string name, const std::vector<float> &v,
               std::string dtype = "float32")
      : GradientView(std::move(name), v.data(), v.size(), std::move(dtype)) {}
  GradientView(std::string name, const std::vector<double> &v,
               std::string dtype = "float64")
      : GradientView(std::move(name), v.data(), v.size(), std::move(dtype)) {}

  const std::string &name() const noexcept { return name_; }
  const std::string &dtype() const noexcept { return dtype_; }
  std::size_t size() const noexcept { return size_; }
  double operator[](std::size_t i) const noexcept {
    return f_ ? static_cast<double>(f_[i]) : d_[i];
  }

private:
  std::string name_, dtype_;
  const float *f_ = nullptr;
  const double *d_ = nullptr;
  std::size_t size_ = 0;
};

struct Tolerance {
  double rtol = 1e-5; // an element passes when |a-b| <= atol + rtol*|a|
  double atol = 1e-8;
};

struct ParameterComparison {
  std::string name;
  std::string dtype;
  /// "[2x3]" where the caller knows the shape (rematch::torch does); "[1x2]/
  /// [2x1]" when the two differ, which is then a size_mismatch even for an
  /// equal element count. Empty when unknown.
  std::string shape;
  std::size_t count = 0;      // elements compared
  std::size_t mismatches = 0; // elements outside the tolerance
  double max_abs_error = 0;
  double max_rel_error = 0; // |a-b| / |a|, over elements with a != 0
  double reference_norm = 0;
  double candidate_norm = 0;
  double difference_norm = 0;
  bool size_mismatch = false;
  bool passes = false;
  /// The L2 norms (or the sums) agree within the tolerance while the values
  /// do not: exactly the comparison that would have wrongly passed.
  bool summary_hides_difference = false;
};

/// The one comparison result, of views or of two libtorch modules
/// (rematch::torch::compare_gradients).
struct GradientComparison {
  Tolerance tolerance;
  std::vector<ParameterComparison> parameters;
  std::vector<std::string> missing; // in one set only: fails
  /// Named in both with a gradient in neither (a frozen parameter): listed,
  /// does not fail.
  std::vector<std::string> no_gradient;
  bool passes() const noexcept;
  bool summary_hides_difference() const noexcept;
  /// The tolerance, then one row per parameter: name, dtype, shape (when
  /// known), count, max abs/rel error, norms, mismatches, verdict; then the
  /// missing parameters and those without a gradient.
  std::string table() const;
};

/// Compares `candidate` (e.g. with checkpointing) with `reference` (without),
/// matching parameters by name.
GradientComparison compare_gradients(const std::vector<GradientView> &reference,
                                     const std::vector<GradientView> &candidate,
                                     Tolerance tolerance = {});

} // namespace rematch

#endif
