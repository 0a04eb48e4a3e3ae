#include "model/nuts_step_size.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/format.h"

namespace sebo {

std::optional<std::string> DualAveragingOptions::validate() const {
    if (!(target_acceptance > 0.0 && target_acceptance < 1.0))
        return "target_acceptance: " + format_number(target_acceptance) + " is not between 0 and 1";
    if (!(gamma > 0.0 && std::isfinite(gamma))) return "gamma: " + format_number(gamma) + " is not positive";
    if (!(t0 >= 0.0 && std::isfinite(t0))) return "t0: " + format_number(t0) + " is negative";
    if (!(kappa > 0.0 && kappa <= 1.0)) return "kappa: " + format_number(kappa) + " is not in (0, 1]";
    return std::nullopt;
}

DualAveraging::DualAveraging(const DualAveragingOptions& options, double initial_step_size) : options_(options) {
    assert(!options.validate());
    restart(initial_step_size);
}

void DualAveraging::restart(double initial_step_size) {
    assert(initial_step_size > 0.0 && std::isfinite(initial_step_size));
    initial_step_size_ = initial_step_size;
    mu_ = std::log(10.0 * initial_step_size);
    h_bar_ = 0.0;
    x_bar_ = 0.0;
    count_ = 0;
}

double DualAveraging::update(double acceptance_statistic) {
    // A NaN statistic cannot come from a NUTS transition (it always takes one leapfrog step), but
    // treat it as a rejection rather than poisoning every later step size.
    const double alpha = std::isnan(acceptance_statistic) ? 0.0 : std::min(1.0, acceptance_statistic);
    ++count_;
    const double t = static_cast<double>(count_);
    const double eta = 1.0 / (t + options_.t0);
    h_bar_ = (1.0 - eta) * h_bar_ + eta * (options_.target_acceptance - alpha);
    const double x = mu_ - h_bar_ * std::sqrt(t) / options_.gamma;
    const double weight = std::pow(t, -options_.kappa);
    x_bar_ = (1.0 - weight) * x_bar_ + weight * x;
    return std::exp(x);
}

double DualAveraging::final_step_size() const { return count_ == 0 ? initial_step_size_ : std::exp(x_bar_); }

}  // namespace sebo
