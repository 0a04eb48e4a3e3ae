// sebo bench — side-by-side comparisons of strategies on built-in problems (the paper's §6):
// every (problem, strategy, seed) is its own experiment file, run by a child `sebo run` process,
// up to J at a time, each with cores / J threads. Finished runs are skipped and interrupted ones
// resumed, so a comparison can be stopped and continued. The trials of all runs go to
// results.csv, the model's recommendations of every finished run to recommendations.csv (cached
// next to each run file), the aggregates to summary.md, and the plots (rendered by the Qt tool
// sebo-plot, when it is built) to plots/. With --emit-commands the runs are written out as self-contained
// `sebo run` commands for a scheduler elsewhere (GNU parallel, a Slurm array), and --report-only
// merges the run files that come back.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <sstream>
#include <stop_token>
#include <thread>

#include "bench/bench_plan.h"
#include "bench/bench_recommendations.h"
#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "bench/bench_truth.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/method_options.h"
#include "cli/sampler_options.h"
#include "cli/shared_file.h"
#include "core/format.h"
#include "core/input_error.h"
#include "core/thread_pool.h"
#include "io/experiment_file.h"
#include "io/file_io.h"
#include "io/shared_experiment_file.h"
#include "problems/problem_catalog.h"

extern char** environ;

namespace sebo::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::atomic<int> g_signal{0};
extern "C" void on_bench_signal(int signal) { g_signal.store(signal); }

// Catches SIGINT and SIGTERM into g_signal while it lives.
class SignalGuard {
public:
    SignalGuard() {
        g_signal.store(0);
        previous_int_ = std::signal(SIGINT, on_bench_signal);
        previous_term_ = std::signal(SIGTERM, on_bench_signal);
    }
    ~SignalGuard() {
        std::signal(SIGINT, previous_int_);
        std::signal(SIGTERM, previous_term_);
    }
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

private:
    void (*previous_int_)(int) = nullptr;
    void (*previous_term_)(int) = nullptr;
};

struct Run {
    const BenchProblem* problem = nullptr;
    const BenchStrategy* strategy = nullptr;
    int seed = 0;
    std::string path;
    std::string log;
    enum class State { Waiting, Running, Finished, Failed } state = State::Waiting;
    std::string message;  // why it failed
    pid_t pid = -1;
    Clock::time_point started;
    int trials = 0;  // non-pending trials in the file, as last seen

    std::string name() const { return problem->label + " / " + strategy->label + " / seed " + std::to_string(seed); }
};

// Where a run's files are, relative to the comparison's folder (so that emitted commands run
// wherever that folder is copied).
struct RunPaths {
    std::string file;
    std::string log;
};

RunPaths relative_paths(const BenchProblem& problem, const BenchStrategy& strategy, int seed) {
    const fs::path folder = fs::path("runs") / file_safe_label(problem.label) / file_safe_label(strategy.label);
    return {(folder / ("seed-" + std::to_string(seed) + ".sebo.json")).string(),
            (folder / ("seed-" + std::to_string(seed) + ".log")).string()};
}

int finished_trials(const Experiment& e) {
    int n = 0;
    for (const Trial& t : e.trials) n += t.status != TrialStatus::Pending;
    return n;
}

fs::path own_directory() {
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::path() : self.parent_path();
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

// Spawns argv with stdout and stderr appended to `log` (or inherited when empty).
pid_t spawn(const std::vector<std::string>& argv, const std::string& log) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!log.empty()) {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    }
    pid_t pid = -1;
    const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
    return pid;
}

