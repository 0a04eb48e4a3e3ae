#pragma once
// A built-in problem measured with Gaussian noise (issue 30 item 1: `--noise SD`): every metric's
// value is the inner problem's plus an independent N(0, sd²) draw, sd in the metric's own units.
// The noise is drawn from the trial's noise seed (problem_noise_seed: the experiment's seed and the
// trial index), so an experiment is reproducible and a re-run trial measures the same value. No
// standard error is reported for the added noise — as with most real measurements, the model has
// to infer it — while a stochastic problem's own standard error (sourcing's) is kept.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "problems/problem.h"

namespace sebo {

class NoisyProblem final : public Problem {
public:
    // sd: metric name → standard deviation (> 0, finite); metrics not named are measured as the
    // inner problem measures them. Preconditions asserted: problem_catalog.h validates.
    NoisyProblem(std::shared_ptr<const Problem> inner, std::map<std::string, double> sd);

    const SearchSpace& space() const override { return inner_->space(); }
    Outcomes outcomes() const override { return inner_->outcomes(); }
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;
    std::optional<double> optimum() const override { return inner_->optimum(); }
    std::vector<int> effective_dimensions() const override { return inner_->effective_dimensions(); }
    std::map<std::string, double> noise_free_values(const std::vector<double>& x) const override {
        return inner_->noise_free_values(x);
    }
    bool noisy() const override { return true; }

    const Problem& inner() const { return *inner_; }
    const std::map<std::string, double>& noise_sd() const { return sd_; }

private:
    std::shared_ptr<const Problem> inner_;
    std::map<std::string, double> sd_;
};

}  // namespace sebo
