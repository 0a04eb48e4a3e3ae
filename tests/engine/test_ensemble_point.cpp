// One point's moments with every member at once (EnsemblePosterior::moments_at and gradient, the
// path of every acquisition's local optimization since issue 34) against the member-by-member
// predictions (GaussianProcess::predict_with_gradients) and central finite differences: plain
// inputs, choice parameters (encoded inputs), a point on a training input, and a variance clamped
// at zero.

#include <cmath>
#include <memory>
#include <vector>

#include "model/ensemble_posterior.h"
#include "model/input_encoding.h"
#include "model/surrogate.h"
#include "model_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_ensemble_point {

using namespace sebo;

namespace {

std::vector<GpHyperparameters> random_members(int count, int features, PortableRandom& random) {
    std::vector<GpHyperparameters> members;
    for (int s = 0; s < count; ++s) {
        GpHyperparameters h;
        h.inverse_squared_lengthscales.resize(features);
        for (int f = 0; f < features; ++f) h.inverse_squared_lengthscales[f] = std::exp(random.uniform(std::log(0.01), std::log(30.0)));
        h.output_scale = std::exp(random.uniform(-0.5, 0.5));
        h.noise = std::exp(random.uniform(std::log(1e-5), std::log(0.05)));
        h.mean = random.uniform(-0.5, 0.5);
        members.push_back(std::move(h));
    }
    return members;
}

// Σ_s (dmean_s μ_s + dvar_s σ²_s) and its gradient member by member, the independent reference.
struct Reference {
    Eigen::VectorXd mean, var, gradient;
};
Reference member_by_member(const EnsemblePosterior& posterior, const Eigen::VectorXd& x, const Eigen::VectorXd& dmean,
                           const Eigen::VectorXd& dvar) {
    const EnsembleMomentsWithGradients m = posterior.predict_with_gradients(x.transpose());
    Reference r{m.mean.row(0).transpose(), m.variance.row(0).transpose(), Eigen::VectorXd::Zero(x.size())};
    for (int s = 0; s < posterior.size(); ++s)
        r.gradient += dmean[s] * m.mean_gradient[static_cast<std::size_t>(s)].row(0).transpose() +
                      dvar[s] * m.variance_gradient[static_cast<std::size_t>(s)].row(0).transpose();
    return r;
}

// `tolerance`: of the moments; a noise-free member's K is ill-conditioned, and its α = K⁻¹(y − m)
// turns rounding differences in k(x) (a product of summed terms here, coordinate by coordinate
// there) into differences of about 1e-9 in the mean.
void check_point(const EnsemblePosterior& posterior, const Eigen::VectorXd& x, PortableRandom& random,
                 double tolerance = 1e-11) {
    const int S = posterior.size();
    Eigen::VectorXd dmean(S), dvar(S);
    for (int s = 0; s < S; ++s) {
        dmean[s] = random.normal();
        dvar[s] = random.normal();
    }
    Eigen::VectorXd mean, var;
    EnsemblePosterior::PointWorkspace workspace;
    posterior.moments_at(x, mean, var, &workspace);
    const Eigen::VectorXd gradient = posterior.gradient(workspace, dmean, dvar);
    const Reference reference = member_by_member(posterior, x, dmean, dvar);
    for (int s = 0; s < S; ++s) {
        SEBO_COMPARE_NEAR(mean[s], reference.mean[s], tolerance);
        SEBO_COMPARE_NEAR(var[s], reference.var[s], tolerance);
    }
    for (Eigen::Index d = 0; d < x.size(); ++d)
        SEBO_COMPARE_NEAR(gradient[d], reference.gradient[d], 100 * tolerance * std::max(1.0, reference.gradient.cwiseAbs().maxCoeff()));
    // The value path without a workspace gives the same moments.
    Eigen::VectorXd mean_only, var_only;
    posterior.moments_at(x, mean_only, var_only);
    QCOMPARE(mean_only, mean);
    QCOMPARE(var_only, var);
}

}  // namespace

class TestEnsemblePoint : public QObject {
    Q_OBJECT

private slots:
    void matchesMemberByMemberPredictions_data() {
        QTest::addColumn<int>("n");
        QTest::newRow("inverse factors (n = 40)") << 40;
        QTest::newRow("substitutions (n = 400)") << 400;  // above kInverseFactorMaxSize
    }
    void matchesMemberByMemberPredictions() {
        QFETCH(int, n);
        PortableRandom random(31);
        auto data = std::make_shared<const TrainingData>(test::make_random_data(n, 7, random, false));
        const EnsemblePosterior posterior(data, random_members(6, 7, random));
        QCOMPARE(posterior.size(), 6);
        for (int trial = 0; trial < 5; ++trial) {
            Eigen::VectorXd x(7);
            for (int d = 0; d < 7; ++d) x[d] = random.uniform();
            check_point(posterior, x, random);
        }
        // On a training input, where the distances to it are exactly zero.
        check_point(posterior, data->inputs.row(3).transpose(), random);
    }

