// sebo confirm — measure configurations again (issue 30 item 5): R more trials of each chosen
// configuration, evaluated at once with the experiment's built-in problem or (approved) command,
// or left pending for a manual experiment. Repeated configurations are one configuration in the
// analysis (experiment/replicates.h): `sebo frontier` then shows their merged measurement and the
// model's estimate of it.
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/evaluator_options.h"
#include "cli/sampler_options.h"
#include "cli/shared_file.h"
#include "core/input_error.h"
#include "core/thread_pool.h"
#include "experiment/analytics.h"
#include "experiment/given_points_strategy.h"
#include "experiment/recommendations.h"
#include "experiment/replicates.h"
#include "experiment/runner.h"
#include "io/shared_experiment_file.h"

namespace sebo::cli {

namespace {

std::vector<int> trial_list(const std::string& text) {
    std::vector<int> out;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        char* end = nullptr;
        const long value = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || value < 0 || value > 100'000'000)
            throw UsageError("--trials: '" + item + "' in '" + text + "' is not a trial index");
        if (std::find(out.begin(), out.end(), static_cast<int>(value)) == out.end()) out.push_back(static_cast<int>(value));
    }
    if (out.empty()) throw UsageError("--trials: no trial index in '" + text + "'");
    return out;
}

// The configurations of the frontier: the model's recommendations at every k when it can be
// fitted (the noise-aware view), otherwise every trial on the measured frontier.
std::vector<int> frontier_trials(const Experiment& e, const StepControl& control) {
    std::set<int> trials;
    const RecommendationReport report = recommend_configurations(e, control);
    if (report.status == RecommendationReport::Status::Ok) {
        for (const RecommendationReport::Level& level : report.levels)
            for (std::size_t g : level.recommended) trials.insert(report.configurations[g].trial());
    } else {
        for (const FrontierReport::Level& level : analyze_frontier(e).levels)
            for (int index : level.front) trials.insert(index);
    }
    return {trials.begin(), trials.end()};
}

}  // namespace

int command_confirm(const Args& args) {
    Arguments parser("confirm", "FILE (--trials I,J,.. | --frontier) --repeats R [options]",
                     "Measure chosen configurations again: R new trials of each, with the same parameters\n"
                     "(generator \"confirm\"). A built-in problem evaluates them at once, and so does the\n"
                     "experiment's command with --evaluator command; a manual experiment gets them as pending\n"
                     "trials for 'sebo observe'. Repeated configurations are one configuration in the analysis:\n"
                     "'sebo frontier' shows their mean, standard error and count, and the model's estimate.\n"
                     "--frontier confirms the model's recommended configuration at every number of changes (the\n"
                     "measured frontier's trials when the model cannot be fitted). The budget is raised as needed.",
                     {{"trials", "I,J,..", "the trials whose configurations to measure again"},
                      {"frontier", "", "the recommended configuration at every number of changes"},
                      {"repeats", "R", "new measurements of each configuration (1 to 1000)"},
                      evaluator_option(),
                      allow_env_option(),
                      threads_option(),
                      wait_option(),
                      {"quiet", "", "print nothing but errors"}},
                     1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    const std::string& path = parser.positionals().front();
    if (parser.has("trials") == parser.has("frontier")) throw UsageError("give either --trials I,J,.. or --frontier");
    const auto repeats = parser.integer("repeats", 1, 1000);
    if (!repeats) throw UsageError("--repeats R is required");
    const bool quiet = parser.has("quiet");

    ThreadPool pool(threads_from(parser));
    StepControl control;
    control.pool = &pool;
    const double wait = wait_seconds(parser);
    SharedExperimentFile file(path, lock_options("sebo confirm", wait, quiet),
                              [quiet](const std::string& note) {
                                  if (!quiet) print_note("sebo confirm", note);
                              });
    Experiment e = file.load();
    std::unique_ptr<Evaluator> evaluator = evaluator_from_options(parser, e, path);
    // Measuring takes the run lock, as `sebo run` does: one process evaluates a file's trials.
    std::optional<FileLock> run_lock;
    if (evaluator) {
        FileLockOptions run_options = lock_options("sebo confirm", wait, quiet);
        run_options.activity = "being run by";
        run_lock = acquire_run_lock(path, run_options);
        e = file.load();
    }
    const std::vector<int> trials = parser.has("frontier") ? frontier_trials(e, control) : trial_list(*parser.value("trials"));
    if (trials.empty()) throw UsageError("--frontier: " + path + " has no completed trial to confirm");
    std::vector<std::vector<double>> points;
    try {
        points = replicate_points(e, trials, static_cast<int>(*repeats));
    } catch (const InputError& error) {
        throw UsageError(std::string("--trials: ") + error.what());
    }
    const int needed = static_cast<int>(e.trials.size() + points.size());
    if (e.method.budget < needed) e.method.budget = needed;

    GivenPointsStrategy strategy(points, "confirm");
    const StepResult step = run_step(e, strategy, evaluator.get(), control, static_cast<int>(points.size()));
    if (step.status != StepResult::Status::Completed) {
        std::fprintf(stderr, "sebo confirm: %s\n", step.message.c_str());
        return 1;
    }
    const MergeReport merged = file.save(e);
    if (!quiet) {
        print_merge("sebo confirm", merged);
        int completed = 0, pending = 0, failed = 0;
        for (int index : step.new_trials) {
            const Trial& t = *e.find_trial(merged.new_index(index));
            completed += t.status == TrialStatus::Completed;
            pending += t.status == TrialStatus::Pending;
            failed += t.status == TrialStatus::Failed;
        }
        std::string which;
        for (int index : trials) which += (which.empty() ? "" : ", ") + std::to_string(index);
        std::fprintf(stderr, "sebo confirm: %zu new trial(s) of trial(s) %s (%lld each): %d completed, %d pending, %d failed; saved in %s\n",
                     step.new_trials.size(), which.c_str(), static_cast<long long>(*repeats), completed, pending, failed,
                     path.c_str());
        if (pending > 0)
            std::fprintf(stderr, "record results:  sebo observe %s --trial %d --value ...\n", path.c_str(),
                         merged.new_index(step.new_trials.front()));
    }
    return 0;
}

}  // namespace sebo::cli
