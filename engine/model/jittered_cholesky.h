#pragma once
// Cholesky factorization with jitter escalation. A kernel matrix is positive semi-definite in
// exact arithmetic but can fail to factor in floating point (duplicated inputs with zero noise,
// very long lengthscales). Following Eigen's convention that data-dependent failure is a
// returned status (as LLT::info()), the factorization is tried as is, then with jitter added to
// the diagonal at 1e-8, 1e-7, …, 1e-2 times the mean diagonal, and reports what it needed.

#include <Eigen/Core>

namespace sebo {

struct CholeskyStatus {
    bool ok = false;
    double jitter = 0.0;  // absolute amount added to the diagonal (0 when none was needed)
    int attempts = 0;     // factorizations tried (1 when the matrix factored as is)
};

// Relative jitter levels tried after the plain factorization fails.
inline constexpr double kJitterLevels[] = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2};

// Factors A + jitter·I = L Lᵀ, writing L into the lower triangle of `factor` (resized to
// A's size; its strict upper triangle is left with A's entries). Only A's lower triangle is
// read. A factorization is accepted when every pivot L_ii² is finite and positive (the
// factorization stops at the first one that is not; a NaN anywhere in A reaches a pivot). The
// factorization is recursive (LAPACK's dpotrf): the bulk of it is in Eigen's blocked
// triangular solve and rank update. Allocates nothing when `factor` already has A's size.
CholeskyStatus jittered_cholesky(const Eigen::MatrixXd& A, Eigen::MatrixXd& factor);

}  // namespace sebo