    void matchesFiniteDifferences() {
        PortableRandom random(32);
        auto data = std::make_shared<const TrainingData>(test::make_random_data(25, 4, random, false));
        const EnsemblePosterior posterior(data, random_members(3, 4, random));
        const Eigen::VectorXd dmean = Eigen::Vector3d(0.7, -1.1, 0.4), dvar = Eigen::Vector3d(-0.3, 0.9, 1.6);
        const auto weighted = [&](const Eigen::VectorXd& x) {
            Eigen::VectorXd mean, var;
            posterior.moments_at(x, mean, var);
            return dmean.dot(mean) + dvar.dot(var);
        };
        const Eigen::VectorXd x = Eigen::Vector4d(0.31, 0.72, 0.15, 0.58);
        Eigen::VectorXd mean, var;
        EnsemblePosterior::PointWorkspace workspace;
        posterior.moments_at(x, mean, var, &workspace);
        const Eigen::VectorXd gradient = posterior.gradient(workspace, dmean, dvar);
        const Eigen::VectorXd fd = test::finite_difference_gradient(weighted, x, 1e-5);
        const double error = test::max_relative_error(gradient, fd, 1e-6);
        QVERIFY2(error < 1e-6, qPrintable(QString("relative error %1").arg(error)));
    }

    // Choice parameters: the members see one-hot and ordered features; the gradient comes back
    // per unit-cube column, 0 for a choice's column.
    void encodedInputs() {
        PortableRandom random(33);
        TrainingData d = test::make_random_data(30, 4, random, false);
        d.encoding = std::make_shared<const InputEncoding>(std::vector<int>{0, 3, 0, 4}, std::vector<bool>{false, false, false, true});
        auto data = std::make_shared<const TrainingData>(std::move(d));
        const int features = data->encoding->feature_dimension();
        QCOMPARE(features, 2 + 3 + 1);
        const EnsemblePosterior posterior(data, random_members(4, features, random));
        for (int trial = 0; trial < 3; ++trial) {
            Eigen::VectorXd x(4);
            for (int c = 0; c < 4; ++c) x[c] = random.uniform();
            check_point(posterior, x, random);
            EnsemblePosterior::PointWorkspace workspace;
            Eigen::VectorXd mean, var;
            posterior.moments_at(x, mean, var, &workspace);
            const Eigen::VectorXd g = posterior.gradient(workspace, Eigen::VectorXd::Ones(4), Eigen::VectorXd::Ones(4));
            QCOMPARE(g[1], 0.0);
            QCOMPARE(g[3], 0.0);
        }
    }

    // Far from a noise-free member's data its variance is σ²; on a training point without noise it
    // rounds to about 0 and may be clamped — the variance gradient is then left out, as
    // predict_with_gradients does.
    void clampedVarianceHasNoGradient() {
        PortableRandom random(34);
        auto data = std::make_shared<const TrainingData>(test::make_random_data(12, 2, random, false));
        std::vector<GpHyperparameters> members = random_members(2, 2, random);
        for (GpHyperparameters& h : members) h.noise = 0.0;
        const EnsemblePosterior posterior(data, members);
        QCOMPARE(posterior.size(), 2);
        int clamped = 0;
        for (int i = 0; i < 12; ++i) {
            const Eigen::VectorXd x = data->inputs.row(i).transpose();
            EnsemblePosterior::PointWorkspace workspace;
            Eigen::VectorXd mean, var;
            posterior.moments_at(x, mean, var, &workspace);
            clamped += static_cast<int>((workspace.variance_live.array() == 0.0).count());
            check_point(posterior, x, random, 1e-7);
        }
        qInfo("variances clamped at training points: %d of 24", clamped);
    }

    // The view that acquisitions use gives the same chain rule through moments_with_pullback.
    void viewPullbackMatchesPerSampleGradients() {
        PortableRandom random(35);
        auto data = std::make_shared<const TrainingData>(test::make_random_data(20, 3, random, false));
        auto posterior = std::make_shared<const EnsemblePosterior>(data, random_members(5, 3, random));
        const EnsemblePosteriorView view(posterior);
        const Eigen::VectorXd x = Eigen::Vector3d(0.2, 0.9, 0.45);
        Eigen::VectorXd mean, var, mean_ref, var_ref;
        Eigen::MatrixXd dmean_x, dvar_x;
        view.moments(x, mean_ref, var_ref, &dmean_x, &dvar_x);
        const PosteriorView::MomentsPullback pullback = view.moments_with_pullback(x, mean, var);
        const Eigen::VectorXd dmean = Eigen::VectorXd::LinSpaced(5, -1.0, 1.0), dvar = Eigen::VectorXd::LinSpaced(5, 2.0, -0.5);
        const Eigen::VectorXd g = pullback(dmean, dvar), reference = dmean_x * dmean + dvar_x * dvar;
        for (int s = 0; s < 5; ++s) SEBO_COMPARE_NEAR(mean[s], mean_ref[s], 1e-12);
        for (int d = 0; d < 3; ++d) SEBO_COMPARE_NEAR(g[d], reference[d], 1e-10 * std::max(1.0, reference.cwiseAbs().maxCoeff()));
    }
};

SEBO_TEST_MAIN(TestEnsemblePoint)
}  // namespace test_ensemble_point
#include "test_ensemble_point.moc"
