#pragma once
// The classic low-dimensional test functions behind the embedded benchmarks (paper §5,
// "Synthetic functions"; SPEC §4). Pure functions in their usual domains and signs
// (minimization), plus their published optima.

#include <array>

namespace sebo {

// Branin on x1 in [-5, 10], x2 in [0, 15]:
//   a (x2 - b x1^2 + c x1 - r)^2 + s (1 - t) cos(x1) + s
// with a = 1, b = 5.1/(4 pi^2), c = 5/pi, r = 6, s = 10, t = 1/(8 pi).
double branin(double x1, double x2);
// Global minimum value, attained at (-pi, 12.275), (pi, 2.275) and (9.42478, 2.475).
inline constexpr double kBraninMinimum = 0.397887;
// Branin of unit-cube coordinates: x1 = -5 + 15 u1, x2 = 15 u2.
double branin_unit(double u1, double u2);

// Hartmann6 on [0, 1]^6: -sum_i alpha_i exp(-sum_j A_ij (x_j - P_ij)^2).
double hartmann6(const std::array<double, 6>& x);
inline constexpr double kHartmann6Minimum = -3.32237;
inline constexpr std::array<double, 6> kHartmann6Minimizer = {0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573};

}  // namespace sebo