// Prepares the file of a run: creates it (no trials yet) or checks the one there. Returns
// whether it still needs trials.
bool prepare(Run& run, const BenchPlan& plan) {
    fs::create_directories(fs::path(run.path).parent_path());
    if (!fs::exists(run.path)) {
        const Experiment e = make_problem_experiment(
            run.problem->spec, plan.method(*run.strategy), static_cast<std::uint64_t>(run.seed));
        // Created under the file's write lock and only if it is still missing: another
        // `sebo bench` on the same folder may be creating it too.
        FileLockOptions lock;
        lock.program = "sebo bench";
        lock.wait_seconds = kDefaultWaitSeconds;
        try {
            SharedExperimentFile(run.path, lock).replace(e, true);
            return true;
        } catch (const InputError&) {
            if (!fs::exists(run.path)) throw;
        }
    }
    Experiment e;
    try {
        e = load_experiment(run.path);
    } catch (const InputError& error) {
        throw InputError(run.path, std::string(error.what()) + " (the file is left as it is; move it away to start this run afresh)");
    }
    if (e.method.strategy != run.strategy->kind)
        throw InputError(run.path, std::string("was made with the strategy ") + to_string(e.method.strategy) + ", not " +
                                       run.strategy->label + "; move it away or use another --out");
    if (uses_model(e.method.strategy) && e.method.nuts != plan.nuts)
        throw InputError(run.path, std::string("was made with --nuts ") + to_string(e.method.nuts) + ", not " +
                                       to_string(plan.nuts) + "; move it away or use another --out");
    if (const NoisyAcquisition noisy = plan.method(*run.strategy).noisy_acquisition;
        uses_model(e.method.strategy) && e.method.noisy_acquisition != noisy)
        throw InputError(run.path, std::string("was made with the noisy acquisition ") +
                                       to_string(e.method.noisy_acquisition) + ", not " + to_string(noisy) +
                                       "; move it away or use another --out");
    if (const int dense = plan.method(*run.strategy).dense_steps; is_sebo(e.method.strategy) && e.method.dense_steps != dense)
        throw InputError(run.path, "was made with a dense start of " + std::to_string(e.method.dense_steps) + " trials, not " +
                                       std::to_string(dense) + "; move it away or use another --out");
    if (const MethodSettings m = plan.method(*run.strategy);
        is_sebo(e.method.strategy) && m.dense_steps > 0 && e.method.dense_steps_max != m.dense_steps_max)
        throw InputError(run.path, "was made with a dense start of at most " + std::to_string(e.method.dense_steps_max) +
                                       " trials, not " + std::to_string(m.dense_steps_max) + "; move it away or use another --out");
    if (const MethodSettings m = plan.method(*run.strategy);
        is_sebo(e.method.strategy) && m.dense_steps > 0 && e.method.dense_thompson != m.dense_thompson)
        throw InputError(run.path, std::string("was made with Thompson sampling in the dense start ") + (e.method.dense_thompson ? "on" : "off") +
                                       ", not " + (m.dense_thompson ? "on" : "off") + "; move it away or use another --out");
    if (const MethodSettings m = plan.method(*run.strategy);
        uses_model(e.method.strategy) && m.warp_objective && e.method.warp_check != m.warp_check)
        throw InputError(run.path, std::string("was made with the warp's check ") + (e.method.warp_check ? "on" : "off") + ", not " +
                                       (m.warp_check ? "on" : "off") + "; move it away or use another --out");
    run.trials = finished_trials(e);
    return run.trials < plan.trials;
}

std::string progress_line(const std::vector<Run>& runs, Clock::time_point start) {
    int finished = 0, failed = 0;
    std::string running;
    for (const Run& r : runs) {
        finished += r.state == Run::State::Finished;
        failed += r.state == Run::State::Failed;
        if (r.state == Run::State::Running)
            running += "  " + r.problem->label + " " + r.strategy->label + " s" + std::to_string(r.seed) + " " +
                       std::to_string(r.trials);
    }
    const int seconds = static_cast<int>(std::chrono::duration<double>(Clock::now() - start).count());
    return "[" + std::to_string(finished) + "/" + std::to_string(runs.size()) + " done" +
           (failed ? ", " + std::to_string(failed) + " failed" : "") + ", " + std::to_string(seconds) + " s]" + running;
}

