#pragma once
// Thompson sampling over a finite candidate set (docs/method.md §13, the dense start under noise):
// each candidate is chosen with the posterior probability that it is the best of the set. One
// member of the ensemble is drawn uniformly (the ensemble is an equally weighted mixture), then one
// joint draw of f at every candidate from that member's posterior; the candidates are ranked by the
// draw. Where the model knows nothing the choice spreads over the set as a space-filling design
// would; where it knows, the draws agree on the good region.

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace sebo {

class EnsemblePosterior;

// The rows of `candidates` (unit cube, one per row) ordered by one Thompson draw from `posterior`
// (non-empty), largest first. Deterministic for `seed`.
std::vector<Eigen::Index> thompson_order(const EnsemblePosterior& posterior, const Eigen::MatrixXd& candidates,
                                         std::uint64_t seed);

}  // namespace sebo
