// Model quality on the paper's synthetic problems (SEBO paper §6: Branin and Hartmann6 embedded
// in 50 dimensions): the SAAS GP sampled with NUTS must find the effective parameters among 50
// from a few dozen points (paper §2; Eriksson & Jankowiak 2021, §6), and on Branin predict
// held-out points better than the standard GP. Also the closed-form leave-one-out of
// model/leave_one_out.h against explicit conditioning on n − 1 points, and the relevance
// summary of model/parameter_relevance.h against hand-computed quantiles.
//
// Fixed seeds throughout. The NUTS fits use the paper's settings (512 warm-up, 256 draws, every
// 16th kept, tree depth 6) for Hartmann6, where the relevant lengthscales must separate from 44
// irrelevant ones; Branin's two effective inputs are found with a shorter chain (256 warm-up,
// 128 draws, every 8th kept: still 16 samples). The file runs in about 10 s in an -O2 build.

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <set>

#include "design/sobol.h"
#include "model/ensemble_posterior.h"
#include "model/gaussian_process.h"
#include "model/leave_one_out.h"
#include "model/parameter_relevance.h"
#include "core/portable_random.h"
#include "model/standardizer.h"
#include "model/surrogate.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_model_quality {

namespace {

using sebo::GpHyperparameters;
using sebo::TrainingData;

// A problem's utility (−f: the embedded problems are minimized) at Sobol points of one seed.
struct Sample {
    Eigen::MatrixXd x;
    Eigen::VectorXd utility;
};

// `near` (optional): coordinates of a point; the second half of the sample then has its first
// near.size() coordinates in the box of half-width `radius` around it (clamped to [0, 1]), the
// rest uniform — data like a BO run's, which samples the good region more densely.
Sample sobol_sample(const sebo::Problem& problem, int n, std::uint64_t seed, const std::vector<double>& near = {},
                    double radius = 0.0) {
    const int d = problem.space().dimension();
    auto points = sebo::ScrambledSobol(d, seed).points(0, n);
    Sample s{Eigen::MatrixXd(n, d), Eigen::VectorXd(n)};
    for (int i = 0; i < n; ++i) {
        auto& p = points[static_cast<std::size_t>(i)];
        if (i >= n / 2)
            for (std::size_t j = 0; j < near.size(); ++j) p[j] = std::clamp(near[j] + radius * (2.0 * p[j] - 1.0), 0.0, 1.0);
        s.x.row(i) = Eigen::Map<const Eigen::RowVectorXd>(p.data(), d);
        s.utility[i] = -problem.primary_measurement(p, 0).mean;
    }
    return s;
}

struct QualityCase {
    std::shared_ptr<const TrainingData> data;
    sebo::Standardizer standardizer;
    Sample test;
};

QualityCase make_case(const std::string& name, int dimension, int n, std::uint64_t seed, const std::vector<double>& near = {},
                      double radius = 0.0) {
    sebo::ProblemSpec spec;
    spec.name = name;
    spec.dimension = dimension;
    const auto problem = sebo::make_problem(spec);
    const Sample train = sobol_sample(*problem, n, seed, near, radius);
    const sebo::Standardizer standardizer(train.utility);
    auto data = std::make_shared<TrainingData>();
    data->inputs = train.x;
    data->targets = standardizer.transform(train.utility);
    // Held out: 200 points of an independently scrambled sequence, drawn like the training data.
    return {data, standardizer, sobol_sample(*problem, 200, seed + 1000, near, radius)};
}

// RMSE at the held-out points of predicting the training mean everywhere, objective units.
double constant_rmse(const QualityCase& c) {
    const double mean = c.standardizer.mean();
    return std::sqrt((c.test.utility.array() - mean).square().mean());
}

// RMSE of the mixture mean at the held-out points, in the objective's units.
double held_out_rmse(const sebo::EnsemblePosterior& posterior, const QualityCase& c) {
    const sebo::PosteriorMoments m = posterior.mixture(c.test.x);
    const Eigen::VectorXd predicted = c.standardizer.untransform(m.mean);
    return std::sqrt((predicted - c.test.utility).squaredNorm() / static_cast<double>(c.test.utility.size()));
}

sebo::SurrogateFit fit(const QualityCase& c, sebo::SurrogateKind kind, std::uint64_t seed, int warmup = 512,
                       int samples = 256, int thinning = 16) {
    sebo::SurrogateOptions options;
    options.kind = kind;
    options.saas_nuts.nuts.warmup = warmup;
    options.saas_nuts.nuts.samples = samples;
    options.saas_nuts.nuts.thinning = thinning;
    sebo::SurrogateFit f = sebo::fit_surrogate(c.data, options, seed);
    if (f.status != sebo::SurrogateFit::Status::Ok) qWarning("fit failed: %s", f.message.c_str());
    return f;
}

std::vector<int> ranking(const std::vector<GpHyperparameters>& samples) {
    std::vector<int> order;
    for (const auto& r : sebo::parameter_relevance(samples)) order.push_back(r.parameter);
    return order;
}

// The k most relevant inputs with their median ρ, for the log and for failure messages.
QString top_relevance(const std::vector<GpHyperparameters>& samples, int k) {
    QStringList out;
    const auto relevance = sebo::parameter_relevance(samples);
    for (int i = 0; i < k && i < static_cast<int>(relevance.size()); ++i)
        out << QString("x%1 %2").arg(relevance[static_cast<std::size_t>(i)].parameter).arg(relevance[static_cast<std::size_t>(i)].median, 0, 'g', 3);
    return out.join(", ");
}

// Random data and hyperparameters for the leave-one-out checks.
std::shared_ptr<const TrainingData> small_data(int n, int d, bool known_noise, sebo::PortableRandom& random) {
    auto data = std::make_shared<TrainingData>();
    data->inputs.resize(n, d);
    data->targets.resize(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) data->inputs(i, j) = random.uniform();
        data->targets[i] = std::sin(4.0 * data->inputs(i, 0)) + data->inputs(i, 1) + 0.1 * random.normal();
    }
    if (known_noise) {
        data->noise_variances.resize(n);
        for (int i = 0; i < n; ++i) data->noise_variances[i] = random.uniform(0.001, 0.05);
    }
    return data;
}

