#include "acquisition/thompson_sampling.h"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "core/portable_random.h"
#include "model/ensemble_posterior.h"
#include "model/jittered_cholesky.h"

namespace sebo {

std::vector<Eigen::Index> thompson_order(const EnsemblePosterior& posterior, const Eigen::MatrixXd& candidates,
                                         std::uint64_t seed) {
    assert(!posterior.empty());
    PortableRandom random(seed);
    const int members = posterior.size();
    const int s = std::min(members - 1, static_cast<int>(random.uniform() * members));
    Eigen::VectorXd mean;
    Eigen::MatrixXd covariance, factor;
    posterior.member_joint(s, candidates, mean, covariance);
    Eigen::VectorXd z(candidates.rows());
    for (Eigen::Index i = 0; i < z.size(); ++i) z[i] = random.normal();
    Eigen::VectorXd draw = mean;
    if (draw_factor(covariance, factor).ok)
        draw.noalias() += factor * z;
    else  // not even the largest jitter let it factor: independent draws, the marginals kept
        draw.array() += covariance.diagonal().array().max(0.0).sqrt() * z.array();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(candidates.rows()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::stable_sort(order.begin(), order.end(), [&draw](Eigen::Index a, Eigen::Index b) { return draw[a] > draw[b]; });
    return order;
}

}  // namespace sebo
