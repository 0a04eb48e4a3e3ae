// `sebo fit`, driven as a real child process on a 20-trial Branin experiment in 10 dimensions:
// the JSON lists every parameter with its relevance, the two effective parameters (x0, x1) rank
// among the most relevant, the fit is deterministic for a seed, the table honours --top, the
// leave-one-out figures convert to the objective's units, and bad usage (missing file, unknown
// model, too few completed trials) exits with code 2.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <cmath>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_fit {

namespace {

using Result = sebo::test::CliResult;
using sebo::test::read_json;
using sebo::test::run_sebo;

QJsonObject parse(const Result& r) { return QJsonDocument::fromJson(r.out.toUtf8()).object(); }

}  // namespace

class TestCliFit : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString experiment;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        experiment = dir.filePath("branin10.sebo.json");
        const Result r = run_sebo({"run", "--problem", "branin", "--dim", "10", "--trials", "20", "--out", experiment, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void help() {
        const Result r = run_sebo({"fit", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("usage: sebo fit"), qPrintable(r.out));
        QVERIFY(run_sebo({"--help"}).out.contains("fit"));
    }

    void saas_map_ranks_the_effective_parameters_first() {
        const Result r = run_sebo({"fit", experiment, "--model", "saas-map", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject fit = parse(r);
        QCOMPARE(fit["model"].toString(), QString("saas-map"));
        QCOMPARE(fit["trials"].toInt(), 20);
        QCOMPARE(fit["parameters"].toInt(), 10);
        QCOMPARE(fit["diagnostics"].toObject()["kind"].toString(), QString("map"));
        const QJsonArray relevance = fit["relevance"].toArray();
        QCOMPARE(relevance.size(), 10);
        QSet<QString> names;
        double previous = INFINITY;
        for (const auto& entry : relevance) {
            const QJsonObject e = entry.toObject();
            names.insert(e["parameter"].toString());
            const double value = e["relevance"].toDouble(-1.0);
            QVERIFY2(std::isfinite(value) && value >= 0.0, qPrintable(e["parameter"].toString()));
            QVERIFY(value <= previous);  // sorted by decreasing relevance
            previous = value;
        }
        for (int i = 0; i < 10; ++i) QVERIFY2(names.contains(QString("x%1").arg(i)), qPrintable(QString("x%1").arg(i)));
        QSet<QString> top3;
        for (int k = 0; k < 3; ++k) top3.insert(relevance[k].toObject()["parameter"].toString());
        QVERIFY2(top3.contains("x0") && top3.contains("x1"), qPrintable(QStringList(top3.values()).join(",")));
        const QJsonObject loo = fit["leave_one_out"].toObject();
        QVERIFY(loo["rmse"].toDouble(-1.0) > 0.0);
        QVERIFY(std::isfinite(loo["mean_log_predictive_density"].toDouble(NAN)));
    }

    void saas_nuts_reports_spread_and_diagnostics() {
        const Result r = run_sebo({"fit", experiment, "--json", "--seed", "5"});  // default model: saas
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // no progress with --json
        const QJsonObject fit = parse(r);
        QCOMPARE(fit["model"].toString(), QString("saas"));
        QCOMPARE(fit["samples"].toInt(), 16);
        const QJsonObject diagnostics = fit["diagnostics"].toObject();
        QCOMPARE(diagnostics["kind"].toString(), QString("nuts"));
        QVERIFY(diagnostics["step_size"].toDouble() > 0.0);
        QVERIFY(diagnostics["gradient_evaluations"].toDouble() >= 768);  // at least one per iteration
        const QJsonArray relevance = fit["relevance"].toArray();
        QCOMPARE(relevance.size(), 10);
        for (const auto& entry : relevance) {
            const QJsonObject e = entry.toObject();
            QVERIFY(e["low"].toDouble() <= e["relevance"].toDouble() && e["relevance"].toDouble() <= e["high"].toDouble());
        }
        // Same seed, same fit.
        const QJsonObject again = parse(run_sebo({"fit", experiment, "--json", "--seed", "5"}));
        QCOMPARE(again["relevance"], fit["relevance"]);
        QCOMPARE(again["leave_one_out"], fit["leave_one_out"]);
    }

    // The chains' convergence: R-hat and bulk ESS of the log density and of every parameter, in
    // JSON and in the table; --nuts paper is the paper's one chain.
    void convergence_diagnostics() {
        Result r = run_sebo({"fit", experiment, "--json", "--seed", "5", "--threads", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject diagnostics = parse(r)["diagnostics"].toObject();
        QCOMPARE(diagnostics["nuts"].toString(), QString("fast"));
        QCOMPARE(diagnostics["chains"].toInt(), 2);
        QVERIFY2(diagnostics["start"].toString() != "warm", qPrintable(diagnostics["start"].toString()));  // no state in the file
        QVERIFY(diagnostics["cold_start_reason"].toString().startsWith("no sampler state from an earlier fit"));
        QVERIFY(diagnostics["rhat"].toDouble() > 0.9 && diagnostics["ess_bulk"].toDouble() > 0.0);
        for (const auto& entry : parse(r)["relevance"].toArray())
            QVERIFY(entry.toObject()["rhat"].isDouble() && entry.toObject()["ess_bulk"].isDouble());

        r = run_sebo({"fit", experiment, "--json", "--seed", "5", "--nuts", "paper"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        diagnostics = parse(r)["diagnostics"].toObject();
        QCOMPARE(diagnostics["chains"].toInt(), 1);
        QCOMPARE(diagnostics["start"].toString(), QString("full"));
        QCOMPARE(diagnostics["warmup"].toInt(), 512);
        QCOMPARE(diagnostics["draws"].toInt(), 256);

        r = run_sebo({"fit", experiment, "--seed", "5", "--threads", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("convergence   R-hat") && r.out.contains("R-hat") && r.out.contains("bulk ESS") &&
                     r.out.contains("2 chains"),
                 qPrintable(r.out));
        QCOMPARE(run_sebo({"fit", experiment, "--nuts", "slow"}).code, 2);
        QVERIFY(run_sebo({"fit", experiment, "--nuts", "slow"}).err.contains("--nuts: unknown setting 'slow' (known: fast, paper)"));
        QCOMPARE(run_sebo({"fit", experiment, "--threads", "0"}).code, 2);
    }

    // A run records each model-based trial's fit and leaves the sampler state for the next step;
    // the paper's settings leave none. `sebo fit` then warm-starts from the state, like a step.
    void runs_record_fits_and_the_sampler_state() {
        const QString fast = dir.filePath("fast.sebo.json");
        Result r = run_sebo({"run", "--problem", "branin", "--dim", "6", "--strategy", "sebo-l0", "--trials", "9", "--init",
                             "6", "--threads", "2", "--out", fast, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject e = read_json(fast);
        QCOMPARE(e["method"].toObject()["nuts"].toString(), QString("fast"));
        QVERIFY(e["sampler_states"].toObject()["branin"].isObject());  // the one modelled metric's
        QCOMPARE(e["sampler_states"].toObject()["branin"].toObject()["positions"].toArray().size(), 2);
        const QJsonArray trials = e["trials"].toArray();
        QVERIFY(!trials[5].toObject().contains("fit"));  // Sobol
        for (int i = 6; i < 9; ++i) {
            const QJsonObject fit = trials[i].toObject()["fit"].toObject();
            QCOMPARE(fit["nuts"].toString(), QString("fast"));
            QCOMPARE(fit["chains"].toInt(), 2);
            QCOMPARE(fit["draws"].toInt(), 16);
            QVERIFY(fit["parameters"].toArray().size() == 3);
        }
        r = run_sebo({"fit", fast, "--json", "--threads", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject diagnostics = parse(r)["diagnostics"].toObject();
        QVERIFY2(diagnostics["start"].toString() == "warm" ||
                     !diagnostics["cold_start_reason"].toString().startsWith("no sampler state"),
                 qPrintable(diagnostics["cold_start_reason"].toString()));
        r = run_sebo({"fit", fast, "--json", "--threads", "2", "--cold"});
        QVERIFY(parse(r)["diagnostics"].toObject()["start"].toString() != "warm");

        const QString paper = dir.filePath("paper.sebo.json");
        r = run_sebo({"run", "--problem", "branin", "--dim", "6", "--strategy", "sebo-l0", "--trials", "7", "--init", "6",
                      "--nuts", "paper", "--out", paper, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        e = read_json(paper);
        QCOMPARE(e["method"].toObject()["nuts"].toString(), QString("paper"));
        QVERIFY(!e.contains("sampler_states"));
        const QJsonObject fit = e["trials"].toArray()[6].toObject()["fit"].toObject();
        QCOMPARE(fit["nuts"].toString(), QString("paper"));
        QCOMPARE(fit["chains"].toInt(), 1);
        QCOMPARE(fit["start"].toString(), QString("full"));
    }

    void table_shows_the_top_k() {
        const Result r = run_sebo({"fit", experiment, "--model", "gp", "--top", "3"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("leave-one-out") && r.out.contains("top 3 of 10"), qPrintable(r.out));
        int rows = 0;
        for (const QString& line : r.out.split('\n'))
            if (line.contains(QRegularExpression("^\\s+[0-9]+\\s+x[0-9]+\\s"))) ++rows;
        QCOMPARE(rows, 3);
    }

    void leave_one_out_in_objective_units_without_warp() {
        // Without the Yeo-Johnson warp the model's units are the standardized objective, so the
        // objective-unit figures are the model-unit ones rescaled: RMSE times the scale, and the
        // log density minus log(scale).
        QJsonObject e = read_json(experiment);
        QVERIFY(!e.isEmpty());
        QJsonObject method = e["method"].toObject();
        // A copy of the experiment with the method's warp settings.
        const auto with_warp = [&](const QString& name, bool warp, bool check) {
            method["warp_objective"] = warp;
            method["warp_check"] = check;
            e["method"] = method;
            const QString path = dir.filePath(name);
            QFile out(path);
            if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(e).toJson()) < 0) return QString();
            return path;
        };
        const QString plain = with_warp("plain.sebo.json", false, true);
        QVERIFY(!plain.isEmpty());

        const Result r = run_sebo({"fit", plain, "--model", "gp", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject fit = parse(r);
        const QJsonObject units = fit["model_units"].toObject();
        QCOMPARE(units["warped"].toBool(true), false);
        const double scale = units["scale"].toDouble();
        QVERIFY(scale > 0.0);
        const QJsonObject loo = fit["leave_one_out"].toObject(), model = loo["model_units"].toObject();
        SEBO_COMPARE_NEAR(loo["rmse"].toDouble(), model["rmse"].toDouble() * scale, 1e-9 * scale);
        SEBO_COMPARE_NEAR(loo["mean_log_predictive_density"].toDouble(),
                          model["mean_log_predictive_density"].toDouble() - std::log(scale), 1e-9);
        // The warped fit of the same data reports its own transform (the warp unchecked: a GP of
        // the plain values infers noise in this small design, and the check would leave it out).
        const QString always = with_warp("always.sebo.json", true, false);
        QVERIFY(!always.isEmpty());
        const QJsonObject warped = parse(run_sebo({"fit", always, "--model", "gp", "--json"}));
        QVERIFY(warped["model_units"].toObject()["warped"].toBool());
        QVERIFY(warped["model_units"].toObject()["yeo_johnson_lambda"].isDouble());
    }

    void bad_usage_exits_with_2() {
        struct Case {
            QStringList args;
            QString message;
        };
        const QList<Case> cases = {
            {{"fit"}, "FILE is required"},
            {{"fit", experiment, "--model", "forest"}, "unknown model 'forest'"},
            {{"fit", experiment, "--top", "0"}, "--top"},
            {{"fit", experiment, "--seed", "-1"}, "--seed"},
            {{"fit", experiment, "--frobnicate"}, "unknown option"},
            {{"fit", dir.filePath("missing.sebo.json")}, "missing.sebo.json"},
        };
        for (const Case& c : cases) {
            const Result r = run_sebo(c.args);
            QVERIFY2(r.code == 2, qPrintable(c.args.join(' ') + " -> " + QString::number(r.code)));
            QVERIFY2(r.err.contains(c.message), qPrintable(c.args.join(' ') + " -> " + r.err));
        }
    }

    void too_few_completed_trials_exits_with_2() {
        const QString one = dir.filePath("one.sebo.json");
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--trials", "1", "--out", one, "--quiet"}).code, 0);
        const Result r = run_sebo({"fit", one});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("1 completed trial") && r.err.contains("at least 2"), qPrintable(r.err));
    }
};

SEBO_TEST_MAIN(TestCliFit)
}  // namespace test_cli_fit
#include "test_cli_fit.moc"
