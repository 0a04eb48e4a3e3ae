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
double expected_improvement_h(double z);
double log_expected_improvement_h(double z);

}  // namespace sebo
