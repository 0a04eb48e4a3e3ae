#pragma once
// Standardizes the objective before fitting (SPEC §2: "objective standardized to mean 0 /
// variance 1 before fitting"), so that the priors on the output scale, noise and mean — written
// for unit-variance data — apply whatever the user's units. Known standard errors are scaled
// by the same factor, and predictions are mapped back with the inverse transforms.

#include <Eigen/Core>

namespace sebo {

class Standardizer {
public:
    // Below this sample standard deviation y is treated as constant and only centred (scale 1),
    // so that a flat objective does not blow up to noise.
    static constexpr double kMinScale = 1e-10;

    // From observed values (at least one, all finite): mean and sample standard deviation
    // (divisor n − 1, as BoTorch's Standardize; scale 1 for a single value or constant y).
    explicit Standardizer(const Eigen::VectorXd& y);

    double mean() const { return mean_; }
    double scale() const { return scale_; }

    Eigen::VectorXd transform(const Eigen::VectorXd& y) const { return (y.array() - mean_) / scale_; }
    // Standard errors (or standard deviations) of y in standardized units.
    Eigen::VectorXd transform_sem(const Eigen::VectorXd& sem) const { return sem / scale_; }
    // Back to user units: posterior means, and variances (which scale by scale²).
    Eigen::VectorXd untransform(const Eigen::VectorXd& z) const { return (z.array() * scale_ + mean_).matrix(); }
    Eigen::VectorXd untransform_variance(const Eigen::VectorXd& v) const { return v * (scale_ * scale_); }

private:
    double mean_ = 0.0;
    double scale_ = 1.0;
};

}  // namespace sebo
