#pragma once
// The GP log marginal likelihood and its analytic gradient with respect to the unconstrained
// hyperparameters θ = [log ρ_1 … log ρ_D, log σ², log noise (when inferred), mean]
// (model/gp_hyperparameters.h):
//
//     L(θ) = −½ (y − m)ᵀ K⁻¹ (y − m) − ½ log|K| − (n/2) log 2π,   K = σ² C + diag(noise),
//     ∂L/∂θ_k = Σ_ij W_ij ∂K_ij/∂θ_k,   W = ½ (ααᵀ − K⁻¹),   α = K⁻¹ (y − m),
//     ∂L/∂m = Σ_i α_i                                    (Rasmussen & Williams 2006, eq. 5.9).
//
// This is the hot path of SAAS inference: NUTS evaluates it for every leapfrog step, tens of
// thousands of times per fit (768 iterations of up to 63 steps at the paper's settings, SPEC
// §2), so it is organised around one precomputation per data set and allocates nothing.
//   - All pairwise r²_ij = Σ_d ρ_d (x_id − x_jd)² come from one symmetric rank-D update
//       G = S Sᵀ,  S = X diag(√ρ),  r²_ij = G_ii + G_jj − 2 G_ij (clamped at 0),
//     a blocked matrix–matrix kernel on the n×D inputs (centred per column, which leaves r²
//     unchanged and makes the cancellation error relative to a smaller G). Coincident points
//     get r² = 0: G_ii and G_ij are then the same sums.
//   - The whole lengthscale gradient is one transposed product with the squared pair
//     differences Δ²_ijd = (x_id − x_jd)², stored once for the n(n−1)/2 pairs i > j:
//       ∂L/∂log ρ_d = ρ_d Σ_{i>j} 2 W_ij σ² c'(r²_ij) Δ²_ijd = ρ_d (Δ²ᵀ v)_d.
// The remaining cost is O(n³): the Cholesky factor, L⁻¹ and K⁻¹ = L⁻ᵀL⁻¹ (n³/6 multiply-adds
// each, as LAPACK's dpotrf/dtrtri/dlauum), done in preallocated buffers. The arithmetic is in
// model/likelihood_kernel.*, compiled for baseline x86-64 and for AVX2 + FMA, chosen at run time.

#include <Eigen/Core>
#include <memory>

#include "model/gp_hyperparameters.h"
#include "model/jittered_cholesky.h"
#include "model/training_data.h"

namespace sebo {

// Immutable per-data-set precomputation, shared (read-only) by every evaluation and thread.
class LikelihoodData {
public:
    // data must be valid (TrainingData::validate()).
    explicit LikelihoodData(TrainingData data);

    const TrainingData& data() const { return data_; }
    int num_points() const { return data_.num_points(); }
    int dimension() const { return data_.dimension(); }
    UnconstrainedLayout layout() const { return {data_.dimension(), data_.noise_inferred()}; }

    // The inputs minus their column means; n×D.
    const Eigen::MatrixXd& centred_inputs() const { return centred_inputs_; }

private:
    TrainingData data_;
    Eigen::MatrixXd centred_inputs_;
};

// Scratch buffers for one evaluation at a time; sized once, reused without allocation. Their
// contents between calls are meaningless. Not shareable between threads.
struct LmlWorkspace {
    explicit LmlWorkspace(const LikelihoodData& data);

    Eigen::VectorXd rho;          // D
    Eigen::MatrixXd scaled_inputs;  // n×D: S = X diag(√ρ)
    Eigen::MatrixXd gram;         // n×n: G = S Sᵀ (lower triangle)
    Eigen::VectorXd gram_diagonal;  // n
    Eigen::VectorXd column_r2;    // n: r² of one column of pairs, then 2 W_ij
    Eigen::VectorXd column_sqrt5_r;  // n
    Eigen::VectorXd column_exp;   // n: e^{−√5 r}
    Eigen::VectorXd pair_dk;      // P: dk/ds = σ² c'(r²) for each pair
    Eigen::MatrixXd pair_weight;  // n×n: w_ij = 2 W_ij dk/ds (strict lower triangle, zero diagonal)
    Eigen::VectorXd weight_row_sums;  // n: Σ_j w_ij over the symmetric w
    Eigen::MatrixXd weighted_inputs;  // n×D: w X (centred)
    Eigen::VectorXd rho_gradient; // D
    Eigen::VectorXd residual;     // n: y − m
    Eigen::VectorXd alpha;        // n: K⁻¹ (y − m)
    Eigen::MatrixXd covariance;   // n×n: K (lower triangle)
    Eigen::MatrixXd factor;       // n×n: L (lower triangle)
    Eigen::MatrixXd inverse;      // n×n: L⁻¹, then K⁻¹ (lower triangle)
};

// value (−∞ when the factorization failed even with the largest jitter) and the jitter the
// evaluation needed.
using LmlResult = likelihood_kernel::Result;

// L(θ) for θ laid out as data.layout(); when `gradient` is non-null it is resized to θ's size
// and receives ∂L/∂θ (zero when the factorization failed). A pure function of (data, θ): the
// workspace only provides memory.
LmlResult log_marginal_likelihood(const LikelihoodData& data, const Eigen::VectorXd& theta,
                                  Eigen::VectorXd* gradient, LmlWorkspace& workspace);

// The raw views the kernel copies work on (for calling one copy directly, as the tests do).
likelihood_kernel::Buffers kernel_buffers(const LikelihoodData& data, LmlWorkspace& workspace);

}  // namespace sebo
