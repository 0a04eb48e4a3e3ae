// `sebo confirm` (issue 30 item 5) as a real child process: more measurements of chosen
// configurations — evaluated at once for a built-in problem and for an approved command, pending
// for a manual experiment — merged with the earlier ones in `sebo frontier`; and its mistakes.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_confirm {

namespace {

using sebo::test::metric_value;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

QJsonArray trials_of(const QString& path) { return read_json(path)["trials"].toArray(); }

}  // namespace

class TestCliConfirm : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

    // Six trials of a noisy built-in problem: the status quo and five Sobol points.
    QString noisy_run() {
        const QString file = path("q.sebo.json");
        const Result r = run_sebo({"run", "--problem", "sparse-quadratic", "--noise", "0.2", "--status-quo", "--init", "6",
                                   "--trials", "6", "--out", file, "--force", "--quiet"});
        if (r.code != 0) qWarning("sebo run: %s", qPrintable(r.err));
        return file;
    }

private slots:
    void a_built_in_problem_measures_at_once() {
        const QString file = noisy_run();
        const Result r = run_sebo({"confirm", file, "--trials", "3,0", "--repeats", "2"});
        SEBO_EXPECT(r, 0, "4 new trial(s) of trial(s) 3, 0 (2 each): 4 completed, 0 pending, 0 failed");
        const QJsonArray trials = trials_of(file);
        QCOMPARE(trials.size(), 10);
        for (int i = 6; i < 10; ++i) {
            const QJsonObject t = trials[i].toObject();
            QCOMPARE(t["generator"].toString(), QString("confirm"));
            QCOMPARE(t["status"].toString(), QString("completed"));
            QCOMPARE(t["parameters"], trials[i < 8 ? 3 : 0].toObject()["parameters"]);
            // A new draw of the noise: the same configuration, another measurement.
            QVERIFY(metric_value(t, "quadratic") != metric_value(trials[i < 8 ? 3 : 0].toObject(), "quadratic"));
        }
        QVERIFY(read_json(file)["method"].toObject()["budget"].toInt() >= 10);
        // The frontier merges the three measurements of each configuration: the status quo's at k = 0.
        const Result frontier = run_sebo({"frontier", file, "--json", "--raw"});
        SEBO_EXPECT(frontier, 0, "");
        const QJsonObject report = QJsonDocument::fromJson(frontier.out.toUtf8()).object();
        bool seen = false;
        for (const auto& level : report["levels"].toArray())
            for (const auto& entry : level.toObject()["trials"].toArray()) {
                const QJsonObject t = entry.toObject();
                if (t["trial"].toInt() != 3 && t["trial"].toInt() != 0) continue;
                seen = true;
                const int first = t["trial"].toInt();
                const QJsonArray replicates = t["replicates"].toArray();
                QCOMPARE(replicates.size(), 3);
                double sum = 0.0;
                for (const auto& index : replicates) sum += metric_value(trials[index.toInt()].toObject(), "quadratic");
                SEBO_COMPARE_NEAR(t["metrics"].toObject()["quadratic"].toObject()["mean"].toDouble(), sum / 3.0, 1e-12);
                QVERIFY(t["metrics"].toObject()["quadratic"].toObject().contains("sem"));
                QCOMPARE(replicates[0].toInt(), first);
            }
        QVERIFY2(seen, "the status quo, trial 0, is on the measured frontier");
    }

    void the_frontier_confirms_every_recommendation() {
        const QString file = noisy_run();
        const Result frontier = run_sebo({"frontier", file, "--json"});
        const QJsonObject report = QJsonDocument::fromJson(frontier.out.toUtf8()).object();
        QSet<int> recommended;
        for (const auto& level : report["levels"].toArray())
            if (level.toObject()["recommended"].isObject()) recommended.insert(level.toObject()["recommended"].toObject()["trial"].toInt());
        QVERIFY(!recommended.isEmpty());
        SEBO_EXPECT(run_sebo({"confirm", file, "--frontier", "--repeats", "1"}), 0, "");
        const QJsonArray trials = trials_of(file);
        QCOMPARE(trials.size(), 6 + recommended.size());
        for (int i = 6; i < trials.size(); ++i) {
            bool matches = false;
            for (int index : recommended) matches |= trials[i].toObject()["parameters"] == trials[index].toObject()["parameters"];
            QVERIFY(matches);
        }
    }

    void a_manual_experiment_gets_pending_trials() {
        write_bytes(path("space.csv"), "name,kind,lower,upper\na,continuous,0,1\nb,continuous,0,1\n");
        const QString file = path("lab.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", path("space.csv"), "--objective", "y", "--out", file}), 0, "");
        SEBO_EXPECT(run_sebo({"suggest", file}), 0, "");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "0", "--value", "1.5"}), 0, "");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "0", "--repeats", "3"}), 0, "0 completed, 3 pending");
        const QJsonArray trials = trials_of(file);
        QCOMPARE(trials.size(), 4);
        for (int i = 1; i < 4; ++i) {
            QCOMPARE(trials[i].toObject()["status"].toString(), QString("pending"));
            QCOMPARE(trials[i].toObject()["parameters"], trials[0].toObject()["parameters"]);
        }
        // A pending trial has nothing to confirm yet.
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "2", "--repeats", "1"}), 2,
                    "trial 2 is pending; only a measured configuration can be confirmed");
    }

    void a_command_runs_only_when_approved() {
        write_bytes(path("space2.csv"), "name,kind,lower,upper\na,continuous,0,1\n");
        const QString file = path("cmd.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", path("space2.csv"), "--objective", "y", "--evaluator", "command", "--out", file,
                              "--command", "/bin/sh",
                              QString::fromStdString(sebo::test::source_path("tests/fixtures/evaluators/sum_parameters.sh"))}),
                    0, "");
        SEBO_EXPECT(run_sebo({"run", file, "--trials", "2", "--evaluator", "command", "--quiet"}), 0, "");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1", "--repeats", "1"}), 2, "add --evaluator command");
        QCOMPARE(trials_of(file).size(), 2);
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1", "--repeats", "2", "--evaluator", "command"}), 0, "2 completed");
        const QJsonArray trials = trials_of(file);
        QCOMPARE(trials.size(), 4);
        QCOMPARE(metric_value(trials[3].toObject(), "y"), metric_value(trials[1].toObject(), "y"));
    }

    void mistakes_exit_with_2() {
        const QString file = noisy_run();
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1", "--repeats", "0"}), 2, "--repeats");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1"}), 2, "--repeats R is required");
        SEBO_EXPECT(run_sebo({"confirm", file, "--repeats", "2"}), 2, "give either --trials I,J,.. or --frontier");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1", "--frontier", "--repeats", "2"}), 2, "give either");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1,x", "--repeats", "2"}), 2, "'x' in '1,x' is not a trial index");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "42", "--repeats", "2"}), 2, "trial 42 does not exist");
        SEBO_EXPECT(run_sebo({"confirm", file, "--trials", "1", "--repeats", "2", "--evaluator", "command"}), 2,
                    "evaluates a built-in problem, not a command");
        QCOMPARE(trials_of(file).size(), 6);
    }
};

SEBO_TEST_MAIN(TestCliConfirm)
}  // namespace test_cli_confirm
#include "test_cli_confirm.moc"
