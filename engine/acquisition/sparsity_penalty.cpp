#include "acquisition/sparsity_penalty.h"

#include <cassert>
#include <cmath>

namespace sebo {

SparsityPenalty::SparsityPenalty(PenaltyKind kind, Eigen::VectorXd target, std::vector<int> group_of, int group_count)
    : kind_(kind), target_(std::move(target)), group_of_(std::move(group_of)), group_count_(group_count) {
    assert(static_cast<Eigen::Index>(group_of_.size()) == target_.size());
    group_size_.assign(static_cast<std::size_t>(group_count_), 0);
    for (int g : group_of_) {
        assert(g >= 0 && g < group_count_);
        ++group_size_[static_cast<std::size_t>(g)];
    }
}

double SparsityPenalty::max_value() const {
    switch (kind_) {
    case PenaltyKind::L0: return group_count_;
    case PenaltyKind::L1: {
        double total = 0.0;
        for (Eigen::Index i = 0; i < target_.size(); ++i) total += std::max(target_[i], 1.0 - target_[i]);
        return total;
    }
    case PenaltyKind::GroupLasso: {
        std::vector<double> sq(static_cast<std::size_t>(group_count_), 0.0);
        for (Eigen::Index i = 0; i < target_.size(); ++i) {
            const double far = std::max(target_[i], 1.0 - target_[i]);
            sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] += far * far;
        }
        double total = 0.0;
        for (double s : sq) total += std::sqrt(s);
        return total;
    }
    }
    return 0.0;
}

double SparsityPenalty::exact(const Eigen::VectorXd& x) const {
    assert(x.size() == target_.size());
    if (kind_ == PenaltyKind::L0) {
        std::vector<char> active(static_cast<std::size_t>(group_count_), 0);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            if (x[i] != target_[i]) active[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] = 1;
        int count = 0;
        for (char a : active) count += a;
        return count;
    }
    return smooth(x, 0.0, nullptr);
}

double SparsityPenalty::smooth(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const {
    assert(x.size() == target_.size());
    const Eigen::Index d = x.size();
    if (grad) grad->setZero(d);
    switch (kind_) {
    case PenaltyKind::L0: {
        assert(a > 0.0);
        // Per group: squared distance, then the Gaussian bump exp(−½ s / a²).
        std::vector<double> sq(static_cast<std::size_t>(group_count_), 0.0);
        for (Eigen::Index i = 0; i < d; ++i) {
            const double diff = x[i] - target_[i];
            sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] += diff * diff;
        }
        const double inv_a2 = 1.0 / (a * a);
        double value = group_count_;
        std::vector<double> bump(sq.size());
        for (std::size_t g = 0; g < sq.size(); ++g) {
            bump[g] = std::exp(-0.5 * sq[g] * inv_a2);
            value -= bump[g];
        }
        if (grad)
            for (Eigen::Index i = 0; i < d; ++i)
                (*grad)[i] = bump[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] * (x[i] - target_[i]) * inv_a2;
        return value;
    }
    case PenaltyKind::L1: {
        double value = 0.0;
        for (Eigen::Index i = 0; i < d; ++i) {
            const double diff = x[i] - target_[i];
            value += std::abs(diff);
            if (grad) (*grad)[i] = diff > 0 ? 1.0 : (diff < 0 ? -1.0 : 0.0);
        }
        return value;
    }
    case PenaltyKind::GroupLasso: {
        std::vector<double> sq(static_cast<std::size_t>(group_count_), 0.0);
        for (Eigen::Index i = 0; i < d; ++i) {
            const double diff = x[i] - target_[i];
            sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] += diff * diff;
        }
        double value = 0.0;
        for (double s : sq) value += std::sqrt(s);
        if (grad)
            for (Eigen::Index i = 0; i < d; ++i) {
                const double norm = std::sqrt(sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])]);
                (*grad)[i] = norm > 0 ? (x[i] - target_[i]) / norm : 0.0;
            }
        return value;
    }
    }
    return 0.0;
}

}  // namespace sebo
