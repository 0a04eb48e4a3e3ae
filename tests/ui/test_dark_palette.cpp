// Dark mode (issue 17, item 14): with a dark QPalette — set before the window exists, or switched
// to while it is open — the charts, the trials table, the message bar and the other views take
// their colours from it: dark backgrounds, and text at a WCAG contrast of at least 4.5 (marks at
// least 3) against them. The same checks hold for a light palette. Contrast is computed here
// from the WCAG formula itself, independently of palette_colors.cpp.

#include <QAbstractAxis>
#include <QApplication>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QScatterSeries>
#include <QTableView>
#include <QToolBar>
#include <cmath>

#include "activation_chart_view.h"
#include "configuration_inspector.h"
#include "dark_palette.h"
#include "evaluator_log_view.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "parallel_coordinates_view.h"
#include "test_main.h"
#include "test_support.h"
#include "trials_table_model.h"
#include "ui_test_support.h"

namespace test_dark_palette {

using namespace sebo;
using namespace sebo::ui;

namespace {

double channel(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double luminance(const QColor& color) {
    const QColor c = color.toRgb();
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
double contrast(const QColor& a, const QColor& b) {
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}
// A translucent colour as it shows over `background`.
QColor over(const QColor& color, const QColor& background) {
    const double a = color.alphaF();
    const QColor c = color.toRgb(), b = background.toRgb();
    return QColor::fromRgbF(static_cast<float>(c.redF() * a + b.redF() * (1 - a)),
                            static_cast<float>(c.greenF() * a + b.greenF() * (1 - a)),
                            static_cast<float>(c.blueF() * a + b.blueF() * (1 - a)));
}

QPalette light_palette() {
    QPalette p(QColor(239, 239, 239));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::AlternateBase, QColor(247, 247, 247));
    // As a system palette has them: disabled text in a grey of its own.
    const QPalette generated(QColor(239, 239, 239));
    for (QPalette::ColorRole role : {QPalette::Text, QPalette::WindowText})
        p.setColor(QPalette::Disabled, role, generated.color(QPalette::Disabled, role));
    return p;
}

// An experiment with completed, failed and pending trials and a real frontier.
Experiment mixed_experiment() {
    Experiment e = test::run_with_engine(test::small_problem_experiment(/*budget=*/30), 14);
    Trial failed = e.trials[3];
    failed.index = e.next_trial_index();
    failed.status = TrialStatus::Failed;
    failed.values.clear();
    failed.error = "the lab ran out of reagent";
    e.trials.push_back(failed);
    Trial pending = e.trials[4];
    pending.index = e.next_trial_index();
    pending.status = TrialStatus::Pending;
    pending.values.clear();
    e.trials.push_back(pending);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    return e;
}

#define CHECK_CONTRAST(fg, bg, minimum, what)                                                                   \
    do {                                                                                                        \
        const double sebo_c_ = contrast((fg), (bg));                                                            \
        QVERIFY2(sebo_c_ >= (minimum), qPrintable(QString("%1: %2 on %3 has contrast %4 < %5")                  \
                                                      .arg(what, QColor(fg).name(), QColor(bg).name())          \
                                                      .arg(sebo_c_, 0, 'f', 2)                                  \
                                                      .arg(minimum)));                                          \
    } while (false)

// Axes, titles and legend of a chart against its background; the background follows the palette.
void check_chart(ChartPanel* panel, const QPalette& palette, const QString& name) {
    const QColor background = panel->chart()->backgroundBrush().color();
    QCOMPARE(background, palette.color(QPalette::Base));
    for (QAbstractAxis* axis : panel->chart()->axes()) {
        CHECK_CONTRAST(axis->labelsBrush().color(), background, 4.5, name + " axis labels");
        CHECK_CONTRAST(axis->titleBrush().color(), background, 4.5, name + " axis title");
        CHECK_CONTRAST(axis->linePenColor(), background, 3.0, name + " axis line");
    }
    CHECK_CONTRAST(panel->chart()->legend()->labelColor(), background, 4.5, name + " legend");
    // What is drawn: the rendered chart's corner is the palette's base.
    panel->chartView()->resize(600, 400);
    const QImage image = panel->chartView()->grab().toImage();
    QVERIFY(!image.isNull());
    const QColor corner = image.pixelColor(2, 2);
    QVERIFY2(contrast(corner, palette.color(QPalette::Base)) < 1.1,
             qPrintable(name + " is drawn on " + corner.name() + ", not on " + palette.color(QPalette::Base).name()));
}

void check_window(MainWindow& w, const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    // Charts.
    check_chart(w.frontierChart(), palette, "frontier");
    check_chart(w.hypervolumeChart(), palette, "hypervolume");
    check_chart(w.activationChart(), palette, "activation");
    FrontierChartView* f = w.frontierChart();
    CHECK_CONTRAST(over(f->trialsSeries()->color(), base), base, 3.0, "trial markers");
    CHECK_CONTRAST(f->frontierSeries()->color(), base, 3.0, "frontier markers");
    CHECK_CONTRAST(f->stepSeries()->pen().color(), base, 3.0, "best-with-k line");
    CHECK_CONTRAST(f->newestSeries()->color(), base, 3.0, "newest marker");
    CHECK_CONTRAST(f->selectedSeries()->pen().color(), base, 3.0, "selection ring");
    CHECK_CONTRAST(w.hypervolumeChart()->traceSeries()->pen().color(), base, 3.0, "hypervolume trace");
    const QColor bar = w.activationChart()->barSet()->color();
    CHECK_CONTRAST(bar, base, 3.0, "activation bars");
    CHECK_CONTRAST(w.activationChart()->barSet()->labelColor(), bar, 4.5, "activation share on its bar");

    // The trials table: every cell's text on its row's background.
    QTableView* view = w.trialsView();
    const QPalette table = view->palette();
    QCOMPARE(table.color(QPalette::Base), base);
    bool saw_failed = false, saw_pending = false;
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QColor background = r % 2 ? table.color(QPalette::AlternateBase) : table.color(QPalette::Base);
        for (int c = 0; c < view->model()->columnCount(); ++c) {
            const QModelIndex index = view->model()->index(r, c);
            const QVariant brush = index.data(Qt::ForegroundRole);
            const QColor text = brush.isValid() ? brush.value<QBrush>().color() : table.color(QPalette::Text);
            CHECK_CONTRAST(text, background, 4.5, QString("table row %1 column %2").arg(r).arg(c));
        }
        const QString status = view->model()->index(r, TrialsTableModel::Status).data().toString();
        saw_failed |= status == "failed";
        saw_pending |= status == "pending";
    }
    QVERIFY(saw_failed && saw_pending);

    // The message bar.
    w.messageBar()->showMessage(MessageBar::Kind::Error, "Could not save: disk full");
    CHECK_CONTRAST(w.messageBar()->textColor(), w.messageBar()->backgroundColor(), 4.5, "message bar");
    w.messageBar()->showMessage(MessageBar::Kind::Information, "Trial 3 is waiting");
    CHECK_CONTRAST(w.messageBar()->textColor(), w.messageBar()->backgroundColor(), 4.5, "message bar");

    // The parallel coordinates and the evaluator log are drawn on the palette's base.
    ParallelCoordinatesView* pc = w.parallelCoordinates();
    pc->resize(700, 400);
    pc->show();
    QCoreApplication::processEvents();
    const QImage lines = pc->canvas()->grab().toImage();
    QVERIFY(contrast(lines.pixelColor(1, lines.height() - 2), base) < 1.1);
    QCOMPARE(w.evaluatorLog()->textView()->palette().color(QPalette::Base), base);

    // Disabled controls look disabled (Apply with nothing to apply, Cancel while idle) and can
    // still be read.
    const QColor window = palette.color(QPalette::Window);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::ButtonText, QPalette::Text}) {
        const QColor enabled = palette.color(QPalette::Active, role), disabled = palette.color(QPalette::Disabled, role);
        QVERIFY2(contrast(enabled, disabled) >= 1.5, qPrintable(QString("disabled %1 is %2, enabled %3").arg(role).arg(disabled.name(), enabled.name())));
        CHECK_CONTRAST(disabled, window, 2.0, QString("disabled text %1").arg(role));
    }
    // The run actions' glyphs on the tool bar: the style draws them black, the window keeps
    // them in its text colour (their opaque pixels, on average).
    QToolBar* tools = w.findChild<QToolBar*>("mainToolBar");
    QVERIFY(tools);
    int glyphs = 0;
    for (QAction* action : tools->actions()) {
        const QString text = action->text().remove('&');
        if (text != "Step" && text != "Run N trials" && text != "Run to budget" && text != "Cancel") continue;
        ++glyphs;
        for (QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
            const QImage icon = action->icon().pixmap(QSize(16, 16), mode).toImage().convertToFormat(QImage::Format_ARGB32);
            double r = 0, g = 0, b = 0;
            int n = 0;
            for (int y = 0; y < icon.height(); ++y)
                for (int x = 0; x < icon.width(); ++x)
                    if (const QColor c = icon.pixelColor(x, y); c.alpha() > 128) {
                        r += c.redF();
                        g += c.greenF();
                        b += c.blueF();
                        ++n;
                    }
            QVERIFY2(n > 0, qPrintable(text));
            const QColor mean = QColor::fromRgbF(static_cast<float>(r / n), static_cast<float>(g / n), static_cast<float>(b / n));
            CHECK_CONTRAST(mean, tools->palette().color(QPalette::Window), mode == QIcon::Normal ? 3.0 : 2.0,
                           text + (mode == QIcon::Normal ? " icon" : " icon, disabled"));
        }
    }
    QCOMPARE(glyphs, 4);
}

}  // namespace

