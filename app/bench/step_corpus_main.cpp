// sebo-step-corpus — records the step corpus of issue 34 (tests/data/step_corpus/README.md): runs
// SEBO-L0 on the built-in problems of the `sebo bench` presets (engine/bench/bench_plan.cpp) and,
// at chosen numbers of trials, writes one file per step (io/recorded_step.h): the experiment as it
// stood, the hyperparameter samples the step's fit gave each modelled metric, and the candidate
// the candidate search of this build proposed from them. tests/engine/test_step_corpus.cpp replays
// every file and checks that the search of its build proposes no worse a candidate.
//
// A recorded step fits its models exactly as ModelStrategy::propose does (the same seed, warm
// starts and threads), searches with experiment/candidate_search.h, then lets run_step make the
// same step, and stops with an error unless the trial it adds is the recorded candidate and the
// file, read back and replayed, gives the recorded candidate bit for bit. No Qt.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/bench_plan.h"
#include "core/thread_pool.h"
#include "core/version.h"
#include "experiment/candidate_search.h"
#include "experiment/runner.h"
#include "io/file_io.h"
#include "io/recorded_step.h"
#include "problems/problem.h"
#include "problems/problem_catalog.h"

namespace {

namespace fs = std::filesystem;
using namespace sebo;

// One run of a preset's problem with SEBO-L0, and the numbers of trials at which its step is recorded.
struct CorpusRun {
    const char* preset;
    const char* problem;   // a token of parse_bench_problem
    const char* strategy;  // a token of parse_bench_strategy
    int initial_trials;
    bool status_quo_first;
    std::uint64_t seed;
    std::vector<int> record_at;
};

// 30 steps: 10 one-objective SEBO-L0 (paper-branin, paper-hartmann6), 2 with the noisy acquisition on
// one objective (noisy), 16 with several metrics (moo-branin-currin: two objectives; constrained:
// an objective and an outcome constraint; 2 of them noisy), 2 in the mixed space (choices, an
// integer, a linear constraint). The noisy acquisition is the presets' (auto, the default) unless
// the strategy says on, so the auto rule turns it on in some steps too. D = 50 (19 varying in the
// mixed space), n from 14 to 45. The sampler is the fast one; the paper-* presets' paper sampler
// would take hours and changes nothing a replay sees but the samples.
const std::vector<CorpusRun> kRuns = {
    {"paper-branin", "branin/dim=50", "sebo-l0", 8, false, 1, {20, 30, 40}},
    {"paper-branin", "branin/dim=50", "sebo-l0", 8, false, 2, {25, 35}},
    {"paper-branin", "branin/dim=50", "sebo-l0", 8, false, 3, {18, 28}},
    {"paper-hartmann6", "hartmann6/dim=50", "sebo-l0", 20, false, 1, {25, 35, 45}},
    {"moo-branin-currin", "branin-currin/dim=50", "sebo-l0", 10, false, 1, {14, 20, 28, 36}},
    {"moo-branin-currin", "branin-currin/dim=50", "sebo-l0", 10, false, 2, {18, 26, 34}},
    {"constrained", "hartmann6-constrained/dim=50", "sebo-l0", 10, false, 1, {14, 20, 28, 36}},
    {"constrained", "hartmann6-constrained/dim=50", "sebo-l0", 10, false, 2, {18, 26, 34}},
    {"noisy", "branin/dim=50/noise=9.2", "sebo-l0/noisy=on", 10, true, 1, {20, 30}},
    {"noisy", "hartmann6-constrained/dim=50/noise=0.1", "sebo-l0/noisy=on", 10, true, 1, {16, 24}},
    {"mixed", "mixed", "sebo-l0", 10, true, 1, {15, 25}},
};

const char* kUsage =
    "usage: sebo-step-corpus --out DIR [--threads T]\n"
    "\n"
    "Records the step corpus of issue 34 (tests/data/step_corpus/README.md) into DIR: SEBO-L0 runs on\n"
    "the problems of the bench presets, one file per recorded step. Threads: 2 unless given.\n";

Eigen::VectorXd unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const std::vector<double> u = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
}

// The training and, with several metrics, the outcome units of the step, as propose makes them.
struct StepInputs {
    MetricTraining training;
    std::optional<OutcomeModelUnits> units;
};

StepInputs step_inputs(const Experiment& e) {
    std::string why;
    std::optional<MetricTraining> training = make_metric_training(e, warp_mode(e.method), 2, &why);
    if (!training) throw std::runtime_error("no model yet: " + why);
    StepInputs in{std::move(*training), std::nullopt};
    if (e.outcomes.objectives.size() > 1 || !e.outcomes.constraints.empty()) {
        in.units = outcome_model_units(e, in.training, &why);
        if (!in.units) throw std::runtime_error(why);
    }
    return in;
}

