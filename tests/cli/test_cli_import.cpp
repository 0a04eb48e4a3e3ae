// `sebo new --from` (issue 31): an Optuna study and an Ax snapshot become experiments on which
// frontier, fit, simplify, export and suggest work at once; the suggestion's parameters have the
// types the source tool has (an integer stays an integer, a choice its typed value), and, when
// python3-optuna is installed, go back through study.enqueue_trial unchanged; what does not fit is
// refused with exit code 2 naming the flag or the field.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"
#include "test_main.h"

namespace test_cli_import {

using namespace sebo::test;
using Json = nlohmann::json;

namespace {

QString fixture(const QString& name) { return QString(SEBO_SOURCE_DIR) + "/tests/fixtures/" + name; }

// The parameters of the one trial `sebo suggest FILE --json` proposes.
Json suggested_parameters(const QString& dir, const QString& file) {
    const CliResult r = run_sebo({"suggest", file, "--json"}, dir);
    if (r.code != 0) qWarning("sebo suggest: %s", qPrintable(r.err));
    const Json out = Json::parse(r.out.toStdString(), nullptr, false);
    if (!out.is_object() || !out.contains("trials") || out["trials"].size() != 1) return Json();
    return out["trials"][0]["parameters"];
}

// A python3 that imports optuna (Debian's python3-optuna installs into /usr/bin/python3, which a
// python3 earlier in PATH may not see); empty when there is none.
QString python_with_optuna() {
    for (const QString& python : {QString("python3"), QString("/usr/bin/python3")}) {
        QProcess p;
        p.start(python, {"-c", "import optuna"});
        if (p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) return python;
    }
    return {};
}

// Enqueues `parameters` in the study 'mlp' of the storage, runs that trial with the objective
// that made the study (make_studies.py), and prints "ok" when the objective received exactly
// those values, types included, and the study recorded them as its choices, with no warning.
const char* const kRoundTrip =
    "import json, sys, warnings\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import optuna\n"
    "from make_studies import mlp\n"
    "optuna.logging.set_verbosity(optuna.logging.ERROR)\n"
    "given = json.loads(sys.argv[3])\n"
    "study = optuna.load_study(study_name='mlp', storage='sqlite:///' + sys.argv[2])\n"
    "number = len(study.trials)\n"
    "study.enqueue_trial(given)\n"
    "received = {}\n"
    "def objective(trial):\n"
    "    value = mlp(trial)\n"
    "    received[trial.number] = dict(trial.params)\n"
    "    return value\n"
    "# The study's own enqueued trial (WAITING) runs first, then this one.\n"
    "with warnings.catch_warnings(record=True) as caught:\n"
    "    warnings.simplefilter('always')\n"
    "    study.optimize(objective, n_trials=2)\n"
    "# Read back through a storage of its own: the values as the database holds them (a study keeps\n"
    "# what was given in its cache).\n"
    "stored = optuna.load_study(study_name='mlp', storage=optuna.storages.RDBStorage('sqlite:///' + sys.argv[2])).trials[number]\n"
    "problems = [str(w.message) for w in caught if 'out of range' in str(w.message)]\n"
    "for name, value in given.items():\n"
    "    for what, other in (('received', received.get(number, {}).get(name)), ('stored', stored.params.get(name))):\n"
    "        if other != value or type(other) is not type(value):\n"
    "            problems.append(f'{name}: {what} {other!r}, suggested {value!r}')\n"
    "if stored.state != optuna.trial.TrialState.COMPLETE: problems.append(f'state {stored.state}')\n"
    "print('ok' if not problems else '; '.join(problems))\n";

}  // namespace

class TestCliImport : public QObject {
    Q_OBJECT
private slots:
    // An Optuna study: created with a trial as its target, then frontier, fit, simplify, export
    // and a suggestion whose parameters have Optuna's types.
    void optuna_study_continues_here() {
        QTemporaryDir dir;
        const QString db = dir.filePath("studies.db");
        QVERIFY(QFile::copy(fixture("optuna/studies.db"), db));
        const CliResult created = run_sebo({"new", "--from", "sqlite:///" + db, "--study", "mlp", "--target-trial", "4", "--model", "gp",
                                            "--out", "mlp.sebo.json"},
                                           dir.path());
        SEBO_EXPECT(created, 0, "target       Optuna trial 4 (lr = ");
        QVERIFY(created.err.contains("imported     Optuna SQLite storage (Optuna 3.1.0, schema 12), study 'mlp' from sqlite:///"));
        QVERIFY(created.err.contains("trials       16 completed, 2 failed, 2 abandoned, 2 pending"));
        QVERIFY(created.err.contains("warning: parameter 'units': Optuna's step 32 on [32, 256] becomes an ordered choice of its 8 values"));

        const CliResult frontier = run_sebo({"frontier", "mlp.sebo.json", "--json"}, dir.path());
        QVERIFY2(frontier.code == 0, qPrintable(frontier.err));
        const Json report = Json::parse(frontier.out.toStdString(), nullptr, false);
        QVERIFY2(report.is_object(), qPrintable(frontier.out));
        QVERIFY2(run_sebo({"fit", "mlp.sebo.json", "--model", "gp"}, dir.path()).code == 0, "sebo fit failed");
        QVERIFY2(run_sebo({"simplify", "mlp.sebo.json", "--trial", "0"}, dir.path()).code == 0, "sebo simplify failed");
        const CliResult exported = run_sebo({"export", "mlp.sebo.json", "--all"}, dir.path());
        QCOMPARE(exported.code, 0);
        QVERIFY(exported.out.startsWith("trial,status,value,value_sem,active,generator,lr,dropout,layers,units,momentum,optimizer,"
                                        "batch_norm,weight_decay,error,excluded\n"));

        // The suggestion as Optuna types its parameters.
        const Json p = suggested_parameters(dir.path(), "mlp.sebo.json");
        QVERIFY2(p.is_object() && p.size() == 8, p.dump().c_str());
        QVERIFY(p["lr"].is_number_float());
        QVERIFY(p["dropout"].is_number_float());
        QVERIFY(p["layers"].is_number_integer());
        QVERIFY(p["units"].is_number_integer());           // IntDistribution(step=32)
        QVERIFY(p["units"].get<int>() % 32 == 0);
        QVERIFY(p["momentum"].is_number_float());          // FloatDistribution(step=0.05)
        QVERIFY(p["optimizer"].is_string());
        QVERIFY(p["batch_norm"].is_boolean());
        QVERIFY(p["weight_decay"].is_number_float() || p["weight_decay"].is_null());
        // Every choice is one of Optuna's, with its type.
        const Json choices = {{"optimizer", {"adam", "sgd", "rmsprop"}}, {"batch_norm", {true, false}}, {"weight_decay", {0.0, 0.0001, nullptr}}};
        for (const auto& [name, listed] : choices.items()) {
            bool found = false;
            for (const Json& c : listed) found = found || (c == p[name] && c.type() == p[name].type());
            QVERIFY2(found, (name + " = " + p[name].dump()).c_str());
        }
    }

