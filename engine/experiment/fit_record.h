#pragma once
// What a model-based trial records about the SAAS-NUTS fit that proposed it (issue 15): how the
// posterior was sampled and whether the chains converged — R̂ and bulk-ESS (Vehtari et al. 2021,
// model/mcmc_diagnostics.h) of the log density and of the most relevant inputs, and the
// divergences after warm-up. Kept with the trial in the experiment file ("fit"), so that a
// result can be judged later by the quality of the model behind it.

#include <optional>
#include <string>
#include <vector>

namespace sebo {

struct ParameterConvergenceRecord {
    std::string parameter;          // the input's name
    std::optional<double> rhat;     // unset when undefined (non-finite draws)
    std::optional<double> ess_bulk;
    bool operator==(const ParameterConvergenceRecord&) const = default;
};

struct FitRecord {
    std::string nuts;            // the sampler settings: "fast" or "paper"
    int chains = 1;
    // Where the chains started: "warm" (the previous step's sampler state), "mode" (draws of the
    // Laplace approximation at the posterior mode) or "full" (the paper's full warm-up).
    std::string start = "full";
    // Why a fast fit did not warm-start (no earlier state, data changed, diagnostics failed…).
    std::string cold_start_reason;
    int warmup = 0;              // warm-up iterations of each chain
    int draws = 0;               // kept posterior samples, all chains
    int divergences = 0;         // after warm-up, all chains
    std::optional<double> rhat;  // of the log density
    std::optional<double> ess_bulk;
    std::vector<ParameterConvergenceRecord> parameters;  // the most relevant inputs first
    double seconds = 0.0;        // wall-clock seconds of the fit

    // R̂ above this, or a divergence after warm-up, is reported as a warning.
    static constexpr double kRhatWarning = 1.05;
    // The largest R̂ recorded (of the log density and the parameters); unset when none is.
    std::optional<double> max_rhat() const;
    // Empty when converged by these criteria; otherwise a sentence for a warning.
    std::string warning() const;
    // Empty when consistent; otherwise a message whose field path starts with `path`.
    std::optional<std::string> validate(const std::string& path) const;
    // Every field equal (Trial's operator==, which a merge of two copies of a file uses).
    bool operator==(const FitRecord&) const = default;
};

}  // namespace sebo
