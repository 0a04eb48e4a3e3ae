#include "problems/constrained_hartmann6.h"

#include <numeric>

namespace sebo {

double hartmann6_coordinate_sum(const std::array<double, 6>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

}  // namespace sebo
