// sebo-latency — how quickly the program reacts, measured (SPEC §8: speed is measured in
// benchmarks, never asserted in functional tests). The functional tests check that a cancellation,
// a timeout or a kill happens and leaves nothing changed or running; this program measures how
// long each takes, on the real code paths:
//   - cancel: RunController (the GUI's worker) running a real SEBO-L0 step (SAAS-NUTS fit and
//     homotopy) on Branin embedded in D dimensions, cancelled at moments spread over the step:
//     milliseconds from cancel() to runFinished(Cancelled) on the GUI thread;
//   - event loop: the longest gap between ticks of a 10 ms timer on the GUI thread while such a
//     step runs to its end (what a user would feel as a freeze);
//   - command: the external-command evaluator's timeout (how late after the timeout it returns),
//     its SIGTERM → SIGKILL escalation for a program that ignores SIGTERM (how late after timeout
//     + grace), and a stop request while a program runs (request to return);
//   - autosave: what the GUI thread spends when a step's trial is added to an open, writable
//     experiment file of 2,000 trials x 100 parameters (ExperimentDocument::appendTrials: the new
//     snapshot, then the locked merge-and-write of the file), and when its result is recorded;
//     with the file's plain write and read timed alone for comparison.
// Prints the machine and the load, then one row per figure (median, 90th percentile, max over
// the repetitions). docs/performance.md reports a run.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/timestamp.h"
#include "evaluators/command_evaluator.h"
#include "experiment/runner.h"
#include "experiment_document.h"
#include "io/experiment_file.h"
#include "problems/problem_catalog.h"
#include "run_controller.h"

namespace {

using namespace sebo;
using ui::RunController;
using ui::RunEnd;

struct Options {
    int repetitions = 10;
    int trials = 30;     // completed trials before the measured step
    int dimension = 50;  // of the embedded Branin
    std::uint64_t seed = 1;
    int autosave_trials = 2000;     // trials of the file the autosave figure writes
    int autosave_parameters = 100;  // and its parameters
    bool run_cancel = true, run_event_loop = true, run_command = true, run_autosave = true;
};

const char* kUsage =
    "usage: sebo-latency [--repetitions R] [--trials N] [--dim D] [--seed S]\n"
    "                    [--autosave-size TRIALSxPARAMETERS] [--only cancel,event-loop,command,autosave]\n"
    "\n"
    "Latency of the GUI worker and of the command evaluator (docs/performance.md):\n"
    "  cancel      RunController: cancel() to runFinished(Cancelled) during a real SEBO-L0 step\n"
    "              (SAAS-NUTS fit, homotopy) on Branin in D dimensions with N completed trials\n"
    "  event-loop  the longest gap between ticks of a 10 ms GUI-thread timer during such steps\n"
    "  command     the command evaluator: return after a timeout, after SIGTERM is ignored\n"
    "              (timeout + grace), and after a stop request while the program runs\n"
    "  autosave    the GUI thread's time to add a trial to an open experiment file and write it\n"
    "              (the file's lock, merge and atomic write), and to record a result\n"
    "\n"
    "options:\n"
    "  --repetitions R  measurements per figure (default 10)\n"
    "  --trials N       completed Sobol trials before the step (default 30)\n"
    "  --dim D          dimension of the embedded Branin (default 50)\n"
    "  --seed S         experiment seed (default 1)\n"
    "  --autosave-size  trials and parameters of the autosave figure's file (default 2000x100)\n"
    "  --only LIST      measure only these (default: all)\n";

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

int whole_number(const QString& flag, const QString& text, int min, int max) {
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < min || v > max)
        throw UsageError(QString("%1: '%2' is not a whole number in [%3, %4]").arg(flag, text).arg(min).arg(max).toStdString());
    return v;
}

