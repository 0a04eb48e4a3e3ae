// Issue 18 in the window: an experiment with one absurd value (1e308, a timeout sentinel) among
// latencies of order 10-100. The frontier chart's objective axis covers the real values, the
// absurd one sits on the edge under an arrow with its real value in the tooltip, and no tick
// label is elided; excluding the trial (Trial › Exclude from analysis, or the message bar's
// offer after a new extreme value) shows it as a cross and takes it out of the analysis.

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDockWidget>
#include <QTabBar>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QTableView>
#include <QValueAxis>
#include <cmath>
#include <limits>

#include "axis_range.h"
#include "configuration_inspector.h"
#include "experiment/analytics.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "test_main.h"
#include "test_support.h"
#include "trial_context_menu.h"
#include "trial_exclusion_actions.h"
#include "trials_table_model.h"
#include "ui_test_support.h"

namespace test_extreme_values_ui {

using namespace sebo;
using namespace sebo::ui;

namespace {

// 14 Sobol trials of the 10-D quadratic, sparse copies of four of them, and the objective turned
// into a latency in [20, 100] ms (minimized); trial `outlier` reports `value` instead.
Experiment latency_experiment(int outlier, double value) {
    Experiment e = test::run_with_engine(test::small_problem_experiment(/*budget=*/40), 14);
    const std::vector<double> target = e.space.target();
    for (int c = 0; c < 4; ++c) {
        Trial t = e.trials[static_cast<std::size_t>(c)];
        t.index = e.next_trial_index();
        for (std::size_t i = static_cast<std::size_t>(c + 1); i < t.parameters.size(); ++i) t.parameters[i] = target[i];
        e.trials.push_back(t);
    }
    e.outcomes = Outcomes::single("latency", true);  // a user problem: the default reference rule
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    for (std::size_t i = 0; i < e.trials.size(); ++i)
        e.trials[i].values = {{"latency", {20.0 + 80.0 * std::fmod(0.618034 * static_cast<double>(i + 1), 1.0), std::nullopt}}};
    e.find_trial(outlier)->values["latency"].mean = value;
    return e;
}

// The texts of every label the chart's scene holds (axis ticks, titles, legend).
QStringList scene_texts(QChartView* view) {
    QStringList texts;
    for (QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible()) continue;
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) texts << text->toPlainText();
        if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) texts << simple->text();
    }
    return texts;
}

// Fails when any label is elided ("…" or "...").
void expect_no_elided_labels(QChartView* view, const char* where) {
    view->grab();  // lay the chart out at its current size
    const QStringList texts = scene_texts(view);
    QVERIFY2(texts.size() >= 6, qPrintable(QString("%1: only %2 labels").arg(where).arg(texts.size())));
    for (const QString& t : texts)
        QVERIFY2(!t.contains(QChar(0x2026)) && !t.contains("..."), qPrintable(QString("%1: elided label '%2' among %3")
                                                                                 .arg(where, t, texts.join(" | "))));
}

}  // namespace

class TestExtremeValuesUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    // The rule on its own: the bulk decides the range, the absurd value is placed on the edge.
    void axisRangeFromTheBulk() {
        std::vector<double> values;
        for (int i = 0; i < 12; ++i) values.push_back(20.0 + 7.0 * i);  // 20 … 97
        values.push_back(1e308);
        const AxisRange range = value_axis_range(values);
        QVERIFY(!range.logarithmic);  // the bulk spans less than two decades
        // 5% of the bulk's range (77) on either side, and a band of 10% of that (8.47) at the top.
        SEBO_COMPARE_NEAR(range.shown_low, 20.0 - 3.85, 1e-9);
        SEBO_COMPARE_NEAR(range.shown_high, 97.0 + 3.85, 1e-9);
        QCOMPARE(range.low, range.shown_low);  // nothing below: no band
        SEBO_COMPARE_NEAR(range.high, 100.85 + 8.47, 1e-9);
        QCOMPARE(range.side(1e308), 1);
        SEBO_COMPARE_NEAR(range.place(1e308), 100.85 + 0.5 * 8.47, 1e-9);
        SEBO_COMPARE_NEAR(range.arrow(1e308), 100.85 + 0.85 * 8.47, 1e-9);
        QCOMPARE(range.side(50.0), 0);
        QCOMPARE(range.place(50.0), 50.0);
        // Log asked for: fences on log10, the same bulk; a negative value makes log impossible.
        const AxisRange log = value_axis_range(values, {LogScale::On, false});
        QVERIFY(log.logarithmic && log.low < 20.0 && log.high > 97.0 && log.high < 1000.0);
        values.push_back(-1e308);
        QVERIFY(!log_axis_possible(values));
        const AxisRange both = value_axis_range(values, {LogScale::On, false});
        QVERIFY(!both.logarithmic && both.side(-1e308) == -1 && both.side(1e308) == 1);
        // Branin-like data spanning decades gets a log axis by itself, with nothing cut off.
        const AxisRange branin = value_axis_range({0.4, 0.9, 2.0, 5.0, 17.0, 40.0, 90.0, 308.0});
        QVERIFY(branin.logarithmic && branin.low < 0.4 && branin.high > 308.0);
        // Fewer than five values: no spread, every value shown, and still a finite range.
        const AxisRange few = value_axis_range({-1.7976931348623157e308, 1.7976931348623157e308});
        QVERIFY(std::isfinite(few.high - few.low) && few.side(1.7976931348623157e308) == 1);
        // Values equal to within 1e-15: a window of at least 1e-12 of their size.
        const AxisRange equal = value_axis_range({1e6, 1e6, 1e6 + 1e-10, 1e6, 1e6});
        QVERIFY(equal.high - equal.low >= 1e-12 * 1e6 && equal.side(1e6) == 0);
        QCOMPARE(log_axis_base(1.0, 1e8), 10.0);
        QCOMPARE(log_axis_base(1.0, 1e300), 1e30);
    }

    void frontierChartKeepsTheRealValuesReadable() {
        const QString path = dir_.filePath("sentinel.sebo.json");
        save_experiment(latency_experiment(6, 1e308), path.toStdString());
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(path));
        QApplication::processEvents();
        FrontierChartView* chart = w.frontierChart();
        const Experiment e = load_experiment(path.toStdString());
        double low = std::numeric_limits<double>::infinity(), high = -low;
        for (const Trial& t : e.trials)
            if (t.index != 6) {
                low = std::min(low, *e.objective_value(t));
                high = std::max(high, *e.objective_value(t));
            }
        // A linear axis around the real latencies (20 … 100), not up to 1e308.
        QVERIFY(!chart->logScale());
        auto* axis = qobject_cast<QValueAxis*>(chart->axisY());
        QVERIFY(axis);
        // (5% of the range on either side, and a band of 10% of that at the top.)
        QVERIFY2(axis->min() < low && axis->max() > high && axis->max() < high + 0.2 * (high - low),
                 qPrintable(QString("axis [%1, %2], values [%3, %4]").arg(axis->min()).arg(axis->max()).arg(low).arg(high)));
        // The absurd value sits in the band at the top, under an arrow; its tooltip has the real value.
        QCOMPARE(chart->beyondHighSeries()->count(), 1);
        QCOMPARE(chart->beyondLowSeries()->count(), 0);
        double marker = 0.0;
        for (const QPointF& p : chart->trialsSeries()->points())
            if (p.y() > high) marker = p.y();
        QVERIFY(marker > high && marker < axis->max());
        QVERIFY(chart->beyondHighSeries()->at(0).y() > marker && chart->beyondHighSeries()->at(0).y() < axis->max());
        const QString tooltip = chart->tooltipFor(6);
        QVERIFY2(tooltip.contains("1e+308") && tooltip.contains("Far above the other values"), qPrintable(tooltip));
        expect_no_elided_labels(chart->chartView(), "linear axis");
        // The hypervolume and the reference point are readable numbers.
        const FrontierReport report = analyze_frontier(e);
        QVERIFY(std::isfinite(report.hypervolume));
        QVERIFY(w.hypervolumeChart()->traceSeries()->count() == static_cast<int>(e.trials.size()));
        for (const QPointF& p : w.hypervolumeChart()->traceSeries()->points()) QVERIFY(std::isfinite(p.y()));
        // Below 1500x850 the hypervolume shares a tab group (dock_layout.h): click its tab.
        for (QTabBar* bar : w.findChildren<QTabBar*>())
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == "Hypervolume") bar->setCurrentIndex(i);
        for (int i = 0; i < 4; ++i) {
            QApplication::processEvents();
            QApplication::sendPostedEvents();
        }
        QVERIFY(w.hypervolumeChart()->chartView()->width() > 400);
        expect_no_elided_labels(w.hypervolumeChart()->chartView(), "hypervolume");

        // Log scale asked for: still the bulk, still no elided label.
        chart->setLogScale(true);
        QApplication::processEvents();
        QVERIFY(chart->logScale());
        auto* log_axis = qobject_cast<QLogValueAxis*>(chart->axisY());
        QVERIFY(log_axis && log_axis->min() < low && log_axis->max() > high && log_axis->max() < 10.0 * high);
        QCOMPARE(chart->beyondHighSeries()->count(), 1);
        expect_no_elided_labels(chart->chartView(), "log axis");
        // A negative sentinel makes the log axis impossible; the value goes to the bottom edge.
        chart->setLogScale(false);
        save_experiment(latency_experiment(6, -1e308), path.toStdString());
        w.setPromptHandler([](const QString&, const QString&, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            return QMessageBox::Discard;
        });
        QVERIFY(w.openFile(path));
        QApplication::processEvents();
        QCOMPARE(chart->beyondLowSeries()->count(), 1);
        QCOMPARE(chart->beyondHighSeries()->count(), 0);
        expect_no_elided_labels(chart->chartView(), "negative sentinel");
    }

    void excludingFromTheTrialMenu() {
        const QString path = dir_.filePath("exclude.sebo.json");
        save_experiment(latency_experiment(6, 1e308), path.toStdString());
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        TrialExclusionActions* actions = w.exclusionActions();
        QAction* toggle = actions->toggleAction();
        // In the Trial menu, and the table offers a context menu.
        bool in_menu = false;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->menu()->actions().contains(toggle)) in_menu = true;
        QVERIFY(in_menu);
        QVERIFY(!toggle->isEnabled());  // nothing selected
        w.document()->setSelectedTrial(6);
        QVERIFY(toggle->isEnabled());
        // The trial's context menu (table rows, chart markers) offers it too.
        QVERIFY(w.trialMenu()->prepare(6)->actions().contains(toggle));
        QVERIFY(toggle->text().remove('&').contains("Exclude from analysis"));
        QStringList suggested;
        actions->setReasonPrompt([&](int trial, const QString& suggestion) -> std::optional<QString> {
            suggested << QString("%1: %2").arg(trial).arg(suggestion);
            return QString("timeout sentinel");
        });
        const double hypervolume_before = w.document()->snapshot()->report.hypervolume;
        toggle->trigger();
        QCOMPARE(suggested, QStringList{"6: extreme value"});
        const Trial* t = w.document()->snapshot()->trial(6);
        QVERIFY(t && t->exclusion);
        QCOMPARE(QString::fromStdString(t->exclusion->reason), QString("timeout sentinel"));
        QCOMPARE(*t->value("latency"), 1e308);
        // Saved at once, shown as a cross, struck through in the table, counted in the summary.
        QVERIFY(load_experiment(path.toStdString()).find_trial(6)->exclusion);
        QCOMPARE(w.frontierChart()->excludedSeries()->count(), 1);
        QVERIFY(w.frontierChart()->tooltipFor(6).contains("Excluded from analysis</b>: timeout sentinel"));
        const int row = w.trialsModel()->rowOfTrial(6);
        QCOMPARE(w.trialsModel()->index(row, TrialsTableModel::Status).data().toString(), QString("excluded"));
        QVERIFY(w.trialsModel()->index(row, w.trialsModel()->column(TrialsTableModel::Value)).data(Qt::FontRole).value<QFont>().strikeOut());
        QVERIFY(w.trialsModel()->index(row, w.trialsModel()->column(TrialsTableModel::Error)).data().toString().contains("timeout sentinel"));
        QVERIFY(w.inspector()->summaryText().contains("Excluded from analysis"));
        // The analysis is the engine's for the excluded file (the minimized sentinel added no volume).
        QCOMPARE(w.document()->snapshot()->report.hypervolume, analyze_frontier(load_experiment(path.toStdString())).hypervolume);
        QCOMPARE(w.document()->snapshot()->report.hypervolume, hypervolume_before);
        // Include again.
        QVERIFY(toggle->text().remove('&').contains("Include in analysis"));
        toggle->trigger();
        QVERIFY(!w.document()->snapshot()->trial(6)->exclusion);
        QCOMPARE(w.frontierChart()->excludedSeries()->count(), 0);
        // A failed trial cannot be excluded.
        QVERIFY(!actions->setExcluded(999, QString("x")));
        QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Error);
        QVERIFY(w.messageBar()->text().contains("there is no trial 999"));
    }

    // A new extreme value entered by hand: the message bar offers to exclude it.
    void messageBarOffersToExcludeANewExtremeValue() {
        Experiment e = latency_experiment(6, 50.0);
        Trial pending = e.trials.back();
        pending.index = e.next_trial_index();
        pending.status = TrialStatus::Pending;
        pending.values.clear();
        e.trials.push_back(pending);
        const QString path = dir_.filePath("pending.sebo.json");
        save_experiment(e, path.toStdString());
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        emit w.inspector()->resultEntered(pending.index, 1e308, std::nullopt);
        MessageBar* bar = w.messageBar();
        QCOMPARE(bar->kind(), MessageBar::Kind::Warning);
        QVERIFY2(bar->text().contains(QString("Extreme value: trial %1: latency = 1e+308").arg(pending.index)),
                 qPrintable(bar->text()));
        QVERIFY(!bar->actionButton()->isHidden());
        QCOMPARE(bar->actionButton()->text(), QString("Exclude trial %1").arg(pending.index));
        bar->actionButton()->click();
        const Trial* t = w.document()->snapshot()->trial(pending.index);
        QVERIFY(t && t->exclusion);
        QVERIFY(QString::fromStdString(t->exclusion->reason).startsWith("extreme value (trial"));
        QVERIFY(bar->text().isEmpty());
        QVERIFY(load_experiment(path.toStdString()).find_trial(pending.index)->exclusion);
        // An ordinary value is not flagged.
        Experiment f = latency_experiment(6, 50.0);
        f.trials.push_back(pending);
        save_experiment(f, path.toStdString());
        MainWindow v;
        v.setRememberRecentFiles(false);
        QVERIFY(v.openFile(path));
        emit v.inspector()->resultEntered(pending.index, 61.0, std::nullopt);
        QVERIFY(v.messageBar()->kind() != MessageBar::Kind::Warning || v.messageBar()->text().isEmpty());
    }
};

SEBO_TEST_MAIN(TestExtremeValuesUi)
}  // namespace test_extreme_values_ui
#include "test_extreme_values_ui.moc"
