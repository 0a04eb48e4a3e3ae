// sebo-bench — speed benchmarks of the engine (SPEC §8: "Speed is measured in benchmarks …
// figures are reported … with the machine stated"). For every size n (completed trials) and
// dimension D it times, as the median of R repetitions:
//   - the model fit of a step: standard GP (MAP), SAAS-MAP and SAAS-NUTS at the paper's settings
//     (512 warm-up, 256 draws, every 16th kept → 16 samples, tree depth 6);
//   - one SEBO-L0 candidate (paper §5, appendix E.1: 30 homotopy stages, 20 restarts, 1024 raw
//     samples) over a 16-sample SAAS-NUTS posterior — the acquisition set-up and its
//     optimization only, timed apart from the fit that produced the posterior.
// The data are Branin embedded in D dimensions (effective x0, x1) at n scrambled Sobol points,
// built into an Experiment and turned into training data exactly as a strategy step does
// (experiment/model_step.h). The multi-objective rows (EHVI of several objectives, hypervolume)
// are moo_bench.h's. No Qt; prints a table (and optionally CSV) with the machine.

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
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
#include "design/sobol.h"
#include "experiment/model_step.h"
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
    std::vector<std::string> models = {"gp", "saas-map", "saas", "candidate", "ehvi", "hypervolume"};
    int repetitions = 3;
    std::uint64_t seed = 0;
    std::string csv;
};