// Runs the waiting runs, up to `jobs` at a time, each child with `threads` threads; returns false
// when interrupted.
bool run_all(std::vector<Run>& runs, const BenchPlan& plan, int jobs, int threads, bool quiet) {
    const std::string self = (own_directory() / "sebo").string();
    const bool live = !quiet && isatty(STDERR_FILENO);
    const auto start = Clock::now();
    auto last_poll = Clock::time_point{};
    int running = 0;
    std::size_t next = 0;
    bool interrupted = false;
    for (;;) {
        if (g_signal.load() != 0 && !interrupted) {
            interrupted = true;
            // Ctrl-C reaches the children from the terminal; a signal sent to this process alone
            // is passed on, so that each child saves and stops.
            for (Run& r : runs)
                if (r.state == Run::State::Running) kill(r.pid, SIGTERM);
        }
        while (!interrupted && running < jobs && next < runs.size()) {
            Run& r = runs[next++];
            if (r.state != Run::State::Waiting) continue;
            r.pid = spawn({self, "run", r.path, "--trials", std::to_string(plan.trials), "--threads", std::to_string(threads),
                           "--quiet"},
                          r.log);
            r.state = Run::State::Running;
            r.started = Clock::now();
            ++running;
        }
        if (running == 0) break;
        for (Run& r : runs) {
            if (r.state != Run::State::Running) continue;
            int status = 0;
            if (waitpid(r.pid, &status, WNOHANG) != r.pid) continue;
            --running;
            const double seconds = std::chrono::duration<double>(Clock::now() - r.started).count();
            try {
                r.trials = finished_trials(load_experiment(r.path));
            } catch (const InputError&) {
            }
            const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && r.trials >= plan.trials;
            r.state = ok ? Run::State::Finished : Run::State::Failed;
            if (!ok)
                r.message = (WIFSIGNALED(status) ? "stopped by signal " + std::to_string(WTERMSIG(status))
                                                 : "exit code " + std::to_string(WEXITSTATUS(status))) +
                            " after " + std::to_string(r.trials) + " trials; see " + r.log;
            if (!quiet && !(interrupted && !ok)) {
                if (live) std::fprintf(stderr, "\r%100s\r", "");
                std::fprintf(stderr, "%s %s: %d trials, %.0f s%s\n", ok ? "done  " : "FAILED", r.name().c_str(), r.trials,
                             seconds, ok ? "" : (" (" + r.message + ")").c_str());
            }
        }
        if (live && Clock::now() - last_poll > std::chrono::seconds(1)) {
            last_poll = Clock::now();
            for (Run& r : runs)
                if (r.state == Run::State::Running) try {
                        r.trials = finished_trials(load_experiment(r.path));
                    } catch (const InputError&) {
                    }
            std::fprintf(stderr, "\r%-100.100s", progress_line(runs, start).c_str());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (live) std::fprintf(stderr, "\r%100s\r", "");
    return !interrupted;
}

// A finished run whose recommendations the report needs.
struct RecommendationWork {
    const Run* run = nullptr;
    std::string text;  // the run file's text
    Experiment experiment;
    BenchRunInfo info;
    RunRecommendations result;
    std::exception_ptr error;  // a cache that could not be written
};

// The model's recommendations of the finished runs (bench/bench_recommendations.h), `jobs` runs
// at a time with `threads` threads each, from each run's cache when the run is unchanged. A
// signal (or one received before) stops the fits; cached runs are still read.
void recommend_all(std::vector<RecommendationWork>& work, int jobs, int threads, bool quiet) {
    std::stop_source stop;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    const auto worker = [&] {
        ThreadPool pool(threads);
        StepControl control;
        control.pool = &pool;
        control.stop = stop.get_token();
        for (std::size_t i = next++; i < work.size(); i = next++) {
            RecommendationWork& w = work[i];
            const auto started = Clock::now();
            try {
                w.result = run_recommendations(w.run->path, w.text, w.experiment, w.info, control);
            } catch (...) {
                w.error = std::current_exception();
            }
            if (!quiet && w.result.source == RunRecommendations::Source::Fitted)
                std::fprintf(stderr, "recommendations of %s: %.0f s\n", w.run->name().c_str(),
                             std::chrono::duration<double>(Clock::now() - started).count());
            ++done;
        }
    };
    std::vector<std::thread> workers;
    for (int j = 0; j < std::min<int>(jobs, static_cast<int>(work.size())); ++j) workers.emplace_back(worker);
    while (done.load() < work.size()) {
        if (g_signal.load() != 0) stop.request_stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    for (std::thread& t : workers) t.join();
    for (const RecommendationWork& w : work)
        if (w.error) std::rethrow_exception(w.error);
}

// sebo-plot renders the charts with Qt; it sits next to sebo when the GUI is built.
int render_plots(const fs::path& results, const fs::path& out, bool quiet) {
    const fs::path tool = own_directory() / "sebo-plot";
    if (!fs::exists(tool)) {
        std::fprintf(stderr, "plots skipped: %s is not built (it needs the GUI build, SEBO_BUILD_GUI=ON)\n", tool.c_str());
        return 0;
    }
    const pid_t pid = spawn({tool.string(), results.string(), out.string()}, quiet ? "/dev/null" : "");
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "sebo bench: sebo-plot failed on %s\n", results.c_str());
        return 1;
    }
    return 0;
}

}  // namespace

