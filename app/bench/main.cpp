// sebo-bench — speed benchmarks of the engine (SPEC §8: "Speed is measured in benchmarks …
// figures are reported … with the machine stated"). For every size n (completed trials) and
// dimension D it times, as the median of R repetitions:
//   - the model fit of a step: standard GP (MAP), SAAS-MAP and SAAS-NUTS at the paper's settings
//     (one chain, 512 warm-up, 256 draws, every 16th kept → 16 samples, tree depth 6), and
//     SAAS-NUTS with the fast defaults from a full warm-up (saas-fast: chains on the threads);
//   - one SEBO-L0 candidate (paper §5, appendix E.1: 30 homotopy stages, 20 restarts, 1024 raw
//     samples) over a 16-sample SAAS-NUTS posterior — the acquisition set-up and its
//     optimization only, timed apart from the fit that produced the posterior;
//   - a whole SEBO-L0 step (step: fit + candidate, as ModelStrategy::propose makes it) with the
//     fast defaults, warm-started from the step at n − 1 (step-warm), and with the paper's NUTS
//     settings from scratch (step-paper);
//   - the same fast step with two objectives and an outcome constraint (step-moo: three models,
//     the first objective's warm-started as in step-warm, the others from the posterior mode;
//     issue 13), to be read next to step-warm of the same run;
//   - the fast warm step with the noisy acquisition on (step-noisy: the incumbent from draws of the
//     posterior at the observed configurations, issue 30) and, from the same state, off: the
//     noisy step's cost as a ratio to today's;
//   - step-moo with the noisy acquisition on (step-moo-noisy: one front per component of the three
//     metrics' draws, acquisition/noisy_outcome_acquisition.h), from the same state as step-moo
//     when both are asked for, which then has it off;
//   - flops (issue 34): one value and gradient of the SAAS log posterior in GFLOP/s, against what the
//     machine attains for the same kinds of code (flops_bench.h), in a table of its own.
// Parallel parts (chains, restarts) run on a pool of --threads threads (default: the CPUs).
// The data are Branin embedded in D dimensions (effective x0, x1) at n scrambled Sobol points,
// built into an Experiment and turned into training data exactly as a strategy step does
// (experiment/model_step.h). The multi-objective rows (EHVI of several objectives, hypervolume)
// are moo_bench.h's. No Qt; prints a table (and optionally CSV) with the machine.

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_timing.h"
#include "flops_bench.h"
#include "core/thread_pool.h"
#include "core/version.h"
#include "design/sobol.h"
#include "experiment/model_step.h"
#include "experiment/model_strategy.h"
#include "io/csv_cell.h"
#include "model/likelihood_kernel.h"
#include "moo_bench.h"
#include "problems/problem_catalog.h"