GpHyperparameters small_hyperparameters(int d, bool known_noise, sebo::PortableRandom& random) {
    GpHyperparameters h;
    h.inverse_squared_lengthscales.resize(d);
    for (int j = 0; j < d; ++j) h.inverse_squared_lengthscales[j] = random.uniform(0.5, 6.0);
    h.output_scale = random.uniform(0.5, 2.0);
    h.noise = known_noise ? 0.0 : random.uniform(0.005, 0.05);
    h.mean = random.uniform(-0.3, 0.3);
    return h;
}

// The leave-one-out predictive distribution by brute force: condition a GP with the same
// hyperparameters on the other n − 1 points and predict y_i (latent variance plus noise).
void explicit_leave_one_out(const std::shared_ptr<const TrainingData>& data, const GpHyperparameters& h, int i,
                            double& mean, double& variance) {
    const int n = data->num_points();
    auto rest = std::make_shared<TrainingData>();
    rest->inputs.resize(n - 1, data->dimension());
    rest->targets.resize(n - 1);
    if (!data->noise_inferred()) rest->noise_variances.resize(n - 1);
    for (int k = 0, r = 0; k < n; ++k) {
        if (k == i) continue;
        rest->inputs.row(r) = data->inputs.row(k);
        rest->targets[r] = data->targets[k];
        if (!data->noise_inferred()) rest->noise_variances[r] = data->noise_variances[k];
        ++r;
    }
    const sebo::GaussianProcess gp(rest, h);
    QVERIFY(gp.status().ok && gp.status().jitter == 0.0);
    const sebo::PosteriorMoments m = gp.predict(data->inputs.row(i));
    mean = m.mean[0];
    variance = m.variance[0] + h.noise + (data->noise_inferred() ? 0.0 : data->noise_variances[i]);
}

}  // namespace

class TestModelQuality : public QObject {
    Q_OBJECT

private slots:
    void saas_finds_branin_in_50_dimensions() {
        const QualityCase c = make_case("branin", 50, 40, 11);
        // Shorter chain (see the file comment): 16 samples from 256 warm-up + 128 draws.
        const sebo::SurrogateFit saas = fit(c, sebo::SurrogateKind::SaasNuts, 3, 256, 128, 8);
        QVERIFY(saas.posterior);
        QCOMPARE(static_cast<int>(saas.samples.size()), 16);
        const std::vector<int> order = ranking(saas.samples);
        qInfo("Branin 50-D: median rho %s", qPrintable(top_relevance(saas.samples, 4)));
        QCOMPARE(std::set<int>(order.begin(), order.begin() + 2), (std::set<int>{0, 1}));

        const sebo::SurrogateFit gp = fit(c, sebo::SurrogateKind::Gp, 3);
        QVERIFY(gp.posterior);
        const double saas_rmse = held_out_rmse(*saas.posterior, c), gp_rmse = held_out_rmse(*gp.posterior, c);
        qInfo("Branin 50-D, n = 40: held-out RMSE SAAS-NUTS %.3f, GP %.3f (NUTS %.1f s)", saas_rmse, gp_rmse, saas.seconds);
        QVERIFY2(saas_rmse < gp_rmse, qPrintable(QString("SAAS %1 vs GP %2").arg(saas_rmse).arg(gp_rmse)));
    }

