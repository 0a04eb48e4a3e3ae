// sebo-explorer — the SEBO Explorer desktop application.
//
//   sebo-explorer [FILE]                 open FILE (an experiment, *.sebo.json)
//   sebo-explorer --example              open the bundled Branin-50D example
//   sebo-explorer --screenshot OUT.png [--example | FILE]
//                                        render the window (1400x900) offscreen to OUT.png and exit
//   sebo-explorer --palette dark ...    a dark palette instead of the system's (e.g. for screenshots)
//   sebo-explorer --run N (--example | FILE)
//                                        open FILE (or a copy of the example), run N more trials as the
//                                        Run button does (raising the budget if needed; each trial
//                                        autosaved: to FILE, or for the example to a recovery file),
//                                        then quit: exit 0 when all N ran, 1 when the run failed, 3 when
//                                        another process runs FILE (crash-safety tests use it)
#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QSpinBox>
#include <QStyleFactory>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "dark_palette.h"
#include "experiment_document.h"
#include "main_window.h"
#include "experiment/experiment.h"
#include "message_bar.h"
#include "resource_paths.h"
#include "run_controller.h"
#include "core/version.h"

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "sebo-explorer: %s\nRun 'sebo-explorer --help' for the options.\n", qPrintable(message));
    return 2;
}

struct Options {
    QString path;  // empty: start without a file
    QString screenshot;
    QSize size{1400, 900};
    int run = 0;  // --run N: trials to run before quitting (0: interactive)
    bool dark = false;  // --palette dark
};

}  // namespace

