// Model fits and a full SEBO-L0 step on data with extreme values (issue 18): one value of ±1e308
// among values of order 1, values of ±1e30, values equal to within 1e-15, and all values equal.
// What the pipeline already handled before: utilities all beyond ±1e100 (or all below 1e-100)
// are brought to order 1 by TrainingSet::utility_scale, exactly (test_numerical_faults.cpp runs
// steps on such data), and the Yeo–Johnson warp compresses a few large values. What it did not:
// one extreme value next to ordinary ones — the warp standardizes first, and next to a mean of
// 1e306 every ordinary value rounds to the same number (warpAloneCannotSeparateTheBulk shows it).
// The training set now winsorizes such values onto the far-out fence (model_step.h).
//
// "Garbage", as tested here: a fit that fails or whose posterior is not finite; a proposal that
// is not finite, lies outside the bounds or repeats an evaluated configuration; and, with one
// extreme value among informative data (y depends on x0 and x1 only), a model that does not rank
// x0 and x1 as the two most relevant inputs, each at least twice as relevant as x4 and x5 — the
// outlier would have flattened what the other 23 values say. With two of 24 values replaced, the
// two winsorized values say "best here" and "worst there", which the SAAS posterior partly explains
// with x2 and x3 (long chains rank x0, x2, x3, x1 on this data): there x0 and x1 must be in the top 4
// and still twice as relevant as x4 and x5.
//
// The SAAS-NUTS rankings are Monte Carlo estimates: they are taken from chains long enough
// (512 draws, none thinned) that the order above holds for every seed tried (1-10), not from the
// short chains of the step test, whose 16 kept draws reorder x1, x2 and x3 from one seed to the
// next — and from one build to the next, since a chain's path changes with the last bit of any
// floating-point result (the ASan build ranked x0, x3, x1 where the normal build ranked x0, x1, x2).

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "design/sobol.h"
#include "experiment/model_step.h"
#include "experiment/runner.h"
#include "experiment/strategy.h"
#include "model/parameter_relevance.h"
#include "model/power_transform.h"
#include "model/standardizer.h"
#include "model/surrogate.h"
#include "test_main.h"
#include "test_support.h"