// Returns nullopt for --help.
std::optional<Options> parse(const QStringList& args) {
    Options o;
    for (int i = 1; i < args.size(); ++i) {
        const QString& flag = args[i];
        if (flag == "--help" || flag == "-h") return std::nullopt;
        if (i + 1 >= args.size()) throw UsageError("unknown option or missing value: '" + flag.toStdString() + "'");
        const QString value = args[++i];
        if (flag == "--repetitions") {
            o.repetitions = whole_number(flag, value, 1, 1000);
        } else if (flag == "--trials") {
            o.trials = whole_number(flag, value, 2, 1000);
        } else if (flag == "--dim") {
            o.dimension = whole_number(flag, value, 2, 1000);
        } else if (flag == "--seed") {
            o.seed = static_cast<std::uint64_t>(whole_number(flag, value, 0, 1'000'000'000));
        } else if (flag == "--autosave-size") {
            const QStringList parts = value.split('x');
            if (parts.size() != 2) throw UsageError("--autosave-size: '" + value.toStdString() + "' is not TRIALSxPARAMETERS");
            o.autosave_trials = whole_number(flag, parts[0], 1, 1'000'000);
            o.autosave_parameters = whole_number(flag, parts[1], 2, 10'000);
        } else if (flag == "--only") {
            o.run_cancel = o.run_event_loop = o.run_command = o.run_autosave = false;
            for (const QString& item : value.split(',')) {
                if (item == "cancel") o.run_cancel = true;
                else if (item == "event-loop") o.run_event_loop = true;
                else if (item == "command") o.run_command = true;
                else if (item == "autosave") o.run_autosave = true;
                else throw UsageError("--only: unknown '" + item.toStdString() +
                                      "' (known: cancel, event-loop, command, autosave)");
            }
        } else {
            throw UsageError("unknown option '" + flag.toStdString() + "'");
        }
    }
    return o;
}

// The value of the first "prefix ...: value" line of a /proc file (read whole: their size is 0).
QString first_line_of(const QString& path, const QString& prefix) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return "unknown";
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n'))
        if (line.startsWith(prefix)) return line.mid(line.indexOf(':') + 1).trimmed();
    return "unknown";
}

QString load() {
    QFile f("/proc/loadavg");
    if (!f.open(QIODevice::ReadOnly)) return "unknown";
    return QString::fromUtf8(f.readAll()).section(' ', 0, 2);
}

// Milliseconds: median, 90th percentile (nearest rank), max.
void print_figure(const char* name, std::vector<double> ms, const QString& note = {}) {
    if (ms.empty()) {
        std::printf("%-34s %6s  (no measurement) %s\n", name, "0", qPrintable(note));
        return;
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const double median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    const auto rank = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n)));
    const double p90 = ms[std::clamp<std::size_t>(rank, 1, n) - 1];
    std::printf("%-34s %6zu %10.1f %10.1f %10.1f  %s\n", name, n, median, p90, ms.back(), qPrintable(note));
    std::fflush(stdout);
}

// Branin in D dimensions, SEBO-L0 with the paper's settings (SAAS-NUTS), with `trials` completed
// Sobol trials: the next step fits the model and optimizes the acquisition.
Experiment step_experiment(const Options& o) {
    ProblemSpec spec;
    spec.name = "branin";
    spec.dimension = o.dimension;
    MethodSettings method;
    method.strategy = StrategyKind::SeboL0;
    method.initial_trials = o.trials;
    method.budget = o.trials + 1000;
    Experiment e = make_problem_experiment(spec, method, o.seed);
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    const auto strategy = make_strategy(e.method);
    while (static_cast<int>(e.trials.size()) < o.trials)
        if (run_step(e, *strategy, &evaluator, StepControl{}).status != StepResult::Status::Completed)
            throw std::runtime_error("the initial design could not be evaluated");
    return e;
}

// Runs the event loop until the controller's run ends.
RunEnd wait_for_end(RunController& controller) {
    QEventLoop loop;
    RunEnd end = RunEnd::Failed;
    const auto connection = QObject::connect(&controller, &RunController::runFinished, &loop,
                                             [&](RunEnd e, const QString&) {
                                                 end = e;
                                                 loop.quit();
                                             });
    loop.exec();
    QObject::disconnect(connection);
    return end;
}

// Full steps with a 10 ms timer on the GUI thread; returns the step durations (ms) and adds
// each step's longest gap between ticks to `gaps`.
std::vector<double> full_steps(const Experiment& start, int count, std::vector<double>& gaps) {
    std::vector<double> durations;
    for (int r = 0; r < count; ++r) {
        ui::ExperimentDocument doc;
        doc.setExperiment(start);
        RunController controller(&doc);
        QElapsedTimer clock;
        qint64 last = 0, worst = 0;
        QTimer timer;
        timer.setTimerType(Qt::PreciseTimer);
        timer.setInterval(10);
        QObject::connect(&timer, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed();
            worst = std::max(worst, now - last);
            last = now;
        });
        controller.step();
        clock.start();
        timer.start();
        const RunEnd end = wait_for_end(controller);
        timer.stop();
        if (end != RunEnd::Finished) throw std::runtime_error("a measured step did not finish");
        durations.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        gaps.push_back(static_cast<double>(worst) / 1e6);
    }
    return durations;
}

