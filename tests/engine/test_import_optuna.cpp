// Optuna studies opened as SEBO experiments (issue 31): the studies tests/fixtures/optuna/
// make_studies.py made with Debian's python3-optuna 3.1, in an RDB storage (SQLite), in a journal
// file, and in the storage as Optuna 4 migrates it. The reference is expected.json, what Optuna
// itself read from the storage (study.trials), parsed here with Qt's JSON reader.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/experiment_file.h"
#include "io/import_optuna.h"
#include "io/imported_experiment.h"
#include "test_main.h"
#include "test_support.h"

namespace test_import_optuna {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

std::string fixture(const char* name) { return test::source_path(std::string("tests/fixtures/optuna/") + name); }

QJsonObject expected_studies() {
    QFile f(qs(fixture("expected.json")));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
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

bool has_warning(const ImportedExperiment& imported, const QString& fragment) {
    for (const std::string& w : imported.warnings)
        if (qs(w).contains(fragment)) return true;
    return false;
}

// Whether value `v` of parameter `p` (a configuration's number) is Optuna's external value `ev`.
QString compare_value(const Parameter& p, double v, const QJsonValue& ev) {
    if (p.kind != ParameterKind::Choice)
        return v == ev.toDouble() ? QString() : QString("%1 = %2, Optuna has %3").arg(qs(p.name)).arg(v, 0, 'g', 17).arg(ev.toDouble(), 0, 'g', 17);
    const ChoiceValue& c = p.values.at(static_cast<std::size_t>(v));
    bool same = false;
    if (ev.isString()) same = !c.number && !c.literal && qs(c.text) == ev.toString();
    else if (ev.isBool()) same = c.literal && qs(c.text) == (ev.toBool() ? "true" : "false");
    else if (ev.isNull()) same = c.literal && c.text == "null";
    // A step's grid value: Optuna computes low + k·step and stores 0.8500000000000001 for 0.85.
    else same = c.number && std::abs(*c.number - ev.toDouble()) <= 1e-12 * std::max(1.0, std::abs(ev.toDouble()));
    return same ? QString() : QString("%1 = %2, Optuna has %3").arg(qs(p.name), qs(c.text), QJsonDocument(QJsonArray{ev}).toJson(QJsonDocument::Compact));
}

// Every trial of `study` in `imported` is what Optuna read: status, configuration, values,
// constraints, the reason of a pruned trial.
void compare_with_optuna(const ImportedExperiment& imported, const QJsonObject& study) {
    const Experiment& e = imported.experiment;
    const QJsonArray trials = study["trials"].toArray();
    QCOMPARE(e.trials.size(), static_cast<std::size_t>(trials.size()));
    for (const QJsonValue& value : trials) {
        const QJsonObject t = value.toObject();
        const int number = t["number"].toInt();
        const Trial* trial = e.find_trial(number);
        QVERIFY2(trial, qPrintable(QString("trial %1 is missing").arg(number)));
        const QString state = t["state"].toString();
        const QJsonObject params = state == "WAITING" ? t["fixed_params"].toObject() : t["params"].toObject();
        for (int i = 0; i < e.space.dimension(); ++i) {
            const Parameter& p = e.space.parameter(i);
            const QString problem = compare_value(p, trial->parameters[static_cast<std::size_t>(i)], params[qs(p.name)]);
            QVERIFY2(problem.isEmpty(), qPrintable(QString("trial %1: %2").arg(number).arg(problem)));
        }
        if (state == "COMPLETE") {
            QCOMPARE(trial->status, TrialStatus::Completed);
            const QJsonArray values = t["values"].toArray();
            for (std::size_t k = 0; k < e.outcomes.objectives.size(); ++k)
                QCOMPARE(trial->measurement(e.outcomes.objectives[k].metric)->mean, values[static_cast<int>(k)].toDouble());
            const QJsonArray constraints = t["constraints"].toArray();
            QCOMPARE(e.outcomes.constraints.size(), static_cast<std::size_t>(constraints.size()));
            bool feasible = true;
            for (int k = 0; k < constraints.size(); ++k) {
                QCOMPARE(trial->measurement("constraint_" + std::to_string(k))->mean, constraints[k].toDouble());
                feasible = feasible && constraints[k].toDouble() <= 0;
            }
            QCOMPARE(e.feasible(*trial), feasible);
        } else if (state == "FAIL") {
            QCOMPARE(trial->status, TrialStatus::Failed);
            QCOMPARE(qs(trial->error), QString("failed in Optuna (the storage does not record why)"));
        } else if (state == "PRUNED") {
            QCOMPARE(trial->status, TrialStatus::Abandoned);
            QCOMPARE(qs(trial->error), QString("pruned by Optuna at step %1 (last reported value %2)")
                                           .arg(t["last_step"].toInt())
                                           .arg(qs(format_number(t["last_intermediate"].toDouble()))));
        } else {
            QCOMPARE(trial->status, TrialStatus::Pending);
        }
        QVERIFY(trial->values.empty() || trial->status == TrialStatus::Completed);
    }
}

void check_mlp(const ImportedExperiment& imported) {
    const Experiment& e = imported.experiment;
    QCOMPARE(qs(e.name), QString("mlp"));
    std::vector<std::string> names;
    for (const Parameter& p : e.space.parameters()) names.push_back(p.name);
    QCOMPARE(names, (std::vector<std::string>{"lr", "dropout", "layers", "units", "momentum", "optimizer", "batch_norm", "weight_decay"}));
    QCOMPARE(e.space.parameter(0).kind, ParameterKind::Continuous);
    QVERIFY(e.space.parameter(0).log_scale);
    QCOMPARE(e.space.parameter(0).lower, 1e-5);
    QCOMPARE(e.space.parameter(0).upper, 0.1);
    QVERIFY(!e.space.parameter(1).log_scale);
    QCOMPARE(e.space.parameter(2).kind, ParameterKind::Integer);
    QCOMPARE(e.space.parameter(2).upper, 4.0);
    // Steps: an ordered choice of the grid's values, the float grid written as floats.
    const Parameter& units = e.space.parameter(3);
    QCOMPARE(units.kind, ParameterKind::Choice);
    QVERIFY(units.ordered);
    QCOMPARE(units.levels(), 8);
    QCOMPARE(qs(units.values.back().text), QString("256"));
    const Parameter& momentum = e.space.parameter(4);
    QCOMPARE(momentum.levels(), 10);
    QCOMPARE(*momentum.values[3].number, 0.65);
    QCOMPARE(qs(momentum.values[3].text), QString("0.65"));
    QVERIFY(has_warning(imported, "parameter 'momentum': Optuna's step 0.05 on [0.5, 0.95] becomes an ordered choice of its 10 values "
                                  "(0.5, 0.55, ..., 0.95), since SEBO has no step"));
    // Categorical choices as typed: strings, booleans, a float and None.
    QVERIFY(!e.space.parameter(5).ordered);
    QCOMPARE(e.space.parameter(6).values, (std::vector<ChoiceValue>{{"true", std::nullopt, true}, {"false", std::nullopt, true}}));
    QCOMPARE(e.space.parameter(7).values,
             (std::vector<ChoiceValue>{{"0.0", 0.0, false}, {"1e-04", 0.0001, false}, {"null", std::nullopt, true}}));
    QCOMPARE(qs(e.outcomes.summary()), QString("value (max)"));
    QCOMPARE(e.count(TrialStatus::Completed), 16);
    QCOMPARE(e.count(TrialStatus::Failed), 2);
    QCOMPARE(e.count(TrialStatus::Abandoned), 2);
    QCOMPARE(e.count(TrialStatus::Pending), 2);
    QCOMPARE(qs(imported.origins[7].label), QString("Optuna trial 7"));
    QVERIFY(e.trials[1].evaluation_seconds > 0);
    compare_with_optuna(imported, expected_studies()["mlp"].toObject());
}

void check_service(const ImportedExperiment& imported) {
    const Experiment& e = imported.experiment;
    QCOMPARE(qs(e.outcomes.summary()), QString("throughput (max), p99_ms (min); constraint_0 <= 0; constraint_1 <= 0"));
    QCOMPARE(e.space.parameter(0).kind, ParameterKind::Integer);
    QVERIFY(e.space.parameter(0).log_scale);
    QCOMPARE(e.feasible_count(), 2);
    compare_with_optuna(imported, expected_studies()["service"].toObject());
}

}  // namespace

class TestImportOptuna : public QObject {
    Q_OBJECT
private slots:
    void sqlite_storage_of_optuna_3() {
        const ImportedExperiment mlp = import_optuna_sqlite(fixture("studies.db"), "mlp");
        QCOMPARE(qs(mlp.source), QString("Optuna SQLite storage (Optuna 3.1.0, schema 12), study 'mlp'"));
        check_mlp(mlp);
        check_service(import_optuna_sqlite(fixture("studies.db"), "service"));
        // Saved and loaded back unchanged, literals and floats included.
        ImportedExperiment chosen = mlp;
        choose_import_target(chosen, {});
        const std::string saved = experiment_to_json_text(chosen.experiment);
        QCOMPARE(experiment_to_json_text(experiment_from_json_text(saved)), saved);
    }

