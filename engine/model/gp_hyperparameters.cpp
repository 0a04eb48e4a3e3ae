#include "model/gp_hyperparameters.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/format.h"

namespace sebo {

Eigen::VectorXd GpHyperparameters::lengthscales() const {
    Eigen::VectorXd l(inverse_squared_lengthscales.size());
    for (Eigen::Index d = 0; d < l.size(); ++d) {
        const double rho = inverse_squared_lengthscales[d];
        l[d] = rho > 0.0 ? 1.0 / std::sqrt(rho) : std::numeric_limits<double>::infinity();
    }
    return l;
}

std::optional<std::string> GpHyperparameters::validate() const {
    if (inverse_squared_lengthscales.size() == 0) return "inverse_squared_lengthscales: empty";
    for (Eigen::Index d = 0; d < inverse_squared_lengthscales.size(); ++d) {
        const double rho = inverse_squared_lengthscales[d];
        if (!std::isfinite(rho) || rho < 0.0)
            return "inverse_squared_lengthscales[" + std::to_string(d) + "]: " + format_number(rho) +
                   " is not a finite non-negative number";
    }
    if (!std::isfinite(output_scale) || output_scale <= 0.0)
        return "output_scale: " + format_number(output_scale) + " is not a finite positive number";
    if (!std::isfinite(noise) || noise < 0.0)
        return "noise: " + format_number(noise) + " is not a finite non-negative number";
    if (!std::isfinite(mean)) return "mean: " + format_number(mean) + " is not finite";
    return std::nullopt;
}

Eigen::VectorXd to_unconstrained(const GpHyperparameters& h, const UnconstrainedLayout& layout) {
    assert(h.dimension() == layout.dimension);
    Eigen::VectorXd theta(layout.size());
    theta.head(layout.dimension) = h.inverse_squared_lengthscales.array().log();
    theta[layout.output_scale_index()] = std::log(h.output_scale);
    if (layout.noise_inferred) theta[layout.noise_index()] = std::log(h.noise);
    theta[layout.mean_index()] = h.mean;
    return theta;
}

GpHyperparameters from_unconstrained(const Eigen::VectorXd& theta, const UnconstrainedLayout& layout) {
    assert(theta.size() == layout.size());
    GpHyperparameters h;
    h.inverse_squared_lengthscales = theta.head(layout.dimension).array().exp();
    h.output_scale = std::exp(theta[layout.output_scale_index()]);
    h.noise = layout.noise_inferred ? std::exp(theta[layout.noise_index()]) : 0.0;
    h.mean = theta[layout.mean_index()];
    return h;
}

}  // namespace sebo
