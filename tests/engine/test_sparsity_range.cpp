// The sparsity range of interest (issue 14, item 5; MethodSettings::max_active / min_active): the
// L0 penalty's floor max(ξ, N) and its smooth form along the homotopy (checked against central
// finite differences and its bounds), the hypervolume of hand-made fronts in the analytics, the
// SEBO EHVI with the reference moved to M + 1 against hand-computed strips, a model step that keeps
// within M, and the settings' validation and file form.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include <nlohmann/json.hpp>

#include "acquisition/acquisition.h"
#include "acquisition/gaussian.h"
#include "core/input_error.h"
#include "experiment/analytics.h"
#include "experiment/runner.h"
#include "io/experiment_file.h"
#include "older_version.h"
#include "problems/problem.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_sparsity_range {

using namespace sebo;
using Json = nlohmann::json;

namespace {

// N(μ, σ²) everywhere, one sample: the acquisition then depends on x through ξ alone.
class ConstantPosterior final : public PosteriorView {
public:
    ConstantPosterior(int d, double mean, double var) : d_(d), mean_(mean), var_(var) {}
    int dimension() const override { return d_; }
    int sample_count() const override { return 1; }
    void moments(const Eigen::VectorXd&, Eigen::VectorXd& m, Eigen::VectorXd& v, Eigen::MatrixXd* dm,
                 Eigen::MatrixXd* dv) const override {
        m = Eigen::VectorXd::Constant(1, mean_);
        v = Eigen::VectorXd::Constant(1, var_);
        if (dm) dm->setZero(d_, 1);
        if (dv) dv->setZero(d_, 1);
    }
    void batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& m, Eigen::MatrixXd& v) const override {
        m = Eigen::MatrixXd::Constant(X.rows(), 1, mean_);
        v = Eigen::MatrixXd::Constant(X.rows(), 1, var_);
    }

private:
    int d_;
    double mean_, var_;
};

SparsityPenalty l0(int d, int floor) {
    std::vector<int> group_of(static_cast<std::size_t>(d));
    for (int i = 0; i < d; ++i) group_of[static_cast<std::size_t>(i)] = i;
    return SparsityPenalty(PenaltyKind::L0, Eigen::VectorXd::Zero(d), group_of, d, floor);
}

// A point of [0,1]^d with its first k coordinates changed (to 0.4), the rest on the target 0.
Eigen::VectorXd with_active(int d, int k) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(d);
    for (int i = 0; i < k; ++i) x[i] = 0.4;
    return x;
}

// Six parameters in [0, 1], target 0, maximized; trials with 0, 1, 3 and 5 changes worth 1, 2, 4, 6.
Experiment hand_made_front() {
    Experiment e;
    std::vector<Parameter> ps;
    for (int i = 0; i < 6; ++i) {
        Parameter p;
        p.name = "x" + std::to_string(i);
        ps.push_back(p);
    }
    e.space = SearchSpace(ps);
    e.outcomes = Outcomes::single("y", false, 0.0);
    const std::vector<std::pair<int, double>> trials = {{0, 1.0}, {1, 2.0}, {3, 4.0}, {5, 6.0}};
    for (const auto& [k, y] : trials) {
        Trial t;
        t.index = static_cast<int>(e.trials.size());
        t.parameters.assign(6, 0.0);
        for (int i = 0; i < k; ++i) t.parameters[static_cast<std::size_t>(i)] = 0.5;
        t.status = TrialStatus::Completed;
        t.values["y"] = {y, std::nullopt};
        e.trials.push_back(t);
    }
    return e;
}

double expected_improvement(double mean, double sd, double cover) {
    const double z = (mean - cover) / sd;
    return sd * (z * normal_cdf(z) + normal_pdf(z));
}

}  // namespace

class TestSparsityRange : public QObject {
    Q_OBJECT
private slots:
    void penalty_floor_exact() {
        const SparsityPenalty p = l0(6, 2);
        QCOMPARE(p.exact(with_active(6, 0)), 2.0);
        QCOMPARE(p.exact(with_active(6, 1)), 2.0);
        QCOMPARE(p.exact(with_active(6, 2)), 2.0);
        QCOMPARE(p.exact(with_active(6, 5)), 5.0);
        QCOMPARE(l0(6, 0).exact(with_active(6, 1)), 1.0);
        // With groups the floor counts groups: {0,1,2} and {3,4,5}, floor 2.
        const SparsityPenalty grouped(PenaltyKind::L0, Eigen::VectorXd::Zero(6), {0, 0, 0, 1, 1, 1}, 2, 2);
        QCOMPARE(grouped.exact(with_active(6, 3)), 2.0);
    }