    void saas_finds_hartmann6_in_50_dimensions() {
        // Hartmann6 is nearly flat (|f| < 0.3) on most of the cube, so 60 Sobol points carry almost
        // no signal: measured over six seeds, neither the SAAS GP nor the standard GP ranks the
        // effective inputs first from them (from 120 Sobol points the SAAS GP, then sampled with a
        // diagonal metric, ranked five of the six first; x2 barely moves Hartmann6). Half the 60
        // points are therefore drawn near the optimum, as a BO run's data would be (optimum from
        // Surjanovic & Bingham's library of test functions).
        const std::vector<double> optimum = {0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573};
        const QualityCase c = make_case("hartmann6", 50, 60, 12, optimum, 0.2);
        const sebo::SurrogateFit saas = fit(c, sebo::SurrogateKind::SaasNuts, 4);  // the paper's settings
        QVERIFY(saas.posterior);
        QCOMPARE(static_cast<int>(saas.samples.size()), 16);
        const std::vector<int> order = ranking(saas.samples);
        qInfo("Hartmann6 50-D: median rho %s", qPrintable(top_relevance(saas.samples, 10)));
        // Over data seeds 10–15 the three most relevant inputs were always effective ones, and four
        // to six of the six effective inputs were in the top 8. That is the posterior, not the
        // sampler: chains 4× longer in warm-up and 8× in draws (2048 + 2048, every 128th kept)
        // gave the same top 8 on seeds 11–14, and NUTS seeds 5–7 on seed 11 too. The SAAS prior
        // keeps x2 and often x3 (the inputs Hartmann6 depends on least) shrunk at n = 60, where
        // the MAP GP with its dimension-scaled prior ranked all six first on every seed.
        for (int k = 0; k < 3; ++k)
            QVERIFY2(order[static_cast<std::size_t>(k)] < 6,
                     qPrintable(QString("rank %1 is x%2, an irrelevant input").arg(k + 1).arg(order[static_cast<std::size_t>(k)])));
        const int effective_in_top8 =
            static_cast<int>(std::count_if(order.begin(), order.begin() + 8, [](int d) { return d < 6; }));
        QVERIFY2(effective_in_top8 >= 4, qPrintable(QString("%1 effective inputs in the top 8").arg(effective_in_top8)));

        const sebo::SurrogateFit gp = fit(c, sebo::SurrogateKind::Gp, 4);
        QVERIFY(gp.posterior);
        const double saas_rmse = held_out_rmse(*saas.posterior, c), gp_rmse = held_out_rmse(*gp.posterior, c);
        const double baseline = constant_rmse(c);
        qInfo("Hartmann6 50-D, n = 60: held-out RMSE SAAS-NUTS %.4f, GP %.4f, constant %.4f (NUTS %.1f s)", saas_rmse,
              gp_rmse, baseline, saas.seconds);
        // Both models explain most of the variance. The SAAS GP does NOT beat the standard GP here:
        // with the dimension-scaled lengthscale prior (gp_map_fit.h) the MAP GP was the more
        // accurate on all six seeds tried (RMSE 0.23–0.31 vs 0.31–0.39), so only a bound is asserted.
        QVERIFY2(saas_rmse < 0.5 * baseline, qPrintable(QString("SAAS %1 vs constant %2").arg(saas_rmse).arg(baseline)));
        QVERIFY2(gp_rmse < 0.5 * baseline, qPrintable(QString("GP %1 vs constant %2").arg(gp_rmse).arg(baseline)));
    }

