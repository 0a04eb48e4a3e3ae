// Load: an experiment of 2,000 trials over 100 parameters (built here: the 100-D embedded
// Branin, quasi-random configurations with a random share of parameters at their targets so
// the frontier is long) opens in the main window, renders, its trials table scrolls to the
// end, and the frontier and hypervolume update with each added trial. The time of adding one
// trial (document update + autosave + snapshot + views) and of painting it is measured and
// printed with qInfo; nothing asserts on time.

#include <QApplication>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <algorithm>
#include <random>

#include "design/sobol.h"
#include "experiment_document.h"
#include "experiment_snapshot.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"
#include "trials_table_model.h"

namespace test_gui_load {

using namespace sebo;
using namespace sebo::ui;

namespace {

constexpr int kTrials = 2000;
constexpr int kDimension = 100;

// Configurations of the 100-D Branin: a Sobol point with each coordinate kept with a
// probability drawn per trial (so anywhere from 1 to 100 parameters are active), the rest at
// the target; evaluated by the problem itself.
class TrialFactory {
public:
    explicit TrialFactory(const Experiment& e) : problem_(make_problem(e.evaluator.problem)), sobol_(kDimension, 99) {}

    Trial make(const Experiment& e, int index) {
        const std::vector<double> unit = sobol_.points(static_cast<std::uint64_t>(index), 1).front();
        std::vector<double> x = e.space.from_unit(unit);
        const std::vector<double> target = e.space.target();
        const double keep = std::uniform_real_distribution<double>(0.0, 0.3)(rng_);
        for (int j = 0; j < kDimension; ++j)
            if (j >= 2 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= keep)
                x[static_cast<std::size_t>(j)] = target[static_cast<std::size_t>(j)];
        Trial t;
        t.index = index;
        t.parameters = e.space.snap(x);
        t.status = TrialStatus::Completed;
        t.values = problem_->evaluate(t.parameters, 0);
        t.generator = "sobol";
        t.created_at = t.completed_at = "2026-11-26T00:00:00Z";
        return t;
    }

private:
    std::shared_ptr<const Problem> problem_;
    ScrambledSobol sobol_;
    std::mt19937_64 rng_{2026};
};

Experiment big_experiment() {
    ProblemSpec spec;
    spec.name = "branin";
    spec.dimension = kDimension;
    MethodSettings method;
    method.strategy = StrategyKind::Sobol;
    method.budget = kTrials + 100;
    return make_problem_experiment(spec, method, 1);
}

void settle() {
    for (int i = 0; i < 3; ++i) {
        QApplication::processEvents();
        QApplication::sendPostedEvents();
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

class TestGuiLoad : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    void twoThousandTrialsOfOneHundredParameters() {
        Experiment e = big_experiment();
        TrialFactory factory(e);
        for (int i = 0; i < kTrials; ++i) e.trials.push_back(factory.make(e, i));
        QVERIFY(!e.validate());
        const QString path = dir_.filePath("load.sebo.json");
        save_experiment(e, path.toStdString());
        const FrontierReport report = analyze_frontier(e);
        QVERIFY2(report.pareto_trials.size() >= 3, qPrintable(QString::number(report.pareto_trials.size())));

        MainWindow w;
        w.setRememberRecentFiles(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QElapsedTimer clock;
        clock.start();
        QVERIFY(w.openFile(path));
        const double open_ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        settle();
        const QImage first_frame = w.grab().toImage();
        const double render_ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        QVERIFY(!first_frame.isNull());

        // Everything is there.
        QCOMPARE(w.trialsModel()->rowCount(), kTrials);
        QCOMPARE(w.trialsProxy()->rowCount(), kTrials);
        QVERIFY(w.frontierChart()->isShowingChart());
        QCOMPARE(w.frontierChart()->frontierSeries()->count(), static_cast<int>(report.pareto_trials.size()));
        QCOMPARE(w.frontierChart()->trialsSeries()->count(), kTrials - static_cast<int>(report.pareto_trials.size()));
        QCOMPARE(w.hypervolumeChart()->traceSeries()->count(), kTrials);
        SEBO_COMPARE_NEAR(w.hypervolumeChart()->traceSeries()->at(kTrials - 1).y(), report.hypervolume, 1e-9);

        // Scrolling the table to its end (the scroll bar, then Ctrl+End) shows the last trial.
        QTableView* view = w.trialsView();
        clock.restart();
        QScrollBar* bar = view->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        bar->setValue(bar->maximum());
        settle();
        const int bottom_row = view->rowAt(view->viewport()->height() - 2);
        QVERIFY2(bottom_row >= kTrials - 2, qPrintable(QString("bottom row %1").arg(bottom_row)));
        QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier);
        settle();
        QCOMPARE(bar->value(), bar->minimum());
        QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
        settle();
        QCOMPARE(bar->value(), bar->maximum());
        QCOMPARE(view->currentIndex().row(), kTrials - 1);
        view->viewport()->grab();
        const double scroll_ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;

        // One trial at a time, as a run adds them: the document (with autosave to the file),
        // the snapshot (analytics), the table and charts; then the paint.
        w.document()->setSelectedTrial(-1);
        bar->setValue(bar->maximum());  // the table follows new trials from the end
        std::vector<double> append_ms, paint_ms, snapshot_ms, save_ms;
        Experiment current = w.document()->experiment();
        for (int k = 0; k < 10; ++k) {
            const Trial t = factory.make(current, kTrials + k);
            clock.restart();
            const auto error = w.document()->appendTrials({t});
            append_ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
            QVERIFY2(!error, error ? qPrintable(*error) : "");
            clock.restart();
            settle();
            w.grab();
            paint_ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);

            // The parts, separately (same data): analytics + snapshot, and the atomic save.
            current = w.document()->experiment();
            clock.restart();
            const SnapshotPtr alone = make_snapshot(current, 0);
            snapshot_ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
            clock.restart();
            save_experiment(current, dir_.filePath("copy.sebo.json").toStdString());
            save_ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);

            // The views show the new trial.
            const int n = kTrials + k + 1;
            QCOMPARE(w.trialsModel()->rowCount(), n);
            QCOMPARE(w.hypervolumeChart()->traceSeries()->count(), n);
            SEBO_COMPARE_NEAR(w.hypervolumeChart()->traceSeries()->at(n - 1).y(), alone->report.hypervolume, 1e-9);
            QCOMPARE(w.frontierChart()->frontierSeries()->count() + w.frontierChart()->trialsSeries()->count() +
                         w.frontierChart()->newestSeries()->count(),
                     n + 1);  // the newest trial is also drawn in its own series
            QCOMPARE(view->verticalScrollBar()->value(), view->verticalScrollBar()->maximum());
        }
        QVERIFY(!w.document()->isModified());  // autosaved
        QCOMPARE(static_cast<int>(load_experiment(path.toStdString()).trials.size()), kTrials + 10);

        qInfo("load: %d trials x %d parameters: open %.0f ms, first render %.0f ms, scroll to end %.0f ms", kTrials,
              kDimension, open_ms, render_ms, scroll_ms);
        qInfo("per added trial (median of 10): append+autosave+snapshot+views %.1f ms (max %.1f), paint %.1f ms; "
              "of which snapshot alone %.1f ms, atomic save alone %.1f ms",
              median(append_ms), *std::max_element(append_ms.begin(), append_ms.end()), median(paint_ms),
              median(snapshot_ms), median(save_ms));
    }
};

SEBO_TEST_MAIN(TestGuiLoad)
}  // namespace test_gui_load
#include "test_gui_load.moc"