    // With python3-optuna: the suggestion goes through study.enqueue_trial and the study's own
    // objective, which receives exactly those values, and the study records them as they were.
    void suggestion_round_trips_through_optuna() {
        const QString python = python_with_optuna();
        if (python.isEmpty())
            QSKIP("python3 with optuna is not installed (Debian: apt-get install python3-optuna); the enqueue_trial round trip is "
                  "not run");
        QTemporaryDir dir;
        const QString db = dir.filePath("studies.db");
        QVERIFY(QFile::copy(fixture("optuna/studies.db"), db));
        QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner);
        SEBO_EXPECT(run_sebo({"new", "--from", db, "--study", "mlp", "--model", "gp", "--out", "mlp.sebo.json"}, dir.path()), 0, "created");
        const Json p = suggested_parameters(dir.path(), "mlp.sebo.json");
        QVERIFY(p.is_object());
        QProcess run;
        run.start(python, {"-c", kRoundTrip, fixture("optuna"), db, QString::fromStdString(p.dump())});
        QVERIFY(run.waitForFinished(300000));
        const QString out = QString::fromUtf8(run.readAllStandardOutput()).trimmed();
        QVERIFY2(out == "ok", qPrintable(out + "\n" + QString::fromUtf8(run.readAllStandardError())));
    }

