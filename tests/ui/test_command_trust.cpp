// The GUI's confirmation before an experiment's external command runs: it lists the program
// path, every argument, the folder and every variable (read through the prompt handler, and in
// the dialog itself), refuses hijacking variables until ticked, asks again after any change of
// the evaluator section (between runs and between the steps of one run), keeps "Trust this
// file's command" across windows in the per-user trust list (QSettings in a temporary folder),
// and forgets it on request, and does not ask about the command a person just typed in the
// new-experiment dialog.

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "command_trust_dialog.h"
#include "command_trust_store.h"
#include "evaluators/command_review.h"
#include "experiment_document.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "new_experiment_dialog.h"
#include "outcome_table_editor.h"
#include "parameter_table_editor.h"
#include "run_controller.h"
#include "test_main.h"
#include "test_support.h"
#include "trials_table_model.h"
#include "ui_test_support.h"

namespace test_command_trust {

using namespace sebo;
using namespace sebo::ui;

namespace {

QString fixture(const QString& name) {
    return QString::fromStdString(test::source_path("tests/fixtures/evaluators/" + name.toStdString()));
}

// Answers every prompt with `button`, keeping each title and text.
MainWindow::PromptHandler answer(QMessageBox::StandardButton button, QStringList* titles, QStringList* texts) {
    return [=](const QString& title, const QString& text, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
        *titles << title;
        *texts << text;
        return button;
    };
}

// Answers the command confirmation: ticks `allow`, asks for trust if `trust`, and accepts
// (or rejects); counts the confirmations and keeps the last text.
struct TrustAnswer {
    QStringList allow;
    bool trust = false;
    bool accept = true;
    int asked = 0;
    QString text;
    QStringList variables;
    bool run_enabled_before = false;
    bool run_enabled_after = false;
};

MainWindow::DialogHandler trust_handler(TrustAnswer* a) {
    return [a](QDialog& dialog) {
        auto* confirm = qobject_cast<CommandTrustDialog*>(&dialog);
        if (!confirm) return int(QDialog::Rejected);
        ++a->asked;
        a->variables = confirm->hijackingVariables();
        a->run_enabled_before = confirm->runButton()->isEnabled();
        for (const QString& name : a->allow) confirm->setAllowed(name, true);
        confirm->setTrustRequested(a->trust);
        a->run_enabled_after = confirm->runButton()->isEnabled();
        a->text = confirm->text();
        return int(a->accept ? QDialog::Accepted : QDialog::Rejected);
    };
}

}  // namespace

class TestCommandTrust : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return QDir(dir_.path()).canonicalPath() + "/" + name; }

    // A 3-parameter experiment evaluated by `sh sum_parameters.sh` in a folder of the test's,
    // with a PATH override (through an empty folder) and an LD_PRELOAD of a library that does
    // not exist (the loader reports it on stderr and goes on).
    Experiment hooked_experiment() const {
        Experiment e = test::small_problem_experiment(/*budget=*/10, /*dimension=*/3);
        e.evaluator = {};
        e.evaluator.kind = EvaluatorSpec::Kind::Command;
        e.evaluator.command = {"sh", fixture("sum_parameters.sh").toStdString()};
        e.evaluator.working_directory = path("work").toStdString();
        e.evaluator.timeout_seconds = 30;
        e.evaluator.environment = {{"LD_PRELOAD", path("no-such-hook.so").toStdString()},
                                   {"OMP_NUM_THREADS", "1"},
                                   {"PATH", path("bin").toStdString() + ":/usr/bin:/bin"}};
        return e;
    }

    QString save(const Experiment& e, const QString& name) const {
        save_experiment(e, path(name).toStdString());
        return path(name);
    }

    static int completed(const MainWindow& w) {
        return w.document()->experiment().count(TrialStatus::Completed);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(path("work")));
        QVERIFY(QDir().mkpath(path("bin")));
        // The per-user settings (and so the trust list) in a temporary folder.
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, path("settings"));
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, path("settings"));
        QVERIFY2(make_settings()->fileName().startsWith(path("settings")), qPrintable(make_settings()->fileName()));
    }

    void init() { make_settings()->clear(); }

    // The trust list keeps (key, file) across QSettings objects; a file is trusted only with the
    // key it was trusted with; the same file through a symbolic link is the same file.
    void trustListRoundTrip() {
        const QString ini = path("trust-round-trip.ini");
        const QString file = save(hooked_experiment(), "trusted.sebo.json");
        const QByteArray key = command_approval_key(hooked_experiment().evaluator);
        QCOMPARE(key.size(), 64);
        {
            QSettings settings(ini, QSettings::IniFormat);
            CommandTrustStore store(settings);
            QVERIFY(!store.isTrusted(key, file));
            store.trust(key, file);
            store.trust(QByteArray(64, 'a'), path("other.sebo.json"));
        }
        {
            QSettings settings(ini, QSettings::IniFormat);
            CommandTrustStore store(settings);
            QVERIFY(store.isTrusted(key, file));
            QVERIFY(QFile::link(file, path("link.sebo.json")));
            QVERIFY(store.isTrusted(key, path("link.sebo.json")));
            QVERIFY(!store.isTrusted(QByteArray(64, 'a'), file));       // another command
            QVERIFY(!store.isTrusted(key, path("other.sebo.json")));    // the same command elsewhere
            QVERIFY(!store.isTrusted(key, QString()));
            QCOMPARE(store.entries().size(), 2);
            // Trusting another command for the file replaces the first.
            store.trust(QByteArray(64, 'b'), file);
            QVERIFY(!store.isTrusted(key, file));
            QCOMPARE(store.entries().size(), 2);
            store.forget(file);
            QVERIFY(!store.isTrusted(QByteArray(64, 'b'), file));
            QCOMPARE(store.entries().size(), 1);
            // Bounded: the oldest entries go.
            for (int i = 0; i < CommandTrustStore::kMaxEntries + 4; ++i)
                store.trust(QByteArray(64, 'c'), path(QString("many-%1.sebo.json").arg(i)));
            QCOMPARE(store.entries().size(), CommandTrustStore::kMaxEntries);
            QVERIFY(!store.isTrusted(QByteArray(64, 'c'), path("many-3.sebo.json")));
            QVERIFY(store.isTrusted(QByteArray(64, 'c'), path("many-4.sebo.json")));
            store.clear();
            QVERIFY(store.entries().isEmpty());
        }
        // An entry edited by hand into something that is not a key trusts nothing.
        {
            QSettings settings(ini, QSettings::IniFormat);
            settings.beginGroup("commandTrust");
            settings.beginWriteArray("entries", 1);
            settings.setArrayIndex(0);
            settings.setValue("file", trusted_file_path(file));
            settings.setValue("key", QByteArray());
            settings.endArray();
            settings.endGroup();
            CommandTrustStore store(settings);
            QVERIFY(!store.isTrusted(QByteArray(), file));
            QVERIFY(store.entries().isEmpty());
        }
    }

    // The confirmation lists program path, arguments, folder and environment; answered Yes
    // through the prompt handler, the hijacking variables are still refused with the engine's
    // message, and nothing runs.
    void confirmationShowsEverythingAndRefusesHooks() {
        const QString file = save(hooked_experiment(), "hooked.sebo.json");
        MainWindow w;
        QStringList titles, texts;
        w.setPromptHandler(answer(QMessageBox::Yes, &titles, &texts));
        QVERIFY(w.openFile(file));
        w.stepAction()->trigger();
        QCOMPARE(titles, QStringList{"Run an external command?"});
        const QString text = texts.value(0);
        const CommandReview review = review_command(hooked_experiment().evaluator);
        QVERIFY2(text.startsWith(file + " evaluates every trial by running this program directly (never through a shell).\n\n"),
                 qPrintable(text));
        QVERIFY2(text.contains("Program      sh → " + QString::fromStdString(review.resolved_program)), qPrintable(text));
        QVERIFY(review.resolved_program == "/usr/bin/sh" || review.resolved_program == "/bin/sh");
        QVERIFY2(text.contains("\nArguments    1. " + fixture("sum_parameters.sh") + "\n"), qPrintable(text));
        QVERIFY2(text.contains("\nFolder       " + path("work") + " (exists)\n"), qPrintable(text));
        QVERIFY2(text.contains("\nTimeout      30 s per evaluation\n"), qPrintable(text));
        QVERIFY2(text.contains("\nEnvironment  LD_PRELOAD=" + path("no-such-hook.so") + " (added)   [refused unless allowed]\n"),
                 qPrintable(text));
        QVERIFY2(text.contains("\n             OMP_NUM_THREADS=1 (added)\n"), qPrintable(text));
        QVERIFY2(text.contains(" → " + path("bin") + ":/usr/bin:/bin   [refused unless allowed]\n"), qPrintable(text));
        // The same messages as `sebo run`.
        for (const std::string& refusal : hijacking_refusals(review, {}))
            QVERIFY2(text.contains(QString::fromStdString(refusal)), qPrintable(text));
        QVERIFY(text.endsWith("Only run commands you trust. Run it?"));
        QVERIFY(!w.controller()->isRunning());
        QCOMPARE(w.trialsModel()->rowCount(), 0);
        QVERIFY2(w.messageBar()->text().contains("evaluator.environment.LD_PRELOAD is refused"),
                 qPrintable(w.messageBar()->text()));
        QVERIFY(w.messageBar()->text().contains("evaluator.environment.PATH is refused"));
    }

    // Ticking the variables lets it run; "Trust this file's command" keeps the approval for the
    // next window, until the file's evaluator section changes.
    void tickedVariablesRunAndTrustIsKept() {
        const QString file = save(hooked_experiment(), "trust.sebo.json");
        {
            MainWindow w;
            TrustAnswer a;
            a.allow = {"LD_PRELOAD"};
            w.setDialogHandler(trust_handler(&a));
            QVERIFY(w.openFile(file));
            QSignalSpy finished(w.controller(), &RunController::runFinished);
            w.stepAction()->trigger();  // PATH not ticked: refused
            QCOMPARE(a.asked, 1);
            QCOMPARE(a.variables, (QStringList{"LD_PRELOAD", "PATH"}));
            QVERIFY(!a.run_enabled_before);
            QVERIFY(!a.run_enabled_after);
            QVERIFY2(a.text.contains("evaluator.environment.PATH is refused"), qPrintable(a.text));
            QVERIFY(!a.text.contains("evaluator.environment.LD_PRELOAD is refused"));
            QVERIFY(!w.controller()->isRunning());
            QCOMPARE(finished.count(), 0);
            QVERIFY(w.messageBar()->text().contains("evaluator.environment.PATH is refused"));

            a.allow = {"LD_PRELOAD", "PATH"};
            a.trust = true;
            w.stepAction()->trigger();
            QCOMPARE(a.asked, 2);
            QVERIFY(a.run_enabled_after);
            QVERIFY(!a.text.contains("is refused"));
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
            QCOMPARE(completed(w), 1);
            auto settings = make_settings();
            QVERIFY(CommandTrustStore(*settings).isTrusted(command_approval_key(hooked_experiment().evaluator), file));
        }
        {
            // Another window (a later session): trusted, so it runs without asking.
            MainWindow w;
            TrustAnswer a;
            w.setDialogHandler(trust_handler(&a));
            QVERIFY(w.openFile(file));
            QSignalSpy finished(w.controller(), &RunController::runFinished);
            w.stepAction()->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
            QCOMPARE(a.asked, 0);
            QCOMPARE(completed(w), 2);
        }
        {
            // Run › Forget trusted commands: asked again.
            MainWindow w;
            TrustAnswer a;
            a.accept = false;
            w.setDialogHandler(trust_handler(&a));
            QVERIFY(w.openFile(file));
            w.findChild<QAction*>("forgetTrustedCommands")->trigger();
            w.stepAction()->trigger();
            QCOMPARE(a.asked, 1);
            QVERIFY(!w.controller()->isRunning());
            auto settings = make_settings();
            QVERIFY(CommandTrustStore(*settings).entries().isEmpty());
            CommandTrustStore(*settings).trust(command_approval_key(hooked_experiment().evaluator), file);
        }
        {
            // The file changed (another timeout): no longer trusted.
            Experiment changed = load_experiment(file.toStdString());
            changed.evaluator.timeout_seconds = 31;
            save_experiment(changed, file.toStdString());
            MainWindow w;
            TrustAnswer a;
            a.accept = false;
            w.setDialogHandler(trust_handler(&a));
            QVERIFY(w.openFile(file));
            w.stepAction()->trigger();
            QCOMPARE(a.asked, 1);
            QVERIFY(a.text.contains("Timeout      31 s per evaluation"));
            QVERIFY(!w.controller()->isRunning());
        }
    }

    // After an approval, any change of the evaluator section (as a reload or a merge of the
    // file would make) asks again at the next step; the same section does not.
    void anyChangeAfterApprovalAsksAgain() {
        const Experiment original = hooked_experiment();
        const QString file = save(original, "changes.sebo.json");
        MainWindow w;
        TrustAnswer a;
        a.allow = {"LD_PRELOAD", "PATH"};
        w.setDialogHandler(trust_handler(&a));
        QVERIFY(w.openFile(file));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.stepAction()->trigger();
        QCOMPARE(a.asked, 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);

        std::vector<Experiment> changes(6, w.document()->experiment());
        changes[0].evaluator.command.push_back("--extra");
        changes[1].evaluator.environment[1].second = "2";
        changes[2].evaluator.environment.push_back({"PYTHONPATH", "/tmp"});
        changes[3].evaluator.working_directory = path("bin").toStdString();
        changes[4].evaluator.timeout_seconds = 60;
        changes[5].evaluator.max_concurrency = 2;
        a.accept = false;
        for (std::size_t i = 0; i < changes.size(); ++i) {
            w.document()->setExperiment(changes[i], file);
            w.stepAction()->trigger();
            QVERIFY2(a.asked == 2 + static_cast<int>(i), qPrintable(QString("change %1").arg(i)));
            QVERIFY(!w.controller()->isRunning());
        }
        QVERIFY(a.text.contains("up to 2 evaluations at once"));
        // The section as approved: no question.
        Experiment same = w.document()->experiment();
        same.evaluator = original.evaluator;
        w.document()->setExperiment(same, file);
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, test::kHangGuardMs);
        QCOMPARE(a.asked, 7);
        QCOMPARE(completed(w), 2);

        // A change between the steps of one run ends the run before the changed command starts.
        connect(w.controller(), &RunController::stepCompleted, this, [&w] {
            Experiment edited = w.document()->experiment();
            edited.evaluator.command.push_back("--edited");
            w.document()->setExperiment(edited, w.document()->filePath());
        });
        w.runCountBox()->setValue(3);
        w.runAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, test::kHangGuardMs);
        QCOMPARE(finished.at(2).at(0).value<RunEnd>(), RunEnd::Failed);
        QVERIFY2(finished.at(2).at(1).toString().contains("not the one you approved"),
                 qPrintable(finished.at(2).at(1).toString()));
        QCOMPARE(completed(w), 3);
        QCOMPARE(a.asked, 7);
    }

    // An opened file is someone else's: a command approved for one file is asked about again
    // for another file, even with the same evaluator section.
    void anOpenedFileIsAskedAbout() {
        const QString first = save(hooked_experiment(), "first.sebo.json");
        const QString second = save(hooked_experiment(), "second.sebo.json");
        MainWindow w;
        TrustAnswer a;
        a.allow = {"LD_PRELOAD", "PATH"};
        w.setDialogHandler(trust_handler(&a));
        QVERIFY(w.openFile(first));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QVERIFY(w.openFile(second));
        a.accept = false;
        w.stepAction()->trigger();
        QCOMPARE(a.asked, 2);
        QVERIFY(!w.controller()->isRunning());
    }

    // The command a person types in the new-experiment dialog is theirs: it runs in this
    // session without a confirmation; saved and opened again, it is asked about.
    void ownNewExperimentRunsWithoutAsking() {
        MainWindow w;
        TrustAnswer a;
        const auto confirm = trust_handler(&a);
        w.setDialogHandler([&](QDialog& dialog) {
            auto* create = qobject_cast<NewExperimentDialog*>(&dialog);
            if (!create) return confirm(dialog);
            create->setSource(NewExperimentDialog::Source::OwnParameters);
            create->parameterEditor()->setParameters({});
            create->parameterEditor()->pasteText("a\tcontinuous\t0\t1\t\t\t\nb\tcontinuous\t0\t1\t\t\t\n");
            create->outcomesEditor()->setOutcomes(Outcomes::single("y", false));
            create->evaluatorBox()->setCurrentIndex(create->evaluatorBox()->findData(int(EvaluatorSpec::Kind::Command)));
            create->commandEdit()->setText("sh " + fixture("sum_parameters.sh"));
            create->timeoutBox()->setValue(30);
            create->accept();
            return create->result();
        });
        w.newAction()->trigger();
        QVERIFY(w.document()->hasExperiment());
        QCOMPARE(w.document()->experiment().evaluator.kind, EvaluatorSpec::Kind::Command);
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(a.asked, 0);
        QCOMPARE(completed(w), 1);

        QVERIFY(w.saveFileAs(path("own.sebo.json")));
        // A file open in one window opens read-only in another (docs/file-format.md, "Several
        // writers"): this window lets it go first.
        w.document()->clear();
        MainWindow other;
        TrustAnswer b;
        b.accept = false;
        other.setDialogHandler(trust_handler(&b));
        QVERIFY(other.openFile(path("own.sebo.json")));
        other.stepAction()->trigger();
        QCOMPARE(b.asked, 1);
        QVERIFY(b.text.contains("Environment  inherited, nothing added or changed"));
        QVERIFY(!other.controller()->isRunning());
    }
};

SEBO_TEST_MAIN(TestCommandTrust)
}  // namespace test_command_trust
#include "test_command_trust.moc"
