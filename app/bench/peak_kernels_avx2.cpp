// The AVX2 + FMA copy of the peak kernels (peak_kernels.h), compiled alone with -mavx2 -mfma on
// x86-64 (SEBO_AVX2_KERNEL, as the likelihood kernel's copy; app/CMakeLists.txt), elsewhere
// forwarding to the generic copy. sebo-bench calls it only where the likelihood kernel's AVX2 copy
// runs, that is on a CPU with AVX2 and FMA. Eigen is seen here under another namespace name, so
// that its inline and template functions compiled for AVX2 are distinct symbols from the baseline
// ones the rest of sebo-bench uses.
#if defined(SEBO_AVX2_KERNEL)
#define Eigen sebo_bench_avx2_eigen
#include <immintrin.h>

#include <Eigen/Dense>

#include "peak_kernels.h"

namespace sebo_bench::peak::avx2 {

#include "peak_kernels.inc"

bool built() { return true; }

double fma_chains(long iterations) {
    // x ← x·a + b converges to b / (1 − a) = 1: the chains stay finite however long they run.
    const __m256d a = _mm256_set1_pd(1.0 - 1e-7), b = _mm256_set1_pd(1e-7);
    __m256d x[12];
    for (int c = 0; c < 12; ++c) x[c] = _mm256_set1_pd(0.5 + 0.01 * c);
    for (long i = 0; i < iterations; ++i) {
        // Unrolled, so that the chains live in registers (12 of the 16) rather than on the stack.
#pragma GCC unroll 12
        for (int c = 0; c < 12; ++c) x[c] = _mm256_fmadd_pd(x[c], a, b);
    }
    __m256d sum = x[0];
    for (int c = 1; c < 12; ++c) sum = _mm256_add_pd(sum, x[c]);
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, sum);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

}  // namespace sebo_bench::peak::avx2

#else
#include "peak_kernels.h"

namespace sebo_bench::peak::avx2 {

void gemm(const double* a, const double* b, double* c, long m, long k, long n) { generic::gemm(a, b, c, m, k, n); }
void syrk_lower(const double* a, double* c, long n, long k) { generic::syrk_lower(a, c, n, k); }
void symm_lower(const double* a, const double* b, double* c, long n, long k) { generic::symm_lower(a, b, c, n, k); }
bool eigen_llt(const double* a, double* factor, long n) { return generic::eigen_llt(a, factor, n); }
void triangular_solve(const double* l, double* b, long n, long columns) { generic::triangular_solve(l, b, n, columns); }
void elementwise_exp(const double* x, double* y, long size) { generic::elementwise_exp(x, y, size); }
void elementwise_sqrt(const double* x, double* y, long size) { generic::elementwise_sqrt(x, y, size); }
bool built() { return false; }
double fma_chains(long) { return 0.0; }

}  // namespace sebo_bench::peak::avx2
#endif
