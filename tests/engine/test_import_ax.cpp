// Ax experiments opened as SEBO experiments (issue 31): the real AxClient snapshot from Ax's own
// repository (tests/fixtures/ax/README.md), an Ax 1.x Client snapshot written by hand from Ax's
// encoders, and the older encodings (objective by metric, Sum/Order constraints, NaN written by
// Python's json, progression data). The reference values are read from the same files with Qt's
// JSON parser, independently of the importer.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "io/import_ax.h"
#include "io/imported_experiment.h"
#include "test_main.h"
#include "test_support.h"

namespace test_import_ax {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

std::string fixture(const char* name) { return test::source_path(std::string("tests/fixtures/ax/") + name); }

QByteArray read_file(const std::string& path) {
    QFile f(qs(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

template <class F>
QString error_of(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return qs(e.what());
    }
    return "no error";
}

const Trial* trial_of_arm(const ImportedExperiment& imported, const std::string& arm) {
    for (std::size_t i = 0; i < imported.origins.size(); ++i)
        if (imported.origins[i].arm == arm) return &imported.experiment.trials[i];
    return nullptr;
}

bool has_warning(const ImportedExperiment& imported, const QString& fragment) {
    for (const std::string& w : imported.warnings)
        if (qs(w).contains(fragment)) return true;
    return false;
}

using Json = nlohmann::json;

// Python's json writes special floats as the words NaN, Infinity and -Infinity; a string "@NaN@"
// in a document built here becomes the word once it is text.
std::string with_python_words(std::string text) {
    for (const auto& [from, to] : {std::pair{"\"@NaN@\"", "NaN"}, {"\"@-Infinity@\"", "-Infinity"}})
        for (auto at = text.find(from); at != std::string::npos; at = text.find(from)) text.replace(at, std::strlen(from), to);
    return text;
}

Json type_named(const char* type, const char* name) { return {{"__type", type}, {"name", name}}; }

Json range_parameter(const char* name, Json lower, Json upper) {
    return {{"__type", "RangeParameter"}, {"name", name}, {"parameter_type", type_named("ParameterType", "FLOAT")},
            {"lower", std::move(lower)}, {"upper", std::move(upper)}, {"log_scale", false}};
}

// The encoding before Ax 1.3: three parameters under Sum, Order and dict constraints, the
// objective {metric, minimize}, an outcome constraint.
Json legacy_space() {
    return {{"__type", "SearchSpace"},
            {"parameters", {range_parameter("a", 0.0, 1.0), range_parameter("b", 0.0, 1.0), range_parameter("c", 0.0, 1.0)}},
            {"parameter_constraints",
             {{{"__type", "SumConstraint"}, {"parameter_names", {"a", "b"}}, {"is_upper_bound", true}, {"bound", 1.5}},
              {{"__type", "OrderConstraint"}, {"lower_name", "b"}, {"upper_name", "c"}},
              {{"__type", "ParameterConstraint"}, {"constraint_dict", {{"a", 2.0}, {"c", -1.0}}}, {"bound", 0.5}}}}};
}

Json legacy_config() {
    return {{"__type", "OptimizationConfig"},
            {"objective", {{"__type", "Objective"}, {"metric", {{"__type", "Metric"}, {"name", "loss"}}}, {"minimize", true}}},
            {"outcome_constraints",
             {{{"__type", "OutcomeConstraint"}, {"metric", {{"__type", "Metric"}, {"name", "size"}}},
               {"op", type_named("ComparisonOp", "GEQ")}, {"bound", -2}, {"relative", false}}}}};
}

Json legacy_trial(int index, const char* status, const char* arm) {
    return {{"__type", "Trial"}, {"index", index}, {"status", type_named("TrialStatus", status)},
            {"generator_run", {{"__type", "GeneratorRun"}, {"model_key", "Sobol"},
                               {"arms", {{{"__type", "Arm"}, {"name", arm}, {"parameters", {{"a", 0.25}, {"b", 0.5}, {"c", 0.75}}}}}},
                               {"gen_metadata", {{"bad", "@NaN@"}, {"worse", "@-Infinity@"}}}}},
            {"failed_reason", nullptr}, {"abandoned_reason", nullptr}};
}

// A minimal AxClient snapshot around these parts.
std::string legacy_snapshot(Json space, Json config, Json trials, Json data) {
    const Json snapshot = {{"_type", "AxClient"},
                           {"experiment", {{"__type", "Experiment"}, {"name", "legacy"}, {"search_space", std::move(space)},
                                           {"optimization_config", std::move(config)}, {"tracking_metrics", Json::array()},
                                           {"status_quo", nullptr}, {"trials", std::move(trials)}, {"data_by_trial", std::move(data)}}}};
    return with_python_words(snapshot.dump());
}

}  // namespace

class TestImportAx : public QObject {
    Q_OBJECT
private slots:
    // The AxClient snapshot from facebook/Ax (Feb 2025): 2 parameters, accuracy maximized, 26
    // trials whose arms and means match the file as Qt reads it.
    void real_ax_client_snapshot() {
        const ImportedExperiment imported = import_ax_snapshot(fixture("ax_client_snapshot_2025-02.json"));
        const Experiment& e = imported.experiment;
        QCOMPARE(qs(imported.source), QString("Ax AxClient snapshot, experiment 'tune_cnn_on_mnist'"));
        QCOMPARE(qs(e.name), QString("tune_cnn_on_mnist"));
        QCOMPARE(e.space.dimension(), 2);
        const Parameter& lr = e.space.parameter(0);
        QCOMPARE(qs(lr.name), QString("lr"));
        QCOMPARE(lr.kind, ParameterKind::Continuous);
        QVERIFY(lr.log_scale);
        QCOMPARE(lr.lower, 1e-6);
        QCOMPARE(lr.upper, 0.4);
        const Parameter& momentum = e.space.parameter(1);
        QCOMPARE(qs(momentum.name), QString("momentum"));
        QVERIFY(!momentum.log_scale);
        QCOMPARE(momentum.lower, 0.0);
        QCOMPARE(momentum.upper, 1.0);
        QCOMPARE(e.outcomes.objectives.size(), std::size_t(1));
        QCOMPARE(qs(e.primary_objective().metric), QString("accuracy"));
        QVERIFY(!e.primary_objective().minimize);
        QVERIFY(e.outcomes.constraints.empty());
        QVERIFY(!imported.status_quo);
        QVERIFY2(imported.warnings.empty(), imported.warnings.empty() ? "" : imported.warnings.front().c_str());

        // The reference: each trial's arm and the mean in its DataFrame text, read with Qt.
        const QJsonObject ax = QJsonDocument::fromJson(read_file(fixture("ax_client_snapshot_2025-02.json"))).object()["experiment"].toObject();
        const QJsonObject trials = ax["trials"].toObject();
        const QJsonObject data = ax["data_by_trial"].toObject();
        QCOMPARE(trials.size(), 26);
        QCOMPARE(e.trials.size(), std::size_t(26));
        QCOMPARE(e.count(TrialStatus::Completed), 26);
        for (const Trial& t : e.trials) {
            const QString key = QString::number(t.index);
            const QJsonObject arm = trials[key].toObject()["generator_run"].toObject()["arms"].toArray()[0].toObject();
            QCOMPARE(t.parameters[0], arm["parameters"].toObject()["lr"].toDouble());
            QCOMPARE(t.parameters[1], arm["parameters"].toObject()["momentum"].toDouble());
            const QJsonObject frame = QJsonDocument::fromJson(data[key].toObject()["value"].toArray()[0].toArray()[1]
                                                                  .toObject()["df"].toObject()["value"].toString().toUtf8())
                                          .object();
            QCOMPARE(frame["arm_name"].toObject()["0"].toString(), arm["name"].toString());
            QVERIFY(t.measurement("accuracy"));
            QCOMPARE(t.measurement("accuracy")->mean, frame["mean"].toObject()["0"].toDouble());
            QVERIFY(!t.measurement("accuracy")->sem);  // null in the file: Ax infers the noise
            QCOMPARE(imported.origins[static_cast<std::size_t>(t.index)].number, t.index);
        }
        QCOMPARE(qs(e.trials[0].generator), QString("ax:manual"));
        QCOMPARE(qs(e.trials[25].generator), QString("ax:BoTorch"));
        QCOMPARE(qs(imported.origins[3].label), QString("Ax trial 3"));
        SEBO_COMPARE_NEAR(e.trials[0].evaluation_seconds, 21.863733 - 14.672977, 1e-6);

        // No status quo: the default rule, and a trial or single values on request.
        ImportedExperiment copy = imported;
        ImportTarget target = choose_import_target(copy, {});
        QCOMPARE(target.basis, ImportTarget::Basis::DefaultRule);
        QCOMPARE(copy.experiment.space.target(), (std::vector<double>{1e-6, 0.0}));
        copy = imported;
        target = choose_import_target(copy, {find_source_trial(copy, "7"), {{"momentum", "0.5"}}});
        QCOMPARE(target.basis, ImportTarget::Basis::Trial);
        QCOMPARE(copy.experiment.space.target(), (std::vector<double>{e.trials[7].parameters[0], 0.5}));
        QVERIFY2(qs(target.description).startsWith("Ax trial 7, with the targets given for momentum (lr = "), qPrintable(qs(target.description)));

        // What loads saves and loads back unchanged.
        const std::string saved = experiment_to_json_text(copy.experiment);
        QCOMPARE(experiment_to_json_text(experiment_from_json_text(saved)), saved);
    }

    // An Ax 1.x Client snapshot written by hand after Ax 1.3.1's encoders: choice, fixed and
    // boolean parameters, a parameter constraint in Ax's text form, two objectives with
    // thresholds, an outcome constraint, a tracking metric, the status-quo arm, a batch trial
    // (one arm out of the search space) and failed, abandoned and running trials.
    void hand_written_client_snapshot() {
        const ImportedExperiment imported = import_ax_snapshot(fixture("ax_client_1x_handwritten.json"));
        const Experiment& e = imported.experiment;
        QCOMPARE(qs(imported.source), QString("Ax Client snapshot (Ax 1.x), experiment 'reactor_yield'"));
        QCOMPARE(qs(e.description), QString("Yield and impurity of a batch reactor"));
        QCOMPARE(e.space.dimension(), 6);
        QCOMPARE(e.space.parameter(0).kind, ParameterKind::Continuous);
        QCOMPARE(e.space.parameter(2).kind, ParameterKind::Integer);
        const Parameter& solvent = e.space.parameter(3);
        QCOMPARE(solvent.kind, ParameterKind::Choice);
        QVERIFY(!solvent.ordered);
        QCOMPARE(solvent.values, (std::vector<ChoiceValue>{{"water", std::nullopt, false}, {"ethanol", std::nullopt, false},
                                                          {"toluene", std::nullopt, false}}));
        const Parameter& stir = e.space.parameter(4);
        QVERIFY(stir.ordered);
        QCOMPARE(stir.values, (std::vector<ChoiceValue>{{"100", 100.0, false}, {"200", 200.0, false}, {"400", 400.0, false}}));
        const Parameter& gas = e.space.parameter(5);
        QCOMPARE(gas.values, (std::vector<ChoiceValue>{{"true", std::nullopt, true}, {"false", std::nullopt, true}}));
        QCOMPARE(e.space.fixed_parameters().size(), std::size_t(1));
        QCOMPARE(qs(e.space.fixed_parameters()[0].name), QString("reactor"));
        QCOMPARE(e.space.fixed_parameters()[0].resolved_target(), 2.0);
        QVERIFY(has_warning(imported, "fixed parameter 'batch' = B7 is left out"));
        QCOMPARE(e.space.constraints().size(), std::size_t(1));
        QCOMPARE(qs(e.space.constraint_text(0)), QString("temperature + 5*pressure <= 120"));

        QCOMPARE(qs(e.outcomes.summary()),
                 QString("yield (max, threshold 0.5), impurity (min, threshold 2); cost <= 100; tracked: runtime_min"));

        // The status quo: the experiment's arm, as a configuration of the space.
        QVERIFY(imported.status_quo);
        QCOMPARE(qs(imported.status_quo->description), QString("the status-quo arm 'status_quo'"));
        QCOMPARE(imported.status_quo->values, (std::vector<double>{25.0, 2.0, 0.0, 0.0, 1.0, 1.0}));

        // Trials: the batch's arms one by one (0_2 is out of design), then one per trial.
        std::vector<std::string> arms;
        for (const TrialOrigin& o : imported.origins) arms.push_back(o.arm);
        QCOMPARE(arms, (std::vector<std::string>{"0_0", "0_1", "status_quo", "1_0", "2_0", "3_0", "4_0", "5_0", "6_0", "7_0"}));
        QVERIFY(has_warning(imported, "Ax trial 0, arm 0_2 (pressure: 12 is above the upper bound 10)"));
        for (std::size_t i = 0; i < e.trials.size(); ++i) QCOMPARE(e.trials[i].index, static_cast<int>(i));
        const Trial* sq = trial_of_arm(imported, "status_quo");
        QCOMPARE(qs(sq->generator), QString("status-quo"));
        QCOMPARE(sq->status, TrialStatus::Completed);
        QCOMPARE(sq->measurement("yield")->mean, 0.48);
        QCOMPARE(*sq->measurement("yield")->sem, 0.01);
        QCOMPARE(sq->measurement("cost")->mean, 40.0);
        QVERIFY(!sq->measurement("cost")->sem);
        const Trial* t1 = trial_of_arm(imported, "1_0");
        QCOMPARE(qs(t1->generator), QString("ax:Sobol"));
        QVERIFY(!t1->measurement("runtime_min"));  // null in the DataFrame: not measured
        QCOMPARE(t1->parameters, (std::vector<double>{33.0, 9.0, 20.0, 1.0, 0.0, 1.0}));
        QVERIFY(!e.feasible(*t1));                                    // cost 112 > 100
        QCOMPARE(*trial_of_arm(imported, "3_0")->measurement("cost")->sem, 0.0);
        QCOMPARE(trial_of_arm(imported, "2_0")->status, TrialStatus::Failed);
        QCOMPARE(qs(trial_of_arm(imported, "2_0")->error), QString("the reactor overheated"));
        QCOMPARE(qs(trial_of_arm(imported, "7_0")->error), QString("failed in Ax"));
        QCOMPARE(trial_of_arm(imported, "4_0")->status, TrialStatus::Abandoned);
        QCOMPARE(qs(trial_of_arm(imported, "4_0")->error), QString("toluene out of stock"));
        QCOMPARE(trial_of_arm(imported, "5_0")->status, TrialStatus::Pending);
        // Completed in Ax without an impurity value: failed here, with the reason and a warning.
        QCOMPARE(trial_of_arm(imported, "6_0")->status, TrialStatus::Failed);
        QVERIFY(qs(trial_of_arm(imported, "6_0")->error).contains("no finite value of objective 'impurity'"));
        QVERIFY(has_warning(imported, "Ax trial 6, arm 6_0"));
        QCOMPARE(e.count(TrialStatus::Completed), 5);
        SEBO_COMPARE_NEAR(trial_of_arm(imported, "0_0")->evaluation_seconds, 2.5 * 3600, 1e-6);

        // The status quo is the target, and its trial changes nothing.
        ImportedExperiment chosen = imported;
        const ImportTarget target = choose_import_target(chosen, {});
        QCOMPARE(target.basis, ImportTarget::Basis::StatusQuo);
        QCOMPARE(chosen.experiment.space.target(), imported.status_quo->values);
        QCOMPARE(chosen.experiment.sparsity(*trial_of_arm(chosen, "status_quo")), 0);
        QCOMPARE(chosen.experiment.sparsity(*trial_of_arm(chosen, "0_0")), 6);
        QVERIFY(qs(target.description).contains("solvent = water, stir_speed = 200, inert_gas = false"));

        // Trials by Ax's numbering: a batch's arm by its name; the batch's number is ambiguous.
        QCOMPARE(find_source_trial(imported, "3"), 5);
        QCOMPARE(find_source_trial(imported, "0_1"), 1);
        QCOMPARE(error_of([&] { find_source_trial(imported, "0"); }),
                 QString("--target-trial: trial 0 is a batch of 3 arms; name one of them: 0_0, 0_1, status_quo"));
        QCOMPARE(error_of([&] { find_source_trial(imported, "12"); }),
                 QString("--target-trial: no imported trial has the number 12; the imported trials are numbered 0 to 7"));
    }

    // --target values: checked against each parameter, and the constraints on the target.
    void target_values_are_checked() {
        const ImportedExperiment imported = import_ax_snapshot(fixture("ax_client_1x_handwritten.json"));
        ImportedExperiment e = imported;
        choose_import_target(e, {std::nullopt, {{"solvent", "ethanol"}, {"temperature", "30"}, {"inert_gas", "true"}}});
        QCOMPARE(e.experiment.space.target(), (std::vector<double>{30.0, 2.0, 0.0, 1.0, 1.0, 0.0}));
        const auto refused = [&](std::vector<std::pair<std::string, std::string>> values) {
            ImportedExperiment copy = imported;
            return error_of([&] { choose_import_target(copy, {std::nullopt, std::move(values)}); });
        };
        QCOMPARE(refused({{"solvent", "brine"}}), QString("--target solvent: 'brine' is not one of the values water, ethanol, toluene"));
        QCOMPARE(refused({{"catalyst_g", "2.5"}}), QString("--target catalyst_g: 2.5 is not an integer (parameter 'catalyst_g' is)"));
        QCOMPARE(refused({{"pressure", "11"}}), QString("--target pressure: 11 is outside the range [1, 10] of parameter 'pressure'"));
        QCOMPARE(refused({{"reactor", "3"}}),
                 QString("--target reactor: 'reactor' is a fixed parameter: its value is its own target and never changes"));
        QVERIFY(refused({{"speed", "1"}}).startsWith("--target speed: no parameter is named 'speed'; the parameters are 'temperature'"));
        QVERIFY(refused({{"temperature", "90"}, {"pressure", "10"}}).startsWith("target: the target point"));
        QVERIFY(refused({{"temperature", "90"}, {"pressure", "10"}}).contains("temperature + 5*pressure <= 120"));
    }

    // A bound relative to the status quo becomes absolute with the status quo's measured mean.
    void relative_bounds_use_the_status_quo() {
        QJsonObject snapshot = QJsonDocument::fromJson(read_file(fixture("ax_client_1x_handwritten.json"))).object();
        QJsonObject experiment = snapshot["experiment"].toObject();
        QJsonObject config = experiment["optimization_config"].toObject();
        QJsonArray constraints = config["outcome_constraints"].toArray();
        QJsonObject cost = constraints[0].toObject();
        cost["bound"] = 50.0;
        cost["relative"] = true;
        constraints[0] = cost;
        config["outcome_constraints"] = constraints;
        experiment["optimization_config"] = config;
        snapshot["experiment"] = experiment;
        const ImportedExperiment imported = import_ax_snapshot_text(QJsonDocument(snapshot).toJson().toStdString());
        QCOMPARE(imported.experiment.outcomes.constraints[0].bound, 60.0);  // 40 + 50 % of 40
        QVERIFY(has_warning(imported, "the constraint on 'cost' (50 % relative to the status quo) is kept as the absolute value 60, "
                                      "from the status quo's mean 40 over 1 trial(s)"));
        // Without a status quo nothing says what the percentage is of.
        experiment["status_quo"] = QJsonValue::Null;
        QJsonObject trials = experiment["trials"].toObject();
        QJsonObject batch = trials["0"].toObject();
        batch["status_quo"] = QJsonValue::Null;
        QJsonArray runs = batch["generator_runs"].toArray();
        runs.removeLast();
        batch["generator_runs"] = runs;
        trials["0"] = batch;
        experiment["trials"] = trials;
        snapshot["experiment"] = experiment;
        QCOMPARE(error_of([&] { import_ax_snapshot_text(QJsonDocument(snapshot).toJson().toStdString()); }),
                 QString("experiment.optimization_config.outcome_constraints[0]: the constraint on 'cost' (50 % relative to the "
                         "status quo) cannot be made absolute: no completed trial measured the status quo's cost"));
    }

    // The encoding before Ax 1.3: objective by metric, Sum, Order and dict constraints, reasons in
    // failed_reason / abandoned_reason, NaN and Infinity written by Python's json, progression
    // data reduced to each arm's last step.
    void legacy_encoding() {
        Json trials = {{"0", legacy_trial(0, "COMPLETED", "0_0")}, {"1", legacy_trial(1, "FAILED", "1_0")},
                       {"2", legacy_trial(2, "EARLY_STOPPED", "2_0")}};
        trials["1"]["failed_reason"] = "out of memory";
        // The DataFrame's own JSON (NaN as Python writes it), as a string inside the snapshot.
        const std::string frame =
            "{\"arm_name\":{\"0\":\"0_0\",\"1\":\"0_0\",\"2\":\"0_0\"},\"metric_name\":{\"0\":\"loss\",\"1\":\"loss\",\"2\":\"size\"},"
            "\"mean\":{\"0\":0.9,\"1\":0.4,\"2\":NaN},\"sem\":{\"0\":null,\"1\":0.05,\"2\":null},\"epoch\":{\"0\":1,\"1\":3,\"2\":1}}";
        const Json data = {{"0", {{"__type", "OrderedDict"},
                                  {"value", {{1, {{"__type", "MapData"}, {"df", {{"__type", "DataFrame"}, {"value", frame}}},
                                                  {"map_key_infos", {{{"__type", "MapKeyInfo"}, {"key", "epoch"}, {"default_value", "@NaN@"}}}}}}}}}}};
        const ImportedExperiment imported = import_ax_snapshot_text(legacy_snapshot(legacy_space(), legacy_config(), trials, data));
        const Experiment& e = imported.experiment;
        QCOMPARE(qs(e.outcomes.summary()), QString("loss (min); size >= -2"));
        QCOMPARE(e.space.constraints().size(), std::size_t(3));
        QCOMPARE(qs(e.space.constraint_text(0)), QString("a + b <= 1.5"));
        QCOMPARE(qs(e.space.constraint_text(1)), QString("b - c <= 0"));
        QCOMPARE(qs(e.space.constraint_text(2)), QString("2*a - c <= 0.5"));
        QCOMPARE(e.trials[0].status, TrialStatus::Completed);
        QCOMPARE(e.trials[0].measurement("loss")->mean, 0.4);  // epoch 3, the last
        QCOMPARE(*e.trials[0].measurement("loss")->sem, 0.05);
        QVERIFY(!e.trials[0].measurement("size"));  // NaN: not measured
        QCOMPARE(qs(e.trials[0].generator), QString("ax:Sobol"));
        QCOMPARE(qs(e.trials[1].error), QString("out of memory"));
        QCOMPARE(e.trials[2].status, TrialStatus::Abandoned);
        QVERIFY(qs(e.trials[2].error).startsWith("stopped early in Ax"));
        QVERIFY(has_warning(imported, "metrics 'loss', 'size' have progression data (values per step): each arm's value at its last "
                                      "step is imported"));
    }

    // What SEBO cannot represent is refused, naming the element.
    void unmappable_elements_are_refused() {
        const auto with_parameter = [](Json parameter) {
            return error_of([&] {
                import_ax_snapshot_text(legacy_snapshot({{"__type", "SearchSpace"}, {"parameters", {std::move(parameter)}}},
                                                        legacy_config(), Json::object(), Json::object()));
            });
        };
        const Json strings = type_named("ParameterType", "STRING");
        QCOMPARE(with_parameter({{"__type", "ChoiceParameter"}, {"name", "model"}, {"parameter_type", strings}, {"values", {"a", "b"}},
                                 {"is_ordered", false}, {"is_task", false}, {"dependents", {{"a", {"x"}}, {"b", Json::array()}}}}),
                 QString("experiment.search_space.parameters[0].dependents: 'model' switches other parameters on and off (a "
                         "hierarchical search space), which SEBO cannot represent"));
        QCOMPARE(with_parameter({{"__type", "ChoiceParameter"}, {"name", "task"}, {"parameter_type", type_named("ParameterType", "INT")},
                                 {"values", {0, 1}}, {"is_ordered", false}, {"is_task", true}}),
                 QString("experiment.search_space.parameters[0].is_task: 'task' is a task parameter (a multi-task experiment), which "
                         "SEBO cannot model"));
        QCOMPARE(with_parameter(range_parameter("x", 0, {{"__type", "float"}, {"value", "inf"}})),
                 QString("experiment.search_space.parameters[0].upper: inf is not a finite number"));
        QCOMPARE(with_parameter(range_parameter("x", "@NaN@", 1)),
                 QString("experiment.search_space.parameters[0].lower: nan is not a finite number"));
        QCOMPARE(with_parameter(range_parameter("x", 1, 0)), QString("experiment.search_space.parameters[0].upper: 0 is not above lower 1"));
        QCOMPARE(with_parameter({{"__type", "SplineParameter"}, {"name", "x"}}),
                 QString("experiment.search_space.parameters[0].__type: unknown parameter type \"SplineParameter\" (known: "
                         "RangeParameter, ChoiceParameter, FixedParameter, DerivedParameter)"));
        const Json scalarized = {{"__type", "OptimizationConfig"}, {"objective", {{"__type", "Objective"}, {"expression", "2*acc + recall"}}}};
        QVERIFY(error_of([&] { import_ax_snapshot_text(legacy_snapshot(legacy_space(), scalarized, Json::object(), Json::object())); })
                    .startsWith("experiment.optimization_config.objective.expression: \"2*acc + recall\" combines metrics"));
        QCOMPARE(error_of([&] { import_ax_snapshot_text(legacy_snapshot(legacy_space(), nullptr, Json::object(), Json::object())); }),
                 QString("experiment.optimization_config: the experiment has no optimization config, so nothing says what to "
                         "optimize; set an objective in Ax first"));
        QCOMPARE(error_of([&] { import_ax_snapshot_text(Json{{"_type", "OptunaStudy"}}.dump()); }),
                 QString("_type: \"OptunaStudy\" is not an Ax snapshot (expected \"AxClient\" or \"Client\")"));
    }
};

SEBO_TEST_MAIN(TestImportAx)
}  // namespace test_import_ax
#include "test_import_ax.moc"