    void sqlite_storage_of_optuna_4() {
        const ImportedExperiment mlp = import_optuna_sqlite(fixture("studies-optuna4.db"), "mlp");
        QCOMPARE(qs(mlp.source), QString("Optuna SQLite storage (Optuna 4.2.1, schema 12), study 'mlp'"));
        check_mlp(mlp);
    }

    void journal_file() {
        const ImportedExperiment mlp = import_optuna_journal(fixture("studies.log"), "mlp");
        QCOMPARE(qs(mlp.source), QString("Optuna journal file, study 'mlp'"));
        check_mlp(mlp);
        check_service(import_optuna_journal(fixture("studies.log"), "service"));
        // The same study from either storage is the same experiment (but for the trials' times:
        // make_studies.py ran it twice).
        const auto untimed = [](Experiment e) {
            for (Trial& t : e.trials) t.evaluation_seconds = 0;
            return experiment_to_json_text(e);
        };
        QCOMPARE(untimed(mlp.experiment), untimed(import_optuna_sqlite(fixture("studies.db"), "mlp").experiment));
    }

    // A storage of several studies needs --study; the message lists them.
    void studies_are_listed_and_chosen() {
        const std::vector<OptunaStudySummary> studies = list_optuna_studies("sqlite:///" + fixture("studies.db"));
        QCOMPARE(studies.size(), std::size_t(2));
        QCOMPARE(qs(studies[0].name), QString("mlp"));
        QCOMPARE(studies[0].trials, 22);
        QCOMPARE(studies[1].trials, 16);
        QCOMPARE(list_optuna_studies(fixture("studies.log")).size(), std::size_t(2));
        QCOMPARE(error_of([&] { import_experiment(fixture("studies.db")); }),
                 QString("--study: %1 holds 2 studies: \"mlp\" (22 trials), \"service\" (16 trials); choose one with --study NAME")
                     .arg(qs(fixture("studies.db"))));
        QCOMPARE(error_of([&] { import_experiment(fixture("studies.log"), {"svc"}); }),
                 QString("--study: no study is named \"svc\" in the journal; it holds \"mlp\" (22 trials), \"service\" (16 trials)"));
        QCOMPARE(import_experiment("sqlite:///" + fixture("studies.db"), {"service"}).experiment.trials.size(), std::size_t(16));
    }

