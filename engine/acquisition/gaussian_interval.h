#pragma once
// Gaussian expectations over an interval, in log space: the pieces of the box-decomposition EHVI
// (acquisition/box_ehvi.h) and of the probability of feasibility (acquisition/feasibility.h).
//
// For Y ~ N(μ, σ²), a box side [l, u) (u may be +∞) and z_b = (μ − b)/σ, the expected part of the
// side that Y covers is the clipped improvement
//     ψ(l, u) = E[(min(Y, u) − l)_+] = EI(l) − EI(u) = σ (h(z_l) − h(z_u)),
// h(z) = φ(z) + zΦ(z) as in acquisition/gaussian.h (EI(∞) = 0), with
//     ∂ψ/∂μ = Φ(z_l) − Φ(z_u),   ∂ψ/∂σ = φ(z_l) − φ(z_u)
// (Yang, Emmerich, Deutz & Bäck 2019, "Efficient computation of expected hypervolume improvement
// using box decomposition algorithms", J. Glob. Optim. 75, eq. 13–16 for one side of a box).
//
// The differences are formed without cancellation: far in the lower tail from the logarithms
// (log(e^A − e^B) = A + log(1 − e^{B−A})); above the interval (z_u ≥ 0) from h(z) = z + h(−z), so
// that only tail values are subtracted; and for an interval narrow against the curvature of the
// integrand, width·max(1, |z|) ≤ 1, as an 8-point Gauss–Legendre rule on the integral
// h(b) − h(a) = ∫_a^b Φ, Φ(b) − Φ(a) = ∫_a^b φ (relative error below 1e-15 there).

#include <limits>

namespace sebo {

// log(1 − e^x) for x ≤ 0 (−∞ at x = 0), accurate for x near 0 and far below it (Mächler 2012).
double log1mexp(double x);

// log(h(b) − h(a)) = log ∫_a^b Φ(t) dt for a < b; a may be −∞.
double log_h_difference(double a, double b);
// log(Φ(b) − Φ(a)) = log ∫_a^b φ(t) dt for a < b; a may be −∞ and b may be +∞.
double log_normal_cdf_difference(double a, double b);

// The standardized quantities at one boundary b of an interval, for one Gaussian: z = (μ − b)/σ
// and the logarithms the interval formulas need. Computed once per boundary and shared by the
// intervals that meet there. z = −∞ stands for b = +∞.
struct GaussianBoundary {
    double z = -std::numeric_limits<double>::infinity();
    double log_h = -std::numeric_limits<double>::infinity();    // log h(z)
    double log_cdf = -std::numeric_limits<double>::infinity();  // log Φ(z)
    double tail_h = 0.0;                                        // h(−z), set when z ≥ 0
    double log_tail_cdf = 0.0;                                  // log Φ(−z), set when z ≥ 0
};
GaussianBoundary gaussian_boundary(double z);

// log ψ/σ = log(h(z_l) − h(z_u)) and the two numerators of its derivatives, for the interval whose
// lower end has `lower` (z_l) and upper end `upper` (z_u < z_l), width_z = (u − l)/σ > 0 (passed
// separately: z_l − z_u would cancel when both are large). Without `derivatives` only
// log_h_difference is set (cheaper, for values alone).
struct LogIntervalMoments {
    double log_h_difference = 0.0;     // log(h(z_l) − h(z_u))
    double log_cdf_difference = 0.0;   // log(Φ(z_l) − Φ(z_u))
    double pdf_difference_sign = 0.0;  // sign of φ(z_l) − φ(z_u): −1, 0 or 1
    double log_abs_pdf_difference = -std::numeric_limits<double>::infinity();
};
LogIntervalMoments log_interval_moments(const GaussianBoundary& lower, const GaussianBoundary& upper, double width_z,
                                        bool derivatives = true);

// The same in linear space, for boundaries that are not far in the lower tail: one exp and at most
// one erfc per boundary and no logarithm, several times cheaper. Valid for z ≥ kLinearTailZ, where
// h(z) > 1e-270 (no underflow, with room for a factor σ). Linear differences lose only a factor
// 1/(width·max(1, |z|)) of the precision, so the quadrature is needed only for intervals narrower
// than 1e-3 of that: there the midpoint rule with its first correction term is exact to rounding.
inline constexpr double kLinearTailZ = -35.0;
struct GaussianBoundaryValues {
    double z = -std::numeric_limits<double>::infinity();
    double h = 0.0, cdf = 0.0, pdf = 0.0;
    double tail_h = 0.0, tail_cdf = 1.0;  // h(−z) and Φ(−z)
};
GaussianBoundaryValues gaussian_boundary_values(double z);
struct IntervalMoments {
    double h_difference = 0.0;    // h(z_l) − h(z_u)
    double cdf_difference = 0.0;  // Φ(z_l) − Φ(z_u)
    double pdf_difference = 0.0;  // φ(z_l) − φ(z_u)
};
IntervalMoments interval_moments(const GaussianBoundaryValues& lower, const GaussianBoundaryValues& upper,
                                 double width_z);

// log ψ(l, u) for N(μ, σ²) with its derivatives ∂ log ψ/∂μ and ∂ log ψ/∂σ (u may be +∞, l < u).
struct LogClippedImprovement {
    double value = 0.0;
    double dmean = 0.0;
    double dsigma = 0.0;
};
LogClippedImprovement log_clipped_improvement(double mean, double sigma, double lower, double upper);

}  // namespace sebo