    // m_a = N + a·log(1 + exp((φ_a − N)/a)) lies within [max(φ_a, N), max(φ_a, N) + a·log 2], and its
    // gradient matches central differences.
    void penalty_floor_smooth_bounds_and_gradient() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const int d = 6;
        const SparsityPenalty floored = l0(d, 3), plain = l0(d, 0);
        for (const double a : {0.3, 0.1, 0.02}) {
            for (int trial = 0; trial < 20; ++trial) {
                Eigen::VectorXd x(d);
                for (int i = 0; i < d; ++i) x[i] = u(rng) < 0.5 ? 0.0 : 0.3 * u(rng);
                Eigen::VectorXd grad;
                const double value = floored.smooth(x, a, &grad);
                const double phi = plain.smooth(x, a, nullptr);
                QVERIFY(value >= std::max(phi, 3.0) - 1e-12);
                QVERIFY(value <= std::max(phi, 3.0) + a * std::log(2.0) + 1e-12);
                const double h = 1e-6;
                for (int i = 0; i < d; ++i) {
                    Eigen::VectorXd up = x, down = x;
                    up[i] += h;
                    down[i] -= h;
                    const double fd = (floored.smooth(up, a, nullptr) - floored.smooth(down, a, nullptr)) / (2 * h);
                    SEBO_COMPARE_NEAR(grad[i], fd, 1e-6 * std::max(1.0, std::abs(fd)));
                }
            }
        }
        // Along the homotopy it tends to the exact max(count, N): at a = 1e-3 with changes of 0.4.
        for (int k = 0; k <= d; ++k)
            SEBO_COMPARE_NEAR(floored.smooth(with_active(d, k), 1e-3, nullptr), std::max(k, 3), 1e-3 * std::log(2.0) + 1e-9);
    }

    // Worked by hand from the strips of the step frontier (see hand_made_front):
    //   plain, reference 6:          1·1 + 2·2 + 2·4 + 1·6 = 19
    //   max_active 3 (reference 4):  1·1 + 2·2 + 1·4       = 9
    //   min_active 2 (reference 6):  sparsities 2, 2, 3, 5: 1·2 + 2·4 + 1·6 = 16
    //   both:                        1·2 + 1·4 = 6 (the 5-change trial adds nothing)
    void hypervolume_of_a_hand_made_front() {
        Experiment e = hand_made_front();
        const auto measure = [&](std::optional<int> max_active, std::optional<int> min_active) {
            e.method.max_active = max_active;
            e.method.min_active = min_active;
            return analyze_frontier(e);
        };
        FrontierReport r = measure(std::nullopt, std::nullopt);
        QCOMPARE(r.reference_sparsity, 6);
        SEBO_COMPARE_NEAR(r.hypervolume, 19.0, 1e-12);
        r = measure(3, std::nullopt);
        QCOMPARE(r.reference_sparsity, 4);
        SEBO_COMPARE_NEAR(r.hypervolume, 9.0, 1e-12);
        SEBO_COMPARE_NEAR(r.hypervolume_trace.back(), 9.0, 1e-12);
        SEBO_COMPARE_NEAR(r.hypervolume_trace[0], 1.0 * 4, 1e-12);  // the status quo alone: 4 strips of 1
        r = measure(std::nullopt, 2);
        SEBO_COMPARE_NEAR(r.hypervolume, 16.0, 1e-12);
        r = measure(3, 2);
        QVERIFY(!e.validate());
        SEBO_COMPARE_NEAR(r.hypervolume, 6.0, 1e-12);
        SEBO_COMPARE_NEAR(r.hypervolume_trace[0], 2.0, 1e-12);  // 1 over [2, 4)
        // The frontier itself describes the trials as they are.
        QCOMPARE(r.pareto_trials, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(*r.levels[0].best_objective, 1.0);
        QCOMPARE(*r.levels[6].best_objective, 6.0);
    }

    // SEBO's EHVI (paper eq. 7) with floor N = 2 and reference M + 1 = 4 on a front of two trials
    // (1 change worth 1 → ξ = 2; 3 changes worth 2 → ξ = 3), reference f 0, posterior N(1.5, 0.5²):
    //   0 or 1 or 2 changes (ξ = 2): EI(c = 1) + EI(c = 2) over the strips [2, 3) and [3, 4);
    //   3 changes: EI(c = 2); 4 or more: nothing (log 0).
    void sebo_ehvi_with_the_range_by_hand() {
        const int d = 6;
        const SparsityPenalty penalty = l0(d, 2);
        const std::vector<std::pair<double, double>> front = {{1.0, penalty.exact(with_active(d, 1))},
                                                               {2.0, penalty.exact(with_active(d, 3))}};
        const auto view = std::make_shared<ConstantPosterior>(d, 1.5, 0.25);
        const SeboEhvi sebo(view, penalty, SparseEhviFront(front, 0.0, 3 + 1.0));
        const double both = expected_improvement(1.5, 0.5, 1.0) + expected_improvement(1.5, 0.5, 2.0);
        for (int k : {0, 1, 2}) SEBO_COMPARE_NEAR(sebo.exact_value(with_active(d, k)), std::log(both), 1e-12);
        SEBO_COMPARE_NEAR(sebo.exact_value(with_active(d, 3)), std::log(expected_improvement(1.5, 0.5, 2.0)), 1e-12);
        QCOMPARE(sebo.exact_value(with_active(d, 4)), SparseEhviFront::kLogZero);
        // Without the range (reference D = 6, no floor; ξ = 1 and 3), 0 changes gain over [0, 6).
        const SparsityPenalty plain = l0(d, 0);
        const SeboEhvi open(view, plain, SparseEhviFront({{1.0, 1.0}, {2.0, 3.0}}, 0.0, plain.max_value()));
        const double all = expected_improvement(1.5, 0.5, 0.0) + 2 * expected_improvement(1.5, 0.5, 1.0) +
                           3 * expected_improvement(1.5, 0.5, 2.0);
        SEBO_COMPARE_NEAR(open.exact_value(with_active(d, 0)), std::log(all), 1e-12);
        // The smoothed value's gradient (through the floor's smooth maximum) against central differences.
        // φ_a ≈ 2.17 at a = 0.1, close to the floor, where the smooth maximum bends.
        Eigen::VectorXd x = with_active(d, 0);
        x[0] = 0.05;
        x[1] = 0.12;
        x[2] = 0.2;
        x[3] = 0.15;
        Eigen::VectorXd grad;
        const double a = 0.1;
        sebo.value(x, a, &grad);
        for (int i = 0; i < d; ++i) {
            Eigen::VectorXd up = x, down = x;
            up[i] += 1e-6;
            down[i] -= 1e-6;
            const double fd = (sebo.value(up, a, nullptr) - sebo.value(down, a, nullptr)) / 2e-6;
            SEBO_COMPARE_NEAR(grad[i], fd, 1e-5 * std::max(1.0, std::abs(fd)));
        }
    }

    // A SEBO step never proposes more than max_active changes (they would add no hypervolume). The
    // same run without the range proposes 2 and 3 changes (Branin needs its two effective
    // parameters), so the check has something to catch.
    void model_steps_keep_within_max_active() {
        const auto changes_proposed = [](std::optional<int> max_active) {
            MethodSettings method;
            method.strategy = StrategyKind::SeboL0;
            method.model = ModelKind::Gp;
            method.initial_trials = 6;
            method.budget = 12;
            method.max_active = max_active;
            method.dense_steps = 0;  // SEBO's own steps in both runs (max_active has no dense start anyway)
            ProblemSpec spec;
            spec.name = "branin";
            spec.dimension = 10;
            Experiment e = make_problem_experiment(spec, method, 3);
            ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
            auto strategy = make_strategy(e.method);
            while (static_cast<int>(e.trials.size()) < e.method.budget)
                if (run_step(e, *strategy, &evaluator, StepControl{}, 1).status != StepResult::Status::Completed) break;
            std::vector<int> counts;
            for (std::size_t i = 6; i < e.trials.size(); ++i)
                if (e.trials[i].generator == "sebo-l0") counts.push_back(e.space.active_count(e.trials[i].parameters));
            return counts;
        };
        const std::vector<int> limited = changes_proposed(1);
        QCOMPARE(limited.size(), std::size_t{6});
        for (int k : limited) QVERIFY2(k <= 1, qPrintable(QString("a proposal changes %1 parameters").arg(k)));
        const std::vector<int> open = changes_proposed(std::nullopt);
        QCOMPARE(open.size(), std::size_t{6});
        QVERIFY(*std::max_element(open.begin(), open.end()) > 1);
    }

    void settings_validation_names_the_field_and_value() {
        const auto message = [](auto change) {
            MethodSettings m;
            m.strategy = StrategyKind::SeboL0;
            change(m);
            return QString::fromStdString(m.validate().value_or(""));
        };
        QCOMPARE(message([](MethodSettings& m) { m.max_active = 0; }), QString("method.max_active: 0 must be at least 1"));
        QCOMPARE(message([](MethodSettings& m) { m.min_active = -2; }), QString("method.min_active: -2 must be at least 1"));
        QCOMPARE(message([](MethodSettings& m) {
                     m.max_active = 2;
                     m.min_active = 3;
                 }),
                 QString("method.min_active: 3 is above max_active 2"));
        QCOMPARE(message([](MethodSettings& m) {
                     m.strategy = StrategyKind::SeboL1;
                     m.max_active = 2;
                 }),
                 QString("method.max_active: the sparsity range counts changed parameters, which needs the L0 penalty; "
                         "sebo-l1 uses l1"));
        QVERIFY(message([](MethodSettings& m) {
                    m.max_active = 2;
                    m.min_active = 2;
                }).isEmpty());
        Experiment e = hand_made_front();
        e.method.max_active = 7;
        QCOMPARE(QString::fromStdString(e.validate().value_or("")),
                 QString("method.max_active: 7 is above the 6 parameters of the space"));
    }

    // The file form, and version-3 files (which had no range) loading unchanged.
    void file_form_and_migration() {
        Experiment e = hand_made_front();
        e.method.max_active = 3;
        e.method.min_active = 1;
        e.method.status_quo_first = true;
        Json j = Json::parse(experiment_to_json_text(e));
        QCOMPARE(j["method"]["max_active"].get<int>(), 3);
        QCOMPARE(j["method"]["min_active"].get<int>(), 1);
        QCOMPARE(j["method"]["status_quo_first"].get<bool>(), true);
        const Experiment back = experiment_from_json_text(j.dump());
        QCOMPARE(back.method.max_active, std::optional<int>(3));
        QCOMPARE(back.method.min_active, std::optional<int>(1));
        QVERIFY(back.method.status_quo_first);
        // Absent: today's behaviour.
        const Json plain = Json::parse(experiment_to_json_text(hand_made_front()));
        QVERIFY(!plain["method"].contains("max_active") && !plain["method"].contains("min_active"));
        QCOMPARE(plain["method"]["status_quo_first"].get<bool>(), false);
        // Bad values name the field.
        Json bad = j;
        bad["method"]["max_active"] = 9;
        try {
            experiment_from_json_text(bad.dump());
            QFAIL("accepted max_active 9 of 6 parameters");
        } catch (const InputError& error) {
            QCOMPARE(QString(error.what()), QString("method.max_active: 9 is above the 6 parameters of the space"));
        }
        bad["method"]["max_active"] = "three";
        try {
            experiment_from_json_text(bad.dump());
            QFAIL("accepted max_active \"three\"");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).startsWith("method.max_active: expected an integer"), error.what());
        }
        // A version-3 file: members an older writer may have left meant nothing there.
        test::rewrite_as_version(j, 3);
        const Experiment old = experiment_from_json_text(j.dump());
        QVERIFY(!old.method.max_active && !old.method.min_active && !old.method.status_quo_first);
    }
};

SEBO_TEST_MAIN(TestSparsityRange)
}  // namespace test_sparsity_range
#include "test_sparsity_range.moc"
