#include "problems/synthetic_functions.h"

#include <cmath>
#include <numbers>

namespace sebo {

double branin(double x1, double x2) {
    constexpr double pi = std::numbers::pi;
    constexpr double b = 5.1 / (4.0 * pi * pi);
    constexpr double c = 5.0 / pi;
    constexpr double r = 6.0;
    constexpr double s = 10.0;
    constexpr double t = 1.0 / (8.0 * pi);
    const double inner = x2 - b * x1 * x1 + c * x1 - r;
    return inner * inner + s * (1.0 - t) * std::cos(x1) + s;
}

double branin_unit(double u1, double u2) { return branin(-5.0 + 15.0 * u1, 15.0 * u2); }

double hartmann6(const std::array<double, 6>& x) {
    static constexpr double alpha[4] = {1.0, 1.2, 3.0, 3.2};
    static constexpr double A[4][6] = {{10.0, 3.0, 17.0, 3.5, 1.7, 8.0},
                                       {0.05, 10.0, 17.0, 0.1, 8.0, 14.0},
                                       {3.0, 3.5, 1.7, 10.0, 17.0, 8.0},
                                       {17.0, 8.0, 0.05, 10.0, 0.1, 14.0}};
    static constexpr double P[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                       {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                       {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                       {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
    double value = 0.0;
    for (int i = 0; i < 4; ++i) {
        double exponent = 0.0;
        for (int j = 0; j < 6; ++j) {
            const double d = x[static_cast<std::size_t>(j)] - P[i][j];
            exponent += A[i][j] * d * d;
        }
        value -= alpha[i] * std::exp(-exponent);
    }
    return value;
}

}  // namespace sebo
