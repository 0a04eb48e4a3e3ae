#pragma once
// The Matérn-5/2 ARD kernel with output scale (SPEC §2 "Standard GP"; the kernel of both the
// standard GP and the SAAS GP in the SEBO paper, §2 and §6):
//
//     k(x, x') = σ² (1 + √5 r + 5r²/3) exp(−√5 r),   r² = s = Σ_d ρ_d (x_d − x'_d)²,
//
// with ρ_d = 1/ℓ_d² the inverse squared lengthscales. Everything is written as a function of
// s = r² rather than r: the correlation is smooth in s, and its derivative
//
//     dc/ds = −(5/6) (1 + √5 r) exp(−√5 r)
//
// is finite at r = 0, so gradients with respect to inputs and to ρ need no special case for
// coincident points (∂s/∂x_d = 2ρ_d (x_d − x'_d), ∂s/∂ρ_d = (x_d − x'_d)²).

#include <Eigen/Core>
#include <cmath>

namespace sebo {

// Unit-scale Matérn-5/2 correlation c(s) and its derivative dc/ds at s = r² ≥ 0.
struct Matern52Value {
    double value = 1.0;
    double derivative = -5.0 / 6.0;
};

inline Matern52Value matern52(double squared_distance) {
    const double r = std::sqrt(squared_distance);
    const double sqrt5_r = 2.2360679774997896964 * r;  // √5 r
    const double e = std::exp(-sqrt5_r);
    return {(1.0 + sqrt5_r + (5.0 / 3.0) * squared_distance) * e, (-5.0 / 6.0) * (1.0 + sqrt5_r) * e};
}

// S_ij = Σ_d ρ_d (a_id − b_jd)² for the rows of A (m×D) and B (n×D); m×n. Computed coordinate by
// coordinate (not through ‖a‖² + ‖b‖² − 2a·b) so that it is exact to rounding near zero.
Eigen::MatrixXd scaled_squared_distances(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                         const Eigen::VectorXd& inverse_squared_lengthscales);

// K_ij = σ² c(S_ij) for the rows of A and B; m×n.
Eigen::MatrixXd matern52_covariance(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                    const Eigen::VectorXd& inverse_squared_lengthscales, double output_scale);

}  // namespace sebo
