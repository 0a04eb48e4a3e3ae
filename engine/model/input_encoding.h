#pragma once
// How the models see a configuration (issue 14, item 1): the optimizers and the training data work
// in the unit cube, one coordinate per varying parameter; a GP's inputs are its features. A
// numeric coordinate is its own feature. A choice's coordinate u (value k = ⌊uK⌋ of K,
// space/search_space.h) becomes
//   - unordered: K one-hot features, feature j = 1 when k = j, 0 otherwise;
//   - ordered:   one feature k/(K−1) in [0, 1].
// Each feature has its own ARD lengthscale (and, in the SAAS models, its own half-Cauchy
// shrinkage; docs/method.md). The features of a choice are piecewise constant in u, so their
// derivative is 0: the continuous optimizers leave a choice where it is, and the acquisition
// optimizer's local search over values changes it (optimize/homotopy.h).

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

namespace sebo {

struct TrainingData;

class InputEncoding {
public:
    // Per unit-cube column: 0 for a numeric parameter, K ≥ 2 for a choice of K values.
    InputEncoding(std::vector<int> levels, std::vector<bool> ordered);

    int input_dimension() const { return static_cast<int>(levels_.size()); }
    int feature_dimension() const { return features_; }

    // m×D unit-cube points → m×F features.
    Eigen::MatrixXd encode(const Eigen::MatrixXd& X) const;
    // m×F derivatives with respect to the features → m×D with respect to the unit coordinates
    // (a choice's column 0: its features are piecewise constant).
    Eigen::MatrixXd pull_back(const Eigen::MatrixXd& gradient) const;
    // The unit-cube column feature f belongs to, and for a one-hot feature the value it stands
    // for (−1 for a numeric or ordered feature).
    int column_of_feature(int f) const { return column_of_[static_cast<std::size_t>(f)]; }
    int value_of_feature(int f) const { return value_of_[static_cast<std::size_t>(f)]; }

private:
    std::vector<int> levels_;
    std::vector<bool> ordered_;
    std::vector<int> first_feature_;  // per column
    std::vector<int> column_of_, value_of_;
    int features_ = 0;
};

// `data` with its inputs encoded (data.encoding must be set); the result has no encoding.
std::shared_ptr<const TrainingData> encoded_training_data(const TrainingData& data);

}  // namespace sebo