namespace {

using sebo_bench::Figure;
using sebo_bench::median;
using sebo_bench::Stopwatch;

struct BenchOptions {
    std::vector<int> sizes = {20, 50, 100, 200};
    std::vector<int> dims = {10, 50, 100};
    std::vector<std::string> models = {"gp",         "saas-map",       "saas",       "saas-fast", "candidate", "step",
                                       "step-moo",   "step-moo-noisy", "step-noisy", "ehvi",      "hypervolume", "flops"};
    int repetitions = 3;
    double flops_budget = 1.0;  // scales the flops rows' timing (--quick: a tenth)
    int threads = sebo::default_thread_count();
    std::uint64_t seed = 0;
    std::string csv;
};

const char* kUsage =
    "usage: sebo-bench [--sizes N,..] [--dims D,..] [--models M,..] [--repetitions R] [--seed S]\n"
    "                  [--threads T] [--quick] [--csv FILE]\n"
    "\n"
    "Speed benchmarks of the SEBO engine on Branin embedded in D dimensions with n completed Sobol\n"
    "trials: model fits (gp = GP MAP, saas-map = SAAS-MAP, saas = SAAS-NUTS at the paper's settings,\n"
    "saas-fast = SAAS-NUTS with the fast defaults from a full warm-up), one SEBO-L0 candidate\n"
    "(candidate: 30 homotopy stages, 20 restarts, 1024 raw samples, over a 16-sample SAAS-NUTS\n"
    "posterior, timed without the fit), and whole SEBO-L0 steps (step: the rows step-warm, fast\n"
    "defaults warm-started from the step at n - 1, and step-paper, the paper's NUTS settings from\n"
    "scratch; step-moo, the fast step with two objectives and one outcome constraint: three models;\n"
    "step-noisy, the warm step with the noisy acquisition on, against the same step with it off;\n"
    "step-moo-noisy, step-moo with the noisy acquisition on, from step-moo's state; step-moo then has it off;\n"
    "step-warm, the step-warm row alone, for sizes where the paper's step would take minutes: n = 500).\n"
    "Each figure is the median of R runs.\n"
    "Multi-objective rows (microseconds per call, independent of --sizes and --dims): ehvi = one\n"
    "evaluation of the exact EHVI of 2-4 objectives (value and gradient, 16 samples per objective)\n"
    "and of SEBO's sparse 2-D form next to the one-objective one; hypervolume = the exact 2-4-D\n"
    "hypervolume and a 1000-trial hypervolume trace. In the CSV their D column is the number of\n"
    "objectives and their times are seconds per call.\n"
    "flops (issue 34; microseconds per call and GFLOP/s): one value + gradient of the SAAS log posterior\n"
    "at each n and D, its flops by phase, and what the machine attains for the same kinds of code (Eigen\n"
    "GEMM 512x512 and at the problem's shapes, Cholesky, triangular solves, exp and sqrt per element,\n"
    "FMAs in registers), with both instruction sets of the likelihood kernel; about 1.5 s once and 10 s\n"
    "per (n, D). In the CSV their times are seconds per call.\n"
    "\n"
    "options:\n"
    "  --sizes N,..        numbers of completed trials (default 20,50,100,200)\n"
    "  --dims D,..         dimensions (default 10,50,100)\n"
    "  --models M,..       any of gp, saas-map, saas, saas-fast, candidate, step, step-warm,\n"
    "                      step-moo, step-moo-noisy, step-noisy, ehvi, hypervolume, flops\n"
    "                      (default: all)\n"
    "  --threads T         threads for chains and restarts (default: the CPUs available)\n"
    "  --repetitions R     runs per figure (default 3)\n"
    "  --seed S            seed of the data and the first run (run r uses S + r; default 0)\n"
    "  --quick             sizes 20,50, dimension 10, one repetition, flops rows timed a tenth as long\n"
    "                      (a smoke test)\n"
    "  --csv FILE          also write one row per figure to FILE\n"
    "  --help              show this help\n"
    "  --version           name this build\n";

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::vector<int> parse_int_list(const std::string& flag, const std::string& text, int min, int max) {
    std::vector<int> out;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        char* end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < min || v > max)
            throw UsageError(flag + ": '" + item + "' is not a whole number in [" + std::to_string(min) + ", " +
                             std::to_string(max) + "]");
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw UsageError(flag + ": empty list");
    return out;
}

// Returns nullopt when --help was asked for.
std::optional<BenchOptions> parse(int argc, char** argv) {
    BenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") return std::nullopt;
        if (arg == "--version") {
            std::printf("sebo-bench: %s\n", sebo::program_version_text().c_str());
            std::exit(0);
        }
        if (arg == "--quick") {
            o.sizes = {20, 50};
            o.dims = {10};
            o.repetitions = 1;
            o.flops_budget = 0.1;
            continue;
        }
        if (i + 1 >= argc) throw UsageError("unknown option or missing value: '" + arg + "'");
        const std::string value = argv[++i];
        if (arg == "--sizes") {
            o.sizes = parse_int_list(arg, value, 2, 100000);
        } else if (arg == "--dims") {
            o.dims = parse_int_list(arg, value, 2, sebo::ScrambledSobol::kMaxDimension);
        } else if (arg == "--repetitions") {
            o.repetitions = parse_int_list(arg, value, 1, 1000).front();
        } else if (arg == "--seed") {
            o.seed = static_cast<std::uint64_t>(parse_int_list(arg, value, 0, 1'000'000'000).front());
        } else if (arg == "--csv") {
            o.csv = value;
        } else if (arg == "--threads") {
            o.threads = parse_int_list(arg, value, 1, sebo::ThreadPool::kMaxThreads).front();
        } else if (arg == "--models") {
            o.models.clear();
            std::stringstream stream(value);
            std::string item;
            const std::vector<std::string> known = {"gp",         "saas-map",       "saas",       "saas-fast",
                                                    "candidate",  "step",           "step-warm",  "step-moo",
                                                    "step-moo-noisy", "step-noisy", "ehvi",       "hypervolume",
                                                    "flops"};
            while (std::getline(stream, item, ',')) {
                if (std::find(known.begin(), known.end(), item) == known.end())
                    throw UsageError("--models: unknown '" + item +
                                     "' (known: gp, saas-map, saas, saas-fast, candidate, step, step-warm, step-moo, step-moo-noisy, step-noisy, "
                                     "ehvi, "
                                     "hypervolume, flops)");
                o.models.push_back(item);
            }
            if (o.models.empty()) throw UsageError("--models: empty list");
        } else {
            throw UsageError("unknown option '" + arg + "'");
        }
    }
    return o;
}

bool wants(const BenchOptions& o, const std::string& model) {
    return std::find(o.models.begin(), o.models.end(), model) != o.models.end();
}

// The machine, for the report: CPU model, logical CPUs (and how many this process may use, which
// taskset restricts), load average, and how the engine was compiled.
std::string first_match(const std::string& path, const std::string& key) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return "unknown";
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

int usable_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    return CPU_COUNT(&set);
}

