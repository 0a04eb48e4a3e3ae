#include "model/input_encoding.h"

#include <algorithm>
#include <cassert>

#include "model/training_data.h"

namespace sebo {

InputEncoding::InputEncoding(std::vector<int> levels, std::vector<bool> ordered)
    : levels_(std::move(levels)), ordered_(std::move(ordered)) {
    assert(levels_.size() == ordered_.size());
    for (std::size_t i = 0; i < levels_.size(); ++i) {
        first_feature_.push_back(features_);
        const bool one_hot = levels_[i] >= 2 && !ordered_[i];
        const int width = one_hot ? levels_[i] : 1;
        for (int j = 0; j < width; ++j) {
            column_of_.push_back(static_cast<int>(i));
            value_of_.push_back(one_hot ? j : -1);
        }
        features_ += width;
    }
}

Eigen::MatrixXd InputEncoding::encode(const Eigen::MatrixXd& X) const {
    assert(X.cols() == input_dimension());
    Eigen::MatrixXd F = Eigen::MatrixXd::Zero(X.rows(), features_);
    for (std::size_t i = 0; i < levels_.size(); ++i) {
        const auto c = static_cast<Eigen::Index>(i);
        const Eigen::Index f = first_feature_[i];
        const int k_count = levels_[i];
        if (k_count < 2) {
            F.col(f) = X.col(c);
            continue;
        }
        for (Eigen::Index r = 0; r < X.rows(); ++r) {
            const double u = X(r, c);
            // The value u falls on (SearchSpace::choice_of_unit).
            const int k = u > 0.0 ? std::min(static_cast<int>(u * k_count), k_count - 1) : 0;
            if (ordered_[i]) F(r, f) = static_cast<double>(k) / (k_count - 1);
            else F(r, f + k) = 1.0;
        }
    }
    return F;
}

Eigen::MatrixXd InputEncoding::pull_back(const Eigen::MatrixXd& gradient) const {
    assert(gradient.cols() == features_);
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(gradient.rows(), input_dimension());
    for (std::size_t i = 0; i < levels_.size(); ++i)
        if (levels_[i] < 2) G.col(static_cast<Eigen::Index>(i)) = gradient.col(first_feature_[i]);
    return G;
}

std::shared_ptr<const TrainingData> encoded_training_data(const TrainingData& data) {
    assert(data.encoding);
    auto out = std::make_shared<TrainingData>();
    out->inputs = data.encoding->encode(data.inputs);
    out->targets = data.targets;
    out->noise_variances = data.noise_variances;
    return out;
}

}  // namespace sebo
