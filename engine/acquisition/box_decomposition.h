#pragma once
// The non-dominated region of a front as disjoint boxes, computed once per front and reused by
// every EHVI evaluation (BoTorch's utils/multi_objective/box_decompositions; Yang, Emmerich, Deutz
// & Bäck 2019, "Efficient computation of expected hypervolume improvement using box decomposition
// algorithms", J. Glob. Optim. 75, §3). All m = 1..4 objectives maximized.
//
// The region is N = {z ≥ r : no front point p has p ≥ z}, the part of the space above the
// reference r that the front does not dominate. It is cut into boxes [lower, upper) by slicing
// along the last objective at the distinct values v_1 < … < v_K of the front points: in the slab
// [v_i, v_{i+1}) (v_0 = r_m, v_{K+1} = +∞) a point dominates exactly when its last coordinate is at
// least v_{i+1}, so the slab's part of N is the (m−1)-dimensional region of those points,
// decomposed the same way; one dimension is a single ray [max, ∞). Consecutive slabs with the same
// sub-decomposition are merged. With m = 2 and k non-dominated points this gives the k + 1 boxes
//     [X_i, ∞) × [v_i, v_{i+1}),  X_i = the largest x among the points with y ≥ v_{i+1} (r_x if none),
// and O(k^{m−1}) boxes in general. Because the boxes are disjoint and cover N, the hypervolume
// improvement of a point y is Σ_boxes Π_d (min(upper_d, y_d) − lower_d)_+.
//
// Front points not strictly better than the reference in every objective are left out; dominated
// and repeated points change nothing.

#include <cstddef>
#include <span>
#include <vector>

namespace sebo {

class NondominatedBoxes {
public:
    // front: points of size m = reference.size(), 1 <= m <= 4, finite.
    NondominatedBoxes(const std::vector<std::vector<double>>& front, const std::vector<double>& reference);

    int objectives() const { return objectives_; }
    std::size_t size() const { return lower_.size() / static_cast<std::size_t>(objectives_); }
    // Corners of box i; upper coordinates may be +∞.
    std::span<const double> lower(std::size_t i) const;
    std::span<const double> upper(std::size_t i) const;
    const std::vector<double>& reference() const { return reference_; }

    // The exact hypervolume improvement of adding y to the front.
    double improvement(std::span<const double> y) const;

private:
    int objectives_;
    std::vector<double> reference_;
    std::vector<double> lower_, upper_;  // row-major, stride objectives_
};

}  // namespace sebo
