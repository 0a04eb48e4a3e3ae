// The baseline copy of the likelihood kernel (model/likelihood_kernel.h), compiled with the
// build's flags, and the run-time choice between the copies (SEBO_AVX2_KERNEL: this build has
// the AVX2 copy).
#include <Eigen/Core>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "model/likelihood_kernel.h"

namespace sebo::likelihood_kernel {

namespace generic {
#include "model/likelihood_kernel.inc"
}  // namespace generic

namespace avx2 {

#if defined(SEBO_AVX2_KERNEL)
bool built() { return true; }
bool supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#else
bool built() { return false; }
bool supported() { return false; }
#endif

}  // namespace avx2

namespace {

bool avx2_chosen() {
    if (const char* forced = std::getenv("SEBO_SIMD"); forced && std::string_view(forced) == "generic") return false;
    return avx2::built() && avx2::supported();
}

}  // namespace

Evaluate selected() {
    static const Evaluate chosen = avx2_chosen() ? &avx2::evaluate : &generic::evaluate;
    return chosen;
}

const char* selected_name() { return selected() == &generic::evaluate ? "generic" : "avx2+fma"; }

}  // namespace sebo::likelihood_kernel
