#pragma once
// Cholesky factorization with jitter escalation. A kernel matrix is positive semi-definite in
// exact arithmetic but can fail to factor in floating point (duplicated inputs with zero noise,
// very long lengthscales). Following Eigen's convention that data-dependent failure is a
// returned status (as LLT::info()), the factorization is tried as is, then with jitter added to
// the diagonal at 1e-8, 1e-7, …, 1e-2 times the mean diagonal, and reports what it needed.

#include <Eigen/Core>

#include "model/likelihood_kernel.h"  // CholeskyStatus, kJitterLevels

namespace sebo {

using CholeskyStatus = likelihood_kernel::Cholesky;

// Factors A + jitter·I = L Lᵀ, writing L into the lower triangle of `factor` (resized to
// A's size; its strict upper triangle is left with A's entries). Only A's lower triangle is
// read. A factorization is accepted when every pivot L_ii² is finite and positive (the
// factorization stops at the first one that is not; a NaN anywhere in A reaches a pivot). The
// factorization is recursive (LAPACK's dpotrf): the bulk of it is in Eigen's blocked
// triangular solve and rank update. Allocates nothing when `factor` already has A's size.
// The baseline copy of likelihood_kernel::jittered_factor (model/likelihood_kernel.h).
CholeskyStatus jittered_cholesky(const Eigen::MatrixXd& A, Eigen::MatrixXd& factor);

// The factor for drawing from N(0, A), A a posterior covariance: L of A + 1e-8·(mean diagonal)·I,
// escalated by jittered_cholesky when A is more nearly singular than that (duplicated
// information, very long lengthscales), with its strict upper triangle zeroed.
CholeskyStatus draw_factor(Eigen::MatrixXd A, Eigen::MatrixXd& factor);

}  // namespace sebo
