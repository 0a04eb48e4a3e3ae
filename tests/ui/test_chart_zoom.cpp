// Zoom that lasts (issue 17, item 11, "the same on all charts"): a chart zoomed or panned by the
// user keeps its view while trials arrive and the window refreshes, until a double click shows
// everything again, the new trials included; and the parallel coordinates zoom and pan like the
// other charts, with brushes that stay on their values.

#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QValueAxis>
#include <QWheelEvent>
#include <map>

#include "activation_chart_view.h"
#include "chart_zoom.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "main_window.h"
#include "parallel_coordinates_view.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_chart_zoom {

using namespace sebo;
using namespace sebo::ui;

namespace {

// What a chart shows: each value axis's range, and the first and last category of a category axis.
struct Shown {
    std::map<QString, std::pair<double, double>> values;
    std::map<QString, std::pair<QString, QString>> categories;
    bool operator==(const Shown&) const = default;
};

Shown shown(QChart* chart) {
    Shown s;
    for (QAbstractAxis* a : chart->axes()) {
        const QString key = QString::number(static_cast<int>(a->orientation()));
        if (auto* v = qobject_cast<QValueAxis*>(a)) s.values[key] = {v->min(), v->max()};
        if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) s.categories[key] = {c->min(), c->max()};
    }
    return s;
}

QString describe(const Shown& s) {
    QStringList parts;
    for (const auto& [key, range] : s.values) parts << QString("%1: %2..%3").arg(key).arg(range.first).arg(range.second);
    for (const auto& [key, range] : s.categories) parts << QString("%1: %2..%3").arg(key, range.first, range.second);
    return parts.join("; ");
}

void send_mouse(QWidget* target, QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent event(type, at, target->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(target, &event);
}

void send_wheel(QWidget* target, QPointF at, int notches) {
    QWheelEvent wheel(at, target->mapToGlobal(at), {}, QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &wheel);
}

}  // namespace