// Cancels steps at delays spread over a step's typical duration; latency by the phase the step
// was in.
void measure_cancel(const Experiment& start, double step_ms, int count) {
    std::map<std::string, std::vector<double>> by_phase;
    std::vector<double> all;
    int finished_first = 0;
    for (int r = 0; r < count; ++r) {
        ui::ExperimentDocument doc;
        doc.setExperiment(start);
        RunController controller(&doc);
        QElapsedTimer clock;
        std::string phase;
        const int delay = static_cast<int>(0.9 * step_ms * (r + 0.5) / count);
        QTimer::singleShot(delay, &controller, [&] {
            if (!controller.isRunning()) return;
            phase = controller.lastProgress().phase.toStdString();
            clock.start();
            controller.cancel();
        });
        controller.step();
        const RunEnd end = wait_for_end(controller);
        if (end != RunEnd::Cancelled) {
            ++finished_first;
            continue;
        }
        const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        all.push_back(ms);
        by_phase[phase.empty() ? "(starting)" : phase].push_back(ms);
    }
    print_figure("cancel -> runFinished, all", all,
                 finished_first ? QString("%1 of %2 steps ended before their cancel").arg(finished_first).arg(count)
                                : QString("cancels spread over 90% of a step"));
    for (const auto& [phase, ms] : by_phase) print_figure(("  during " + phase).c_str(), ms);
}

EvaluatorSpec shell_command(const std::string& script, double timeout) {
    EvaluatorSpec spec;
    spec.kind = EvaluatorSpec::Kind::Command;
    spec.command = {"/bin/sh", "-c", script};
    spec.timeout_seconds = timeout;
    return spec;
}