int command_bench(const Args& args) {
    std::string preset_names;
    for (const BenchPreset& p : bench_presets()) preset_names += (preset_names.empty() ? "" : ", ") + p.name;
    Arguments parser(
        "bench", "(--preset NAME | --problems P,.. --strategies S,..) --out DIR [options]",
        "Compare strategies on built-in problems: every (problem, strategy, seed) runs as its own\n"
        "experiment file DIR/runs/PROBLEM/STRATEGY/seed-S.sebo.json in a child process. Finished runs\n"
        "are skipped and unfinished ones continued, so the comparison can be interrupted (Ctrl-C) and\n"
        "started again. Writes DIR/results.csv (a row per trial), DIR/summary.md and DIR/plots/*.png.\n"
        "For every finished run the model's recommendation per number of changes goes to\n"
        "DIR/recommendations.csv (with the noise-free values of a noisy problem, which summary.md\n"
        "then compares); each run's are kept next to its file, so reporting again does not refit.\n"
        "Problems and strategies are NAME[/key=value]..., e.g. branin/dim=50/noise=9.2, ei-ir/lambda=0.001,\n"
        "sebo-l0-fixed-a/a=0.1, sebo-l0/noisy=off (keys: problems dim, effective, target, repetitions,\n"
        "world-seed, noise; strategies model, lambda, penalty, a, noisy, dense, densemax, thompson, warpcheck).",
        {{"preset", "NAME", "the paper's settings: " + preset_names},
         {"list-presets", "", "describe the presets and exit"},
         {"problems", "P,..", "problems (replace the preset's)"},
         {"strategies", "S,..", "strategies (replace the preset's)"},
         {"seeds", "N", "seeds 1..N (default: the preset's, or 5)"},
         {"trials", "T", "trials per run (default: the preset's, or 50)"},
         {"init", "M", "initial Sobol trials per run (default: the preset's, or 8)"},
         {"jobs", "J", "runs at the same time (default: the number of cores)"},
         {"threads", "T", "threads of each run (default: the cores divided by J)"},
         method_option_specs({MethodFlag::Nuts}).front(),
         {"out", "DIR", "folder of the comparison (created if missing)"},
         {"emit-commands", "FILE", "run nothing: create the run files and write one 'sebo run' command per unfinished "
                                   "run to FILE, to be run from DIR by a scheduler (see the README)"},
         {"report-only", "", "run nothing: rebuild results.csv, summary.md and plots from the runs in DIR (exit 1 "
                             "when some are missing or unfinished)"},
         {"plots-only", "", "only render DIR/plots from DIR/results.csv"},
         {"no-plots", "", "do not render plots"},
         {"no-recommendations", "", "fit no models for recommendations.csv (the summary then has no \"What a user gets\")"},
         {"quiet", "", "print only errors and the summary"}});
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.has("list-presets")) {
        for (const BenchPreset& p : bench_presets()) {
            std::printf("%s\n  %s\n  %d seeds, %d trials (%d initial%s), NUTS %s; problems:", p.name.c_str(),
                        p.description.c_str(), p.plan.seeds, p.plan.trials, p.plan.initial_trials,
                        p.plan.status_quo_first ? ", the status quo first" : "", to_string(p.plan.nuts));
            for (const BenchProblem& b : p.plan.problems) std::printf(" %s", b.label.c_str());
            std::printf("; strategies:");
            for (const BenchStrategy& s : p.plan.strategies) std::printf(" %s", s.label.c_str());
            std::printf("\n");
        }
        return 0;
    }
    const auto out_flag = parser.value("out");
    if (!out_flag || out_flag->empty()) throw UsageError("--out DIR is required");
    const fs::path out = *out_flag;
    const bool quiet = parser.has("quiet");
    if (parser.has("plots-only")) {
        const fs::path results = out / "results.csv";
        read_bench_results(results.string());  // a clear error here rather than from the plotter
        return render_plots(results, out / "plots", quiet);
    }

    BenchPlan plan;
    if (const auto name = parser.value("preset")) {
        const auto preset = find_bench_preset(*name);
        if (!preset) throw UsageError("--preset: unknown preset '" + *name + "' (known: " + preset_names + ")");
        plan = preset->plan;
    }
    if (const auto list = parser.value("problems")) {
        plan.problems.clear();
        for (const std::string& token : split_list(*list)) plan.problems.push_back(parse_bench_problem(token, "--problems"));
    }
    if (const auto list = parser.value("strategies")) {
        plan.strategies.clear();
        for (const std::string& token : split_list(*list))
            plan.strategies.push_back(parse_bench_strategy(token, "--strategies"));
    }
    if (plan.problems.empty()) throw UsageError("--problems P,.. (or --preset NAME) is required");
    if (plan.strategies.empty()) throw UsageError("--strategies S,.. (or --preset NAME) is required");
    if (const auto n = parser.integer("seeds", 1, 10'000)) plan.seeds = static_cast<int>(*n);
    if (const auto n = parser.integer("trials", 1, 1'000'000)) plan.trials = static_cast<int>(*n);
    if (const auto n = parser.integer("init", 0, 1'000'000)) plan.initial_trials = static_cast<int>(*n);
    if (parser.has("nuts")) {
        MethodSettings method;
        apply_method_options(parser, method, {MethodFlag::Nuts});
        plan.nuts = method.nuts;
    }
    const int jobs = static_cast<int>(parser.integer("jobs", 1, 1024).value_or(ThreadPool::available_cpus()));
    const std::optional<long long> threads_flag = parser.integer("threads", 1, ThreadPool::kMaxThreads);
    const int threads = static_cast<int>(threads_flag.value_or(default_thread_count(jobs)));
    const auto emit = parser.value("emit-commands");
    if (emit && parser.has("report-only")) throw UsageError("--emit-commands and --report-only cannot be combined");
    if (emit && emit->empty()) throw UsageError("--emit-commands: the file name is empty");

    std::vector<Run> runs;
    for (const BenchProblem& problem : plan.problems)
        for (const BenchStrategy& strategy : plan.strategies)
            for (int seed = 1; seed <= plan.seeds; ++seed) {
                Run r;
                r.problem = &problem;
                r.strategy = &strategy;
                r.seed = seed;
                const RunPaths paths = relative_paths(problem, strategy, seed);
                r.path = (out / paths.file).string();
                r.log = (out / paths.log).string();
                runs.push_back(std::move(r));
            }

    const bool report_only = parser.has("report-only");
    int waiting = 0;
    for (Run& r : runs) {
        if (report_only) {
            r.state = fs::exists(r.path) ? Run::State::Finished : Run::State::Failed;
            if (!fs::exists(r.path)) r.message = "no file " + r.path;
            continue;
        }
        if (prepare(r, plan)) {
            ++waiting;
        } else {
            r.state = Run::State::Finished;
        }
    }
    if (emit) {
        // One line per run that still needs trials, relative to DIR, self-contained: the run file
        // holds the problem, method and seed, and `sebo run` continues it to the budget.
        std::string commands;
        for (const Run& r : runs) {
            if (r.state != Run::State::Waiting) continue;
            const RunPaths paths = relative_paths(*r.problem, *r.strategy, r.seed);
            commands += "sebo run " + paths.file + " --trials " + std::to_string(plan.trials) +
                        (threads_flag ? " --threads " + std::to_string(*threads_flag) : std::string()) + " --quiet >> " +
                        paths.log + " 2>&1\n";
        }
        write_file_atomic(*emit, commands);
        if (!quiet)
            std::fprintf(stderr,
                         "wrote %d commands to %s (%zu runs, %zu finished); run them from %s, then report with:\n"
                         "  sebo bench ... --out %s --report-only\n",
                         waiting, emit->c_str(), runs.size(), runs.size() - static_cast<std::size_t>(waiting), out.c_str(),
                         out.c_str());
        return 0;
    }
    if (!quiet && !report_only)
        std::fprintf(stderr, "%zu runs in %s: %zu finished before, %d to run, %d at a time, %d thread%s each\n", runs.size(),
                     out.c_str(), runs.size() - static_cast<std::size_t>(waiting), waiting, jobs, threads,
                     threads == 1 ? "" : "s");

    // Ctrl-C and SIGTERM stop the runs (each child saves and stops) and then the recommendations'
    // fits, until the report is written.
    const SignalGuard signals;
    const bool complete = run_all(runs, plan, jobs, threads, quiet);

    // Everything on disk goes into the report, finished or not, so that partial comparisons
    // can be looked at; the summary counts trials per run.
    std::vector<BenchRow> rows;
    int failed = 0;
    std::vector<std::string> missing, unfinished;  // what a partial comparison lacks
    std::vector<RecommendationWork> recommendation_work;  // the finished runs
    for (const Run& r : runs) {
        if (r.state == Run::State::Failed) {
            ++failed;
            if (complete && !report_only) std::fprintf(stderr, "failed: %s: %s\n", r.name().c_str(), r.message.c_str());
        }
        if (!fs::exists(r.path)) {
            missing.push_back(r.name());
            continue;
        }
        std::string text = read_experiment_text(r.path);
        Experiment e = experiment_from_json_text(text);
        const auto problem = make_problem(e.evaluator.problem);
        BenchRunInfo info{r.problem->label, r.strategy->label, r.seed, problem->optimum(), problem->effective_dimensions()};
        std::vector<BenchRow> own = bench_rows(e, info);
        rows.insert(rows.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
        if (const int done = finished_trials(e); done < plan.trials) {
            unfinished.push_back(r.name() + " (" + std::to_string(done) + " of " + std::to_string(plan.trials) + " trials)");
        } else if (!parser.has("no-recommendations")) {
            RecommendationWork w;
            w.run = &r;
            w.text = std::move(text);
            w.experiment = std::move(e);
            w.info = std::move(info);
            recommendation_work.push_back(std::move(w));
        }
    }
    if (rows.empty()) {
        std::fprintf(stderr, "sebo bench: no trials to report in %s\n", out.c_str());
        return complete ? 1 : 130;
    }
    recommend_all(recommendation_work, jobs, threads, quiet);
    std::vector<BenchRecommendation> recommendations;
    int skipped = 0;
    for (const RecommendationWork& w : recommendation_work) {
        const RunRecommendations& result = w.result;
        skipped += result.source == RunRecommendations::Source::Cancelled;
        if (result.source == RunRecommendations::Source::Failed)
            std::fprintf(stderr, "no recommendations for %s: %s\n", w.run->name().c_str(), result.message.c_str());
        recommendations.insert(recommendations.end(), result.rows.begin(), result.rows.end());
    }
    if (skipped > 0) std::fprintf(stderr, "recommendations of %d runs skipped (interrupted)\n", skipped);
    fs::create_directories(out);
    write_file_atomic((out / "results.csv").string(), format_bench_results(rows));
    if (!parser.has("no-recommendations"))
        write_file_atomic((out / "recommendations.csv").string(), format_bench_recommendations(recommendations));
    const std::vector<ProblemSummary> problems = summarize_bench(rows);
    std::string summary = summary_markdown(problems);
    if (!parser.has("no-recommendations")) summary += truth_markdown(summarize_truth(problems, rows, recommendations));
    const std::size_t finished = runs.size() - missing.size() - unfinished.size();
    if (finished < runs.size()) {
        std::string notice = "**Partial comparison**: " + std::to_string(finished) + " of " + std::to_string(runs.size()) +
                             " runs have all " + std::to_string(plan.trials) + " trials.";
        if (!unfinished.empty()) {
            notice += " Unfinished:";
            for (std::size_t i = 0; i < unfinished.size(); ++i) notice += (i ? ", " : " ") + unfinished[i];
            notice += ".";
        }
        if (!missing.empty()) {
            notice += " Missing:";
            for (std::size_t i = 0; i < missing.size(); ++i) notice += (i ? ", " : " ") + missing[i];
            notice += ".";
        }
        summary = notice + "\n\n" + summary;
        std::fprintf(stderr, "partial: %zu of %zu runs finished (%zu unfinished, %zu missing)\n", finished, runs.size(),
                     unfinished.size(), missing.size());
    }
    write_file_atomic((out / "summary.md").string(), summary);
    std::fputs(summary.c_str(), stdout);
    if (!quiet)
        std::fprintf(stderr, "wrote %s, %s and %s\n", (out / "results.csv").c_str(),
                     parser.has("no-recommendations") ? "no recommendations" : (out / "recommendations.csv").c_str(),
                     (out / "summary.md").c_str());
    int plots = 0;
    if (!parser.has("no-plots")) plots = render_plots(out / "results.csv", out / "plots", quiet);
    if (!complete || skipped > 0) {
        std::fprintf(stderr, "interrupted: run the same command again to continue\n");
        return 130;
    }
    if (failed > 0 && !report_only) return 1;
    if (report_only && finished < runs.size()) return 1;
    return plots;
}

}  // namespace sebo::cli