double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports kilobytes
}

// Branin embedded in D dimensions with n completed trials at scrambled Sobol points, set up for
// SEBO-L0 with the paper's settings (MethodSettings' defaults, and the paper's NUTS).
sebo::Experiment make_experiment(int n, int dimension, std::uint64_t seed) {
    sebo::ProblemSpec spec;
    spec.name = "branin";
    spec.dimension = dimension;
    sebo::MethodSettings method;
    method.strategy = sebo::StrategyKind::SeboL0;
    method.nuts = sebo::NutsMode::Paper;
    method.budget = n + 1;
    sebo::Experiment e = sebo::make_problem_experiment(spec, method, seed);
    const auto problem = sebo::make_problem(e.evaluator.problem);
    const auto points = sebo::ScrambledSobol(dimension, seed).points(0, n);
    for (int i = 0; i < n; ++i) {
        sebo::Trial t;
        t.index = i;
        t.parameters = e.space.from_unit(points[static_cast<std::size_t>(i)]);
        t.status = sebo::TrialStatus::Completed;
        t.values = problem->evaluate(t.parameters, sebo::problem_noise_seed(seed, i));
        t.generator = "sobol";
        e.trials.push_back(std::move(t));
    }
    return e;
}

// The same trials with two objectives and an outcome constraint (issue 13): Branin's objective,
// a second one minimized ("spread", smallest at x0 = 0.3, x1 = 0.8 in the unit cube) and a
// constrained metric "budget" = x0 + x1 + 0.2 x2 <= 1.2 (about two thirds of the cube feasible).
sebo::Experiment make_moo_experiment(int n, int dimension, std::uint64_t seed) {
    sebo::Experiment e = make_experiment(n, dimension, seed);
    const sebo::Objective first = e.primary_objective();
    e.outcomes.metrics = {first.metric, "spread", "budget"};
    e.outcomes.objectives = {first, {"spread", true, std::nullopt}};
    e.outcomes.constraints = {{"budget", sebo::ConstraintSense::AtMost, 1.2}};
    for (sebo::Trial& t : e.trials) {
        const std::vector<double> u = e.space.to_unit(t.parameters);
        t.values["spread"] = {(u[0] - 0.3) * (u[0] - 0.3) + (u[1] - 0.8) * (u[1] - 0.8) + 0.1 * u[2], std::nullopt};
        t.values["budget"] = {u[0] + u[1] + 0.2 * u[2], std::nullopt};
    }
    return e;
}

void print_row(const Figure& f) {
    const auto [lo, hi] = std::minmax_element(f.seconds.begin(), f.seconds.end());
    std::printf("%-14s %5d %5d %10.3f %10.3f %10.3f %10.3f %4zu %9.0f  %s\n", f.benchmark.c_str(), f.n, f.dimension,
                median(f.seconds), *lo, *hi, median(f.cpu_seconds), f.seconds.size(), peak_rss_mb(), f.detail.c_str());
    std::fflush(stdout);
}

