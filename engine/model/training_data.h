#pragma once
// The data a GP is conditioned on: inputs in the unit cube, standardized observations
// (model/standardizer.h) and, when the evaluator reports standard errors, the known noise
// variance of each observation (SPEC §2; the sourcing simulation of appendix F.1 reports a
// mean with its standard error). Without known variances the noise is inferred.

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>

namespace sebo {

class InputEncoding;

struct TrainingData {
    Eigen::MatrixXd inputs;           // n×D, one point per row, in [0,1]^D
    Eigen::VectorXd targets;          // n, standardized
    Eigen::VectorXd noise_variances;  // empty (noise inferred) or n known variances ≥ 0, standardized units
    // Unset: the GP's inputs are the unit-cube points. Set (a space with choice parameters): the
    // GP sees encoding->encode(inputs) (model/input_encoding.h); inputs stay unit-cube points, so
    // that the optimizers and every caller keep one coordinate per parameter.
    std::shared_ptr<const InputEncoding> encoding;

    int num_points() const { return static_cast<int>(inputs.rows()); }
    int dimension() const { return static_cast<int>(inputs.cols()); }
    bool noise_inferred() const { return noise_variances.size() == 0; }

    // Empty when usable (n ≥ 1, D ≥ 1, matching sizes, finite values, inputs in the unit cube
    // up to 1e-9, variances ≥ 0); otherwise a message naming the field and the entry.
    std::optional<std::string> validate() const;
};

}  // namespace sebo
