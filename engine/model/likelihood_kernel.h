#pragma once
// The numerical core of the GP log marginal likelihood (model/marginal_likelihood.h) and of the
// jittered Cholesky factorization (model/jittered_cholesky.h), compiled once per instruction
// set and chosen at run time. NUTS spends all its time here (docs/performance.md), and AVX2 with
// FMA makes one evaluation about a quarter cheaper than the baseline x86-64 code; a generic build
// must still run on any x86-64 processor, so the AVX2 copy is only called where the CPU has it.
//
// Both copies are the same source (likelihood_kernel.inc). The AVX2 one is compiled with
// -mavx2 -mfma and sees Eigen under another namespace name, so that none of its (inline,
// template) functions can stand in for the baseline ones at link time; tests/check_simd_symbols.sh
// verifies that its object file defines nothing outside that namespace and its own.
//
// This header is deliberately free of Eigen: the data cross the boundary as raw column-major
// arrays.

namespace sebo {

// Relative jitter levels tried after a plain Cholesky factorization fails (model/jittered_cholesky.h).
inline constexpr double kJitterLevels[] = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2};

}  // namespace sebo

namespace sebo::likelihood_kernel {

// Views of LikelihoodData and LmlWorkspace (model/marginal_likelihood.h): column-major arrays
// with leading dimension = rows; P = n(n−1)/2.
struct Buffers {
    long n = 0;
    long dimension = 0;
    bool noise_inferred = true;
    const double* centred_inputs = nullptr;    // n×D
    const double* targets = nullptr;           // n
    const double* noise_variances = nullptr;   // n (known noise only)
    // Scratch (sizes as in LmlWorkspace).
    double* rho = nullptr;             // D
    double* scaled_inputs = nullptr;   // n×D
    double* gram = nullptr;            // n×n
    double* gram_diagonal = nullptr;   // n
    double* column_r2 = nullptr;       // n
    double* column_sqrt5_r = nullptr;  // n
    double* column_exp = nullptr;      // n
    double* pair_dk = nullptr;         // P
    double* pair_weight = nullptr;     // n×n
    double* weight_row_sums = nullptr; // n
    double* weighted_inputs = nullptr; // n×D
    double* rho_gradient = nullptr;    // D
    double* residual = nullptr;        // n
    double* alpha = nullptr;           // n
    double* covariance = nullptr;      // n×n
    double* factor = nullptr;          // n×n
    double* inverse = nullptr;         // n×n
};

// How a jittered factorization went (sebo::CholeskyStatus).
struct Cholesky {
    bool ok = false;
    double jitter = 0.0;  // absolute amount added to the diagonal (0 when none was needed)
    int attempts = 0;     // factorizations tried (1 when the matrix factored as is)
};

struct Result {
    double value = 0.0;  // −∞ when the factorization failed even with the largest jitter
    Cholesky cholesky;
};

// One copy per instruction set; the same contract as log_marginal_likelihood and
// jittered_cholesky. `theta` has D + 2 (+1 when the noise is inferred) entries; `gradient`, when
// not null, as many.
#define SEBO_LIKELIHOOD_KERNEL_DECLARATIONS                                                      \
    Result evaluate(const Buffers& buffers, const double* theta, double* gradient);             \
    /* Factors A + jitter·I = L Lᵀ (n×n, lower triangles) as jittered_cholesky does. */         \
    Cholesky jittered_factor(const double* a, double* factor, long n);

namespace generic {
SEBO_LIKELIHOOD_KERNEL_DECLARATIONS
}
namespace avx2 {
SEBO_LIKELIHOOD_KERNEL_DECLARATIONS
bool built();      // false when this build has no AVX2 copy (not x86-64); it then forwards to generic
bool supported();  // this CPU has AVX2 and FMA
}
#undef SEBO_LIKELIHOOD_KERNEL_DECLARATIONS

// The copy log_marginal_likelihood uses: avx2 when built and supported, unless the environment
// variable SEBO_SIMD is "generic" (to reproduce a run bit for bit on another processor). Chosen
// once per process.
using Evaluate = Result (*)(const Buffers&, const double*, double*);
Evaluate selected();
const char* selected_name();  // "avx2+fma" or "generic"

}  // namespace sebo::likelihood_kernel
