#include "model/noise_level.h"

#include <cmath>

namespace sebo {

double noise_sd(const EnsemblePosterior& posterior) {
    const TrainingData& data = posterior.data();
    const double known = data.noise_inferred() || data.noise_variances.size() == 0 ? 0.0 : data.noise_variances.mean();
    double total = 0.0;
    for (const GaussianProcess& member : posterior.members()) total += member.hyperparameters().noise + known;
    return posterior.empty() ? 0.0 : std::sqrt(total / static_cast<double>(posterior.size()));
}

}  // namespace sebo
