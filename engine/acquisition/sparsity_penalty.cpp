#include "acquisition/sparsity_penalty.h"

#include <cassert>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sebo {

namespace {

// The smooth maximum of φ and the floor n at scale a (see the header), and its derivative in φ.
double smooth_floor(double phi, double n, double a, double* slope) {
    const double z = (phi - n) / a;
    // softplus(z) = max(z, 0) + log1p(exp(−|z|)) and σ(z), both without overflow.
    const double e = std::exp(-std::abs(z));
    if (slope) *slope = z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
    return n + a * (std::max(z, 0.0) + std::log1p(e));
}

}  // namespace

SparsityPenalty::SparsityPenalty(PenaltyKind kind, Eigen::VectorXd target, std::vector<int> group_of, int group_count,
                                 int floor)
    : kind_(kind), target_(std::move(target)), group_of_(std::move(group_of)), group_count_(group_count), floor_(floor) {
    assert(static_cast<Eigen::Index>(group_of_.size()) == target_.size());
    assert(floor_ >= 0 && floor_ <= group_count_ && (floor_ == 0 || kind_ == PenaltyKind::L0));
    group_size_.assign(static_cast<std::size_t>(group_count_), 0);
    for (int g : group_of_) {
        assert(g >= 0 && g < group_count_);
        ++group_size_[static_cast<std::size_t>(g)];
    }
}

void SparsityPenalty::set_discrete_levels(std::vector<int> levels) {
    assert(static_cast<Eigen::Index>(levels.size()) == target_.size());
    levels_ = std::move(levels);
}

bool SparsityPenalty::changed_choice(const Eigen::VectorXd& x, Eigen::Index i) const {
    const int k = levels_[static_cast<std::size_t>(i)];
    const auto cell = [k](double u) { return u > 0.0 ? std::min(static_cast<int>(u * k), k - 1) : 0; };
    return cell(x[i]) != cell(target_[i]);
}

double SparsityPenalty::max_value() const {
    switch (kind_) {
    case PenaltyKind::L0: return group_count_;
    case PenaltyKind::L1: {
        double total = 0.0;
        for (Eigen::Index i = 0; i < target_.size(); ++i) total += discrete(i) ? 1.0 : std::max(target_[i], 1.0 - target_[i]);
        return total;
    }
    case PenaltyKind::GroupLasso: {
        std::vector<double> sq(static_cast<std::size_t>(group_count_), 0.0);
        for (Eigen::Index i = 0; i < target_.size(); ++i) {
            const double far = discrete(i) ? 1.0 : std::max(target_[i], 1.0 - target_[i]);
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
            if (discrete(i) ? changed_choice(x, i) : x[i] != target_[i]) active[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] = 1;
        int count = 0;
        for (char a : active) count += a;
        return std::max(count, floor_);
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
            const double diff = discrete(i) ? (changed_choice(x, i) ? std::numeric_limits<double>::infinity() : 0.0)
                                            : x[i] - target_[i];
            sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] += diff * diff;
        }
        const double inv_a2 = 1.0 / (a * a);
        double value = group_count_;
        std::vector<double> bump(sq.size());
        for (std::size_t g = 0; g < sq.size(); ++g) {
            bump[g] = std::exp(-0.5 * sq[g] * inv_a2);
            value -= bump[g];
        }
        double slope = 1.0;
        if (floor_ > 0) value = smooth_floor(value, floor_, a, &slope);
        if (grad)
            for (Eigen::Index i = 0; i < d; ++i)
                if (!discrete(i))
                    (*grad)[i] = slope * bump[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] * (x[i] - target_[i]) * inv_a2;
        return value;
    }
    case PenaltyKind::L1: {
        double value = 0.0;
        for (Eigen::Index i = 0; i < d; ++i) {
            if (discrete(i)) {
                value += changed_choice(x, i) ? 1.0 : 0.0;
                continue;
            }
            const double diff = x[i] - target_[i];
            value += std::abs(diff);
            if (grad) (*grad)[i] = diff > 0 ? 1.0 : (diff < 0 ? -1.0 : 0.0);
        }
        return value;
    }
    case PenaltyKind::GroupLasso: {
        std::vector<double> sq(static_cast<std::size_t>(group_count_), 0.0);
        for (Eigen::Index i = 0; i < d; ++i) {
            const double diff = discrete(i) ? (changed_choice(x, i) ? 1.0 : 0.0) : x[i] - target_[i];
            sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])] += diff * diff;
        }
        double value = 0.0;
        for (double s : sq) value += std::sqrt(s);
        if (grad)
            for (Eigen::Index i = 0; i < d; ++i) {
                if (discrete(i)) continue;
                const double norm = std::sqrt(sq[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(i)])]);
                (*grad)[i] = norm > 0 ? (x[i] - target_[i]) / norm : 0.0;
            }
        return value;
    }
    }
    return 0.0;
}

}  // namespace sebo
