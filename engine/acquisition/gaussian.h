#pragma once
// Standard normal helpers for expected-improvement style acquisitions, accurate in log space far
// into the lower tail so that EI does not vanish numerically far from the incumbent (the
// "LogEI" concern of Ament et al., NeurIPS 2023).
//
// h(z) = E[(Z + z)_+] = φ(z) + z Φ(z) for Z ~ N(0,1); EI(μ, σ; b) = σ h((μ − b)/σ).

namespace sebo {

double normal_pdf(double z);
double normal_cdf(double z);
// log Φ(z), accurate for z down to about −1e150.
double log_normal_cdf(double z);
// h(z) = φ(z) + zΦ(z) and log h(z), accurate in the lower tail (asymptotic series below −8).
// Measured against long-double φ + zΦ (erfc from Boost.Math) on a 0.01 grid: relative error of h at
// most 7e-13 on [−8, 5] and 3.2e-9 on [−37, −8] (largest at −8, where the series is shortest);
// of log h at most 1.1e-13 and 8.7e-11.
double expected_improvement_h(double z);
double log_expected_improvement_h(double z);
// log h(z) and log Φ(z) together, equal to the two functions above, for about the cost of one
// (they share the tail series' common factors, or Φ(z) above the tail).
struct LogHAndCdf {
    double log_h;
    double log_cdf;
};
LogHAndCdf log_expected_improvement_h_and_cdf(double z);
// h(z), Φ(z) and φ(z) in linear space from one exp and (above the tail) one erfc: below −8 from the
// asymptotic series, so that h is accurate to where it underflows (z ≈ −37).
struct HAndCdf {
    double h;
    double cdf;
    double pdf;
};
HAndCdf expected_improvement_h_and_cdf(double z);

}  // namespace sebo
