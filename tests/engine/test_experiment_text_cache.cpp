// ExperimentTextCache (io/experiment_text_cache.h): the text it assembles from kept trial texts
// is experiment_to_json_text's, byte for byte — for every experiment file in the repository, for
// contents that stress the splicing (no trials, a nested "trials" key, strings that look like the
// layout, bad UTF-8), and along a run's changes (a trial added, a result recorded, a trial
// removed, a parameter renamed), re-serializing only the trials that changed. Then the shared
// file's saves, which use it, on a real file.

#include <QDirIterator>
#include <QTemporaryDir>

#include "io/experiment_file.h"
#include "io/experiment_text_cache.h"
#include "io/shared_experiment_file.h"
#include "test_main.h"
#include "test_support.h"

namespace test_experiment_text_cache {

using namespace sebo;

namespace {

Parameter parameter(std::string name) {
    Parameter p;
    p.name = std::move(name);
    p.lower = -5.0;
    p.upper = 5.0;
    return p;
}

Trial completed(int index, std::vector<double> x, double value) {
    Trial t;
    t.index = index;
    t.parameters = std::move(x);
    t.status = TrialStatus::Completed;
    t.values["yield"] = {value, std::nullopt};
    t.generator = "sebo-l0";
    t.created_at = "2026-11-26T10:00:00Z";
    t.completed_at = "2026-11-26T10:01:00Z";
    t.generation_seconds = 1.0 / 3.0;
    return t;
}

// Contents that the splice must not be fooled by.
Experiment awkward_experiment() {
    Experiment e;
    e.name = "awkward";
    e.description = "line one\n  \"trials\": [],\nand a quote \" and a tab \t";
    e.space = SearchSpace({parameter("x"), parameter("trials"), parameter("y \"quoted\"")});
    e.outcomes = Outcomes::single("yield", false);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.budget = 50;
    Trial a = completed(0, {0.1, -4.999999999999999, 1e-300}, -1234.5678901234567);
    a.values["yield"].sem = 0.25;
    Trial b = completed(1, {0.0, 0.0, 0.0}, 3.0);
    b.exclusion = TrialExclusion{"bad \xff\xfe bytes\n  ]", "2026-11-26T11:00:00Z"};
    Trial c;
    c.index = 2;
    c.parameters = {1.0, 2.0, 3.0};
    c.status = TrialStatus::Failed;
    c.error = "the program said:\n    {\"trials\": []}\n";
    c.generator = "manual";
    Trial d = completed(3, {4.0, -4.0, 2.5}, 7.0);
    FitRecord fit;
    fit.nuts = "fast";
    fit.chains = 2;
    fit.start = "warm";
    fit.warmup = 128;
    fit.draws = 16;
    fit.rhat = 1.0123;
    fit.ess_bulk = 87.5;
    fit.seconds = 0.75;
    d.fit = fit;
    Trial p;
    p.index = 4;
    p.parameters = {0.5, 0.5, 0.5};
    p.generator = "sebo-l0";
    e.trials = {a, b, c, d, p};
    e.chosen = {{0, "the \"best\" one"}};
    MetricSamplerState s;
    s.metric = "yield";
    s.trials = {0, 1, 3};
    s.fingerprint = 12345;
    s.step_size = 0.3;
    s.dense_metric = false;
    s.positions = {std::vector<double>(7, 0.5), std::vector<double>(7, -0.5)};
    s.inverse_metric = std::vector<double>(7, 1.0);
    e.sampler_state = SamplerState{{s}};
    return e;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

class TestExperimentTextCache : public QObject {
    Q_OBJECT

private slots:
    void everyRepositoryFileGivesTheSameText() {
        int files = 0;
        for (const char* folder : {"resources/examples", "docs/results", "tests/fixtures"}) {
            QDirIterator it(qs(test::source_path(folder)), {"*.sebo.json"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const std::string path = it.next().toStdString();
                Experiment e;
                try {
                    e = load_experiment(path);
                } catch (const std::exception&) {
                    continue;  // fixtures of invalid files
                }
                ExperimentTextCache cache;
                QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
                QCOMPARE(cache.serialized(), e.trials.size());
                QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
                QCOMPARE(cache.serialized(), std::size_t{0});
                ++files;
            }
        }
        QVERIFY2(files >= 4, qPrintable(QString("only %1 files were compared").arg(files)));
    }

    void awkwardContentsGiveTheSameText() {
        const Experiment e = awkward_experiment();
        ExperimentTextCache cache;
        const std::string text = cache.text(e);
        QCOMPARE(qs(text), qs(experiment_to_json_text(e)));
        // And the text reads back as the experiment (exclusion's bad bytes replaced by U+FFFD).
        const Experiment back = experiment_from_json_text(text);
        QCOMPARE(back.trials.size(), e.trials.size());
        QCOMPARE(back.description, e.description);
        QCOMPARE(*back.trials[3].fit, *e.trials[3].fit);

        Experiment empty = e;
        empty.trials.clear();
        empty.chosen.clear();
        empty.sampler_state.reset();
        QCOMPARE(qs(cache.text(empty)), qs(experiment_to_json_text(empty)));
        QCOMPARE(cache.serialized(), std::size_t{0});
    }

    void aRunsChangesReserializeOnlyWhatChanged() {
        Experiment e = awkward_experiment();
        ExperimentTextCache cache;
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
        QCOMPARE(cache.serialized(), std::size_t{5});

        // A step's new trial.
        e.trials.push_back(completed(5, {1.5, 2.5, 3.5}, 11.0));
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
        QCOMPARE(cache.serialized(), std::size_t{1});

        // The pending trial's result, and the sampler state replaced: one trial anew.
        e.trials[4].status = TrialStatus::Completed;
        e.trials[4].values["yield"] = {2.0, std::nullopt};
        e.sampler_state->metrics[0].step_size = 0.25;
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
        QCOMPARE(cache.serialized(), std::size_t{1});

        // A trial removed from the middle: those after it moved, and are written anew.
        e.trials.erase(e.trials.begin() + 1);
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
        QCOMPARE(cache.serialized(), std::size_t{4});

        // Another parameter name: every trial's text names it.
        e.space = SearchSpace({parameter("x"), parameter("z"), parameter("y \"quoted\"")});
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
        QCOMPARE(cache.serialized(), e.trials.size());

        // Fewer trials than the cache holds, then none.
        e.trials.resize(2);
        e.chosen.clear();
        e.sampler_state.reset();
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
        QCOMPARE(cache.serialized(), std::size_t{0});
        e.trials.clear();
        QCOMPARE(qs(cache.text(e)), qs(experiment_to_json_text(e)));
    }

    void sharedFileSavesWriteTheFullText() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("run.sebo.json").toStdString();
        Experiment e = awkward_experiment();
        save_experiment(e, path);
        FileLockOptions options;
        options.program = "test";
        SharedExperimentFile mine(path, options);
        Experiment here = mine.load();

        // Another writer records a trial; this process adds one and saves: merged, and the file
        // is exactly the merged experiment's full text.
        SharedExperimentFile other(path, options);
        Experiment there = other.load();
        there.trials.push_back(completed(5, {-1.0, -2.0, -3.0}, 4.0));
        other.save(there);
        here.trials.push_back(completed(6, {1.0, 2.0, 3.0}, 5.0));
        const MergeReport report = mine.save(here);
        QVERIFY(!report.empty());
        QCOMPARE(here.trials.size(), std::size_t{7});
        QCOMPARE(qs(read_experiment_text(path)), qs(experiment_to_json_text(here)));

        // Then an ordinary autosave of a recorded result.
        here.trials[4].status = TrialStatus::Completed;
        here.trials[4].values["yield"] = {1.0, std::nullopt};
        QVERIFY(mine.save(here).empty());
        QCOMPARE(qs(read_experiment_text(path)), qs(experiment_to_json_text(here)));
    }
};

SEBO_TEST_MAIN(TestExperimentTextCache)
}  // namespace test_experiment_text_cache
#include "test_experiment_text_cache.moc"
