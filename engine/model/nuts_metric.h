#pragma once
// The Euclidean metric of HMC/NUTS — the inverse mass matrix M⁻¹ — and its estimation from the
// draws of one warm-up window. With M⁻¹ ≈ the posterior covariance the Hamiltonian dynamics see a
// roughly isotropic, unit-scale target, so one step size suits every direction (Neal 2011, "MCMC
// using Hamiltonian dynamics", §4.1; Betancourt 2017, "A Conceptual Introduction to Hamiltonian
// Monte Carlo", §4.2).
//
// Two kinds, as in Stan and Pyro:
//  - diagonal: M⁻¹ = diag(variances); rescales each coordinate but cannot undo correlations;
//  - dense: M⁻¹ = Σ, the full covariance, with its Cholesky factor L (Σ = L Lᵀ). Needed when the
//    posterior is strongly correlated — e.g. the SAAS posterior, where log τ and every relevant
//    log λ_d trade off against each other through ρ_d = τ λ_d; the reference implementation of
//    the SAAS GP (Eriksson & Jankowiak 2021, used by SEBO §6) samples with a full mass matrix.
// In both, the Hamiltonian's kinetic energy is ½ pᵀM⁻¹p, the momentum is drawn as p ~ N(0, M) and
// the velocity is p♯ = M⁻¹p (dθ/dt in the leapfrog, and the direction the no-U-turn criterion
// compares against).
//
// Estimates are accumulated with Welford's update (numerically stable in one pass) and shrunk
// towards a small multiple of the identity as in Stan:
//     M⁻¹ = n/(n+5) · S + 1e-3 · 5/(n+5) · I        (S the sample variance or covariance),
// which keeps the metric positive definite and bounded when a window is short, a coordinate
// barely moved (e.g. while the chain is still stuck), or — dense — there are fewer draws than
// dimensions.

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace sebo {

enum class NutsMetric {
    Diagonal,  // M⁻¹ = diag(posterior variances)
    Dense      // M⁻¹ = posterior covariance
};
const char* to_string(NutsMetric metric);

// M⁻¹ and the operations the sampler needs from it. The kind is fixed at construction; the
// values change when warm-up adapts them. Nothing here allocates after construction.
class EuclideanMetric {
public:
    // The unit metric M⁻¹ = I of the given kind and dimension (≥ 1).
    EuclideanMetric(NutsMetric kind, int dimension);

    NutsMetric kind() const { return kind_; }
    int dimension() const { return static_cast<int>(diagonal_.size()); }

    // Diagonal kind: M⁻¹ = diag(inverse_diagonal), whose entries must be positive and finite.
    void set_diagonal(const Eigen::VectorXd& inverse_diagonal);

    // Dense kind: M⁻¹ = covariance (symmetric). Returns false and
    // leaves the metric unchanged when the matrix is not finite or its Cholesky factorization fails
    // (not numerically positive definite).
    bool set_dense(const Eigen::MatrixXd& covariance);

    enum class CovarianceUpdate {
        Full,      // M⁻¹ = the covariance
        Diagonal,  // the covariance did not factor; M⁻¹ = its diagonal (still a dense-kind metric)
        Kept       // not even the diagonal is a valid metric (not finite); M⁻¹ unchanged
    };
    // Dense kind: set_dense(covariance), falling back to the covariance's diagonal when the full
    // matrix does not factor — how the warm-up installs each window's estimate.
    CovarianceUpdate set_from_covariance(const Eigen::MatrixXd& covariance);

    // velocity = M⁻¹p (sized like p).
    void velocity(const Eigen::VectorXd& p, Eigen::VectorXd& velocity) const;
    // Returns the kinetic energy ½ pᵀM⁻¹p and writes M⁻¹p into `velocity` (sized like p).
    double kinetic_energy(const Eigen::VectorXd& p, Eigen::VectorXd& velocity) const;
    // Turns z ~ N(0, I) into a momentum p ~ N(0, M) in place: p = diag(M⁻¹)^(−½) z, or the
    // solution of Lᵀp = z (whose covariance is L⁻ᵀL⁻¹ = Σ⁻¹ = M).
    void momentum_from_standard_normal(Eigen::VectorXd& z) const;

    // diag(M⁻¹) for both kinds.
    const Eigen::VectorXd& inverse_diagonal() const { return diagonal_; }
    // Dense kind: M⁻¹ = Σ and its lower Cholesky factor L; empty matrices for the diagonal kind.
    const Eigen::MatrixXd& inverse_dense() const { return dense_; }
    const Eigen::MatrixXd& cholesky_factor() const { return cholesky_; }

private:
    NutsMetric kind_;
    Eigen::VectorXd diagonal_;
    Eigen::MatrixXd dense_;
    Eigen::MatrixXd cholesky_;
    Eigen::LLT<Eigen::MatrixXd> llt_;  // factorization workspace, sized once
    Eigen::MatrixXd fallback_;         // the diagonal fallback of set_from_covariance
};

// Welford estimate of the per-coordinate variances of a window's draws.
class DiagonalMetricEstimator {
public:
    explicit DiagonalMetricEstimator(int dimension);

    // Adds one draw; allocates nothing.
    void add(const Eigen::VectorXd& draw);
    int count() const { return count_; }
    // Forgets every draw (a new window starts).
    void restart();

    // The regularized variance estimate above, written into `inverse_metric` (resized to the
    // dimension). Requires count() ≥ 2.
    void regularized_variance(Eigen::VectorXd& inverse_metric) const;

private:
    int count_ = 0;
    Eigen::VectorXd mean_;
    Eigen::VectorXd m2_;     // sums of squared deviations from the running mean
    Eigen::VectorXd delta_;  // scratch, so add() does not allocate
};

// Welford estimate of the covariance matrix of a window's draws.
class DenseMetricEstimator {
public:
    explicit DenseMetricEstimator(int dimension);

    // Adds one draw; allocates nothing.
    void add(const Eigen::VectorXd& draw);
    int count() const { return count_; }
    // Forgets every draw (a new window starts).
    void restart();

    // The regularized covariance estimate above, written into `inverse_metric` (resized to
    // dimension × dimension, both triangles filled). Requires count() ≥ 2.
    void regularized_covariance(Eigen::MatrixXd& inverse_metric) const;

private:
    int count_ = 0;
    Eigen::VectorXd mean_;
    Eigen::MatrixXd m2_;     // lower triangle: sums of products of deviations from the running mean
    Eigen::VectorXd delta_;  // scratch, so add() does not allocate
};

}  // namespace sebo
