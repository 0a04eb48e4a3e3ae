#include "model/training_data.h"

#include <cmath>

#include "core/format.h"

namespace sebo {

std::optional<std::string> TrainingData::validate() const {
    if (inputs.rows() < 1) return "inputs: no points";
    if (inputs.cols() < 1) return "inputs: no dimensions";
    if (targets.size() != inputs.rows())
        return "targets: " + std::to_string(targets.size()) + " values for " + std::to_string(inputs.rows()) +
               " points";
    constexpr double kTolerance = 1e-9;
    for (Eigen::Index i = 0; i < inputs.rows(); ++i) {
        for (Eigen::Index d = 0; d < inputs.cols(); ++d) {
            const double x = inputs(i, d);
            if (!std::isfinite(x) || x < -kTolerance || x > 1.0 + kTolerance)
                return "inputs[" + std::to_string(i) + "][" + std::to_string(d) + "]: " + format_number(x) +
                       " is outside the unit interval";
        }
        if (!std::isfinite(targets[i]))
            return "targets[" + std::to_string(i) + "]: " + format_number(targets[i]) + " is not finite";
    }
    if (noise_variances.size() != 0) {
        if (noise_variances.size() != inputs.rows())
            return "noise_variances: " + std::to_string(noise_variances.size()) + " values for " +
                   std::to_string(inputs.rows()) + " points";
        for (Eigen::Index i = 0; i < noise_variances.size(); ++i)
            if (!std::isfinite(noise_variances[i]) || noise_variances[i] < 0.0)
                return "noise_variances[" + std::to_string(i) + "]: " + format_number(noise_variances[i]) +
                       " is not a finite non-negative number";
    }
    return std::nullopt;
}

}  // namespace sebo
