#pragma once
// Sparsity penalties ξ(x) relative to the target point x^s, in the unit cube (paper §3, §5).
//
//  - L0: the number of active parameters — or of active groups when the space has groups.
//    Its smooth surrogate for homotopy continuation (paper §5, appendix E.1) is
//      φ_a(x) = G − Σ_g exp(−½ ‖x_g − x^s_g‖² / a²),
//    which for one parameter per group is the paper's D − Σ_i exp(−½((x_i − x^s_i)/a)²), and
//    tends to the exact count as a → 0.
//  - L1: Σ_i |x_i − x^s_i|.
//  - Group lasso: Σ_g ‖x_g − x^s_g‖₂ (the paper's SEBO-GL for the contextual ABR problem).
//
// An L0 penalty may have a floor N (the method's min_active, issue 14: fewer than N changes are no
// better than N): the exact penalty is then max(count, N), and the surrogate a smooth maximum of
// φ_a and N at the same scale a,
//      m_a = N + a·log(1 + exp((φ_a − N)/a)),   max(φ_a, N) ≤ m_a ≤ max(φ_a, N) + a·log 2,
// so that it tends to max(count, N) along the homotopy as φ_a tends to the count, and its
// gradient is σ((φ_a − N)/a)·∇φ_a (σ the logistic function).
//
// Choice parameters (discrete columns, set_discrete_levels) count exactly in every form: a choice
// whose value (its cell ⌊uK⌋, space/search_space.h) differs from the target's contributes a
// distance of infinity to its group in φ_a (its group's bump is 0: the group counts 1, for any a)
// and 1 to L1 and to the group lasso's squared norm, with derivative 0; one on its target's value
// contributes nothing. So the homotopy's φ_a is exact on choices at every stage, and the smoothing
// acts on the continuous parameters only.

#include <Eigen/Core>
#include <vector>

#include "acquisition/penalty_kind.h"

namespace sebo {

class SparsityPenalty {
public:
    // target: x^s in the unit cube; group_of[i] in [0, group_count) is parameter i's group
    // (identity when the space has no groups).
    // floor: N for L0 (0: none); must be 0 for the other kinds.
    SparsityPenalty(PenaltyKind kind, Eigen::VectorXd target, std::vector<int> group_of, int group_count, int floor = 0);

    PenaltyKind kind() const { return kind_; }
    int dimension() const { return static_cast<int>(target_.size()); }
    const Eigen::VectorXd& target() const { return target_; }
    int floor() const { return floor_; }

    // The exact penalty: for L0 an exact count (x_i != x^s_i, no tolerance: snap first).
    double exact(const Eigen::VectorXd& x) const;
    // The differentiable surrogate: φ_a for L0 (a > 0), the penalty itself for L1 and group
    // lasso (a is ignored; the subgradient 0 is used where the norm is not differentiable).
    double smooth(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const;
    // The largest value the penalty takes on [0,1]^D: the sparsity side of the reference point.
    double max_value() const;

    // Per column: K ≥ 2 for a choice of K values (counted exactly, see above), 0 otherwise.
    void set_discrete_levels(std::vector<int> levels);
    const std::vector<int>& discrete_levels() const { return levels_; }

private:
    PenaltyKind kind_;
    Eigen::VectorXd target_;
    std::vector<int> group_of_;
    int group_count_;
    int floor_;
    std::vector<int> group_size_;
    std::vector<int> levels_;  // empty: no discrete columns

    // Whether column i is a choice (and then whether its value differs from the target's).
    bool discrete(Eigen::Index i) const { return !levels_.empty() && levels_[static_cast<std::size_t>(i)] >= 2; }
    bool changed_choice(const Eigen::VectorXd& x, Eigen::Index i) const;
};

}  // namespace sebo
