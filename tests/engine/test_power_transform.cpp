// Yeo–Johnson power transform of the objective (model/power_transform.h), and the training data
// a strategy step builds with it (experiment/model_step.h).
#include <cmath>
#include <random>

#include "experiment/model_step.h"
#include "io/experiment_file.h"
#include "model/power_transform.h"
#include "test_main.h"
#include "test_support.h"

namespace test_power_transform {

using namespace sebo;

class TestPowerTransform : public QObject {
    Q_OBJECT
private slots:
    void formula_hand_computed() {
        // λ = 1 is the identity on both sides.
        QCOMPARE(PowerTransform::yeo_johnson(2.5, 1.0), 2.5);
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(-2.5, 1.0), -2.5, 1e-15);
        // λ = 0: log(1 + y) for y ≥ 0; λ = 2: −log(1 − y) for y < 0.
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(3.0, 0.0), std::log(4.0), 1e-15);
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(-3.0, 2.0), -std::log(4.0), 1e-15);
        // λ = 0.5, y = 3: ((4)^0.5 − 1)/0.5 = 2; y = −3: −((4)^1.5 − 1)/1.5 = −14/3.
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(3.0, 0.5), 2.0, 1e-15);
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(-3.0, 0.5), -14.0 / 3.0, 1e-14);
    }

    void fitted_transform_is_increasing_with_the_right_slope() {
        // Branin-like utilities: most near 0, a few catastrophic ones.
        Eigen::VectorXd y(8);
        y << -0.5, -1.2, -3.9, -5.1, -17.5, -58.0, -111.5, -308.1;
        const PowerTransform t(y);
        QVERIFY2(t.lambda() > 1.0, qPrintable(QString::number(t.lambda())));  // compresses the lower tail
        for (double a = -400; a < 10; a += 3.7) {
            QVERIFY(t.apply(a + 1.0) > t.apply(a));
            const double h = 1e-5;
            SEBO_COMPARE_NEAR(t.derivative(a), (t.apply(a + h) - t.apply(a - h)) / (2 * h), 1e-6 * std::max(1.0, std::abs(t.derivative(a))));
        }
    }

    void gaussian_data_is_left_nearly_alone() {
        std::mt19937_64 rng(4);
        std::normal_distribution<double> normal(3.0, 2.0);
        Eigen::VectorXd y(400);
        for (auto& v : y) v = normal(rng);
        const PowerTransform t(y);
        QVERIFY2(std::abs(t.lambda() - 1.0) <= 0.3, qPrintable(QString::number(t.lambda())));
    }

    // The targets the model and the acquisitions see are the utilities standardized, warped and
    // standardized again — so the λ of EI-ER and EI-IR weighs the penalty against these units,
    // not against the raw objective as in the paper (docs/method.md, departures). Assembled here
    // from the hand-checked formula; without the warp they are the utilities standardized.
    void training_targets_are_the_warped_standardized_utilities() {
        const std::vector<double> branin = {0.5, 1.2, 3.9, 5.1, 17.5, 58.0, 111.5, 308.1};  // minimized
        Experiment e;
        e.space = SearchSpace({Parameter{"a", ParameterKind::Continuous, 0.0, 1.0, false, 0.0, "", {}, {}, false},
                               Parameter{"b", ParameterKind::Continuous, 0.0, 1.0, false, 0.0, "", {}, {}, false}});
        e.outcomes = Outcomes::single("branin", true);
        for (std::size_t i = 0; i < branin.size(); ++i) {
            Trial t;
            t.index = static_cast<int>(i);
            t.parameters = {0.1 * static_cast<double>(i), 0.05 * static_cast<double>(i)};
            t.status = TrialStatus::Completed;
            t.values["branin"] = {branin[i], std::nullopt};
            e.trials.push_back(t);
        }
        const auto n = static_cast<Eigen::Index>(branin.size());
        const auto standardized = [n](const Eigen::VectorXd& v) -> Eigen::VectorXd {
            const double sd = std::sqrt((v.array() - v.mean()).square().sum() / static_cast<double>(n - 1));
            return (v.array() - v.mean()) / sd;
        };
        Eigen::VectorXd utility(n);
        for (Eigen::Index i = 0; i < n; ++i) utility[i] = -branin[static_cast<std::size_t>(i)];

        const auto warped = make_training_set(e, WarpMode::Always);
        QVERIFY(warped.has_value());
        const double lambda = warped->warp.lambda();
        QVERIFY2(lambda > 1.0, qPrintable(QString::number(lambda)));  // a real warp, not the identity
        Eigen::VectorXd psi = standardized(utility);
        for (double& v : psi) v = PowerTransform::yeo_johnson(v, lambda);
        const Eigen::VectorXd expected = standardized(psi);
        for (Eigen::Index i = 0; i < n; ++i) SEBO_COMPARE_NEAR(warped->data->targets[i], expected[i], 1e-12);

        const auto plain = make_training_set(e, WarpMode::Off);
        QVERIFY(plain.has_value());
        const Eigen::VectorXd z = standardized(utility);
        for (Eigen::Index i = 0; i < n; ++i) SEBO_COMPARE_NEAR(plain->data->targets[i], z[i], 1e-12);
        // The two best trials are 0.7 apart in either case; in standardized units the warp
        // makes that gap several times wider.
        QVERIFY(warped->data->targets[0] - warped->data->targets[1] > 3.0 * (plain->data->targets[0] - plain->data->targets[1]));
    }

    // WarpMode::Checked (MethodSettings::warp_check): the warp while a GP of the plain values
    // infers negligible noise, the plain values once it does not. A minimized objective that is
    // catastrophic near the origin (300 there, 15 at the centre, 0.7 at the far corner), measured
    // exactly and with noise of sd 30 (10 % of its range).
    void checked_warp_follows_the_plain_models_noise() {
        const auto experiment = [](double noise_sd) {
            Experiment e;
            e.space = SearchSpace({Parameter{"a", ParameterKind::Continuous, 0.0, 1.0, false, 0.0, "", {}, {}, false},
                                   Parameter{"b", ParameterKind::Continuous, 0.0, 1.0, false, 0.0, "", {}, {}, false}});
            e.outcomes = Outcomes::single("y", true);
            std::mt19937_64 rng(7);
            std::uniform_real_distribution<double> uniform(0.0, 1.0);
            std::normal_distribution<double> noise(0.0, noise_sd);
            for (int i = 0; i < 30; ++i) {
                Trial t;
                t.index = i;
                t.parameters = {i == 0 ? 0.0 : uniform(rng), i == 0 ? 0.0 : uniform(rng)};
                t.status = TrialStatus::Completed;
                t.values["y"] = {300.0 * std::exp(-3.0 * (t.parameters[0] + t.parameters[1])) + noise(rng), std::nullopt};
                e.trials.push_back(t);
            }
            return e;
        };
        const Experiment exact = experiment(0.0), noisy = experiment(30.0);
        QVERIFY(make_training_set(exact, WarpMode::Always)->warp.lambda() > 1.0);
        QVERIFY(make_training_set(noisy, WarpMode::Always)->warp.lambda() > 1.0);
        QCOMPARE(make_training_set(noisy, WarpMode::Off)->warp.lambda(), 1.0);
        // Exact values: the plain model resolves them, and the check keeps the warp (the same λ).
        QCOMPARE(make_training_set(exact, WarpMode::Checked)->warp.lambda(), make_training_set(exact, WarpMode::Always)->warp.lambda());
        // Noisy ones: the plain values, standardized only.
        const auto checked = make_training_set(noisy, WarpMode::Checked);
        QCOMPARE(checked->warp.lambda(), 1.0);
        const auto plain = make_training_set(noisy, WarpMode::Off);
        for (Eigen::Index i = 0; i < plain->data->targets.size(); ++i) QCOMPARE(checked->data->targets[i], plain->data->targets[i]);
        // Fewer than kWarpCheckMinimum values are not checked.
        Experiment few = noisy;
        few.trials.resize(kWarpCheckMinimum - 1);
        QCOMPARE(make_training_set(few, WarpMode::Checked)->warp.lambda(), make_training_set(few, WarpMode::Always)->warp.lambda());

        // The method's setting: checked by default for SEBO strategies, and only for them; a
        // version-9 file warped whenever warp_objective.
        for (const StrategyKind kind : all_strategy_kinds()) {
            MethodSettings m;
            m.strategy = kind;
            QCOMPARE(warp_mode(m), is_sebo(kind) ? WarpMode::Checked : WarpMode::Always);
        }
        MethodSettings unchecked;
        unchecked.strategy = StrategyKind::SeboL0;
        QCOMPARE(warp_mode(unchecked), WarpMode::Checked);
        unchecked.warp_check = false;
        QCOMPARE(warp_mode(unchecked), WarpMode::Always);
        unchecked.warp_objective = false;
        QCOMPARE(warp_mode(unchecked), WarpMode::Off);
        std::string text = experiment_to_json_text(exact);
        QVERIFY(experiment_from_json_text(text).method.warp_check);
        const std::string version = "\"version\": " + std::to_string(kExperimentVersion);
        const auto at = text.find(version);
        QVERIFY(at != std::string::npos);
        text.replace(at, version.size(), "\"version\": 9");
        QVERIFY(!experiment_from_json_text(text).method.warp_check);
        QVERIFY(experiment_from_json_text(text).method.warp_objective);
    }

    void constant_data_gives_the_identity() {
        const PowerTransform t(Eigen::VectorXd::Constant(5, 2.0));
        QCOMPARE(t.lambda(), 1.0);
        QCOMPARE(t.apply(7.0), 7.0);
    }
};

SEBO_TEST_MAIN(TestPowerTransform)
}  // namespace test_power_transform
#include "test_power_transform.moc"