    // Ax snapshots: the status quo as the target when there is one, the default rule otherwise.
    void ax_snapshots() {
        QTemporaryDir dir;
        CliResult r = run_sebo({"new", "--from", fixture("ax/ax_client_snapshot_2025-02.json"), "--model", "gp", "--out", "cnn.sebo.json"},
                               dir.path());
        SEBO_EXPECT(r, 0, "target       the default rule: 0, or the lower bound when 0 is outside the range, and a choice's first "
                          "value (lr = 1e-06, momentum = 0)");
        QVERIFY(r.err.contains("(the source names no status quo: give the configuration in use today with --target-trial N or "
                               "--target NAME=VALUE)"));
        QVERIFY(r.err.contains("trials       26 completed"));
        const QJsonObject file = read_json(dir.filePath("cnn.sebo.json"));
        QCOMPARE(file["name"].toString(), QString("tune_cnn_on_mnist"));
        QCOMPARE(file["trials"].toArray().size(), 26);
        QCOMPARE(run_sebo({"frontier", "cnn.sebo.json"}, dir.path()).code, 0);

        r = run_sebo({"new", "--from", fixture("ax/ax_client_1x_handwritten.json"), "--model", "gp", "--out", "reactor.sebo.json"}, dir.path());
        SEBO_EXPECT(r, 0, "target       the status-quo arm 'status_quo' (temperature = 25, pressure = 2, catalyst_g = 0, solvent = water, "
                          "stir_speed = 200, inert_gas = false)");
        QVERIFY(r.err.contains("warning: fixed parameter 'batch' = B7 is left out"));
        QVERIFY(r.err.contains("warning: 1 arm(s) outside the search space are not imported"));
        QVERIFY(r.err.contains("numbering    Ax trials are numbered arm by arm here: "));
        const CliResult frontier = run_sebo({"frontier", "reactor.sebo.json"}, dir.path());
        QCOMPARE(frontier.code, 0);
        QVERIFY2(frontier.out.contains("0                  2 (0.48, 1.2)"), qPrintable(frontier.out));  // the status quo changes nothing
        const Json p = suggested_parameters(dir.path(), "reactor.sebo.json");
        QVERIFY2(p.is_object(), p.dump().c_str());
        QVERIFY(p["catalyst_g"].is_number_integer());
        QVERIFY(p["stir_speed"].is_number_integer());
        QVERIFY(p["inert_gas"].is_boolean());
        QVERIFY(p["solvent"].is_string());
        QCOMPARE(p["reactor"], Json(2));
        QVERIFY(p["temperature"].get<double>() + 5 * p["pressure"].get<double>() <= 120 + 1e-9);
    }

    void refusals() {
        QTemporaryDir dir;
        const QString ax = fixture("ax/ax_client_snapshot_2025-02.json");
        SEBO_EXPECT(run_sebo({"new", "--from", ax, "--space", "space.csv", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--space does not go with --from: the space, what is measured and the trials come from");
        SEBO_EXPECT(run_sebo({"new", "--from", ax, "--objective", "accuracy", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--objective does not go with --from");
        SEBO_EXPECT(run_sebo({"new", "--space", "space.csv", "--target-trial", "3", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--target-trial goes with --from SOURCE");
        SEBO_EXPECT(run_sebo({"new", "--from", ax, "--study", "mlp", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--study: an Ax snapshot holds one experiment; --study names an Optuna study");
        SEBO_EXPECT(run_sebo({"new", "--from", ax, "--target", "lr=5", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--target lr: 5 is outside the range [1e-06, 0.4] of parameter 'lr'");
        SEBO_EXPECT(run_sebo({"new", "--from", ax, "--target", "lr", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--target: expected NAME=VALUE, got 'lr'");
        SEBO_EXPECT(run_sebo({"new", "--from", ax, "--target-trial", "99", "--out", "a.sebo.json"}, dir.path()), 2,
                    "--target-trial: no imported trial has the number 99; the imported trials are numbered 0 to 25");
        SEBO_EXPECT(run_sebo({"new", "--from", fixture("optuna/studies.db"), "--out", "a.sebo.json"}, dir.path()), 2,
                    "holds 2 studies: \"mlp\" (22 trials), \"service\" (16 trials); choose one with --study NAME");
        SEBO_EXPECT(run_sebo({"new", "--from", "missing.json", "--out", "a.sebo.json"}, dir.path()), 2,
                    "sebo new: file: cannot open missing.json");
        QVERIFY(!QFile::exists(dir.filePath("a.sebo.json")));
    }
};

SEBO_TEST_MAIN(TestCliImport)
}  // namespace test_cli_import
#include "test_cli_import.moc"
