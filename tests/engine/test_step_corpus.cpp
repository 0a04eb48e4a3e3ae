// The bar of issue 34 for a faster candidate search: no setting may propose a worse candidate on
// the recorded steps of tests/data/step_corpus (README there: what they are, how they were
// recorded). Every step is replayed without refitting (experiment/candidate_search.h) from the
// recorded hyperparameter samples, and the replayed candidate is judged against the recorded one
// under the replayed acquisition: worse is a lower exact value (beyond a relative 1e-6), or the
// same value with more changed parameters. The recorded value itself is the independent reference
// that the replay rebuilt the recorded acquisition. One line per step says how the search went
// (evaluations, local optimizations and how they ended); the totals per kind of step are printed
// at the end (docs/performance.md, "The step corpus").

#include <QDir>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/input_error.h"
#include "core/thread_pool.h"
#include "experiment/candidate_search.h"
#include "io/recorded_step.h"
#include "test_main.h"
#include "test_support.h"

namespace test_step_corpus {

using namespace sebo;

namespace {

QString corpus_folder() { return QString::fromStdString(sebo::test::source_path("tests/data/step_corpus")); }

QStringList corpus_files() {
    return QDir(corpus_folder()).entryList({"*.json"}, QDir::Files, QDir::Name);
}

bool several_metrics(const Experiment& e) { return e.outcomes.objectives.size() > 1 || !e.outcomes.constraints.empty(); }
bool mixed_space(const SearchSpace& s) { return s.has_choices() || s.has_constraints(); }

// The first candidate of the recorded step's experiment, searched with the recorded samples.
CandidateSearch::Member replay(const RecordedStep& step, const StepControl& control) {
    const Experiment& e = step.experiment;
    std::string why;
    std::optional<MetricTraining> training = make_metric_training(e, warp_mode(e.method), 2, &why);
    if (!training) throw std::runtime_error("no model: " + why);
    std::optional<OutcomeModelUnits> units;
    if (several_metrics(e)) {
        units = outcome_model_units(e, *training, &why);
        if (!units) throw std::runtime_error(why);
    }
    const CandidateSearch search(e, e.method, *training, std::move(units), step.samples);
    return search.next(control);
}

std::string kind_of(const RecordedStep& step, bool noisy) {
    if (mixed_space(step.experiment.space)) return "mixed space (choices, integer, linear constraint)";
    std::string kind = several_metrics(step.experiment) ? "several metrics" : "one objective (SEBO-L0)";
    return noisy ? kind + ", noisy acquisition" : kind;
}

struct Totals {
    int steps = 0;
    long local_optimizations = 0;
    LocalEndings endings;
    long evaluations = 0;
    double seconds = 0.0;
};

// Whether `found` (value, changes) is worse than `recorded` by the issue's definition.
bool worse(double found, int found_changes, double reference, int reference_changes) {
    const double tol = 1e-6 * std::max(1.0, std::abs(reference));
    if (found < reference - tol) return true;
    return std::abs(found - reference) <= tol && found_changes > reference_changes;
}

std::string replaced(std::string text, const std::string& what, const std::string& by) {
    const auto at = text.find(what);
    if (at == std::string::npos) throw std::logic_error("not in the corpus file: " + what);
    return text.replace(at, what.size(), by);
}

}  // namespace

class TestStepCorpus : public QObject {
    Q_OBJECT

    std::map<std::string, Totals> totals_;

private slots:
    // The corpus has what the issue asks: at least 20 steps, at least 8 with several metrics and 8
    // one-objective SEBO-L0 ones, some with the noisy acquisition, in under 3 MB.
    void the_corpus_has_the_issues_steps() {
        const QStringList files = corpus_files();
        QVERIFY2(files.size() >= 20, qPrintable(QString("%1 steps in %2").arg(files.size()).arg(corpus_folder())));
        int several = 0, single = 0, noisy = 0;
        qint64 bytes = 0;
        for (const QString& f : files) {
            const QString path = corpus_folder() + "/" + f;
            bytes += QFileInfo(path).size();
            const RecordedStep step = load_recorded_step(path.toStdString());
            several += several_metrics(step.experiment);
            single += !several_metrics(step.experiment) && !mixed_space(step.experiment.space) &&
                      step.experiment.method.strategy == StrategyKind::SeboL0 &&
                      step.experiment.method.noisy_acquisition != NoisyAcquisition::On;
            noisy += step.experiment.method.noisy_acquisition == NoisyAcquisition::On;
        }
        QVERIFY2(several >= 8, qPrintable(QString::number(several)));
        QVERIFY2(single >= 8, qPrintable(QString::number(single)));
        QVERIFY2(noisy >= 2, qPrintable(QString::number(noisy)));
        QVERIFY2(bytes < 3'000'000, qPrintable(QString::number(bytes)));
    }