SearchSpace one_parameter_space() {
    Parameter p;
    p.name = "x";
    p.lower = 0.0;
    p.upper = 1.0;
    return SearchSpace({p});
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void measure_command(int count) {
    const SearchSpace space = one_parameter_space();
    const std::vector<std::string> metrics = {"objective"};
    Trial trial;
    trial.parameters = {0.5};
    constexpr double kTimeout = 0.5, kGrace = 1.0;
    CommandEvaluatorOptions options;
    options.kill_grace_seconds = kGrace;

    std::vector<double> timeout_late, kill_late, stop_latency;
    for (int r = 0; r < count; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        CommandEvaluator(shell_command("sleep 100 & wait", kTimeout), space, metrics, options).evaluate(trial, StepControl{});
        timeout_late.push_back(1e3 * (seconds_since(t0) - kTimeout));

        const auto t1 = std::chrono::steady_clock::now();
        CommandEvaluator(shell_command("trap '' TERM; sleep 100 & wait", kTimeout), space, metrics, options)
            .evaluate(trial, StepControl{});
        kill_late.push_back(1e3 * (seconds_since(t1) - kTimeout - kGrace));

        // A stop request once the program runs (it has written its pid).
        QTemporaryDir dir;
        const QString pid_file = dir.filePath("pid");
        std::stop_source source;
        StepControl control;
        control.stop = source.get_token();
        std::chrono::steady_clock::time_point requested;
        std::jthread stopper([&] {
            while (QFile(pid_file).size() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            requested = std::chrono::steady_clock::now();
            source.request_stop();
        });
        CommandEvaluator(shell_command("echo $$ > '" + pid_file.toStdString() + "'; sleep 100 & wait", 600.0), space, metrics, options)
            .evaluate(trial, control);
        stopper.join();
        stop_latency.push_back(1e3 * seconds_since(requested));
    }
    print_figure("command timeout: late by", timeout_late, QString("timeout %1 s, SIGTERM").arg(kTimeout));
    print_figure("command SIGKILL: late by", kill_late,
                 QString("SIGTERM ignored; timeout %1 s + grace %2 s").arg(kTimeout).arg(kGrace));
    print_figure("command stop request -> return", stop_latency);
}

// An experiment of `trials` completed trials over `parameters` unit-interval parameters, as a
// long SEBO run leaves it (values, generators, timestamps; no fit records).
Experiment large_experiment(int trials, int parameters, std::uint64_t seed) {
    ProblemSpec spec;
    spec.name = "branin";
    spec.dimension = parameters;
    MethodSettings method;
    method.strategy = StrategyKind::SeboL0;
    method.budget = trials + 1000;
    Experiment e = make_problem_experiment(spec, method, seed);
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> value(50.0, 20.0);
    const std::string now = utc_timestamp();
    for (int i = 0; i < trials; ++i) {
        Trial t;
        t.index = i;
        for (int d = 0; d < parameters; ++d) t.parameters.push_back(unit(random));
        t.status = TrialStatus::Completed;
        t.values[e.primary_objective().metric] = {value(random), std::nullopt};
        t.generator = i < 20 ? "sobol" : "sebo-l0";
        t.generation_seconds = 1.25;
        t.evaluation_seconds = 0.5;
        t.created_at = t.completed_at = now;
        e.trials.push_back(std::move(t));
    }
    return e;
}

void measure_autosave(const Options& o) {
    QTemporaryDir dir;
    if (!dir.isValid()) throw std::runtime_error("no temporary folder");
    const std::string path = dir.filePath("large.sebo.json").toStdString();
    Experiment e = large_experiment(o.autosave_trials, o.autosave_parameters, o.seed);
    std::vector<double> write_ms, read_ms;
    for (int r = 0; r < o.repetitions; ++r) {
        auto t = std::chrono::steady_clock::now();
        save_experiment(e, path);
        write_ms.push_back(seconds_since(t) * 1e3);
        t = std::chrono::steady_clock::now();
        const Experiment back = load_experiment(path);
        read_ms.push_back(seconds_since(t) * 1e3);
        if (back.trials.size() != e.trials.size()) throw std::runtime_error("the file did not read back");
    }
    ui::ExperimentDocument document;
    if (auto error = document.open(QString::fromStdString(path))) throw std::runtime_error(error->toStdString());
    std::vector<double> append_ms, record_ms;
    for (int r = 0; r < o.repetitions; ++r) {
        Trial t = document.experiment().trials.back();
        t.index += 1;
        t.status = TrialStatus::Pending;
        t.values.clear();
        auto start = std::chrono::steady_clock::now();
        if (auto error = document.appendTrials({t})) throw std::runtime_error(error->toStdString());
        append_ms.push_back(seconds_since(start) * 1e3);
        start = std::chrono::steady_clock::now();
        if (auto error = document.recordResult(t.index, 42.0, std::nullopt)) throw std::runtime_error(error->toStdString());
        record_ms.push_back(seconds_since(start) * 1e3);
    }
    const QString size = QString("%1 trials x %2 parameters, %3 MB")
                             .arg(o.autosave_trials)
                             .arg(o.autosave_parameters)
                             .arg(QFileInfo(QString::fromStdString(path)).size() / 1e6, 0, 'f', 1);
    print_figure("autosave: add a trial (GUI thread)", append_ms, size);
    print_figure("autosave: record a result", record_ms, size);
    print_figure("file: save_experiment alone", write_ms, size);
    print_figure("file: load_experiment alone", read_ms, size);
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::optional<Options> parsed;
    try {
        parsed = parse(app.arguments());
    } catch (const UsageError& e) {
        std::fprintf(stderr, "sebo-latency: %s\n(see 'sebo-latency --help')\n", e.what());
        return 2;
    }
    if (!parsed) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const Options& o = *parsed;
    std::printf("# sebo-latency\n# cpu: %s; %d logical CPUs; %s\n# load average at start: %s\n",
                qPrintable(first_line_of("/proc/cpuinfo", "model name")), QThread::idealThreadCount(),
                qPrintable(QSysInfo::prettyProductName()), qPrintable(load()));
    std::printf("%-34s %6s %10s %10s %10s\n", "figure (milliseconds)", "n", "median", "p90", "max");
    try {
        if (o.run_cancel || o.run_event_loop) {
            const Experiment start = step_experiment(o);
            std::vector<double> gaps;
            const std::vector<double> steps = full_steps(start, o.run_event_loop ? o.repetitions : 1, gaps);
            std::vector<double> sorted = steps;
            std::sort(sorted.begin(), sorted.end());
            const double step_ms = sorted[sorted.size() / 2];
            const QString step = QString("Branin-%1D, SEBO-L0, %2 trials: a step takes %3 s (median)")
                                     .arg(o.dimension)
                                     .arg(o.trials)
                                     .arg(step_ms / 1e3, 0, 'f', 2);
            if (o.run_event_loop) print_figure("event loop: longest timer gap", gaps, "10 ms timer; " + step);
            if (o.run_cancel) {
                if (!o.run_event_loop) std::printf("# %s\n", qPrintable(step));
                measure_cancel(start, step_ms, o.repetitions);
            }
        }
        if (o.run_command) measure_command(o.repetitions);
        if (o.run_autosave) measure_autosave(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sebo-latency: %s\n", e.what());
        return 1;
    }
    std::printf("# load average at end: %s\n", qPrintable(load()));
    return 0;
}