class TestDarkPalette : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;
    QPalette original_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        make_settings()->clear();
        path_ = dir_.filePath("mixed.sebo.json");
        save_experiment(mixed_experiment(), path_.toStdString());
        original_ = QApplication::palette();
    }
    void cleanup() { QApplication::setPalette(original_); }

    void readableInTheSystemsPalette_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("dark") << true;
        QTest::newRow("light") << false;
    }
    void readableInTheSystemsPalette() {
        QFETCH(bool, dark);
        const QPalette palette = dark ? dark_palette() : light_palette();
        QApplication::setPalette(palette);
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path_));
        w.document()->setSelectedTrial(w.document()->experiment().trials[2].index);
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        if (dark) QVERIFY(luminance(w.frontierChart()->chart()->backgroundBrush().color()) < 0.05);
        check_window(w, palette);
    }

    // Switching the system's palette while the window is open recolours everything.
    void followsAPaletteChangeWhileOpen() {
        QApplication::setPalette(light_palette());
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path_));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.frontierChart()->chart()->backgroundBrush().color(), QColor(Qt::white));
        QApplication::setPalette(dark_palette());
        QCoreApplication::processEvents();
        check_window(w, dark_palette());
    }
};

SEBO_TEST_MAIN(TestDarkPalette)
}  // namespace test_dark_palette
#include "test_dark_palette.moc"