// One timed SEBO-L0 step (ModelStrategy::propose) on `experiment`, with its work for the report.
struct StepRun {
    double wall = 0.0, cpu = 0.0;
    double fit_wall = 0.0;  // until the candidate's optimization started: the fits (and their set-up)
    double fit_cpu = 0.0;   // the process's CPU seconds (all threads) until then
    sebo::Proposal proposal;
};

StepRun timed_step(const sebo::Experiment& experiment, sebo::ThreadPool& pool) {
    sebo::ModelStrategy strategy(experiment.method);
    sebo::StepControl control;
    control.pool = &pool;
    StepRun run;
    const Stopwatch watch;
    control.progress = [&](const sebo::StepProgress& p) {
        if (p.phase == "optimizing acquisition" && run.fit_wall == 0.0) {
            run.fit_wall = watch.wall();
            run.fit_cpu = watch.cpu();
        }
    };
    run.proposal = strategy.propose(experiment, 1, control);
    run.wall = watch.wall();
    run.cpu = watch.cpu();
    return run;
}

// Gives `experiment` the sampler state a fast step at n − 1 leaves (untimed), as in a run; false
// (with a message) when that step fails.
bool warm_from_previous_step(sebo::Experiment& experiment, sebo::ThreadPool& pool) {
    sebo::Experiment before = experiment;
    before.trials.pop_back();
    const StepRun previous = timed_step(before, pool);
    if (previous.proposal.status != sebo::Proposal::Status::Ok) {
        std::fprintf(stderr, "sebo-bench: the step at n = %zu failed: %s\n", before.trials.size(),
                     previous.proposal.message.c_str());
        return false;
    }
    experiment.sampler_state = previous.proposal.sampler_state;
    return true;
}

sebo::SurrogateKind kind_of(const std::string& model) {
    if (model == "gp") return sebo::SurrogateKind::Gp;
    if (model == "saas-map") return sebo::SurrogateKind::SaasMap;
    return sebo::SurrogateKind::SaasNuts;
}

