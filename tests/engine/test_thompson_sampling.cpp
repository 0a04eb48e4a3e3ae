// Thompson sampling over a candidate set (acquisition/thompson_sampling.h; docs/method.md §13, the
// dense start under noise): a candidate comes first with the posterior probability that it is the
// best of the set, under the equally weighted mixture of the ensemble's members. Checked against
// that probability written out for two candidates (the normal CDF of the difference's mean over
// its standard deviation, averaged over the members), over many seeds.
#include <boost/math/distributions/normal.hpp>
#include <cmath>

#include "acquisition/thompson_sampling.h"
#include "core/portable_random.h"
#include "model/ensemble_posterior.h"
#include "test_main.h"
#include "test_support.h"

namespace test_thompson_sampling {

using namespace sebo;

namespace {

GpHyperparameters hyperparameters(double mean, Eigen::Vector2d inverse_squared_lengthscales = {4.0, 1.0}) {
    GpHyperparameters h;
    h.inverse_squared_lengthscales = inverse_squared_lengthscales;
    h.output_scale = 1.1;
    h.noise = 0.05;
    h.mean = mean;
    return h;
}

// Eight noisy measurements of a smooth function of two inputs.
std::shared_ptr<const TrainingData> data() {
    PortableRandom random(5);
    auto d = std::make_shared<TrainingData>();
    d->inputs.resize(8, 2);
    d->targets.resize(8);
    for (int i = 0; i < 8; ++i) {
        d->inputs(i, 0) = random.uniform();
        d->inputs(i, 1) = random.uniform();
        d->targets[i] = std::sin(4.0 * d->inputs(i, 0)) - 0.5 * d->inputs(i, 1) + 0.2 * random.normal();
    }
    return d;
}

// P(f(a) > f(b)) under member s: Φ of the difference's mean over its standard deviation.
double probability_first(const EnsemblePosterior& posterior, int s, const Eigen::MatrixXd& two) {
    const GaussianProcess& gp = posterior.members()[static_cast<std::size_t>(s)];
    const Eigen::VectorXd mean = gp.predict(two).mean;
    const Eigen::MatrixXd covariance = gp.posterior_covariance(two);
    const double sd = std::sqrt(covariance(0, 0) + covariance(1, 1) - 2.0 * covariance(0, 1));
    return boost::math::cdf(boost::math::normal(), (mean[0] - mean[1]) / sd);
}

}  // namespace

class TestThompsonSampling : public QObject {
    Q_OBJECT

private slots:
    void each_candidate_comes_first_with_its_probability_of_being_best() {
        // Two members that disagree (their probabilities differ by 0.1 or more): the member is drawn
        // too, so the frequency is the members' average probability. Candidates near each other
        // (correlated) and apart.
        const EnsemblePosterior posterior(data(), {hyperparameters(0.3), hyperparameters(-0.3, {0.5, 9.0})});
        QCOMPARE(posterior.size(), 2);
        for (const auto& [a, b] : {std::pair{Eigen::RowVector2d(0.35, 0.5), Eigen::RowVector2d(0.45, 0.55)},
                                   std::pair{Eigen::RowVector2d(0.1, 0.9), Eigen::RowVector2d(0.9, 0.2)}}) {
            Eigen::MatrixXd two(2, 2);
            two << a, b;
            const double p0 = probability_first(posterior, 0, two), p1 = probability_first(posterior, 1, two);
            QVERIFY2(std::abs(p0 - p1) > 0.1, (std::to_string(p0) + " and " + std::to_string(p1)).c_str());
            const double expected = 0.5 * (p0 + p1);
            QVERIFY2(expected > 0.1 && expected < 0.9, std::to_string(expected).c_str());  // a test that can fail
            constexpr int kSeeds = 4000;
            int first = 0;
            for (int seed = 0; seed < kSeeds; ++seed) first += thompson_order(posterior, two, static_cast<std::uint64_t>(seed))[0] == 0;
            const double frequency = static_cast<double>(first) / kSeeds;
            const double se = std::sqrt(expected * (1.0 - expected) / kSeeds);
            QVERIFY2(std::abs(frequency - expected) < 4.0 * se,
                     (std::to_string(frequency) + " against " + std::to_string(expected)).c_str());
        }
    }

    void the_order_is_one_draw_ranked_and_repeatable() {
        const EnsemblePosterior posterior(data(), {hyperparameters(0.0)});
        Eigen::MatrixXd candidates(40, 2);
        PortableRandom random(9);
        for (Eigen::Index i = 0; i < candidates.rows(); ++i) candidates.row(i) << random.uniform(), random.uniform();
        const std::vector<Eigen::Index> order = thompson_order(posterior, candidates, 17);
        QCOMPARE(order.size(), std::size_t{40});
        std::vector<Eigen::Index> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (Eigen::Index i = 0; i < 40; ++i) QCOMPARE(sorted[static_cast<std::size_t>(i)], i);  // a permutation
        QVERIFY(order == thompson_order(posterior, candidates, 17));
        QVERIFY(order != thompson_order(posterior, candidates, 18));
        // A candidate far better than every other by the posterior comes first in every draw.
        auto sure = std::make_shared<TrainingData>(*data());
        sure->inputs.conservativeResize(sure->inputs.rows() + 3, Eigen::NoChange);
        sure->targets.conservativeResize(sure->targets.size() + 3);
        for (Eigen::Index r = sure->inputs.rows() - 3; r < sure->inputs.rows(); ++r) {
            sure->inputs.row(r) = candidates.row(7);
            sure->targets[r] = 6.0;
        }
        GpHyperparameters short_scales = hyperparameters(0.0);  // lengthscales 0.05: the neighbours barely share it
        short_scales.inverse_squared_lengthscales = Eigen::Vector2d(400.0, 400.0);
        const EnsemblePosterior told(sure, {short_scales});
        for (std::uint64_t seed = 0; seed < 20; ++seed) QCOMPARE(thompson_order(told, candidates, seed)[0], Eigen::Index{7});
    }
};

SEBO_TEST_MAIN(TestThompsonSampling)
}  // namespace test_thompson_sampling
#include "test_thompson_sampling.moc"
