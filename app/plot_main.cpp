// sebo-plot — the figures of a benchmark comparison as PNG files (ui/bench_plots.h).
//
//   sebo-plot RESULTS.csv OUT_DIR [--size WxH]
//
// Reads the results table written by `sebo bench`, aggregates it across seeds
// (bench/bench_summary.h) and writes the frontier, hypervolume, simple regret and activation
// charts of every problem into OUT_DIR, printing each file written on its own line. Needs no
// display: without one it renders offscreen. Bad input exits with code 2.
#include <QApplication>
#include <QCommandLineParser>
#include <QSize>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "bench_plots.h"
#include "core/input_error.h"
#include "core/version.h"

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "sebo-plot: %s\nRun 'sebo-plot --help' for the options.\n", qPrintable(message));
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Draws the figures of a benchmark comparison (the results.csv of 'sebo bench') as PNG files: per "
        "problem the frontier (best objective with at most k active), the hypervolume traces, the simple "
        "regret at each level of interest (when the optimum is known) and the activation frequency of each "
        "model-based strategy; means over seeds with ±2 standard errors. With several objectives the "
        "frontier is the objectives' hypervolume with at most k active, and every seed's front of the first "
        "two objectives is drawn at the effective number of changes and at any number.");
    const QCommandLineOption help_option = parser.addHelpOption();
    const QCommandLineOption version_option = parser.addVersionOption();
    const QCommandLineOption size_option("size", "Image size in pixels (default 1000x650).", "WxH", "1000x650");
    parser.addOption(size_option);
    parser.addPositionalArgument("results", "The results table (results.csv) written by 'sebo bench'.");
    parser.addPositionalArgument("out_dir", "The folder to write the PNG files into (created if needed).");

    // Arguments and the results table are checked before any window system is touched, so a
    // mistake gives a clear message and exit code 2 without a display.
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    if (!parser.parse(arguments)) return fail(parser.errorText());
    if (parser.isSet(help_option) || parser.isSet(version_option)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName("sebo-plot");
        QCoreApplication::setApplicationVersion(QString::fromStdString(sebo::program_version_and_commit()));
        if (parser.isSet(help_option)) parser.showHelp(0);
        parser.showVersion();
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return fail(QString("expected RESULTS.csv and OUT_DIR, got %1 argument%2")
                        .arg(positional.size())
                        .arg(positional.size() == 1 ? "" : "s"));
    QSize size = sebo::ui::kBenchPlotSize;
    {
        const QStringList parts = parser.value(size_option).split('x');
        bool ok_w = false, ok_h = false;
        if (parts.size() == 2) size = QSize(parts[0].toInt(&ok_w), parts[1].toInt(&ok_h));
        if (!ok_w || !ok_h || size.width() < 320 || size.height() < 240 || size.width() > 8000 ||
            size.height() > 8000)
            return fail(QString("--size: '%1' is not WIDTHxHEIGHT between 320x240 and 8000x8000")
                            .arg(parser.value(size_option)));
    }

    std::vector<sebo::ProblemSummary> problems;
    try {
        const std::vector<sebo::BenchRow> rows = sebo::read_bench_results(positional[0].toStdString());
        if (rows.empty()) return fail(QString("%1 has no result rows").arg(positional[0]));
        problems = sebo::summarize_bench(rows);
    } catch (const sebo::InputError& e) {
        return fail(QString::fromStdString(e.what()));
    }

    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName("sebo-plot");
    try {
        const QStringList written = sebo::ui::render_bench_plots(problems, positional[1], size);
        for (const QString& path : written) std::printf("%s\n", qPrintable(path));
    } catch (const std::runtime_error& e) {
        return fail(QString::fromStdString(e.what()));
    }
    return 0;
}
