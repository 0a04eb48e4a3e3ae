#pragma once
// Helpers shared by the model tests: random training data and finite-difference gradients.

#include <Eigen/Core>
#include <cmath>

#include "model/gp_hyperparameters.h"
#include "core/portable_random.h"
#include "model/training_data.h"

namespace sebo::test {

// n random points in [0,1]^D with y = sin(3 x_0) + 0.3 ε; known noise variances in
// [0.001, 0.05] when asked for.
inline TrainingData make_random_data(int n, int dimension, PortableRandom& random, bool known_noise) {
    TrainingData d;
    d.inputs.resize(n, dimension);
    d.targets.resize(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < dimension; ++j) d.inputs(i, j) = random.uniform();
        d.targets[i] = std::sin(3.0 * d.inputs(i, 0)) + 0.3 * random.normal();
    }
    if (known_noise) {
        d.noise_variances.resize(n);
        for (int i = 0; i < n; ++i) d.noise_variances[i] = random.uniform(0.001, 0.05);
    }
    return d;
}

// Random unconstrained hyperparameters θ for `layout`: ρ_d log-uniform in [min_rho, 20], log σ²
// uniform in [−0.5, 0.5], noise log-uniform in [min_noise, 0.1] (when inferred), mean in [−0.5, 0.5].
inline Eigen::VectorXd random_theta(const UnconstrainedLayout& layout, PortableRandom& random, double min_rho,
                                    double min_noise) {
    Eigen::VectorXd theta(layout.size());
    for (int d = 0; d < layout.dimension; ++d) theta[d] = random.uniform(std::log(min_rho), std::log(20.0));
    theta[layout.output_scale_index()] = random.uniform(-0.5, 0.5);
    if (layout.noise_inferred) theta[layout.noise_index()] = random.uniform(std::log(min_noise), std::log(0.1));
    theta[layout.mean_index()] = random.uniform(-0.5, 0.5);
    return theta;
}

// Five-point central differences of a scalar function of θ.
template <class F>
Eigen::VectorXd finite_difference_gradient(F&& f, const Eigen::VectorXd& theta, double h) {
    Eigen::VectorXd g(theta.size());
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
        auto at = [&](double step) {
            Eigen::VectorXd t = theta;
            t[i] += step;
            return f(t);
        };
        g[i] = (-at(2 * h) + 8.0 * at(h) - 8.0 * at(-h) + at(-2 * h)) / (12.0 * h);
    }
    return g;
}

inline double max_relative_error(const Eigen::VectorXd& analytic, const Eigen::VectorXd& reference, double floor) {
    return ((analytic - reference).array().abs() / reference.array().abs().max(floor)).maxCoeff();
}

}  // namespace sebo::test
