#include "problems/branin_currin.h"

#include <cmath>

#include "problems/synthetic_functions.h"

namespace sebo {

BraninCurrinValue branin_currin(double u1, double u2) {
    const double factor = u2 > 0.0 ? 1.0 - std::exp(-1.0 / (2.0 * u2)) : 1.0;
    const double numerator = ((2300.0 * u1 + 1900.0) * u1 + 2092.0) * u1 + 60.0;
    const double denominator = ((100.0 * u1 + 500.0) * u1 + 4.0) * u1 + 20.0;
    return {branin_unit(u1, u2), factor * numerator / denominator};
}

}  // namespace sebo