int main(int argc, char** argv) {
    QCommandLineParser parser;
    parser.setApplicationDescription("SEBO Explorer: sparse Bayesian optimization, objective vs active parameters.");
    const QCommandLineOption help_option = parser.addHelpOption();
    const QCommandLineOption version_option = parser.addVersionOption();
    const QCommandLineOption example({"e", "example"}, "Open the bundled example experiment (Branin in 50 dimensions).");
    const QCommandLineOption screenshot("screenshot", "Render the main window offscreen to <png> and exit.", "png");
    const QCommandLineOption size("size", "Window size for --screenshot (default 1400x900).", "WxH", "1400x900");
    const QCommandLineOption run("run",
                                 "Open FILE (or a copy of the example), run <n> more trials (autosaved after each one), "
                                 "then quit.",
                                 "n");
    parser.addOption(example);
    parser.addOption(screenshot);
    parser.addOption(size);
    parser.addOption(run);
    const QCommandLineOption palette("palette", "Colours: 'system' (default) or 'dark'.", "name", "system");
    parser.addOption(palette);
    parser.addPositionalArgument("file", "An experiment file (*.sebo.json) to open.", "[FILE]");

    // Arguments are checked before any window system is touched, so a mistake gives a clear
    // message and exit code 2 even without a display.
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    if (!parser.parse(arguments)) return fail(parser.errorText());
    if (parser.isSet(help_option) || parser.isSet(version_option)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName("sebo-explorer");
        QCoreApplication::setApplicationVersion(QString::fromStdString(sebo::program_version_and_commit()));
        if (parser.isSet(help_option)) parser.showHelp(0);
        parser.showVersion();
    }

    Options options;
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) return fail(QString("expected at most one FILE, got %1").arg(files.size()));
    if (!files.isEmpty() && parser.isSet(example)) return fail("give either --example or FILE, not both");
    options.path = files.isEmpty() ? QString() : files.first();
    if (!options.path.isEmpty() && !QFileInfo(options.path).isFile())
        return fail(QString("no such file: %1").arg(options.path));
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split('x');
        bool ok_w = false, ok_h = false;
        if (parts.size() == 2) options.size = QSize(parts[0].toInt(&ok_w), parts[1].toInt(&ok_h));
        if (!ok_w || !ok_h || options.size.width() < 320 || options.size.height() < 240 ||
            options.size.width() > 8000 || options.size.height() > 8000)
            return fail(QString("--size: '%1' is not WIDTHxHEIGHT between 320x240 and 8000x8000").arg(parser.value(size)));
    }
    if (parser.isSet(palette)) {
        const QString name = parser.value(palette);
        if (name != "system" && name != "dark")
            return fail(QString("--palette: '%1' is not 'system' or 'dark'").arg(name));
        options.dark = name == "dark";
    }
    if (parser.isSet(run)) {
        bool ok = false;
        options.run = parser.value(run).toInt(&ok);
        if (!ok || options.run < 1 || options.run > 10000)
            return fail(QString("--run: '%1' is not a number of trials between 1 and 10000").arg(parser.value(run)));
        if (options.path.isEmpty() && !parser.isSet(example)) return fail("--run needs an experiment FILE or --example");
        if (parser.isSet(screenshot)) return fail("give either --run or --screenshot, not both");
    }
    if (parser.isSet(screenshot)) {
        options.screenshot = parser.value(screenshot);
        if (!options.screenshot.endsWith(".png", Qt::CaseInsensitive))
            return fail(QString("--screenshot: '%1' must end in .png").arg(options.screenshot));
        // A screenshot needs no display.
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName("SEBO");
    QApplication::setApplicationName("SEBO Explorer");
    QApplication::setApplicationVersion(QString::fromStdString(sebo::program_version_and_commit()));
    QApplication::setDesktopFileName("sebo-explorer");
    QApplication::setWindowIcon(QIcon(":/icons/sebo-explorer.png"));
    if (options.dark) {
        // Fusion draws with the palette everywhere (some platform styles do not).
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(sebo::ui::dark_palette());
    }

    if (parser.isSet(example)) {
        // Found relative to the executable, so this needs the application object.
        options.path = sebo::ui::default_example();
        if (options.path.isEmpty()) return fail("no bundled example experiment was found next to the program");
    }

    sebo::ui::MainWindow window;
    if (!options.screenshot.isEmpty()) {
        // A fixed, reproducible picture: the default layout at the given size.
        window.setRememberRecentFiles(false);
        if (!options.path.isEmpty() && !window.openFile(options.path))
            return fail(QString("could not open %1: %2").arg(options.path, window.messageBar()->text()));
        // The picture shows the experiment, not the note that a bundled example opened as a copy.
        window.messageBar()->dismiss();
        window.resize(options.size);
        window.show();
        // Let layouts and charts settle before grabbing.
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
            QApplication::sendPostedEvents();
        }
        if (!window.grab().toImage().save(options.screenshot, "PNG"))
            return fail(QString("could not write %1").arg(options.screenshot));
        return 0;
    }

    if (options.run > 0) {
        // Scripted: the same Run action a user triggers (including the confirmation of an
        // external command), then quit when the run ends. The user's recent files stay as they are.
        window.setRememberRecentFiles(false);
        window.show();
        if (!window.openFile(options.path))
            return fail(QString("could not open %1: %2").arg(options.path, window.messageBar()->text()));
        sebo::ui::ExperimentDocument* document = window.document();
        if (document->isReadOnly()) {
            std::fprintf(stderr, "sebo-explorer: %s\n", qPrintable(document->readOnlyReason()));
            return 3;
        }
        // N more trials: the budget is raised when it has no room for them.
        const int wanted = static_cast<int>(document->experiment().trials.size()) + options.run;
        if (document->experiment().method.budget < wanted) {
            sebo::MethodSettings method = document->experiment().method;
            method.budget = wanted;
            if (auto error = document->setMethod(method, document->experiment().seed)) return fail(*error);
        }
        bool finished = false;
        QObject::connect(window.controller(), &sebo::ui::RunController::runFinished, &app,
                         [&finished, document](sebo::ui::RunEnd end, const QString& message) {
                             const bool ok = end == sebo::ui::RunEnd::Finished || end == sebo::ui::RunEnd::BudgetReached;
                             std::fprintf(ok ? stdout : stderr, "%s\n", qPrintable(message));
                             // Where the trials are: the file, or for an untitled copy the recovery file.
                             const QString saved_in =
                                 document->filePath().isEmpty() ? document->recoveryPath() : document->filePath();
                             if (!saved_in.isEmpty())
                                 std::fprintf(stdout, "%s: %d trials, saved in %s\n", qPrintable(document->displayName()),
                                              static_cast<int>(document->experiment().trials.size()),
                                              qPrintable(QDir::toNativeSeparators(saved_in)));
                             finished = true;
                             QApplication::exit(ok ? 0 : 1);
                         });
        window.runCountBox()->setValue(options.run);
        QTimer::singleShot(0, &window, [&window, &finished] {
            if (window.runAction()->isEnabled()) window.runAction()->trigger();
            else window.controller()->run(1);  // reports why it cannot run (budget reached, ...)
            if (!finished && !window.controller()->isRunning()) {
                std::fprintf(stderr, "sebo-explorer: the run did not start (the command was not approved)\n");
                QApplication::exit(1);
            }
        });
        return QApplication::exec();
    }

    window.restoreLayout();
    window.show();
    const QString path = options.path;
    // After the file named on the command line (opening one clears the message bar): an
    // experiment left unsaved by a crash is offered in the message bar.
    QTimer::singleShot(0, &window, [&window, path] {
        if (!path.isEmpty()) window.openFile(path);
        window.offerRecovery();
    });
    return QApplication::exec();
}
