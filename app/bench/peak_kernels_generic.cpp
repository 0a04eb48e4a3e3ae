// The baseline copy of the peak kernels (peak_kernels.h), compiled with the build's flags.
#include <Eigen/Dense>

#include "peak_kernels.h"

namespace sebo_bench::peak::generic {

#include "peak_kernels.inc"

}  // namespace sebo_bench::peak::generic
