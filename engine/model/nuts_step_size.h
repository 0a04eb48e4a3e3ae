#pragma once
// Dual-averaging step-size adaptation for the NUTS warm-up (Hoffman & Gelman 2014, §3.2 and
// Algorithm 6, after Nesterov 2009). The step size is tuned so that the mean acceptance
// statistic of the NUTS transitions approaches a target δ: each warm-up iteration feeds its
// acceptance statistic in and gets the next step size back; after warm-up the averaged iterate
// exp(x̄) is kept, which is less noisy than the last iterate.

#include <optional>
#include <string>

namespace sebo {

struct DualAveragingOptions {
    double target_acceptance = 0.8;  // δ: Stan's default, a good trade-off for NUTS
    double gamma = 0.05;             // γ: how strongly the iterate is pulled back towards μ
    double t0 = 10.0;                // t₀: damps the first iterations
    double kappa = 0.75;             // κ: decay of the weight of new iterates in x̄ (κ ∈ (0.5, 1] converges)

    // Empty when valid; otherwise a message naming the field ("gamma: -1 is not positive").
    std::optional<std::string> validate() const;
};

class DualAveraging {
public:
    // Starts adapting from initial_step_size (see restart()).
    DualAveraging(const DualAveragingOptions& options, double initial_step_size);

    // Starts a new adaptation phase from ε₀ (e.g. after a new mass matrix): forgets the history
    // and shrinks the iterates towards μ = log(10 ε₀), which favours larger steps (H&G §3.2).
    void restart(double initial_step_size);

    // Records one warm-up iteration's acceptance statistic (clipped to 1) and returns the step
    // size to use for the next iteration: x_t = μ − √t/γ · H̄_t, ε = exp(x_t).
    double update(double acceptance_statistic);

    // The step size to keep when warm-up ends: exp(x̄_t). Before any update since the last
    // restart there is no average yet, so ε₀ is returned.
    double final_step_size() const;

    int iterations() const { return count_; }

private:
    DualAveragingOptions options_;
    double initial_step_size_ = 1.0;
    double mu_ = 0.0;
    double h_bar_ = 0.0;  // running average of δ − α_t
    double x_bar_ = 0.0;  // running weighted average of log ε
    int count_ = 0;
};

}  // namespace sebo
