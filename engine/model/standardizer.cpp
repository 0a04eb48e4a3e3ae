#include "model/standardizer.h"

#include <cassert>
#include <cmath>

namespace sebo {

Standardizer::Standardizer(const Eigen::VectorXd& y) {
    assert(y.size() >= 1 && y.allFinite());
    mean_ = y.mean();
    if (y.size() >= 2) {
        const double variance = (y.array() - mean_).square().sum() / static_cast<double>(y.size() - 1);
        const double sd = std::sqrt(variance);
        scale_ = sd > kMinScale ? sd : 1.0;
    }
}

}  // namespace sebo