std::string fixed(double v, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

// The candidate's work over a figure's repetitions: the median acquisition evaluations and local
// optimizations per step (all batch members).
std::string candidate_work_text(const std::vector<sebo::Proposal>& proposals) {
    std::vector<double> evaluations, optimizations;
    for (const sebo::Proposal& p : proposals) {
        double e = 0.0, o = 0.0;
        for (const auto& w : p.candidate_work) {
            e += w.evaluations;
            o += w.local_optimizations;
        }
        evaluations.push_back(e);
        optimizations.push_back(o);
    }
    return fixed(median(evaluations), 0) + " acquisition evaluations in " + fixed(median(optimizations), 0) +
           " local optimizations";
}

// A step with three models (step-moo, step-moo-noisy) over the repetitions: its wall and CPU
// seconds, the fits' and the candidate's shares, the warm starts and the candidate's work.
struct MooStepFigure {
    explicit MooStepFigure(Figure f) : figure(std::move(f)) {}

    Figure figure;
    std::vector<double> fit_seconds, fit_walls, candidate_seconds, fit_cpus, candidate_cpus;
    std::vector<sebo::Proposal> proposals;
    int warm_started = 0;

    void add(const StepRun& step) {
        figure.seconds.push_back(step.wall);
        figure.cpu_seconds.push_back(step.cpu);
        fit_seconds.push_back(step.proposal.fit->seconds);
        fit_walls.push_back(step.fit_wall);
        candidate_seconds.push_back(step.wall - step.fit_wall);
        fit_cpus.push_back(step.fit_cpu);
        candidate_cpus.push_back(step.cpu - step.fit_cpu);
        warm_started += step.proposal.warm_started_fits;
        proposals.push_back(step.proposal);
    }

    std::string detail(int repetitions) const {
        return "3 models (2 objectives + 1 constraint): fits " + fixed(median(fit_walls), 3) + " s side by side (first objective's " +
               fixed(median(fit_seconds), 3) + " s; " + std::to_string(warm_started) + "/" + std::to_string(3 * repetitions) +
               " fits warm-started), candidate " + fixed(median(candidate_seconds), 3) + " s; cpu: fits " +
               fixed(median(fit_cpus), 2) + " s, candidate " + fixed(median(candidate_cpus), 2) + " s; " +
               candidate_work_text(proposals);
    }
};

// False (with a message) when a step with three models failed or has no fit record.
bool moo_step_ok(const StepRun& step, int n) {
    if (step.proposal.status == sebo::Proposal::Status::Ok && step.proposal.fit) return true;
    std::fprintf(stderr, "sebo-bench: a step with three models at n = %d failed: %s\n", n, step.proposal.message.c_str());
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::optional<BenchOptions> parsed;
    try {
        parsed = parse(argc, argv);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "sebo-bench: %s\n(see 'sebo-bench --help')\n", e.what());
        return 2;
    }
    if (!parsed) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const BenchOptions& options = *parsed;

    std::printf("# sebo-bench\n");
    std::printf("# cpu: %s; %u logical CPUs, %d usable by this process\n",
                first_match("/proc/cpuinfo", "model name").c_str(), std::thread::hardware_concurrency(), usable_cpus());
    std::printf("# load average at start: %s\n", load_average().c_str());
#if defined(NDEBUG)
    const char* asserts = "off";
#else
    const char* asserts = "on";
#endif
#if defined(__OPTIMIZE__)
    const char* optimized = "optimized";
#else
    const char* optimized = "NOT optimized";
#endif
    std::printf("# build: %s, asserts %s, compiler %s; likelihood kernel %s (SEBO_SIMD=generic forces the baseline)\n",
                optimized, asserts, __VERSION__, sebo::likelihood_kernel::selected_name());
    std::printf("# threads: %d (chains and restarts; --threads)\n", options.threads);
    std::printf("# repetitions: %d (median, min, max wall-clock seconds; cpu_s = median CPU seconds of the process,\n"
                "# all threads); rss = peak resident set so far, MB\n",
                options.repetitions);
    std::printf("%-14s %5s %5s %10s %10s %10s %10s %4s %9s  %s\n", "benchmark", "n", "D", "median_s", "min_s", "max_s",
                "cpu_s", "reps", "rss_mb", "work");

    sebo::ThreadPool pool(options.threads);
    std::vector<Figure> figures;
    const bool step_rows = wants(options, "gp") || wants(options, "saas-map") || wants(options, "saas") ||
                           wants(options, "saas-fast") || wants(options, "candidate") || wants(options, "step") ||
                           wants(options, "step-warm") || wants(options, "step-moo") || wants(options, "step-moo-noisy") ||
                           wants(options, "step-noisy");
    for (const int dimension : step_rows ? options.dims : std::vector<int>{}) {
        for (const int n : options.sizes) {
            const sebo::Experiment experiment = make_experiment(n, dimension, options.seed);
            const auto training = sebo::make_training_set(experiment, sebo::warp_mode(experiment.method));
            const sebo::MethodSettings& method = experiment.method;
            std::shared_ptr<const sebo::EnsemblePosterior> saas_posterior;

            for (const std::string model : {"gp", "saas-map", "saas", "saas-fast"}) {
                if (!wants(options, model)) continue;
                sebo::MethodSettings settings = method;
                if (model == "saas-fast") settings.nuts = sebo::NutsMode::Fast;
                sebo::SurrogateOptions surrogate = sebo::surrogate_options(settings, options.threads);
                surrogate.kind = kind_of(model);
                Figure f{model, n, dimension, {}, {}, {}};
                std::vector<double> gradients, depths, rhats;
                std::string starts;  // where the chains started, over the repetitions
                int divergences = 0;
                for (int r = 0; r < options.repetitions; ++r) {
                    const Stopwatch watch;
                    const sebo::SurrogateFit fit =
                        sebo::fit_surrogate(training->data, surrogate, options.seed + r, {}, {}, &pool);
                    f.seconds.push_back(watch.wall());
                    f.cpu_seconds.push_back(watch.cpu());
                    if (fit.status != sebo::SurrogateFit::Status::Ok) {
                        std::fprintf(stderr, "sebo-bench: %s fit failed at n = %d, D = %d: %s\n", model.c_str(), n,
                                     dimension, fit.message.c_str());
                        return 1;
                    }
                    gradients.push_back(static_cast<double>(fit.gradient_evaluations));
                    depths.push_back(fit.mean_tree_depth);
                    rhats.push_back(fit.diagnostics.max_rhat(3));
                    if (starts.find(sebo::to_string(fit.start)) == std::string::npos)
                        starts += std::string(starts.empty() ? "" : "/") + sebo::to_string(fit.start);
                    divergences += fit.divergences;
                    if (model == "saas" && !saas_posterior) saas_posterior = fit.posterior;
                }
                if (model == "saas" || model == "saas-fast")
                    f.detail = std::to_string(surrogate.saas_nuts.chains) + " chain(s), " + starts +
                               " start, gradient evaluations " +
                               fixed(median(gradients), 0) + ", mean tree depth " + fixed(median(depths), 2) +
                               ", divergences " + std::to_string(divergences) + ", max R-hat " +
                               fixed(*std::max_element(rhats.begin(), rhats.end()), 3);
                print_row(f);
                figures.push_back(std::move(f));
            }

            if (wants(options, "step") || wants(options, "step-warm")) {
                // step-warm: the state comes from a fast step at n − 1 (untimed), as in a run.
                // step-paper too unless only step-warm was asked for.
                const bool with_paper = wants(options, "step");
                Figure warm{"step-warm", n, dimension, {}, {}, {}};
                Figure paper{"step-paper", n, dimension, {}, {}, {}};
                std::vector<double> fit_seconds, paper_fit_seconds, rhats, candidate_seconds, fit_cpus, candidate_cpus;
                std::vector<sebo::Proposal> proposals;
                int warm_started = 0;
                std::string cold_reason;
                for (int r = 0; r < options.repetitions; ++r) {
                    sebo::Experiment fast = make_experiment(n, dimension, options.seed);
                    fast.seed = options.seed + static_cast<std::uint64_t>(r);
                    fast.method.nuts = sebo::NutsMode::Fast;
                    if (!warm_from_previous_step(fast, pool)) return 1;
                    const StepRun step = timed_step(fast, pool);
                    sebo::Experiment slow = fast;
                    slow.method.nuts = sebo::NutsMode::Paper;
                    slow.sampler_state.reset();
                    const StepRun paper_step = with_paper ? timed_step(slow, pool) : step;
                    for (const StepRun* s : {&step, &paper_step})
                        if (s->proposal.status != sebo::Proposal::Status::Ok || !s->proposal.fit) {
                            std::fprintf(stderr, "sebo-bench: a step at n = %d failed: %s\n", n, s->proposal.message.c_str());
                            return 1;
                        }
                    warm.seconds.push_back(step.wall);
                    warm.cpu_seconds.push_back(step.cpu);
                    paper.seconds.push_back(paper_step.wall);
                    paper.cpu_seconds.push_back(paper_step.cpu);
                    fit_seconds.push_back(step.proposal.fit->seconds);
                    candidate_seconds.push_back(step.wall - step.fit_wall);
                    fit_cpus.push_back(step.fit_cpu);
                    candidate_cpus.push_back(step.cpu - step.fit_cpu);
                    paper_fit_seconds.push_back(paper_step.proposal.fit->seconds);
                    rhats.push_back(step.proposal.fit->max_rhat().value_or(std::nan("")));
                    warm_started += step.proposal.fit->start == "warm";
                    proposals.push_back(step.proposal);
                    if (step.proposal.fit->start != "warm") cold_reason = step.proposal.fit->cold_start_reason;
                }
                warm.detail = "fit " + fixed(median(fit_seconds), 3) + " s (" + std::to_string(warm_started) +
                              "/" + std::to_string(options.repetitions) + " warm-started" +
                              (cold_reason.empty() ? "" : "; cold: " + cold_reason) + "), max R-hat " +
                              fixed(*std::max_element(rhats.begin(), rhats.end()), 3) + ", candidate " +
                              fixed(median(candidate_seconds), 3) + " s; cpu: fit " + fixed(median(fit_cpus), 2) +
                              " s, candidate " + fixed(median(candidate_cpus), 2) + " s; " +
                              candidate_work_text(proposals);
                paper.detail = "fit " + fixed(median(paper_fit_seconds), 3) + " s (one chain, full warm-up)";
                print_row(warm);
                figures.push_back(std::move(warm));
                if (with_paper) {
                    print_row(paper);
                    figures.push_back(std::move(paper));
                }
            }

            if (wants(options, "step-noisy")) {
                // The warm step twice from the same state (that of a fast step at n − 1, untimed):
                // with the noisy acquisition on and off. The data are noise-free, so "auto" would
                // choose off; "on" times the noisy path whatever the data.
                Figure noisy{"step-noisy", n, dimension, {}, {}, {}};
                std::vector<double> off_seconds, ratios, candidate_on, candidate_off;
                for (int r = 0; r < options.repetitions; ++r) {
                    sebo::Experiment off = make_experiment(n, dimension, options.seed);
                    off.seed = options.seed + static_cast<std::uint64_t>(r);
                    off.method.nuts = sebo::NutsMode::Fast;
                    off.method.noisy_acquisition = sebo::NoisyAcquisition::Off;
                    if (!warm_from_previous_step(off, pool)) return 1;
                    sebo::Experiment on = off;
                    on.method.noisy_acquisition = sebo::NoisyAcquisition::On;
                    const StepRun off_step = timed_step(off, pool);
                    const StepRun on_step = timed_step(on, pool);
                    for (const StepRun* s : {&off_step, &on_step})
                        if (s->proposal.status != sebo::Proposal::Status::Ok) {
                            std::fprintf(stderr, "sebo-bench: a step at n = %d failed: %s\n", n, s->proposal.message.c_str());
                            return 1;
                        }
                    noisy.seconds.push_back(on_step.wall);
                    noisy.cpu_seconds.push_back(on_step.cpu);
                    off_seconds.push_back(off_step.wall);
                    ratios.push_back(on_step.wall / off_step.wall);
                    candidate_on.push_back(on_step.wall - on_step.fit_wall);
                    candidate_off.push_back(off_step.wall - off_step.fit_wall);
                }
                noisy.detail = "noisy acquisition on; the same step with it off " + fixed(median(off_seconds), 3) +
                               " s, ratio " + fixed(median(ratios), 2) + " (candidate " + fixed(median(candidate_on), 3) +
                               " s against " + fixed(median(candidate_off), 3) + " s)";
                print_row(noisy);
                figures.push_back(std::move(noisy));
            }

            if (wants(options, "step-moo") || wants(options, "step-moo-noisy")) {
                // As step-warm, with three models: every model's sampler state comes from the step
                // at n − 1 (untimed). From that state step-moo with the noisy acquisition off (the
                // data are noise-free, and "auto" would almost always choose off: fixed, so the
                // row times one thing) and step-moo-noisy with it on.
                MooStepFigure off(Figure{"step-moo", n, dimension, {}, {}, {}});
                MooStepFigure on(Figure{"step-moo-noisy", n, dimension, {}, {}, {}});
                std::vector<double> ratios, cpu_ratios;
                for (int r = 0; r < options.repetitions; ++r) {
                    sebo::Experiment fast = make_moo_experiment(n, dimension, options.seed);
                    fast.seed = options.seed + static_cast<std::uint64_t>(r);
                    fast.method.nuts = sebo::NutsMode::Fast;
                    fast.method.noisy_acquisition = sebo::NoisyAcquisition::Off;
                    sebo::Experiment before = fast;
                    before.trials.pop_back();
                    const StepRun previous = timed_step(before, pool);
                    if (!moo_step_ok(previous, n)) return 1;
                    fast.sampler_state = previous.proposal.sampler_state;
                    if (wants(options, "step-moo")) {
                        const StepRun step = timed_step(fast, pool);
                        if (!moo_step_ok(step, n)) return 1;
                        off.add(step);
                    }
                    if (wants(options, "step-moo-noisy")) {
                        fast.method.noisy_acquisition = sebo::NoisyAcquisition::On;
                        const StepRun step = timed_step(fast, pool);
                        if (!moo_step_ok(step, n)) return 1;
                        on.add(step);
                        if (!off.figure.seconds.empty()) {
                            ratios.push_back(step.wall / off.figure.seconds.back());
                            cpu_ratios.push_back(step.cpu / off.figure.cpu_seconds.back());
                        }
                    }
                }
                for (MooStepFigure* f : {&off, &on}) {
                    if (f->figure.seconds.empty()) continue;
                    f->figure.detail = f->detail(options.repetitions);
                    if (f == &on && !ratios.empty())
                        f->figure.detail = "noisy acquisition on; ratio to step-moo " + fixed(median(ratios), 2) + " (cpu " +
                                           fixed(median(cpu_ratios), 2) + "); " + f->figure.detail;
                    print_row(f->figure);
                    figures.push_back(std::move(f->figure));
                }
            }

            if (!wants(options, "candidate")) continue;
            if (!saas_posterior) {  // the candidate needs the 16-sample SAAS posterior; its fit is not timed
                const sebo::SurrogateFit fit = sebo::fit_surrogate(training->data, sebo::surrogate_options(method), options.seed);
                if (fit.status != sebo::SurrogateFit::Status::Ok) {
                    std::fprintf(stderr, "sebo-bench: SAAS fit failed at n = %d, D = %d: %s\n", n, dimension, fit.message.c_str());
                    return 1;
                }
                saas_posterior = fit.posterior;
            }
            const sebo::SparsityPenalty penalty = sebo::make_sparsity_penalty(experiment.space, method.resolved_penalty());
            const sebo::CandidateTransforms transforms = sebo::make_candidate_transforms(experiment.space);
            const sebo::AcquisitionOptimizerOptions optimizer = sebo::acquisition_optimizer_options(method);
            Figure f{"candidate", n, dimension, {}, {}, {}};
            std::vector<double> setup_seconds, local_optimizations;
            int active = 0;
            for (int r = 0; r < options.repetitions; ++r) {
                const Stopwatch watch;
                const sebo::AcquisitionProblem problem = sebo::make_acquisition_problem(
                    experiment.space, method, saas_posterior, penalty, options.seed + 100 + static_cast<std::uint64_t>(r));
                const double set_up = watch.wall();
                sebo::StepControl control;
                control.pool = &pool;
                const sebo::OptimizedCandidate candidate =
                    sebo::optimize_acquisition(*problem.acquisition, problem.raw_samples, transforms, optimizer, control);
                f.seconds.push_back(watch.wall());
                f.cpu_seconds.push_back(watch.cpu());
                setup_seconds.push_back(set_up);
                local_optimizations.push_back(candidate.local_optimizations);
                active = static_cast<int>(penalty.exact(candidate.x));
            }
            f.detail = "set-up (front, raw samples) " + fixed(median(setup_seconds), 3) + " s, " +
                       fixed(median(local_optimizations), 0) + " local optimizations, " +
                       std::to_string(saas_posterior->size()) + " samples, last candidate " + std::to_string(active) +
                       " active";
            print_row(f);
            figures.push_back(std::move(f));
        }
    }
    if (wants(options, "flops")) {
        const double mhz = std::strtod(first_match("/proc/cpuinfo", "cpu MHz").c_str(), nullptr);
        const sebo_bench::PeakRates peak = sebo_bench::run_peak_benchmarks(mhz, options.flops_budget, figures);
        for (const int dimension : options.dims)
            for (const int n : options.sizes) {
                const sebo::Experiment experiment = make_experiment(n, dimension, options.seed);
                const auto training = sebo::make_training_set(experiment, sebo::warp_mode(experiment.method));
                sebo_bench::run_flops_benchmarks(*training->data, peak, options.flops_budget, figures);
            }
    }
    sebo_bench::MooBenchOptions moo;
    moo.ehvi = wants(options, "ehvi");
    moo.hypervolume = wants(options, "hypervolume");
    moo.repetitions = options.repetitions;
    moo.seed = options.seed;
    for (Figure& f : sebo_bench::run_moo_benchmarks(moo)) figures.push_back(std::move(f));
    std::printf("# load average at end: %s; peak rss %.0f MB\n", load_average().c_str(), peak_rss_mb());

    if (!options.csv.empty()) {
        std::ofstream csv(options.csv);
        csv << "benchmark,n,D,median_s,min_s,max_s,cpu_s,repetitions,work\n";
        for (const Figure& f : figures) {
            const auto [lo, hi] = std::minmax_element(f.seconds.begin(), f.seconds.end());
            csv << sebo::csv_text_cell(f.benchmark) << ',' << f.n << ',' << f.dimension << ',' << median(f.seconds) << ','
                << *lo << ',' << *hi << ',' << median(f.cpu_seconds) << ',' << f.seconds.size() << ','
                << sebo::csv_text_cell(f.detail) << '\n';
        }
        if (!csv) {
            std::fprintf(stderr, "sebo-bench: could not write %s\n", options.csv.c_str());
            return 1;
        }
    }
    return 0;
}
