#pragma once
// One metric's predictive distribution at a point, as the acquisitions of several metrics take it:
// an equally weighted mixture of S Gaussians, one per sample of that metric's model (S = 1 for a
// MAP GP, 16 for the paper's SAAS ensemble) — what PosteriorView::moments returns. Metrics may have
// different S.

#include <Eigen/Core>

namespace sebo {

struct MixtureMoments {
    Eigen::VectorXd mean;  // length S
    Eigen::VectorXd var;   // length S
};

// The gradient of a scalar w.r.t. one metric's MixtureMoments.
struct MixtureGradient {
    Eigen::VectorXd dmean;
    Eigen::VectorXd dvar;
};

}  // namespace sebo