    // The target: a trial by Optuna's number, or values per parameter.
    void target_from_a_trial() {
        ImportedExperiment imported = import_optuna_sqlite(fixture("studies.db"), "service");
        const ImportTarget target = choose_import_target(imported, {find_source_trial(imported, "4"), {}});
        QCOMPARE(target.basis, ImportTarget::Basis::Trial);
        QCOMPARE(imported.experiment.space.target(), imported.experiment.find_trial(4)->parameters);
        QCOMPARE(imported.experiment.sparsity(*imported.experiment.find_trial(4)), 0);
        QVERIFY2(qs(target.description).startsWith("Optuna trial 4 (cache_mb = 773, prefetch = "), qPrintable(qs(target.description)));
        QCOMPARE(error_of([&] { find_source_trial(imported, "40"); }),
                 QString("--target-trial: no imported trial has the number 40; the imported trials are numbered 0 to 15"));
    }

    // A journal as Optuna 4 writes it: times with their zone, an operation only Optuna's Rust port
    // writes (skipped), the study's metric names; and a last line cut short by a writer that stopped.
    void journal_of_optuna_4() {
        using Json = nlohmann::json;
        const std::string distribution =
            Json{{"name", "FloatDistribution"}, {"attributes", {{"step", nullptr}, {"low", 0.0}, {"high", 2.0}, {"log", false}}}}.dump();
        const std::vector<Json> ops = {
            {{"op_code", 0}, {"worker_id", "w"}, {"study_name", "s4"}, {"directions", {1}}},
            {{"op_code", 3}, {"worker_id", "w"}, {"study_id", 0}, {"system_attr", {{"study:metric_names", {"loss"}}}}},
            {{"op_code", 4}, {"worker_id", "w"}, {"study_id", 0}, {"datetime_start", "2026-05-01T10:00:00.000000+00:00"}},
            {{"op_code", 5}, {"worker_id", "w"}, {"trial_id", 0}, {"param_name", "x"}, {"param_value_internal", 1.5},
             {"distribution", distribution}},
            {{"op_code", 10}, {"worker_id", "w"}, {"study_id", 0}, {"trial_ids", Json::array()}},
            {{"op_code", 6}, {"worker_id", "w"}, {"trial_id", 0}, {"state", 1}, {"values", {0.25}},
             {"datetime_complete", "2026-05-01T12:00:02.500000+02:00"}},
        };
        std::string text;
        for (const Json& op : ops) text += op.dump() + "\n";
        text += "{\"op_code\": 4, \"worker_id\": \"w\", \"study_id\": 0, \"datetime_st";
        const ImportedExperiment imported = import_optuna_journal_text(text, "");
        QCOMPARE(qs(imported.experiment.outcomes.summary()), QString("loss (min)"));
        QCOMPARE(imported.experiment.trials.size(), std::size_t(1));
        QCOMPARE(imported.experiment.trials[0].measurement("loss")->mean, 0.25);
        QCOMPARE(imported.experiment.trials[0].parameters, std::vector<double>{1.5});
        SEBO_COMPARE_NEAR(imported.experiment.trials[0].evaluation_seconds, 2.5, 1e-9);  // the zones differ by 2 h
        QVERIFY(has_warning(imported, "the journal's last line (line 7) is cut short and is ignored, as Optuna ignores it"));
        // Cut short in the middle, a line is an error naming it.
        std::string broken = text + "\n" + ops.back().dump() + "\n";
        QVERIFY(error_of([&] { import_optuna_journal_text(broken, ""); }).startsWith("line 7: not valid JSON"));
    }
};

SEBO_TEST_MAIN(TestImportOptuna)
}  // namespace test_import_optuna
#include "test_import_optuna.moc"