    void closed_form_leave_one_out_matches_explicit_conditioning_data() {
        QTest::addColumn<bool>("known_noise");
        QTest::newRow("inferred noise") << false;
        QTest::newRow("known noise") << true;
    }
    void closed_form_leave_one_out_matches_explicit_conditioning() {
        QFETCH(bool, known_noise);
        sebo::PortableRandom random(known_noise ? 21 : 22);
        const auto data = small_data(9, 3, known_noise, random);
        const GpHyperparameters h = small_hyperparameters(3, known_noise, random);
        const sebo::GaussianProcess gp(data, h);
        QVERIFY(gp.status().ok && gp.status().jitter == 0.0);
        const sebo::LeaveOneOutPredictions loo = sebo::leave_one_out(gp);
        QCOMPARE(loo.mean.size(), Eigen::Index{9});
        for (int i = 0; i < 9; ++i) {
            double mean = 0.0, variance = 0.0;
            explicit_leave_one_out(data, h, i, mean, variance);
            SEBO_COMPARE_NEAR(loo.mean[i], mean, 1e-9 * (1.0 + std::abs(mean)));
            SEBO_COMPARE_NEAR(loo.variance[i], variance, 1e-9 * variance);
        }
    }

    void leave_one_out_score_is_the_mixture_over_members() {
        sebo::PortableRandom random(23);
        const auto data = small_data(8, 2, false, random);
        const std::vector<GpHyperparameters> members = {small_hyperparameters(2, false, random),
                                                        small_hyperparameters(2, false, random)};
        const sebo::EnsemblePosterior posterior(data, members);
        QCOMPARE(posterior.size(), 2);
        const sebo::LeaveOneOutScore score = sebo::leave_one_out_score(posterior);
        // By hand from the explicit refit-free predictions of both members.
        double squared_error = 0.0, log_density = 0.0;
        for (int i = 0; i < 8; ++i) {
            double m[2], v[2];
            for (int s = 0; s < 2; ++s) explicit_leave_one_out(data, members[static_cast<std::size_t>(s)], i, m[s], v[s]);
            const double y = data->targets[i], mixture_mean = 0.5 * (m[0] + m[1]);
            SEBO_COMPARE_NEAR(score.mean[i], mixture_mean, 1e-9);
            squared_error += (y - mixture_mean) * (y - mixture_mean);
            double density = 0.0;
            for (int s = 0; s < 2; ++s)
                density += 0.5 * std::exp(-0.5 * (y - m[s]) * (y - m[s]) / v[s]) / std::sqrt(2.0 * std::numbers::pi * v[s]);
            log_density += std::log(density);
        }
        SEBO_COMPARE_NEAR(score.rmse, std::sqrt(squared_error / 8.0), 1e-9);
        SEBO_COMPARE_NEAR(score.mean_log_predictive_density, log_density / 8.0, 1e-9);
    }

    void relevance_is_the_median_with_interpolated_quantiles() {
        // ρ of two inputs over four samples: input 1 is the more relevant one.
        std::vector<GpHyperparameters> samples(4);
        const double rho0[] = {0.4, 0.1, 0.3, 0.2}, rho1[] = {5.0, 1.0, 2.0, 3.0};
        for (int s = 0; s < 4; ++s) {
            samples[static_cast<std::size_t>(s)].inverse_squared_lengthscales = Eigen::Vector2d(rho0[s], rho1[s]);
        }
        const auto r = sebo::parameter_relevance(samples, 0.1, 0.9);
        QCOMPARE(r.size(), std::size_t{2});
        QCOMPARE(r[0].parameter, 1);
        // Sorted {1, 2, 3, 5}: median (2 + 3)/2; 10%: position 0.3 → 1 + 0.3·1; 90%: position 2.7 → 3 + 0.7·2.
        SEBO_COMPARE_NEAR(r[0].median, 2.5, 1e-12);
        SEBO_COMPARE_NEAR(r[0].low, 1.3, 1e-12);
        SEBO_COMPARE_NEAR(r[0].high, 4.4, 1e-12);
        QCOMPARE(r[1].parameter, 0);
        SEBO_COMPARE_NEAR(r[1].median, 0.25, 1e-12);
        SEBO_COMPARE_NEAR(r[1].low, 0.13, 1e-12);
        SEBO_COMPARE_NEAR(r[1].high, 0.37, 1e-12);
        // A single sample: every quantile is its value.
        const auto one = sebo::parameter_relevance({samples[0]});
        SEBO_COMPARE_NEAR(one[0].median, 5.0, 0.0);
        SEBO_COMPARE_NEAR(one[0].low, 5.0, 0.0);
        SEBO_COMPARE_NEAR(one[0].high, 5.0, 0.0);
    }
};

SEBO_TEST_MAIN(TestModelQuality)
}  // namespace test_model_quality
#include "test_model_quality.moc"