// The step's fits as ModelStrategy::propose makes them (experiment/model_strategy.cpp, fit_models).
std::vector<std::vector<GpHyperparameters>> fit_step(const Experiment& e, const StepInputs& in, const StepControl& control) {
    std::vector<WarmStartChoice> warm;
    std::vector<const NutsWarmStart*> states;
    for (std::size_t j = 0; j < in.training.sets.size(); ++j)
        warm.push_back(choose_warm_start(e, in.training.metrics[j], in.training.sets[j], e.method));
    for (const WarmStartChoice& w : warm) states.push_back(w.state ? &*w.state : nullptr);
    const std::vector<SurrogateFit> fits = fit_metric_models(in.training.sets, surrogate_options(e.method, control.pool->size()),
                                                             derived_seed(model_step_seed(e), 1), control, states);
    std::vector<std::vector<GpHyperparameters>> samples;
    for (const SurrogateFit& f : fits) {
        if (f.status != SurrogateFit::Status::Ok) throw std::runtime_error("fit failed: " + f.message);
        samples.push_back(f.samples);
    }
    return samples;
}

// The first candidate of a step with these samples.
CandidateSearch::Member first_candidate(const Experiment& e, std::vector<std::vector<GpHyperparameters>> samples,
                                        const StepControl& control) {
    StepInputs in = step_inputs(e);
    const CandidateSearch search(e, e.method, in.training, std::move(in.units), std::move(samples));
    return search.next(control);
}

RecordedStep record(const Experiment& e, const std::string& label, const StepControl& control) {
    RecordedStep step;
    step.label = label;
    step.recorded_by = "sebo-step-corpus " + program_version_and_commit();
    step.experiment = e;
    step.metrics = e.outcomes.modelled_metrics();
    step.samples = fit_step(e, step_inputs(e), control);
    const CandidateSearch::Member member = first_candidate(e, step.samples, control);
    step.reference = recorded_candidate(member.candidate, e.space);
    return step;
}

// The file replays to the recorded candidate, bit for bit.
void check_replay(const std::string& path, const RecordedStep& recorded, const StepControl& control) {
    const RecordedStep step = load_recorded_step(path);
    const CandidateSearch::Member member = first_candidate(step.experiment, step.samples, control);
    if (member.candidate.x != recorded.reference.x || member.candidate.value != recorded.reference.value)
        throw std::runtime_error(path + ": the replay does not give the recorded candidate");
}

// The trial run_step added is the recorded candidate: the seam is the strategy's own search.
void check_trial(const Experiment& e, const RecordedStep& step) {
    const Eigen::VectorXd x = unit_vector(e.space, e.trials.back().parameters);
    if ((x - step.reference.x).lpNorm<Eigen::Infinity>() > 1e-9)
        throw std::runtime_error(step.label + ": the step's trial is not the recorded candidate");
}

void record_run(const CorpusRun& run, const fs::path& out, const StepControl& control) {
    const BenchProblem problem = parse_bench_problem(run.problem, "problem");
    BenchStrategy strategy = parse_bench_strategy(run.strategy, "strategy");
    BenchPlan plan{{problem}, {strategy}, 1, run.record_at.back() + 1, run.initial_trials, NutsMode::Fast};
    plan.status_quo_first = run.status_quo_first;
    Experiment e = make_problem_experiment(problem.spec, plan.method(strategy), run.seed);
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    const std::unique_ptr<Strategy> sebo = make_strategy(e.method);
    std::size_t next = 0;
    while (next < run.record_at.size()) {
        const bool recorded = static_cast<int>(e.trials.size()) == run.record_at[next];
        std::optional<RecordedStep> step;
        if (recorded) {
            const std::string label = std::string(run.preset) + "/" + run.problem + "/" + run.strategy + "/seed=" +
                                      std::to_string(run.seed) + "/n=" + std::to_string(e.trials.size());
            step = record(e, label, control);
            const fs::path path = out / (file_safe_label(label) + ".json");
            write_file_atomic(path.string(), recorded_step_to_json_text(*step));
            check_replay(path.string(), *step, control);
            std::fprintf(stderr, "%s: value %.6g, %d changes, %d evaluations\n", path.filename().c_str(), step->reference.value,
                         step->reference.changes, step->reference.evaluations);
            ++next;
        }
        const StepResult result = run_step(e, *sebo, &evaluator, control, 1);
        if (result.status != StepResult::Status::Completed) throw std::runtime_error(run.problem + std::string(": ") + result.message);
        if (step) check_trial(e, *step);
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string out;
    int threads = 2;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--out" && i + 1 < argc) {
            out = argv[++i];
        } else if (arg == "--threads" && i + 1 < argc) {
            const std::string text = argv[++i];
            char* end = nullptr;
            const long t = std::strtol(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || t < 1 || t > ThreadPool::kMaxThreads) {
                std::fprintf(stderr, "sebo-step-corpus: --threads: '%s' is not a whole number in [1, %d]\n", text.c_str(),
                             ThreadPool::kMaxThreads);
                return 2;
            }
            threads = static_cast<int>(t);
        } else {
            std::fputs(kUsage, arg == "--help" ? stdout : stderr);
            return arg == "--help" ? 0 : 2;
        }
    }
    if (out.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    try {
        fs::create_directories(out);
        ThreadPool pool(threads);
        StepControl control;
        control.pool = &pool;
        for (const CorpusRun& run : kRuns) record_run(run, out, control);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sebo-step-corpus: %s\n", e.what());
        return 1;
    }
    return 0;
}
