// The method panel's BONSAI tolerance (issue 16 item 1): enabled for the bonsai strategy only, a
// value outside (0, 1] refused under the field, a good one applied to the experiment. Then two
// faults seen on small desks: Apply and Revert stay in view at 1024×700 with the advanced settings
// open, and the status bar says something true when imported trials outnumber the budget.

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTabBar>
#include <QToolButton>
#include <QtTest>

#include "experiment_document.h"
#include "main_window.h"
#include "prompt_test_support.h"
#include "method_panel.h"
#include "ui_test_support.h"
#include "test_main.h"

namespace test_method_bonsai {

using namespace sebo;
using namespace sebo::ui;
using sebo::test::discard;

namespace {

void show_method_panel(MainWindow& w) {
    QDockWidget* dock = w.docks().method;
    dock->show();
    dock->raise();
    for (QTabBar* bar : w.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->isVisible() && bar->tabText(i) == dock->windowTitle()) bar->setCurrentIndex(i);
    for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
}

// A new experiment's Method panel in `w`: the line editor of `field` and the strategy box.
std::pair<QLineEdit*, QComboBox*> method_fields(MainWindow& w, const char* field) {
    w.setPromptHandler(discard());
    if (!w.newExperiment(test::small_problem_experiment())) return {nullptr, nullptr};
    MethodPanel* panel = w.methodPanel();
    return {qobject_cast<QLineEdit*>(panel->fieldEditor(field)), qobject_cast<QComboBox*>(panel->fieldEditor("method.strategy"))};
}

}  // namespace

class TestMethodBonsai : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void toleranceFieldForBonsaiOnly() {
        MainWindow w;
        const auto [tolerance, strategy] = method_fields(w, "method.bonsai_tolerance");
        MethodPanel* panel = w.methodPanel();
        QVERIFY(tolerance && strategy);
        QCOMPARE(tolerance->text(), QString("0.2"));
        QVERIFY(!tolerance->isEnabled());  // sobol
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::Bonsai)));
        QVERIFY(tolerance->isEnabled());
        for (const auto& [text, message] : {std::pair{"1.5", "1.5 is not in (0, 1]"}, std::pair{"0", "0 is not in (0, 1]"},
                                            std::pair{"much", "'much' is not a number"}}) {
            tolerance->setText(text);
            QVERIFY(!panel->apply());
            QVERIFY2(panel->fieldError("method.bonsai_tolerance").contains(message),
                     qPrintable(panel->fieldError("method.bonsai_tolerance")));
        }
        tolerance->setText("0.05");
        QVERIFY(panel->apply());
        QCOMPARE(w.document()->experiment().method.strategy, StrategyKind::Bonsai);
        QCOMPARE(w.document()->experiment().method.bonsai_tolerance, 0.05);
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::SeboL0)));
        QVERIFY(!tolerance->isEnabled());
    }

    // The dense start under noise (MethodSettings::dense_steps) is a SEBO setting: editable for the
    // SEBO strategies only, checked by the engine's rule, saved into the method.
    void denseStartFieldForSeboOnly() {
        MainWindow w;
        const auto [dense, strategy] = method_fields(w, "method.dense_steps");
        MethodPanel* panel = w.methodPanel();
        QVERIFY(dense && strategy);
        QCOMPARE(dense->text(), QString("15"));
        QVERIFY(!dense->isEnabled());  // sobol
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::Bonsai)));
        QVERIFY(!dense->isEnabled());
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::SeboL0)));
        QVERIFY(dense->isEnabled());
        for (const auto& [text, message] : {std::pair{"-1", "-1 is outside [0, 1000000]"}, std::pair{"few", "'few' is not a whole number"}}) {
            dense->setText(text);
            QVERIFY(!panel->apply());
            QVERIFY2(panel->fieldError("method.dense_steps").contains(message), qPrintable(panel->fieldError("method.dense_steps")));
        }
        dense->setText("0");
        QVERIFY(panel->apply());
        QCOMPARE(w.document()->experiment().method.strategy, StrategyKind::SeboL0);
        QCOMPARE(w.document()->experiment().method.dense_steps, 0);
        // How long it may go on (MethodSettings::dense_steps_max): SEBO only, checked, saved.
        auto* longest = qobject_cast<QLineEdit*>(panel->fieldEditor("method.dense_steps_max"));
        QVERIFY(longest);
        QCOMPARE(longest->text(), QString("30"));
        QVERIFY(longest->isEnabled());
        longest->setText("-2");
        QVERIFY(!panel->apply());
        QVERIFY2(panel->fieldError("method.dense_steps_max").contains("-2 is outside [0, 1000000]"),
                 qPrintable(panel->fieldError("method.dense_steps_max")));
        longest->setText("20");
        QVERIFY(panel->apply());
        QCOMPARE(w.document()->experiment().method.dense_steps_max, 20);
        // Its turn to Thompson sampling (MethodSettings::dense_thompson): on by default, SEBO only,
        // a click marks the panel changed and Apply saves it.
        auto* turn = qobject_cast<QCheckBox*>(panel->fieldEditor("method.dense_thompson"));
        QVERIFY(turn);
        QVERIFY(turn->isChecked());
        QVERIFY(turn->isEnabled());
        QVERIFY(!panel->applyButton()->isEnabled());
        turn->click();
        QVERIFY(panel->applyButton()->isEnabled());
        QVERIFY(panel->apply());
        QVERIFY(!w.document()->experiment().method.dense_thompson);
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::Saasbo)));
        QVERIFY(!turn->isEnabled());
    }

    void applyStaysInViewOnASmallDesk() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        show_method_panel(w);
        MethodPanel* panel = w.methodPanel();
        for (QToolButton* toggle : panel->findChildren<QToolButton*>())
            if (toggle->text() == "Advanced settings") toggle->setChecked(true);
        for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
        // Apply and Revert are the panel's own, outside the scrolling fields.
        const QList<QPushButton*> buttons = panel->findChildren<QPushButton*>(QString(), Qt::FindDirectChildrenOnly);
        QCOMPARE(buttons.size(), 2);
        QVERIFY(buttons.contains(panel->applyButton()));
        for (QPushButton* button : buttons) {
            QVERIFY(button->isVisible());
            QVERIFY2(button->visibleRegion().boundingRect().size() == button->size(),
                     qPrintable(QString("%1: %2 of %3x%4 visible")
                                    .arg(button->text())
                                    .arg(button->visibleRegion().boundingRect().height())
                                    .arg(button->width())
                                    .arg(button->height())));
            const QRect in_window(button->mapTo(&w, QPoint(0, 0)), button->size());
            QVERIFY(w.rect().contains(in_window));
        }
    }

    void statusBarWhenImportsOutnumberTheBudget() {
        MainWindow w;
        w.setPromptHandler(discard());
        Experiment e = test::run_with_engine(test::small_problem_experiment(/*budget=*/20), 12);
        e.method.budget = 8;  // as after importing 12 past results into an experiment of 8
        QVERIFY(w.newExperiment(e));
        QStringList texts;
        for (QLabel* label : w.statusBar()->findChildren<QLabel*>()) texts << label->text();
        QVERIFY2(texts.filter("12 trials (beyond the budget of 8)").size() == 1, qPrintable(texts.join(" | ")));
        QVERIFY(texts.filter("12 of 8").isEmpty());
    }
};

SEBO_TEST_MAIN(TestMethodBonsai)
}  // namespace test_method_bonsai
#include "test_method_bonsai.moc"