    void replayed_candidates_are_not_worse_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : corpus_files()) QTest::newRow(qPrintable(f)) << f;
    }

    void replayed_candidates_are_not_worse() {
        QFETCH(QString, file);
        const RecordedStep step = load_recorded_step((corpus_folder() + "/" + file).toStdString());
        ThreadPool pool(2);
        StepControl control;
        control.pool = &pool;
        QElapsedTimer clock;
        clock.start();
        const CandidateSearch::Member member = replay(step, control);
        const double seconds = clock.elapsed() / 1000.0;
        const OptimizedCandidate& found = member.candidate;
        QCOMPARE(found.status, OptimizedCandidate::Status::Ok);
        const RecordedCandidate& recorded = step.reference;
        const double v_ref = member.problem.acquisition->exact_value(recorded.x);
        const double v_new = found.value;
        const int changes = changed_parameters(step.experiment.space, found.x);
        const double tol = 1e-6 * std::max(1.0, std::abs(v_ref));

        const std::string kind = kind_of(step, member.problem.noisy);
        Totals& t = totals_[kind];
        ++t.steps;
        t.local_optimizations += found.local_optimizations;
        t.endings.converged += found.endings.converged;
        t.endings.limit += found.endings.limit;
        t.endings.failed += found.endings.failed;
        t.endings.restarted += found.endings.restarted;
        t.evaluations += found.evaluations;
        t.seconds += seconds;
        qInfo("%s: value %.9g (recorded %.9g), %d changes (recorded %d); %d evaluations (recorded %d), %d local "
              "optimizations: %d converged, %d at the limit, %d failed (%d restarted); %.2f s",
              qPrintable(file), v_new, v_ref, changes, recorded.changes, found.evaluations, recorded.evaluations,
              found.local_optimizations, found.endings.converged, found.endings.limit, found.endings.failed,
              found.endings.restarted, seconds);

        // The replay rebuilt the recorded acquisition: the recorded point has its recorded value.
        QVERIFY2(std::abs(v_ref - recorded.value) <= tol,
                 qPrintable(QString("the recorded x is worth %1 now, %2 when recorded: the corpus no longer replays its "
                                    "acquisition (re-record it, tests/data/step_corpus/README.md)")
                                .arg(v_ref, 0, 'g', 17)
                                .arg(recorded.value, 0, 'g', 17)));
        // The bar of issue 34.
        QVERIFY2(!worse(v_new, changes, v_ref, recorded.changes),
                 qPrintable(QString("worse candidate: value %1 with %2 changes against the recorded %3 with %4")
                                .arg(v_new, 0, 'g', 17)
                                .arg(changes)
                                .arg(v_ref, 0, 'g', 17)
                                .arg(recorded.changes)));
        // The value as the file has it: the replay found at least the recorded candidate's.
        QVERIFY2(v_new >= recorded.value - tol, qPrintable(QString("%1 < %2").arg(v_new, 0, 'g', 17).arg(recorded.value, 0, 'g', 17)));
    }

    // The rule itself, on hand-made cases: a lower value beyond the tolerance, or an equal value
    // with more changes, is worse; a higher value with more changes, or fewer changes, is not.
    void worse_is_the_issues_definition() {
        QVERIFY(worse(1.0 - 2e-6, 2, 1.0, 2));
        QVERIFY(!worse(1.0 - 0.5e-6, 2, 1.0, 2));
        QVERIFY(worse(1.0, 3, 1.0, 2));
        QVERIFY(!worse(1.0, 1, 1.0, 2));
        QVERIFY(!worse(1.0 + 2e-6, 5, 1.0, 2));
        QVERIFY(worse(-2000.0 - 3e-3, 1, -2000.0, 1));  // relative to |v_ref| beyond 1
        QVERIFY(!worse(-2000.0 - 1e-3, 1, -2000.0, 1));
    }

    // A damaged corpus file is refused with the field named, never replayed as something else.
    void a_damaged_file_names_the_field() {
        const QStringList files = corpus_files();
        QVERIFY(!files.isEmpty());
        QFile f(corpus_folder() + "/" + files.front());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        const RecordedStep step = recorded_step_from_json_text(text);
        const auto refused = [](const std::string& bad, const std::string& field) {
            try {
                recorded_step_from_json_text(bad);
            } catch (const InputError& e) {
                QVERIFY2(e.field() == field, e.what());
                return;
            }
            QFAIL(qPrintable(QString::fromStdString("accepted; expected an error on " + field)));
        };
        refused(replaced(text, "\"sebo-recorded-step\"", "\"sebo-experiment\""), "format");
        refused(replaced(text, "\"version\":1,", "\"version\":2,"), "version");
        refused(replaced(text, "\"changes\":" + std::to_string(step.reference.changes),
                         "\"changes\":" + std::to_string(step.reference.changes + 1)),
                "reference.changes");
        refused(replaced(text, "\"inverse_squared_lengthscales\":[", "\"inverse_squared_lengthscales\":[0.5,"),
                "models[0].samples[0].inverse_squared_lengthscales");
        refused(replaced(text, "\"models\":[{\"metric\":\"" + step.metrics.front() + "\"", "\"models\":[{\"metric\":\"other\""),
                "models[0].metric");
        refused(replaced(text, "\"x\":[", "\"x\":[1.5,"), "reference.x");
    }

    void cleanupTestCase() {
        long local = 0, failed = 0;
        for (const auto& [kind, t] : totals_) {
            qInfo("%s: %d steps, %ld local optimizations (%d converged, %d at the limit, %d failed; %d restarted), "
                  "%ld evaluations, %.1f s",
                  kind.c_str(), t.steps, t.local_optimizations, t.endings.converged, t.endings.limit, t.endings.failed,
                  t.endings.restarted, t.evaluations, t.seconds);
            local += t.local_optimizations;
            failed += t.endings.failed;
        }
        // Item 1 of issue 34: the local searches converge. With LBFGSpp 0.1.0 as it is, 6.6 % of
        // them ended in a failure; with its two defects worked around (optimize/multistart.cpp),
        // 0.3 % (docs/performance.md, "The local searches' failures").
        if (local > 0)
            QVERIFY2(failed * 100 <= local, qPrintable(QString("%1 of %2 local optimizations failed").arg(failed).arg(local)));
    }
};

SEBO_TEST_MAIN(TestStepCorpus)

}  // namespace test_step_corpus
#include "test_step_corpus.moc"
