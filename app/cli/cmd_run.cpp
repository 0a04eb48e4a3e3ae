// sebo run — create an experiment for a built-in problem (or resume a file) and run it to a
// number of trials, saving after every trial so that an interruption loses nothing.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <thread>
#include <unistd.h>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/evaluator_options.h"
#include "cli/method_options.h"
#include "cli/noise_options.h"
#include "cli/sampler_options.h"
#include "cli/shared_file.h"
#include "cli/outcome_options.h"
#include "cli/trial_exclusion_cli.h"
#include "core/format.h"
#include "core/input_error.h"
#include "core/thread_pool.h"
#include "evaluators/command_evaluator.h"
#include "evaluators/command_review.h"
#include "evaluators/shell_quoting.h"
#include "experiment/analytics.h"
#include "experiment/runner.h"
#include "io/experiment_file.h"
#include "io/shared_experiment_file.h"
#include "problems/problem_catalog.h"

namespace sebo::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) { g_interrupted.store(true); }

// Turns Ctrl-C into a cancellation of the running step: the step is abandoned, the file on disk
// keeps every completed trial.
class InterruptGuard {
public:
    InterruptGuard() {
        g_interrupted.store(false);
        previous_int_ = std::signal(SIGINT, on_interrupt);
        previous_term_ = std::signal(SIGTERM, on_interrupt);
        watcher_ = std::jthread([this](std::stop_token own) {
            while (!own.stop_requested()) {
                if (g_interrupted.load()) {
                    source_.request_stop();
                    return;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~InterruptGuard() {
        watcher_.request_stop();
        watcher_.join();
        std::signal(SIGINT, previous_int_);
        std::signal(SIGTERM, previous_term_);
    }
    std::stop_token token() const { return source_.get_token(); }

private:
    std::stop_source source_;
    std::jthread watcher_;
    void (*previous_int_)(int) = SIG_DFL;
    void (*previous_term_)(int) = SIG_DFL;
};

void print_merge_unless(bool quiet, const MergeReport& report) {
    if (!quiet) print_merge("sebo run", report);
}

// Saves the trials of a step, merging what other processes recorded meanwhile; the step's
// trial indices follow a renumbering. When they cannot be saved (the file no longer loads, it
// holds another problem now, or Ctrl-C came while waiting for another writer), this run's
// experiment is written next to the file so that no evaluation is lost. Returns false when
// the run must stop.
bool save_step(SharedExperimentFile& file, Experiment& experiment, StepResult& step, bool quiet) {
    std::string why;
    try {
        const MergeReport merged = file.save(experiment);
        print_merge_unless(quiet, merged);
        for (int& index : step.new_trials) index = merged.new_index(index);
        return true;
    } catch (const FileBusyError& error) {
        if (!error.stopped()) throw;
        why = std::string("interrupted while waiting: ") + error.what();
    } catch (const std::exception& error) {
        why = error.what();
    }
    std::string unsaved;
    for (int index : step.new_trials) unsaved += (unsaved.empty() ? "" : ", ") + std::to_string(index);
    const std::string rescue = file.path() + ".unmerged-" + std::to_string(::getpid()) + ".sebo.json";
    std::fprintf(stderr, "sebo run: cannot save trial(s) %s to %s: %s\n", unsaved.c_str(), file.path().c_str(), why.c_str());
    try {
        save_experiment(experiment, rescue);
        std::fprintf(stderr, "sebo run: this run's experiment, with those trials, is in %s\n", rescue.c_str());
    } catch (const std::exception& also) {
        std::fprintf(stderr, "sebo run: and it could not be written to %s either: %s\n", rescue.c_str(), also.what());
    }
    return false;
}

// The best feasible value of the first objective.
std::string describe_best(const Experiment& e) {
    const Trial* best = nullptr;
    for (const Trial& t : e.trials)
        if (auto u = e.utility(t); u && e.feasible(t) && (!best || *u > *e.utility(*best))) best = &t;
    if (!best) return e.outcomes.constraints.empty() ? "none yet" : "no feasible trial yet";
    return format_short(*e.objective_value(*best)) + " (trial " + std::to_string(best->index) + ", " +
           std::to_string(e.sparsity(*best)) + " active)";
}

// "branin=3.1" for one metric; "throughput=1234.5 p99_ms=41.2 (infeasible)" for several.
std::string describe_values(const Experiment& e, const Trial& t) {
    if (t.status != TrialStatus::Completed) return "failed: " + t.error;
    std::string text;
    for (const std::string& metric : e.outcomes.metrics) {
        const auto value = t.value(metric);
        text += (text.empty() ? "" : " ") + metric + "=" + (value ? format_short(*value) : std::string("-"));
    }
    if (e.feasibility(t) != Feasibility::Feasible) text += std::string(" (") + to_string(e.feasibility(t)) + ")";
    return text;
}

}  // namespace

int command_run(const Args& args) {
    std::vector<OptionSpec> options{
        {"problem", "NAME", "built-in problem (see 'sebo problems')"},
        {"dim", "D", "problem dimension (default: the problem's)"},
        {"effective", "I,J,..", "indices of the effective parameters (embedded problems)"},
        {"target", "T", "target value of every parameter in the unit cube (default 0)"},
        {"repetitions", "R", "simulations per evaluation (stochastic problems)"},
        {"world-seed", "W", "seed of the simulated world (stochastic problems)"},
        noise_option(),
        {"help-strategies", "", "list the strategies and exit"},
        {"trials", "N", "run until the experiment has N trials (its budget)"},
        {"status-quo", "", "a new experiment measures the status quo first (every parameter at its target, as "
                            "'sebo new' does); it is one of the --init trials"},
        {"seed", "S", "random seed of a new experiment (default 0)"},
        {"name", "TEXT", "name of a new experiment (default: the problem's)"},
        {"description", "TEXT", "a sentence about a new experiment, kept in the file (menus show it)"},
        {"objective", "NAME[:min|:max]", "a new experiment's objective, among the problem's metrics (default: the "
                                          "problem's); repeatable", false, true},
        {"threshold", "NAME=V", "the hypervolume reference of objective NAME of a new experiment; repeatable", false, true},
        {"constraint", "\"NAME<=V\"", "an outcome constraint of a new experiment on a metric of the problem (default: "
                                       "the problem's); repeatable", false, true},
        {"out", "FILE", "experiment file to create (or to continue, with --resume)"},
        {"resume", "", "continue the experiment in --out instead of creating it"},
        evaluator_option(),
        allow_env_option(),
        {"batch", "Q", "trials proposed (and evaluated, concurrently if allowed) per step (default 1)"},
        {"max-failures", "K", "stop after K failed evaluations in a row (default 5; 0: never stop)"},
        threads_option(),
        {"force", "", "overwrite --out if it exists"},
        wait_option(),
        {"quiet", "", "print nothing but errors"}};
    for (OptionSpec& o : method_option_specs()) options.push_back(std::move(o));
    Arguments parser(
        "run", "(--problem NAME ... --out FILE | FILE | --resume --out FILE) --trials N [options]",
        "Create an experiment for a built-in problem and run it to N trials, or continue an existing\n"
        "experiment file (given as FILE, or with --resume) to N trials. The file is saved atomically\n"
        "after every trial; Ctrl-C abandons the running step and keeps every completed trial.",
        std::move(options), 1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.has("help-strategies")) {
        for (StrategyKind k : all_strategy_kinds()) std::printf("  %-16s %s\n", to_string(k), describe(k));
        return 0;
    }
    const bool quiet = parser.has("quiet");
    const auto trials = parser.integer("trials", 1, 1'000'000);
    if (!trials) throw UsageError("--trials N is required");

    std::string path;
    Experiment experiment;
    const bool resume = parser.has("resume") || !parser.positionals().empty();
    if (resume) {
        if (!parser.positionals().empty() && parser.has("out"))
            throw UsageError("give the experiment file either as FILE or with --out, not both");
        path = parser.positionals().empty() ? parser.value("out").value_or("") : parser.positionals().front();
        if (path.empty()) throw UsageError("--resume needs --out FILE");
        for (const char* flag :
             {"problem", "dim", "effective", "target", "repetitions", "world-seed", "noise", "seed", "name", "description",
              "objective", "threshold", "constraint", "status-quo"})
            if (parser.has(flag))
                throw UsageError(std::string("--") + flag + " cannot change an existing experiment (" + path + ")");
    } else {
        const auto problem = parser.value("problem");
        if (!problem) throw UsageError("--problem NAME is required to create an experiment (or give an experiment FILE to continue)");
        if (!parser.has("out")) throw UsageError("--out FILE is required");
        path = *parser.value("out");
        if (std::filesystem::exists(path) && !parser.has("force"))
            throw UsageError("--out: " + path + " already exists; use --resume to continue it or --force to overwrite it");
        ProblemSpec spec;
        spec.name = *problem;
        spec.dimension = static_cast<int>(parser.integer("dim", 1, 3000).value_or(0));
        spec.effective = parser.integer_list("effective").value_or(std::vector<int>{});
        spec.target = parser.number("target");
        spec.repetitions = static_cast<int>(parser.integer("repetitions", 1, 10'000'000).value_or(0));
        spec.world_seed = parser.unsigned_integer("world-seed").value_or(0);
        spec.noise = noise_from_options(parser);
        MethodSettings method;
        // Other objectives and constraints among the problem's metrics (e.g. sourcing's relevance
        // maximized subject to cost <= 2).
        std::optional<Outcomes> chosen;
        if (has_outcome_options(parser)) chosen = outcomes_from_options(parser, make_problem(spec)->outcomes());
        experiment = make_problem_experiment(spec, method, parser.unsigned_integer("seed").value_or(0), chosen);
        if (const auto name = parser.value("name")) experiment.name = *name;
        if (const auto description = parser.value("description")) experiment.description = *description;
        experiment.method.status_quo_first = parser.has("status-quo");
    }

    // One run per file (docs/file-format.md, "Several writers"): a second `sebo run`, or the
    // explorer, waits up to --wait for this one or stops with exit code 3. The run lock is held
    // to the end; each save takes the short write lock and merges what `sebo observe`,
    // `sebo suggest` or `sebo import` recorded meanwhile.
    FileLockOptions run_options = lock_options("sebo run", wait_seconds(parser), quiet);
    run_options.activity = "being run by";
    const FileLock run_lock = acquire_run_lock(path, run_options);
    if (!quiet) print_note("sebo run", takeover_note(run_lock, path));
    InterruptGuard interrupt;
    // A save waits for another writer's save as long as it takes (they are short), or Ctrl-C.
    FileLockOptions write_options = lock_options("sebo run", std::numeric_limits<double>::infinity(), quiet);
    write_options.stop = interrupt.token();
    SharedExperimentFile file(path, write_options, [quiet](const std::string& note) {
        if (!quiet) print_note("sebo run", note);
    });
    if (resume) experiment = file.load();
    apply_method_options(parser, experiment);
    const int threads = threads_from(parser);
    experiment.method.budget = static_cast<int>(*trials);
    if (auto error = experiment.method.validate()) throw InputError("method", *error);

    const int batch = static_cast<int>(parser.integer("batch", 1, 10'000).value_or(1));
    const int max_failures = static_cast<int>(parser.integer("max-failures", 0, 1'000'000).value_or(5));
    std::unique_ptr<Evaluator> evaluator = evaluator_from_options(parser, experiment, path);
    if (!evaluator)
        throw UsageError(path + " is evaluated by hand: 'sebo suggest' proposes trials, 'sebo observe' records results");
    auto strategy = make_strategy(experiment.method);

    if (resume) print_merge_unless(quiet, file.save(experiment));
    else file.replace(experiment, !parser.has("force"));
    ThreadPool pool(threads);
    StepControl control;
    control.stop = interrupt.token();
    control.pool = &pool;
    // On a terminal, show the phase of the running step on one self-overwriting line.
    const bool live = !quiet && isatty(STDERR_FILENO);
    auto last_report = std::chrono::steady_clock::now();
    if (live)
        control.progress = [&](const StepProgress& p) {
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report < std::chrono::milliseconds(100)) return;
            last_report = now;
            std::string line = "  " + p.phase;
            if (p.total > 0) line += " " + std::to_string(p.current) + "/" + std::to_string(p.total);
            if (!p.detail.empty()) line += " (" + p.detail + ")";
            std::fprintf(stderr, "\r%-78.78s", line.c_str());
        };
    const auto start = std::chrono::steady_clock::now();
    bool warned_partial_standard_errors = false;  // said once per run (experiment/standard_errors.h)
    int exit_code = 0;
    FailureStreak failures;  // in this invocation: a fixed evaluator gets a fresh start
    // The run's own target: another process may change the file's budget meanwhile.
    const int target = experiment.method.budget;
    while (static_cast<int>(experiment.trials.size()) < target) {
        StepResult step = run_step(experiment, *strategy, evaluator.get(), control, batch);
        if (step.status == StepResult::Status::Cancelled) {
            std::fprintf(stderr, "interrupted: %s has %zu trials; continue with 'sebo run %s --trials %d'\n", path.c_str(),
                         experiment.trials.size(), path.c_str(), target);
            exit_code = 130;
            break;
        }
        if (step.status == StepResult::Status::Failed) {
            std::fprintf(stderr, "sebo run: the strategy failed: %s\n", step.message.c_str());
            exit_code = 1;
            break;
        }
        if (step.status == StepResult::Status::BudgetReached) break;
        if (!save_step(file, experiment, step, quiet)) {
            exit_code = g_interrupted.load() ? 130 : 1;
            break;
        }
        if (live) std::fprintf(stderr, "\r%78s\r", "");
        if (!quiet) {
            for (int index : step.new_trials) {
                const Trial& t = *experiment.find_trial(index);
                std::fprintf(stderr, "[%4zu/%d] trial %-4d %-8s %-24s active %-3d best %s\n", experiment.trials.size(),
                             target, t.index, t.generator.c_str(), describe_values(experiment, t).c_str(),
                             experiment.sparsity(t), describe_best(experiment).c_str());
                if (t.fit && !t.fit->warning().empty())
                    std::fprintf(stderr, "warning: trial %d: %s\n", t.index, t.fit->warning().c_str());
            }
            warn_extreme_values(experiment, step.new_trials, path);
            if (!warned_partial_standard_errors) warned_partial_standard_errors = warn_partial_standard_errors(experiment);
        }
        if (step.misreport) {
            if (live) std::fprintf(stderr, "\r%78s\r", "");
            std::fprintf(stderr,
                         "sebo run: stopped: %s.\nThe evaluator must report every metric of %s (%s) and no other; "
                         "%s keeps its %zu trials (that one as failed)\n",
                         step.misreport->c_str(), path.c_str(), experiment.outcomes.metric_list().c_str(), path.c_str(),
                         experiment.trials.size());
            exit_code = 2;
            break;
        }
        failures.add(experiment, step.new_trials);
        if (max_failures > 0 && failures.length() >= max_failures) {
            if (live) std::fprintf(stderr, "\r%78s\r", "");
            std::fprintf(stderr,
                         "sebo run: stopped after %d failed evaluations in a row (the last, trial %d: %s).\n"
                         "%s keeps its %zu trials; fix the evaluator and continue with 'sebo run %s --trials %d%s'\n"
                         "(--max-failures 0 never stops)\n",
                         failures.length(), failures.last_trial(), failures.last_error().c_str(), path.c_str(),
                         experiment.trials.size(),
                         path.c_str(), target, parser.has("evaluator") ? " --evaluator command" : "");
            exit_code = 1;
            break;
        }
    }
    if (!quiet && exit_code == 0) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const FrontierReport report = analyze_frontier(experiment);
        std::fprintf(stderr, "done: %zu trials in %s (%.1f s); best %s; hypervolume %s\n", experiment.trials.size(),
                     path.c_str(), seconds, describe_best(experiment).c_str(), format_short(report.hypervolume).c_str());
    }
    return exit_code;
}

}  // namespace sebo::cli
