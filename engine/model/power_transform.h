#pragma once
// Yeo–Johnson power transform of the objective before standardization (Yeo & Johnson 2000; as
// Ax's PowerTransformY). Benchmarks and real systems often have a few catastrophic values (Branin
// is 308 at the all-zero configuration, below 1 near its optima); after plain standardization the
// differences that matter near the optimum are smaller than the inferred noise. The transform is
// strictly increasing, so it keeps every ordering — the incumbent, the Pareto front — and only
// reshapes the scale the GP sees. λ maximizes the Gaussian profile log-likelihood of the
// transformed data.

#include <Eigen/Core>

namespace sebo {

class PowerTransform {
public:
    // Fits λ in [−3, 3] to the standardized y (at least 2 distinct values; otherwise the
    // identity) — in [1, 3] unless compress_upper_tail. λ < 1 compresses the upper tail (the best
    // values of a maximized utility) and λ > 1 the lower one. A step's training set allows the
    // upper tail to be compressed only when an extreme value was winsorized
    // (experiment/model_step.h): otherwise the best values are what the search is for, and with
    // noisy measurements compressing them spreads the noise of the bulk over the scale and makes
    // the model disbelieve its best measurements (docs/method.md, "Noisy measurements").
    explicit PowerTransform(const Eigen::VectorXd& y, bool compress_upper_tail = true);
    // The identity transform.
    PowerTransform() = default;

    double lambda() const { return lambda_; }
    double apply(double y) const;
    Eigen::VectorXd apply(const Eigen::VectorXd& y) const;
    // dψ/dy, for carrying standard errors through the transform (delta method).
    double derivative(double y) const;
    // The y with apply(y) = z, by bisection (the transform is strictly increasing). `scale` sizes
    // the first bracket around `centre`, which is widened as needed; a z beyond what the transform
    // can reach (it is bounded on one side when λ ∉ [0, 2]) gives the end of the widest bracket tried.
    double inverse(double z, double centre, double scale) const;

    // ψ_λ(y) itself.
    static double yeo_johnson(double y, double lambda);

private:
    double lambda_ = 1.0;
    double mean_ = 0.0;   // the transform acts on (y − mean) / scale
    double scale_ = 1.0;
};

}  // namespace sebo
