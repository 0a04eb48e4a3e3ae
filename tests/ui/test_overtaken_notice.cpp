// Notice what changed (issue 32 item 5): when a new trial is feasible and better on every objective
// than a chosen configuration, the message bar says so and names both trials, with a button that
// compares them; an infeasible trial, one better on one objective only, or a trial that was already
// in the file when it was opened says nothing.

#include <QMessageBox>
#include <QPushButton>

#include "comparison_view.h"
#include "experiment_document.h"
#include "io/results_import.h"
#include "main_window.h"
#include "message_bar.h"
#include "parameter_builders.h"
#include "prompt_test_support.h"
#include "service_test_support.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_overtaken_notice {

using namespace sebo;
using namespace sebo::ui;

using sebo::test::discard;
using sebo::test::measured_service_trial;

namespace {

// The web service (service_test_support.h), trial 1 chosen. Trial 3, already in the file, beats it.
Experiment service() {
    Experiment e = test::web_service_experiment();
    e.trials = {measured_service_trial(0, {256, 4}, 1000, 50, 80), measured_service_trial(1, {811, 4}, 1150, 45, 90),
                measured_service_trial(2, {811, 8}, 1200, 47, 99), measured_service_trial(3, {700, 4}, 1160, 44, 95)};
    e.chosen = {ChosenConfiguration{1, "cheap to roll out"}};
    return e;
}

}  // namespace

class TestOvertakenNotice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aNewTrialThatBeatsAChoiceIsNamed() {
        MainWindow w;
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(service()));
        // Trial 3 was in the experiment when it was opened: not news.
        QTest::qWait(50);
        QVERIFY(w.messageBar()->topic() != "overtaken");
        w.messageBar()->dismiss();

        // Better throughput, worse p99; better on both but using too much memory: nothing.
        QVERIFY(!w.document()->appendTrials(
            {measured_service_trial(4, {900, 4}, 1300, 46, 90), measured_service_trial(5, {1000, 4}, 1400, 30, 150)}));
        QTest::qWait(50);
        QVERIFY(w.messageBar()->topic() != "overtaken");

        // A step's trial that is better on both and feasible.
        QVERIFY(!w.document()->appendTrials({measured_service_trial(6, {1200, 4}, 1250, 40, 92)}));
        QTRY_COMPARE(w.messageBar()->topic(), QString("overtaken"));
        QCOMPARE(w.messageBar()->text(), QString("Trial 6 beats chosen trial 1 on every objective and meets the "
                                                 "constraints. The choice may deserve a second look."));
        // Its button compares them with the status quo.
        QVERIFY(!w.messageBar()->actionButton()->isHidden());
        QCOMPARE(w.messageBar()->actionButton()->text().remove('&'), QString("Compare"));
        w.messageBar()->actionButton()->click();
        ComparisonDialog* d = w.comparisonActions()->dialog();
        QVERIFY(d);
        QCOMPARE(d->columnTrials(), (std::vector<int>{0, 1, 6}));

        // A result typed for a pending trial counts the same way; two trials at once are both named.
        Trial a, b;
        a.index = 7;
        a.parameters = {1500, 4};
        b.index = 8;
        b.parameters = {1600, 4};
        QVERIFY(!w.document()->appendTrials({a, b}));
        w.messageBar()->dismiss();
        const ObservedResult ra{7, TrialStatus::Completed, measured_service_trial(7, {}, 1180, 41, 60).values, ""};
        const ObservedResult rb{8, TrialStatus::Completed, measured_service_trial(8, {}, 1190, 42, 61).values, ""};
        QVERIFY(!w.document()->recordResults({ra, rb}));
        QTRY_COMPARE(w.messageBar()->topic(), QString("overtaken"));
        QCOMPARE(w.messageBar()->text(), QString("Trials 7 and 8 beat chosen trial 1 on every objective and meet the "
                                                 "constraints. The choice may deserve a second look."));
    }
};

SEBO_TEST_MAIN(TestOvertakenNotice)
}  // namespace test_overtaken_notice
#include "test_overtaken_notice.moc"