const char* kUsage =
    "usage: sebo-bench [--sizes N,..] [--dims D,..] [--models M,..] [--repetitions R] [--seed S]\n"
    "                  [--quick] [--csv FILE]\n"
    "\n"
    "Speed benchmarks of the SEBO engine on Branin embedded in D dimensions with n completed Sobol\n"
    "trials: model fits (gp = GP MAP, saas-map = SAAS-MAP, saas = SAAS-NUTS at the paper's settings)\n"
    "and one SEBO-L0 candidate (candidate: 30 homotopy stages, 20 restarts, 1024 raw samples, over\n"
    "a 16-sample SAAS-NUTS posterior, timed without the fit). Each figure is the median of R runs.\n"
    "Multi-objective rows (microseconds per call, independent of --sizes and --dims): ehvi = one\n"
    "evaluation of the exact EHVI of 2-4 objectives (value and gradient, 16 samples per objective)\n"
    "and of SEBO's sparse 2-D form next to the one-objective one; hypervolume = the exact 2-4-D\n"
    "hypervolume and a 1000-trial hypervolume trace. In the CSV their D column is the number of\n"
    "objectives and their times are seconds per call.\n"
    "\n"
    "options:\n"
    "  --sizes N,..        numbers of completed trials (default 20,50,100,200)\n"
    "  --dims D,..         dimensions (default 10,50,100)\n"
    "  --models M,..       any of gp, saas-map, saas, candidate, ehvi, hypervolume (default: all)\n"
    "  --repetitions R     runs per figure (default 3)\n"
    "  --seed S            seed of the data and the first run (run r uses S + r; default 0)\n"
    "  --quick             sizes 20,50, dimension 10, one repetition (a smoke test)\n"
    "  --csv FILE          also write one row per figure to FILE\n"
    "  --help              show this help\n";

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
        if (arg == "--quick") {
            o.sizes = {20, 50};
            o.dims = {10};
            o.repetitions = 1;
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
        } else if (arg == "--models") {
            o.models.clear();
            std::stringstream stream(value);
            std::string item;
            while (std::getline(stream, item, ',')) {
                if (item != "gp" && item != "saas-map" && item != "saas" && item != "candidate" && item != "ehvi" &&
                    item != "hypervolume")
                    throw UsageError("--models: unknown '" + item +
                                     "' (known: gp, saas-map, saas, candidate, ehvi, hypervolume)");
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
// SEBO-L0 (the paper's settings are MethodSettings' defaults).
sebo::Experiment make_experiment(int n, int dimension, std::uint64_t seed) {
    sebo::ProblemSpec spec;
    spec.name = "branin";
    spec.dimension = dimension;
    sebo::MethodSettings method;
    method.strategy = sebo::StrategyKind::SeboL0;
    method.budget = n + 1;
    sebo::Experiment e = sebo::make_problem_experiment(spec, method, seed);
    const auto problem = sebo::make_problem(e.evaluator.problem);
    const auto points = sebo::ScrambledSobol(dimension, seed).points(0, n);
    for (int i = 0; i < n; ++i) {
        sebo::Trial t;
        t.index = i;
        t.parameters = e.space.from_unit(points[static_cast<std::size_t>(i)]);
        t.status = sebo::TrialStatus::Completed;
        t.objective = problem->evaluate(t.parameters, sebo::problem_noise_seed(seed, i)).value;
        t.generator = "sobol";
        e.trials.push_back(std::move(t));
    }
    return e;
}

void print_row(const Figure& f) {
    const auto [lo, hi] = std::minmax_element(f.seconds.begin(), f.seconds.end());
    std::printf("%-10s %5d %5d %10.3f %10.3f %10.3f %10.3f %4zu %9.0f  %s\n", f.benchmark.c_str(), f.n, f.dimension,
                median(f.seconds), *lo, *hi, median(f.cpu_seconds), f.seconds.size(), peak_rss_mb(), f.detail.c_str());
    std::fflush(stdout);
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
    std::printf("# repetitions: %d (median, min, max wall-clock seconds; cpu_s = median CPU seconds of the process);\n"
                "# rss = peak resident set so far, MB\n",
                options.repetitions);
    std::printf("%-10s %5s %5s %10s %10s %10s %10s %4s %9s  %s\n", "benchmark", "n", "D", "median_s", "min_s", "max_s",
                "cpu_s", "reps", "rss_mb", "work");

    std::vector<Figure> figures;
    const bool step_rows =
        wants(options, "gp") || wants(options, "saas-map") || wants(options, "saas") || wants(options, "candidate");
    for (const int dimension : step_rows ? options.dims : std::vector<int>{}) {
        for (const int n : options.sizes) {
            const sebo::Experiment experiment = make_experiment(n, dimension, options.seed);
            const auto training = sebo::make_training_set(experiment, experiment.method.warp_objective);
            const sebo::MethodSettings& method = experiment.method;
            std::shared_ptr<const sebo::EnsemblePosterior> saas_posterior;

            for (const std::string model : {"gp", "saas-map", "saas"}) {
                if (!wants(options, model)) continue;
                sebo::SurrogateOptions surrogate = sebo::surrogate_options(method);
                surrogate.kind = kind_of(model);
                Figure f{model, n, dimension, {}, {}, {}};
                std::vector<double> gradients, depths;
                int divergences = 0;
                for (int r = 0; r < options.repetitions; ++r) {
                    const Stopwatch watch;
                    const sebo::SurrogateFit fit = sebo::fit_surrogate(training->data, surrogate, options.seed + r);
                    f.seconds.push_back(watch.wall());
                    f.cpu_seconds.push_back(watch.cpu());
                    if (fit.status != sebo::SurrogateFit::Status::Ok) {
                        std::fprintf(stderr, "sebo-bench: %s fit failed at n = %d, D = %d: %s\n", model.c_str(), n,
                                     dimension, fit.message.c_str());
                        return 1;
                    }
                    gradients.push_back(static_cast<double>(fit.gradient_evaluations));
                    depths.push_back(fit.mean_tree_depth);
                    divergences += fit.divergences;
                    if (model == "saas" && !saas_posterior) saas_posterior = fit.posterior;
                }
                if (model == "saas")
                    f.detail = "gradient evaluations " + fixed(median(gradients), 0) + ", mean tree depth " +
                               fixed(median(depths), 2) + ", divergences " + std::to_string(divergences);
                print_row(f);
                figures.push_back(std::move(f));
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
                const sebo::OptimizedCandidate candidate =
                    sebo::optimize_acquisition(*problem.acquisition, problem.raw_samples, transforms, optimizer, {});
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
            csv << f.benchmark << ',' << f.n << ',' << f.dimension << ',' << median(f.seconds) << ',' << *lo << ',' << *hi
                << ',' << median(f.cpu_seconds) << ',' << f.seconds.size() << ",\"" << f.detail << "\"\n";
        }
        if (!csv) {
            std::fprintf(stderr, "sebo-bench: could not write %s\n", options.csv.c_str());
            return 1;
        }
    }
    return 0;
}
