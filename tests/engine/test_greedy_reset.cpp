// Greedy resetting to the target (optimize/greedy_reset.h) on hand-made value surfaces whose
// reset order and drops are known exactly (weights are binary fractions, so every drop is exact
// and a drop equal to the tolerance can be tested), BONSAI's pruning on a hand-made acquisition
// (experiment/bonsai_pruning.h) with and without an earlier batch member pending, and the bonsai
// strategy end to end against saasbo's dense candidate on the same data.
#include <cmath>

#include <QTemporaryDir>

#include "experiment/bonsai_pruning.h"
#include "experiment/model_strategy.h"
#include "experiment/sobol_strategy.h"
#include "io/experiment_file.h"
#include "optimize/greedy_reset.h"
#include "polytope_test_support.h"
#include "space/polytope.h"
#include "test_main.h"
#include "test_support.h"

namespace test_greedy_reset {

using namespace sebo;
using sebo::test::vec;

namespace {

// v(x) = Σ w_j x_j with w = (1/8, 1/2, 1/4, 1/16, 1/16): from x = 1 towards t = 0 the resets cost
// 1/16, 1/16 (a tie: column 3 before 4), 1/8, 1/4, 1/2 of the start value 1.
const Eigen::VectorXd kWeights = vec({0.125, 0.5, 0.25, 0.0625, 0.0625});
double linear_value(const Eigen::VectorXd& x) { return kWeights.dot(x); }

std::vector<int> resets(const GreedyResetPath& path) {
    std::vector<int> out;
    for (std::size_t k = 1; k < path.steps.size(); ++k) out.push_back(path.steps[k].reset);
    return out;
}

// A log acquisition over a hand-made surface, as LogExpectedImprovement gives one.
class LogLinearAcquisition final : public AcquisitionFunction {
public:
    double value(const Eigen::VectorXd& x, double, Eigen::VectorXd*) const override { return std::log(linear_value(x)); }
    double exact_value(const Eigen::VectorXd& x) const override { return value(x, 1.0, nullptr); }
};

Parameter unit_parameter(std::string name) {
    Parameter p;
    p.name = std::move(name);
    p.lower = 0.0;
    p.upper = 1.0;
    return p;
}

// Six unit parameters, two of which matter (a bowl at x0 = 0.7, x1 = 0.3, maximized), ten Sobol
// trials measured, a GP with a small optimizer budget: a step of a model strategy in a second.
Experiment two_effective_of_six() {
    std::vector<Parameter> parameters;
    for (int j = 0; j < 6; ++j) parameters.push_back(unit_parameter("x" + std::to_string(j)));
    Experiment e;
    e.space = SearchSpace(parameters);
    e.method.model = ModelKind::Gp;
    e.method.initial_trials = 10;
    e.method.raw_samples = 256;
    e.method.restarts = 4;
    e.seed = 5;
    const auto points = next_sobol_points(e, 10);
    for (int i = 0; i < 10; ++i) {
        Trial t;
        t.index = i;
        t.parameters = points[static_cast<std::size_t>(i)];
        t.status = TrialStatus::Completed;
        const double a = t.parameters[0] - 0.7, b = t.parameters[1] - 0.3;
        t.values[e.primary_objective().metric] = {-a * a - b * b, std::nullopt};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

}  // namespace

class TestGreedyReset : public QObject {
    Q_OBJECT

private slots:
    void resetsInOrderOfSmallestDrop() {
        const Eigen::VectorXd start = Eigen::VectorXd::Ones(5), target = Eigen::VectorXd::Zero(5);
        GreedyResetOptions o;
        o.tolerance = 1.0;
        const GreedyResetPath path = greedy_reset(start, target, linear_value, 0.0, o);
        QCOMPARE(path.stop, GreedyResetPath::Stop::Floor);
        QCOMPARE(resets(path), (std::vector<int>{3, 4, 0, 2}));
        const double drops[] = {0.0, 0.0625, 0.125, 0.25, 0.5};
        for (std::size_t k = 0; k < path.steps.size(); ++k) {
            QCOMPARE(path.steps[k].drop, drops[k]);
            QCOMPARE(path.steps[k].changed, 5 - static_cast<int>(k));
            QCOMPARE(path.steps[k].value, linear_value(path.steps[k].x));
        }
        // The one-parameter floor: the most valuable column is never reset.
        QCOMPARE(path.accepted().x, vec({0, 1, 0, 0, 0}));
    }

    void dropExactlyAtTheToleranceIsAccepted() {
        const Eigen::VectorXd start = Eigen::VectorXd::Ones(5), target = Eigen::VectorXd::Zero(5);
        GreedyResetOptions o;
        o.tolerance = 0.25;
        const GreedyResetPath at = greedy_reset(start, target, linear_value, 0.0, o);
        QCOMPARE(at.stop, GreedyResetPath::Stop::Tolerance);
        QCOMPARE(resets(at), (std::vector<int>{3, 4, 0}));
        QCOMPARE(at.accepted().x, vec({0, 1, 1, 0, 0}));
        o.tolerance = std::nextafter(0.25, 0.0);
        const GreedyResetPath below = greedy_reset(start, target, linear_value, 0.0, o);
        QCOMPARE(resets(below), (std::vector<int>{3, 4}));
        QCOMPARE(below.accepted().x, vec({1, 1, 1, 0, 0}));
    }

    void dropIsRelativeToTheIncrementalValue() {
        // Above a reference of 1/2 the first reset already loses 1/8 of the increment, the
        // second 1/4: a tolerance of 0.2 keeps one reset only.
        const Eigen::VectorXd start = Eigen::VectorXd::Ones(5), target = Eigen::VectorXd::Zero(5);
        GreedyResetOptions o;
        o.tolerance = 0.2;
        const GreedyResetPath path = greedy_reset(start, target, linear_value, 0.5, o);
        QCOMPARE(resets(path), (std::vector<int>{3}));
        QCOMPARE(path.steps[1].drop, 0.125);
        QCOMPARE(relative_drop(1.0, 0.75, 0.5), 0.5);
        // Nothing above the reference: no loss is free, any loss is infinite.
        QCOMPARE(relative_drop(0.5, 0.5, 0.5), 0.0);
        QCOMPARE(relative_drop(0.5, 0.6, 0.7), 0.0);
        QVERIFY(std::isinf(relative_drop(0.5, 0.4, 0.7)));
    }

    void continuesPastTheToleranceAndMarksTheSteps() {
        const Eigen::VectorXd start = Eigen::VectorXd::Ones(5), target = Eigen::VectorXd::Zero(5);
        GreedyResetOptions o;
        o.tolerance = 0.25;
        o.min_changed = 0;
        o.continue_past_tolerance = true;
        const GreedyResetPath path = greedy_reset(start, target, linear_value, 0.0, o);
        QCOMPARE(resets(path), (std::vector<int>{3, 4, 0, 2, 1}));
        const bool within[] = {true, true, true, true, false, false};
        for (std::size_t k = 0; k < path.steps.size(); ++k) QCOMPARE(path.steps[k].within_tolerance, within[k]);
        QCOMPARE(path.steps.back().changed, 0);
        QCOMPARE(path.steps.back().drop, 1.0);
    }

    void coordinatesAlreadyOnTargetAreNotCandidates() {
        const Eigen::VectorXd start = vec({1, 1, 0, 1, 0}), target = Eigen::VectorXd::Zero(5);
        GreedyResetOptions o;
        o.tolerance = 1.0;
        const GreedyResetPath path = greedy_reset(start, target, linear_value, 0.0, o);
        QCOMPARE(path.steps.front().changed, 3);
        QCOMPARE(resets(path), (std::vector<int>{3, 0}));
    }

    void brokenConstraintIsRepairedOrSkipped() {
        // x0 + x1 >= 1: resetting x0 alone breaks it; projecting with x0 pinned at 0 moves x1 to 1.
        Polytope p(3);
        p.add_inequality(vec({-1, -1, 0}), -1.0);
        const auto value = [](const Eigen::VectorXd& x) { return 1.0 + 0.05 * x[1] + 0.1 * x[2]; };
        GreedyResetOptions o;
        o.tolerance = 1.0;
        o.min_changed = 0;
        o.constraints = &p;
        const GreedyResetPath path = greedy_reset(vec({0.5, 0.5, 0.5}), Eigen::VectorXd::Zero(3), value, 0.0, o);
        QCOMPARE(resets(path), (std::vector<int>{0, 2}));
        QVERIFY((path.steps[1].x - vec({0, 1, 0.5})).norm() <= 1e-12);
        QVERIFY((path.steps[2].x - vec({0, 1, 0})).norm() <= 1e-12);
        // With x0 on target, x1 can never be reset: skipped at every step, then nothing is left.
        QCOMPARE(path.steps[2].skipped, (std::vector<int>{1}));
        QCOMPARE(path.stop, GreedyResetPath::Stop::NoFeasibleReset);
        for (const GreedyResetStep& s : path.steps) QVERIFY(p.contains(s.x));
    }

    void cancellationEndsThePath() {
        GreedyResetOptions o;
        const GreedyResetPath path =
            greedy_reset(Eigen::VectorXd::Ones(5), Eigen::VectorXd::Zero(5), linear_value, 0.0, o, [] { return true; });
        QCOMPARE(path.stop, GreedyResetPath::Stop::Cancelled);
        QCOMPARE(path.steps.size(), std::size_t{1});
    }

    void optionsAreValidated() {
        GreedyResetOptions o;
        QVERIFY(!o.validate());
        o.tolerance = 1.0;
        QVERIFY(!o.validate());
        for (double bad : {0.0, -0.1, 1.5, std::nan("")}) {
            o.tolerance = bad;
            const auto error = o.validate();
            QVERIFY(error);
            QVERIFY(error->rfind("tolerance: ", 0) == 0);
        }
        o.tolerance = 0.2;
        o.min_changed = -1;
        QVERIFY(o.validate());
    }

    void bonsaiPrunesAgainstThePendingBatchMembers() {
        // The same surface as an acquisition in log form. Alone (nothing known), the reference is
        // 0 and a 20 % tolerance allows two resets (drops 1/16 and 1/8). With an earlier batch
        // member pending whose value is 1/2, the increment is 1/2 and only one reset fits.
        const LogLinearAcquisition acquisition;
        const Eigen::VectorXd dense = Eigen::VectorXd::Ones(5), target = Eigen::VectorXd::Zero(5);
        const GreedyResetPath alone = bonsai_prune(acquisition, Eigen::MatrixXd(0, 5), dense, target, bonsai_options());
        QCOMPARE(resets(alone), (std::vector<int>{3, 4}));
        SEBO_COMPARE_NEAR(alone.steps[2].drop, 0.125, 1e-14);
        Eigen::MatrixXd pending(1, 5);
        pending.row(0) = vec({0, 1, 0, 0, 0}).transpose();
        const GreedyResetPath batch = bonsai_prune(acquisition, pending, dense, target, bonsai_options());
        QCOMPARE(resets(batch), (std::vector<int>{3}));
        SEBO_COMPARE_NEAR(batch.steps[1].drop, 0.125, 1e-14);
        QCOMPARE(batch.accepted().x, vec({1, 1, 1, 0, 1}));
    }

    void bonsaiStrategyPrunesSaasbosCandidate() {
        // Six parameters, two of which matter: bonsai's candidate is saasbo's (same model, same
        // log-EI, same seed) with some coordinates reset to the target and the rest unchanged.
        Experiment e = two_effective_of_six();
        e.method.strategy = StrategyKind::Saasbo;
        const Proposal dense = ModelStrategy(e.method).propose(e, 2, StepControl{});
        e.method.strategy = StrategyKind::Bonsai;
        const Proposal pruned = ModelStrategy(e.method).propose(e, 2, StepControl{});
        QCOMPARE(pruned.status, Proposal::Status::Ok);
        QCOMPARE(pruned.generator, std::string("bonsai"));
        QCOMPARE(pruned.points.size(), std::size_t{2});
        const std::vector<double>& d = dense.points[0];
        const std::vector<double>& p = pruned.points[0];
        int reset = 0;
        for (std::size_t j = 0; j < d.size(); ++j) {
            QVERIFY(p[j] == d[j] || p[j] == 0.0);
            reset += p[j] != d[j] ? 1 : 0;
        }
        QVERIFY(reset >= 1);
        QVERIFY(e.space.active_count(p) >= 1);
        QVERIFY(e.space.active_count(pruned.points[1]) >= 1);
        QVERIFY(!e.space.check_point(pruned.points[1]));
    }

    void toleranceOfTheFileReachesThePruning() {
        // method.bonsai_tolerance (issue 16 item 1) read from a file: the same fixed-seed step pruned
        // with 0.05 keeps more changed parameters than with 0.9, and both are saasbo's dense
        // candidate with some coordinates reset (so the difference is the pruning's alone). Measured:
        // the dense candidate changes 5 of the 6 parameters, 0.05 keeps 4 of them, 0.9 keeps 1.
        Experiment e = two_effective_of_six();
        e.method.strategy = StrategyKind::Saasbo;
        const std::vector<double> dense = ModelStrategy(e.method).propose(e, 1, StepControl{}).points.at(0);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<double> read_tolerances;
        const auto pruned_with = [&](double tolerance) -> std::vector<double> {
            Experiment written = e;
            written.method.strategy = StrategyKind::Bonsai;
            written.method.bonsai_tolerance = tolerance;
            const std::string path = dir.filePath("bonsai.sebo.json").toStdString();
            save_experiment(written, path);
            const Experiment read = load_experiment(path);
            read_tolerances.push_back(read.method.bonsai_tolerance);
            return ModelStrategy(read.method).propose(read, 1, StepControl{}).points.at(0);
        };
        const std::vector<double> tight = pruned_with(0.05), loose = pruned_with(0.9);
        QCOMPARE(read_tolerances, (std::vector<double>{0.05, 0.9}));
        for (const std::vector<double>* p : {&tight, &loose})
            for (std::size_t j = 0; j < dense.size(); ++j) QVERIFY((*p)[j] == dense[j] || (*p)[j] == 0.0);
        const int changed_dense = e.space.active_count(dense), changed_tight = e.space.active_count(tight),
                  changed_loose = e.space.active_count(loose);
        qInfo("changed parameters: dense %d, tolerance 0.05: %d, tolerance 0.9: %d", changed_dense, changed_tight,
              changed_loose);
        QVERIFY(changed_tight <= changed_dense);
        QVERIFY(changed_loose < changed_tight);
        QVERIFY(changed_loose >= 1);
    }
};

SEBO_TEST_MAIN(TestGreedyReset)
}  // namespace test_greedy_reset
#include "test_greedy_reset.moc"
