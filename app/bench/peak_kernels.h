#pragma once
// The kinds of arithmetic the likelihood kernel (engine/model/likelihood_kernel.h) is made of, on
// their own, for sebo-bench's flops section (flops_bench.h): what this machine attains for dense
// matrix products, a Cholesky factorization, triangular solves and elementwise exp and sqrt. Like
// the kernel they are compiled twice, with the build's flags and with -mavx2 -mfma, because a rate
// measured with other instructions than the kernel's would not be its limit. The AVX2 copy sees
// Eigen under another namespace name (as engine/model/likelihood_kernel_avx2.cpp does), so that
// none of its inline or template functions can stand in for the baseline ones at link time.
//
// Column-major raw arrays cross the boundary; every routine overwrites its output only.

namespace sebo_bench::peak {

#define SEBO_PEAK_KERNEL_DECLARATIONS                                                                         \
    /* C = A B; A is m×k, B k×n, C m×n. */                                                                    \
    void gemm(const double* a, const double* b, double* c, long m, long k, long n);                          \
    /* The lower triangle of C = A Aᵀ; A is n×k, C n×n. */                                                   \
    void syrk_lower(const double* a, double* c, long n, long k);                                             \
    /* C = A B with A (n×n) symmetric, read from its lower triangle; B is n×k, C n×k. */                     \
    void symm_lower(const double* a, const double* b, double* c, long n, long k);                            \
    /* Eigen's LLT of A's lower triangle, in place in `factor` (A copied into it first); false when */       \
    /* A is not positive definite. */                                                                        \
    bool eigen_llt(const double* a, double* factor, long n);                                                 \
    /* B ← L⁻¹ B for the lower triangle of the n×n L and the n×columns B (forward substitution). */          \
    void triangular_solve(const double* l, double* b, long n, long columns);                                 \
    /* y = exp(x) and y = sqrt(x), elementwise, with Eigen's array functions as the kernel uses them. */     \
    void elementwise_exp(const double* x, double* y, long size);                                             \
    void elementwise_sqrt(const double* x, double* y, long size);

namespace generic {
SEBO_PEAK_KERNEL_DECLARATIONS
}
namespace avx2 {
SEBO_PEAK_KERNEL_DECLARATIONS
bool built();  // false when this build has no AVX2 copy (not x86-64); it then forwards to generic
// Multiply-adds in registers only: 12 independent chains of 4-wide FMAs, `iterations` rounds
// (96 flops each), enough chains to keep two FMA pipes busy through a latency of up to 6 cycles:
// the highest rate AVX2 code reaches on this core (16 flops per cycle with two 256-bit FMA
// pipes). Returns a value that depends on every chain. Not built: returns 0.
double fma_chains(long iterations);
}  // namespace avx2
#undef SEBO_PEAK_KERNEL_DECLARATIONS

}  // namespace sebo_bench::peak