class TestChartZoom : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Zoom every chart of the window with the wheel and pan it with the middle button (the
    // mouse's own path), then let a trial arrive: every axis keeps its range. A double click
    // then shows the whole data, the new trial included: the same axes a fresh chart of the
    // new data has.
    void zoomSurvivesNewTrials() {
        Experiment e = test::small_problem_experiment(/*budget=*/12);
        e = test::run_with_engine(e, 12);
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.newExperiment(e));
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.docks().activation->raise();
        w.docks().hypervolume->raise();
        QApplication::processEvents();
        const std::vector<ChartPanel*> panels{w.frontierChart(), w.hypervolumeChart(), w.activationChart()};

        std::vector<Shown> zoomed;
        for (ChartPanel* panel : panels) {
            const QString name = panel->metaObject()->className();
            QVERIFY2(panel->isVisible() && panel->isShowingChart(), qPrintable(name));
            const Shown whole = shown(panel->chart());
            QWidget* viewport = panel->chartView()->viewport();
            const QPointF centre = panel->chartView()->mapFromScene(panel->chart()->mapToScene(panel->chart()->plotArea().center()));
            send_wheel(viewport, centre, 2);
            send_mouse(viewport, QEvent::MouseButtonPress, centre, Qt::MiddleButton, Qt::MiddleButton);
            send_mouse(viewport, QEvent::MouseMove, centre + QPointF(30, 20), Qt::NoButton, Qt::MiddleButton);
            send_mouse(viewport, QEvent::MouseButtonRelease, centre + QPointF(30, 20), Qt::MiddleButton, Qt::NoButton);
            QVERIFY2(panel->zoom()->isZoomed(), qPrintable(name));
            zoomed.push_back(shown(panel->chart()));
            QVERIFY2(!(zoomed.back() == whole), qPrintable(name + ": " + describe(whole)));
        }

        // A 13th trial, beyond the budget of 12: the hypervolume's trial axis would grow.
        Experiment beyond_budget = w.document()->experiment();
        beyond_budget.method.budget = 13;
        const Experiment more = test::run_with_engine(beyond_budget, 1);
        QCOMPARE(more.trials.size(), std::size_t(13));
        QVERIFY(!w.document()->appendTrials({more.trials.back()}).has_value());
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t(13));
        const int newest = w.document()->experiment().trials.back().index;
        for (std::size_t i = 0; i < panels.size(); ++i) {
            const QString name = panels[i]->metaObject()->className();
            const Shown after = shown(panels[i]->chart());
            QVERIFY2(after == zoomed[i], qPrintable(name + ": " + describe(after) + ", zoomed " + describe(zoomed[i])));
            QVERIFY2(panels[i]->zoom()->isZoomed(), qPrintable(name));
        }

        // Double click: the whole of the new data.
        FrontierChartView fresh_frontier;
        HypervolumeChartView fresh_hypervolume;
        ActivationChartView fresh_activation;
        fresh_frontier.setSnapshot(w.document()->snapshot());
        fresh_hypervolume.setSnapshot(w.document()->snapshot());
        fresh_activation.setSnapshot(w.document()->snapshot());
        const std::vector<ChartPanel*> fresh{&fresh_frontier, &fresh_hypervolume, &fresh_activation};
        for (std::size_t i = 0; i < panels.size(); ++i) {
            const QString name = panels[i]->metaObject()->className();
            QWidget* viewport = panels[i]->chartView()->viewport();
            QTest::mouseDClick(viewport, Qt::LeftButton, {}, viewport->rect().center());
            QVERIFY2(!panels[i]->zoom()->isZoomed(), qPrintable(name));
            const Shown after = shown(panels[i]->chart());
            const Shown expected = shown(fresh[i]->chart());
            QVERIFY2(after == expected, qPrintable(name + ": " + describe(after) + ", expected " + describe(expected)));
        }
        QCOMPARE(w.hypervolumeChart()->chart()->axes(Qt::Horizontal).size(), 1);
        auto* trial_axis = qobject_cast<QValueAxis*>(w.hypervolumeChart()->chart()->axes(Qt::Horizontal).first());
        QVERIFY(trial_axis);
        QCOMPARE(trial_axis->max(), 13.5);
        const auto marker = w.frontierChart()->trialPosition(newest);
        QVERIFY(marker.has_value());
        const QRectF area = w.frontierChart()->chart()->plotArea();
        const QPointF in_chart = w.frontierChart()->chart()->mapFromScene(w.frontierChart()->chartView()->mapToScene(*marker));
        QVERIFY2(area.adjusted(-1, -1, 1, 1).contains(in_chart), "the new trial is on the whole chart");
    }

    // Parallel coordinates: the wheel zooms only the axis under the pointer, about the value
    // under it; a drag between the axes pans that axis; a brush keeps its values and its trials
    // through zooming, panning and a new trial; a double click shows every axis whole again.
    void parallelCoordinatesZoomAndPan() {
        Experiment e = test::run_with_engine(test::small_problem_experiment(/*budget=*/30), 16);
        ParallelCoordinatesView pc;
        pc.setSnapshot(make_snapshot(e, 1));
        pc.resize(900, 500);
        pc.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pc));
        QWidget* canvas = pc.canvas();
        QVERIFY(pc.axes().size() >= 3);
        const auto full = pc.axes();
        QVERIFY(!pc.isZoomed());

        // A brush over the upper half of the first parameter axis.
        const std::size_t parameter = 2;
        const ParallelCoordinatesView::Brush brush{0.5 * (full[parameter].low + full[parameter].high), full[parameter].high};
        pc.setBrush(parameter, brush);
        const QList<int> matching = pc.matchingTrials();
        QVERIFY(!matching.isEmpty() && matching.size() < static_cast<int>(pc.trials().size()));
        QSignalSpy clicked(&pc, &ParallelCoordinatesView::trialClicked);

        // Two wheel notches over the objective axis, at trial 3's value: that axis's shown range
        // shrinks by the wheel factor squared with trial 3 staying where it was; no other axis moves.
        const std::size_t objective = 1;
        const QPointF at = pc.pointOf(3, objective);
        send_wheel(canvas, at, 2);
        const auto& a = pc.axes()[objective];
        const double span = full[objective].high - full[objective].low;
        QVERIFY2(std::abs((a.shown_high - a.shown_low) - span / (ChartZoom::kWheelFactor * ChartZoom::kWheelFactor)) < 1e-9 * span,
                 qPrintable(QString("%1..%2 of %3..%4").arg(a.shown_low).arg(a.shown_high).arg(full[objective].low).arg(full[objective].high)));
        QVERIFY(std::abs(pc.pointOf(3, objective).y() - at.y()) < 1e-6);
        QCOMPARE(a.low, full[objective].low);
        QCOMPARE(a.high, full[objective].high);
        for (std::size_t i = 0; i < pc.axes().size(); ++i)
            if (i != objective) {
                QCOMPARE(pc.axes()[i].shown_low, full[i].low);
                QCOMPARE(pc.axes()[i].shown_high, full[i].high);
            }
        QVERIFY(pc.isZoomed());

        // The brushed axis zoomed too: the brush is the same range of values, it selects the same trials.
        send_wheel(canvas, pc.pointOf(0, parameter), 3);
        QVERIFY(pc.axes()[parameter].shown_high - pc.axes()[parameter].shown_low < full[parameter].high - full[parameter].low);
        QCOMPARE(pc.brushes().at(parameter).low, brush.low);
        QCOMPARE(pc.brushes().at(parameter).high, brush.high);
        QCOMPARE(pc.matchingTrials(), matching);

        // Drag down between the objective axis and the next, nearer the objective axis: 60 pixels
        // of the plot's height bring higher objective values into view. No trial gets clicked.
        const double x = pc.axisX(objective) + 0.3 * (pc.axisX(objective + 1) - pc.axisX(objective));
        const double before_low = a.shown_low, before_span = a.shown_high - a.shown_low;
        const double y0 = pc.pointOf(3, objective).y();
        send_mouse(canvas, QEvent::MouseButtonPress, QPointF(x, 200), Qt::LeftButton, Qt::LeftButton);
        send_mouse(canvas, QEvent::MouseMove, QPointF(x, 230), Qt::NoButton, Qt::LeftButton);
        send_mouse(canvas, QEvent::MouseMove, QPointF(x, 260), Qt::NoButton, Qt::LeftButton);
        send_mouse(canvas, QEvent::MouseButtonRelease, QPointF(x, 260), Qt::LeftButton, Qt::NoButton);
        QCOMPARE(clicked.count(), 0);
        // The values moved down with the pointer by 60 pixels.
        QVERIFY2(std::abs(pc.pointOf(3, objective).y() - (y0 + 60.0)) < 1e-6,
                 qPrintable(QString("%1, expected %2").arg(pc.pointOf(3, objective).y()).arg(y0 + 60.0)));
        QVERIFY(a.shown_low > before_low);
        QVERIFY(std::abs((a.shown_high - a.shown_low) - before_span) < 1e-9 * before_span);
        QCOMPARE(pc.matchingTrials(), matching);

        // A new trial: the zoomed ranges and the brush stay with their axes (which the new
        // activation frequencies may reorder).
        std::map<QString, std::pair<double, double>> zoomed;
        for (const auto& axis : pc.axes()) zoomed[axis.name] = {axis.shown_low, axis.shown_high};
        const QString brushed = pc.axes()[parameter].name;
        e = test::run_with_engine(e, 1);
        pc.setSnapshot(make_snapshot(e, 2));
        std::size_t brushed_now = pc.axes().size();
        for (std::size_t i = 0; i < pc.axes().size(); ++i) {
            const auto& axis = pc.axes()[i];
            QVERIFY2(zoomed.count(axis.name), qPrintable(axis.name));
            QCOMPARE(axis.shown_low, zoomed[axis.name].first);
            QCOMPARE(axis.shown_high, zoomed[axis.name].second);
            if (axis.name == brushed) brushed_now = i;
        }
        QVERIFY(brushed_now < pc.axes().size());
        QCOMPARE(pc.brushes().at(brushed_now).low, brush.low);
        QCOMPARE(pc.brushes().at(brushed_now).high, brush.high);

        // Double click: every axis whole (the new trial's value included); the brush stays. A
        // second double click, with nothing zoomed, removes the brushes.
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, QPoint(static_cast<int>(x), 200));
        QVERIFY(!pc.isZoomed());
        for (const auto& axis : pc.axes()) {
            QCOMPARE(axis.shown_low, axis.low);
            QCOMPARE(axis.shown_high, axis.high);
        }
        const double last = *e.objective_value(e.trials.back());
        QVERIFY(pc.axes()[objective].low <= last && last <= pc.axes()[objective].high);
        QVERIFY(pc.isBrushing());
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, QPoint(static_cast<int>(x), 200));
        QVERIFY(!pc.isBrushing());
    }
};

SEBO_TEST_MAIN(TestChartZoom)
}  // namespace test_chart_zoom
#include "test_chart_zoom.moc"
