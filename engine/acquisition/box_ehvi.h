#pragma once
// The exact expected hypervolume improvement of a point whose m = 1..4 objectives are independent
// Gaussian mixtures, summed over weighted groups of box decompositions — the engine of
// acquisition/multi_ehvi.h.
//
// One box. For a box B = Π_d [l_d, u_d) of a NondominatedBoxes and independent objectives Y_d, the
// improvement inside B is Π_d (min(Y_d, u_d) − l_d)_+, a product of factors that each depend on one
// Y_d, so its expectation is Π_d ψ_d(l_d, u_d) with ψ the clipped improvement of
// acquisition/gaussian_interval.h. The boxes are disjoint and cover the non-dominated region, so
// EHVI = Σ_B Π_d ψ_d(B) exactly (Yang, Emmerich, Deutz & Bäck 2019, J. Glob. Optim. 75, §4; with
// m = 2, their closed form).
//
// Mixtures. Objective d is predicted by its own model, an equally weighted mixture of S_d Gaussians
// (its posterior samples); the models are fitted independently, so the joint predictive
// distribution is the product of the mixtures. Because a box's integrand factorizes, its
// expectation under that product is Π_d ψ̄_d(B) with ψ̄_d = (1/S_d) Σ_s ψ_{d,s}: the exact EHVI under
// the product of the mixtures, for Σ_d S_d Gaussian terms per box side instead of Π_d S_d. (Pairing
// the samples of the metrics by index, (1/S) Σ_s Π_d ψ_{d,s}(B), would be an unbiased Monte-Carlo
// estimate of the same quantity: the pair (θ_1s, θ_2s) of independently drawn samples is a draw from
// the product posterior. Computing the exact value costs less, so no pairing is needed, and metrics
// with different S — a 16-sample SAAS ensemble next to a 1-sample MAP GP — need no broadcasting.)
//
// Groups. value = Σ_g w_g Σ_{B ∈ g} Π_d ψ̄_d(B): the sparse EHVI's ξ-strips are groups with their
// widths as weights. The value is a logarithm: log ψ̄ per box side, the total by log-sum-exp over
// the boxes, so it stays finite and its gradient informative far below the front.
//
// Each distinct box side [l, u) of each objective is evaluated once per sample and shared by the
// boxes (and groups) that use it; each distinct boundary value once per sample. When no boundary
// of an objective is far in a sample's lower tail (z ≥ kLinearTailZ of gaussian_interval.h, the
// common case near the front) its sides are computed in linear space, which needs no logarithm per
// sample and is several times cheaper; otherwise in log space (log ψ from gaussian_interval.h, ψ̄
// by log-sum-exp over the samples). Both give the same values to rounding
// (tests/engine/test_multi_ehvi.cpp).

#include <cstddef>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "acquisition/box_decomposition.h"
#include "acquisition/mixture_moments.h"

namespace sebo {

class BoxEhvi {
public:
    explicit BoxEhvi(int objectives);

    // Adds the boxes of a decomposition (of this many objectives) as the next group.
    void add_group(const NondominatedBoxes& boxes);
    std::size_t groups() const { return group_start_.size(); }
    int objectives() const { return objectives_; }

    // log Σ_g exp(log_weights[g]) Σ_{B∈g} Π_d ψ̄_d(B), with Y_d ~ moments[d]. Groups whose log weight is
    // −∞ are skipped; at least one must be finite. gradient (optional): per objective, the
    // derivatives of the log w.r.t. every sample's mean and variance (zero for a variance below the
    // floor 1e-12 at which σ is held). dlog_weights (optional): the derivative w.r.t. each log weight
    // (the group's share of the total).
    double log_value(std::span<const MixtureMoments> moments, std::span<const double> log_weights,
                     std::vector<MixtureGradient>* gradient, std::vector<double>* dlog_weights) const;

private:
    struct Scratch;
    // The mixture log ψ̄ of every used side of objective d, and each sample's share of its
    // derivatives, into the scratch: in linear space (false when some value leaves its range)
    // or in log space.
    bool side_mixtures_linear(std::size_t d, const MixtureMoments& moments, bool derivatives, Scratch& scratch) const;
    void side_mixtures_log(std::size_t d, const MixtureMoments& moments, bool derivatives, Scratch& scratch) const;

    struct Side {
        int lower = 0;       // index into boundaries_[d]
        int upper = -1;      // index into boundaries_[d]; −1 for +∞
        double width = 0.0;  // u − l (unused when upper = −1)
    };

    int objectives_;
    std::vector<std::vector<double>> boundaries_;  // per objective: the distinct finite box boundaries
    std::vector<std::vector<Side>> sides_;         // per objective: the distinct box sides
    std::vector<int> box_sides_;                   // per box, per objective: index into sides_[d]
    std::vector<std::size_t> group_start_;         // first box of each group
    // Construction only: boundary value → index, (lower, upper) → side index, per objective.
    std::vector<std::map<double, int>> boundary_index_;
    std::vector<std::map<std::pair<int, int>, int>> side_index_;
};

}  // namespace sebo