namespace test_model_extremes {

using namespace sebo;

namespace {

constexpr int kDimension = 6;
constexpr int kPoints = 24;

// The objective's informative part: only x0 and x1 matter.
double truth(const std::vector<double>& x) { return std::sin(3.0 * x[0]) + 2.0 * x[1] * x[1]; }

struct DataSet {
    const char* name;
    // Objective of trial i at configuration x (maximized).
    std::function<double(int, const std::vector<double>&)> value;
    std::vector<int> extreme_trials;  // what the training set must winsorize
    // Where the model must rank x0 and x1: within the first `rank_within` inputs; 0 when the
    // values say nothing about them.
    int rank_within;
};

std::vector<DataSet> data_sets() {
    return {
        {"one value of +1e308", [](int i, const auto& x) { return i == 5 ? 1e308 : truth(x); }, {5}, 2},
        {"one value of -1e308", [](int i, const auto& x) { return i == 5 ? -1e308 : truth(x); }, {5}, 2},
        // Two of 24 values replaced: winsorized, they still say "best here" and "worst there", which
        // the SAAS models partly explain with x2 and x3 (see the top of this file).
        {"values of +1e30 and -1e30",
         [](int i, const auto& x) { return i == 5 ? 1e30 : i == 11 ? -1e30 : truth(x); }, {5, 11}, 4},
        // 1 plus at most ±4e-16: a few distinct doubles around 1.
        {"values equal to within 1e-15", [](int, const auto& x) { return 1.0 + 1e-16 * std::round(2.0 * truth(x)); }, {}, 0},
        {"all values equal", [](int, const auto&) { return 3.0; }, {}, 0},
    };
}

Experiment make_experiment(const DataSet& data, StrategyKind strategy, ModelKind model) {
    Experiment e;
    e.name = data.name;
    std::vector<Parameter> parameters;
    for (int i = 0; i < kDimension; ++i) {
        Parameter p;
        p.name = "x" + std::to_string(i);
        p.lower = 0.0;
        p.upper = 1.0;
        parameters.push_back(p);
    }
    e.space = SearchSpace(parameters);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.strategy = strategy;
    e.method.model = model;
    e.method.initial_trials = 4;
    e.method.budget = 100;
    e.method.raw_samples = 256;
    e.method.restarts = 4;
    e.method.homotopy_steps = 8;
    e.method.nuts_warmup = 128;
    e.method.nuts_samples = 128;
    e.method.nuts_thinning = 8;
    e.seed = 18;
    const auto points = ScrambledSobol(kDimension, 18).points(0, kPoints);
    for (int i = 0; i < kPoints; ++i) {
        Trial t;
        t.index = i;
        t.parameters = points[static_cast<std::size_t>(i)];
        t.status = TrialStatus::Completed;
        t.values = {{"objective", {data.value(i, t.parameters), std::nullopt}}};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

}  // namespace

class TestModelExtremes : public QObject {
    Q_OBJECT

private slots:
    // Next to a mean of 1e306 (one value of 1e308 among 24), every ordinary value standardizes to
    // the same number: the warp alone cannot tell them apart, whatever its λ.
    void warpAloneCannotSeparateTheBulk() {
        Eigen::VectorXd y(kPoints);
        for (int i = 0; i < kPoints; ++i) y[i] = std::sin(0.3 * i);
        y[5] = 1e308;
        const PowerTransform warp(y);
        const Eigen::VectorXd warped = warp.apply(y);
        std::set<double> bulk;
        for (int i = 0; i < kPoints; ++i)
            if (i != 5) bulk.insert(warped[i]);
        QCOMPARE(bulk.size(), std::size_t{1});
        // With the value winsorized (as make_training_set does) the bulk keeps 23 distinct values.
        const Experiment e = make_experiment(data_sets()[0], StrategyKind::SeboL0, ModelKind::SaasMap);
        const auto training = make_training_set(e, WarpMode::Always);
        QVERIFY(training);
        std::set<double> kept;
        for (int i = 0; i < kPoints; ++i)
            if (i != 5) kept.insert(training->data->targets[i]);
        QCOMPARE(kept.size(), std::size_t{kPoints - 1});
    }

    void trainingSetsAreFiniteAndWinsorizeOnlyExtremes() {
        for (const DataSet& data : data_sets()) {
            for (const bool warp : {true, false}) {
                const Experiment e = make_experiment(data, StrategyKind::SeboL0, ModelKind::SaasMap);
                const auto training = make_training_set(e, warp ? WarpMode::Always : WarpMode::Off);
                QVERIFY(training);
                QVERIFY2(training->data->targets.allFinite(), data.name);
                QVERIFY2(!training->data->validate(), data.name);
                QCOMPARE(training->winsorized, data.extreme_trials);
                // The extreme value stays the best (or worst) observation.
                for (int trial : data.extreme_trials) {
                    const double t = training->data->targets[trial];
                    const bool high = *e.trials[static_cast<std::size_t>(trial)].value("objective") > 0;
                    const auto& all = training->data->targets;
                    QVERIFY2(high ? t == all.maxCoeff() : t == all.minCoeff(), data.name);
                }
            }
        }
        // Data with no extreme value is untouched (Branin-like: one 308 among values near 1).
        DataSet ordinary{"ordinary", [](int i, const auto& x) { return i == 3 ? -308.0 : -truth(x); }, {}, 2};
        const auto training = make_training_set(make_experiment(ordinary, StrategyKind::SeboL0, ModelKind::SaasMap), WarpMode::Always);
        QVERIFY(training && training->winsorized.empty());
        QCOMPARE(training->utility[3], -308.0);
    }

    void fitsStayFiniteAndRankTheEffectiveInputs() {
        for (const DataSet& data : data_sets()) {
            for (const ModelKind model : {ModelKind::Gp, ModelKind::SaasMap, ModelKind::SaasNuts}) {
                Experiment e = make_experiment(data, StrategyKind::SeboL0, model);
                // The paper's single chain (the order above was checked with it), long enough that
                // its medians are stable (top of this file).
                e.method.nuts = NutsMode::Paper;
                e.method.nuts_warmup = 256;
                e.method.nuts_samples = 512;
                e.method.nuts_thinning = 1;
                const auto training = make_training_set(e, warp_mode(e.method));
                QVERIFY(training);
                const SurrogateFit fit = fit_surrogate(training->data, surrogate_options(e.method), 7);
                const QString where = QString("%1, %2").arg(data.name, to_string(model));
                QVERIFY2(fit.status == SurrogateFit::Status::Ok, qPrintable(where + ": " + QString::fromStdString(fit.message)));
                const auto probes = ScrambledSobol(kDimension, 99).points(0, 32);
                Eigen::MatrixXd x(static_cast<Eigen::Index>(probes.size()), kDimension);
                for (std::size_t i = 0; i < probes.size(); ++i)
                    for (int d = 0; d < kDimension; ++d) x(static_cast<Eigen::Index>(i), d) = probes[i][static_cast<std::size_t>(d)];
                const PosteriorMoments m = fit.posterior->mixture(x);
                QVERIFY2(m.mean.allFinite() && m.variance.allFinite(), qPrintable(where));
                QVERIFY2((m.variance.array() >= 0.0).all(), qPrintable(where));
                if (data.rank_within == 0) continue;
                const std::vector<ParameterRelevance> relevance = parameter_relevance(fit.samples);
                QString ranked;
                std::vector<double> median(kDimension);
                for (const ParameterRelevance& r : relevance) {
                    ranked += QString(" x%1=%2").arg(r.parameter).arg(r.median, 0, 'g', 3);
                    median[static_cast<std::size_t>(r.parameter)] = r.median;
                }
                std::set<int> top;
                for (int k = 0; k < data.rank_within; ++k) top.insert(relevance[static_cast<std::size_t>(k)].parameter);
                QVERIFY2(top.count(0) && top.count(1), qPrintable(where + ": ranked" + ranked));
                const double noise = std::max(median[4], median[5]);
                QVERIFY2(median[0] >= 2.0 * noise && median[1] >= 2.0 * noise, qPrintable(where + ": ranked" + ranked));
            }
        }
    }

    // A whole SEBO-L0 step (SAAS-MAP for every data set, SAAS-NUTS on the 1e308 one): it
    // proposes one new configuration, finite and inside the space.
    void seboStepsProposeValidConfigurations() {
        const std::vector<DataSet> sets = data_sets();
        for (std::size_t s = 0; s < sets.size(); ++s) {
            for (const ModelKind model : {ModelKind::SaasMap, ModelKind::SaasNuts}) {
                if (model == ModelKind::SaasNuts && s != 0) continue;
                Experiment e = make_experiment(sets[s], StrategyKind::SeboL0, model);
                const Experiment before = e;
                auto strategy = make_strategy(e.method);
                const StepResult step = run_step(e, *strategy, nullptr, StepControl{}, 1);
                const QString where = QString("%1, %2").arg(sets[s].name, to_string(model));
                QVERIFY2(step.status == StepResult::Status::Completed, qPrintable(where + ": " + QString::fromStdString(step.message)));
                QCOMPARE(step.new_trials.size(), std::size_t{1});
                const Trial& t = *e.find_trial(step.new_trials.front());
                QCOMPARE(t.generator, std::string("sebo-l0"));
                QVERIFY2(!e.space.check_point(t.parameters), qPrintable(where));
                for (const Trial& old : before.trials) QVERIFY2(old.parameters != t.parameters, qPrintable(where + ": a repeat"));
                QVERIFY2(!e.validate(), qPrintable(where));
            }
        }
    }
};

SEBO_TEST_MAIN(TestModelExtremes)
}  // namespace test_model_extremes
#include "test_model_extremes.moc"
