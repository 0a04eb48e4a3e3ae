// The AVX2 + FMA copy of the likelihood kernel (model/likelihood_kernel.h). CMake compiles this
// file alone with -mavx2 -mfma on x86-64 (SEBO_AVX2_KERNEL); elsewhere it forwards to the
// generic copy. Nothing here may run before the CPU check (likelihood_kernel_generic.cpp): no
// static initializers, no helpers the rest of the program calls. Eigen is seen here under another namespace name, so that its inline and
// template functions compiled for AVX2 are distinct symbols from the baseline ones every other
// file uses: the linker can never pick an AVX2 body for code that runs on any x86-64.
#if defined(SEBO_AVX2_KERNEL)
#define Eigen sebo_avx2_eigen
#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "model/likelihood_kernel.h"

namespace sebo::likelihood_kernel::avx2 {

#include "model/likelihood_kernel.inc"

}  // namespace sebo::likelihood_kernel::avx2

#else
#include "model/likelihood_kernel.h"

namespace sebo::likelihood_kernel::avx2 {

Result evaluate(const Buffers& buffers, const double* theta, double* gradient) {
    return generic::evaluate(buffers, theta, gradient);
}
Cholesky jittered_factor(const double* a, double* factor, long n) { return generic::jittered_factor(a, factor, n); }

}  // namespace sebo::likelihood_kernel::avx2
#endif
