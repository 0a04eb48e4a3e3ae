// sebo new / sebo import — create an experiment for the user's own system from a search-space
// file (CSV or JSON), evaluated by an external command or by hand, optionally seeded with
// historical results; add historical results to an existing experiment.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/outcome_options.h"
#include "cli/import_options.h"
#include "cli/method_options.h"
#include "cli/parameter_constraint_options.h"
#include "cli/sampler_options.h"
#include "cli/shared_file.h"
#include "cli/trial_exclusion_cli.h"
#include "core/format.h"
#include "core/input_error.h"
#include "evaluators/command_evaluator.h"
#include "experiment/runner.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/results_import.h"
#include "io/shared_experiment_file.h"
#include "io/space_file.h"

namespace sebo::cli {

namespace {

// Problems shown before "... and N more".
constexpr std::size_t kShownProblems = 20;

// Column names of result sheets (sebo observe --csv); a parameter or metric with one of these
// names would be mistaken for them ("objective" only stands for the value of a one-metric
// experiment, so a metric may have that name).
bool is_reserved_column(const std::string& name, bool metric) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == "trial" || (lower == "objective" && !metric) || lower == "sem" || lower == "status" ||
           lower == "error";
}

// Metric names become result-sheet columns next to the parameters' (sebo suggest --csv).
void check_metric_names(const Outcomes& outcomes, const SearchSpace& space, const std::string& source) {
    for (const std::string& metric : outcomes.metrics) {
        if (is_reserved_column(metric, true))
            throw UsageError(source + ": the metric name '" + metric +
                             "' is a column name of result sheets (trial, sem, status, error); choose another name");
        for (const Parameter& p : space.declared_parameters())
            if (p.name == metric || p.name == metric + "_sem")
                throw UsageError(source + ": '" + p.name + "' is the name of a parameter and a column of metric '" + metric +
                                 "' in result sheets; choose another name");
    }
}

// The space and what is measured from a space file and the outcome flags.
Experiment experiment_from_space(const Arguments& parser, const std::string& space_path) {
    for (const char* flag : {"study", "target-trial", "target"})
        if (parser.has(flag)) throw UsageError(std::string("--") + flag + " goes with --from SOURCE");
    Experiment e;
    SpaceFile space_file = read_space_file(space_path);
    e.space = apply_parameter_constraint_flags(parser, space_file.space, space_path);
    for (const Parameter& p : e.space.declared_parameters())
        if (is_reserved_column(p.name, false))
            throw InputError(space_path, "the parameter name '" + p.name +
                                             "' is reserved for result sheets (trial, objective, sem, status, error); rename it");
    if (space_file.outcomes) {
        for (const char* flag : {"objective", "metric", "constraint", "threshold", "minimize"})
            if (parser.has(flag))
                throw UsageError(std::string("--") + flag + ": " + space_path + " already says what is measured (" +
                                 space_file.outcomes->summary() + "); give it either in the file or with the flags");
        e.outcomes = std::move(*space_file.outcomes);
        check_metric_names(e.outcomes, e.space, space_path);
    } else {
        e.outcomes = outcomes_from_options(parser);
        if (parser.has("minimize")) {
            const std::vector<std::string> given = parser.values("objective");
            if (given.size() != 1 || given.front().ends_with(":max"))
                throw UsageError("--minimize goes with a single --objective NAME; with several, write NAME:min for each "
                                 "minimized one");
            e.outcomes.objectives.front().minimize = true;
        }
        check_metric_names(e.outcomes, e.space, "--objective/--metric");
    }
    return e;
}

// Everything but the evaluator and the method from another tool's experiment (--from).
Experiment experiment_from_source(const Arguments& parser) {
    const std::string source = *parser.value("from");
    for (const char* flag : flags_replaced_by_import())
        if (parser.has(flag))
            throw UsageError(std::string("--") + flag + " does not go with --from: the space, what is measured and the trials come from " +
                             source);
    Experiment e = experiment_from_import_flags(parser, parser.has("quiet"));
    for (const Parameter& p : e.space.declared_parameters())
        if (is_reserved_column(p.name, false))
            throw InputError(source, "the parameter name '" + p.name +
                                         "' is reserved for result sheets (trial, objective, sem, status, error)");
    check_metric_names(e.outcomes, e.space, source);
    return e;
}

// The example of 'sebo new --help': two objectives and one constraint on a third metric.
const char* const kOutcomeExample =
    "\nexample: a service tuned for throughput and p99 latency, with a cost limit:\n"
    "  sebo new --space space.csv --objective throughput --objective p99_ms:min \\\n"
    "           --metric cost --constraint \"cost<=100\" --threshold p99_ms=80 \\\n"
    "           --out service.sebo.json --command python3 measure.py\n"
    "measure.py prints {\"metrics\": {\"throughput\": 1234.5, \"p99_ms\": {\"mean\": 41.2, \"sem\": 0.8},\n"
    "\"cost\": 73}}. The space file's JSON form may carry the same as \"metrics\", \"objectives\" and\n"
    "\"constraints\" (docs/file-format.md) instead of these flags.";

// Reads historical trials from a CSV file; prints every problem and refuses (exit 2) when a row
// is bad, so that nothing is half-imported.
std::vector<Trial> read_import(const Experiment& experiment, const std::string& path) {
    const CsvTable table = parse_csv_table(read_text_file(path), path);
    TrialImport imported = import_trials(experiment, table);
    if (!imported.problems.empty()) {
        for (std::size_t i = 0; i < imported.problems.size() && i < kShownProblems; ++i)
            std::fprintf(stderr, "  %s\n", imported.problems[i].c_str());
        if (imported.problems.size() > kShownProblems)
            std::fprintf(stderr, "  ... and %zu more\n", imported.problems.size() - kShownProblems);
        throw InputError(path, std::to_string(imported.problems.size()) + " problem(s) in " +
                                   std::to_string(table.rows.size()) + " rows; nothing was imported");
    }
    for (std::size_t i = 0; i < imported.notes.size() && i < kShownProblems; ++i)
        std::fprintf(stderr, "note: %s\n", imported.notes[i].c_str());
    if (imported.notes.size() > kShownProblems)
        std::fprintf(stderr, "note: ... and %zu more rows outside the parameter constraints\n", imported.notes.size() - kShownProblems);
    const std::string now = utc_timestamp();
    for (Trial& t : imported.trials) t.created_at = now;
    return std::move(imported.trials);
}

// The `count` imported trials are the experiment's last; a value far from all the others (a
// sentinel, a unit slip) is pointed out as `sebo observe` and `sebo run` do.
void warn_extreme_imports(const Experiment& e, std::size_t count, const std::string& path) {
    std::vector<int> imported;
    for (std::size_t i = e.trials.size() - count; i < e.trials.size(); ++i) imported.push_back(e.trials[i].index);
    warn_extreme_values(e, imported, path);
}

std::string describe_command(const EvaluatorSpec& spec) {
    std::string text = shell_quoted_command_line(spec.command) + "\n             in " +
                       (spec.working_directory.empty() ? std::string("the current directory") : spec.working_directory) +
                       ", timeout " + format_number(spec.timeout_seconds) + " s";
    if (spec.max_concurrency > 1) text += ", up to " + std::to_string(spec.max_concurrency) + " at once";
    return text;
}

}  // namespace

int command_new(const Args& args) {
    std::vector<OptionSpec> options = {{"space", "FILE", "search space: CSV (name,kind,lower,upper,log,target,group,min_change,value) or JSON"},
                                       parameter_constraint_option()};
    for (OptionSpec& o : outcome_option_specs()) options.push_back(std::move(o));
    options.push_back({"minimize", "", "minimize the only objective (the same as --objective NAME:min)"});
    for (OptionSpec o : std::vector<OptionSpec>{
         {"evaluator", "KIND", "command or manual (default: command when --command is given, else manual)"},
         {"timeout", "S", "command: seconds before an evaluation is stopped (default 3600)"},
         {"workdir", "DIR", "command: directory it runs in (default: the current directory)"},
         {"concurrency", "N", "command: evaluations of a batch that may run at once (default 1)"},
         {"no-status-quo", "", "do not measure the target configuration (every parameter at its target) first"},
         {"trials", "N", "budget: the number of trials to run to (default 50)"},
         {"seed", "S", "random seed (default 0)"},
         {"name", "TEXT", "experiment name (default: from the file name)"},
         {"description", "TEXT", "a sentence about the experiment, kept in the file (menus show it)"},
         {"import", "CSV", "past results to add as completed trials"},
         {"out", "FILE", "experiment file to create"},
         {"force", "", "overwrite --out if it exists"},
         wait_option(),
         {"quiet", "", "print nothing but errors"},
         {"command", "PROG [ARGS...]", "the evaluator program and its arguments (takes the rest of the line)", true}})
        options.push_back(std::move(o));
    for (OptionSpec& o : import_option_specs()) options.push_back(std::move(o));
    for (OptionSpec& o : method_option_specs()) options.push_back(std::move(o));
    Arguments parser(
        "new",
        "(--space FILE --objective NAME[:min|:max] [--objective ...] [--metric NAME] [--constraint \"NAME<=V\"] | "
        "--from SOURCE [--study NAME] [--target-trial N] [--target NAME=VALUE ...]) [--command PROG [ARGS...]] [options] --out FILE",
        std::string("Create an experiment for your own system. The search space comes from a CSV file with the\n"
                    "header name,kind,lower,upper,log,target,group,min_change,value (only name, lower and upper\n"
                    "are required; min_change is the smallest change that counts, as 0.5 or 2% of the range; kind\n"
                    "fixed with a value pins a parameter) or a JSON file {\"parameters\": [...]}; linear\n"
                    "constraints between parameters come with --parameter-constraint (or the JSON file's\n"
                    "\"parameter_constraints\"). What is measured: one to four objectives (--objective,\n"
                    "maximized unless NAME:min, each with an optional --threshold), other metrics (--metric), and\n"
                    "outcome constraints on any of them (--constraint). Trials are evaluated by an external\n"
                    "command (--command, which takes all remaining arguments; it is run directly, never through a\n"
                    "shell: it reads {\"trial\": i, \"parameters\": {...}} on stdin and prints {\"metrics\":\n"
                    "{NAME: v, ...}} on stdout, or {\"objective\": v} when there is one metric), or by hand\n"
                    "(--evaluator manual: 'sebo suggest' proposes, 'sebo observe' records). --import adds past\n"
                    "results (every parameter column and a column per metric) as completed trials; they count\n"
                    "toward the initial design.\n"
                    "--from SOURCE takes the space, the objectives, the outcome constraints and every trial from\n"
                    "another tool's experiment instead: an Ax JSON snapshot, or an Optuna study (SQLite storage or\n"
                    "journal file). Its target is the status-quo arm when the experiment has one; otherwise\n"
                    "--target-trial N and --target NAME=VALUE, or the default rule (0, or the lower bound when 0 is\n"
                    "outside the range; a choice's first value). What could not be mapped exactly is listed as a\n"
                    "warning; what cannot be mapped at all is refused, naming it (docs/file-format.md, \"Imports\").\n") +
            kOutcomeExample,
        std::move(options));
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const bool from = parser.has("from");
    const auto space_path = parser.value("space");
    if (!space_path && !from) throw UsageError("--space FILE (or --from SOURCE) is required");
    const auto out = parser.value("out");
    if (!out) throw UsageError("--out FILE is required");
    if (std::filesystem::exists(*out) && !parser.has("force"))
        throw UsageError("--out: " + *out + " already exists; use --force to overwrite it");

    Experiment e = from ? experiment_from_source(parser) : experiment_from_space(parser, *space_path);
    // An imported experiment keeps its own name unless --name gives another.
    if (const auto name = parser.value("name")) e.name = *name;
    else if (!from || e.name.empty()) e.name = std::filesystem::path(*out).filename().string();
    if (const auto suffix = e.name.rfind(".sebo.json"); suffix != std::string::npos && suffix + 10 == e.name.size())
        e.name.resize(suffix);
    e.description = parser.value("description").value_or("");

    // The evaluator.
    const std::vector<std::string> command = parser.values("command");
    const std::string kind = parser.value("evaluator").value_or(command.empty() ? "manual" : "command");
    if (kind == "command") {
        if (command.empty()) throw UsageError("--evaluator command needs --command PROG [ARGS...] (the last option)");
        e.evaluator.kind = EvaluatorSpec::Kind::Command;
        e.evaluator.command = command;
        if (const auto timeout = parser.number("timeout")) {
            if (*timeout <= 0) throw UsageError("--timeout: " + format_number(*timeout) + " must be positive");
            e.evaluator.timeout_seconds = *timeout;
        }
        // Stored as an absolute path: the file may be run from anywhere later.
        const std::string workdir = parser.value("workdir").value_or(".");
        std::error_code error;
        const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(workdir), error);
        if (error || !std::filesystem::is_directory(absolute))
            throw UsageError("--workdir: '" + workdir + "' is not a directory");
        e.evaluator.working_directory = absolute.string();
        e.evaluator.max_concurrency =
            static_cast<int>(parser.integer("concurrency", 1, EvaluatorSpec::kMaxConcurrency).value_or(1));
        // The same checks the evaluator makes before it runs anything.
        CommandEvaluator check(e.evaluator, e.space, e.outcomes.metrics);
    } else if (kind == "manual") {
        for (const char* flag : {"command", "timeout", "workdir", "concurrency"})
            if (parser.has(flag)) throw UsageError(std::string("--") + flag + " needs --evaluator command");
        e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    } else {
        throw UsageError("--evaluator: unknown evaluator '" + kind + "' (known: command, manual)");
    }

    // The method.
    e.method.strategy = StrategyKind::SeboL0;
    if (const auto trials = parser.integer("trials", 1, 1'000'000)) e.method.budget = static_cast<int>(*trials);
    e.seed = parser.unsigned_integer("seed").value_or(0);
    // A new experiment measures the system as it runs today first (experiment/status_quo.h); an
    // imported one continues from the source's trials.
    e.method.status_quo_first = !from && !parser.has("no-status-quo");
    apply_method_options(parser, e);
    if (auto error = e.method.validate()) throw InputError("method", *error);

    if (const auto past = parser.value("import")) e.trials = read_import(e, *past);
    // Under the file's write lock, so that a file another process creates or runs at the same
    // moment is neither overwritten without --force nor half-replaced.
    // A file that another process runs is not replaced: its run lock is taken for the moment.
    const double wait = wait_seconds(parser);
    const FileLockOptions lock = lock_options("sebo new", wait, parser.has("quiet"));
    FileLock run_lock;
    if (parser.has("force")) {
        FileLockOptions run = lock;
        run.activity = "being replaced by";
        run_lock = acquire_run_lock(*out, run);
        print_note("sebo new", takeover_note(run_lock, *out));
    }
    SharedExperimentFile(*out, lock, [](const std::string& note) { print_note("sebo new", note); })
        .replace(e, !parser.has("force"));
    run_lock.release();

    if (!parser.has("quiet")) {
        std::string parameters = std::to_string(e.space.dimension()) + " parameters";
        if (!e.space.fixed_parameters().empty()) parameters += " (+" + std::to_string(e.space.fixed_parameters().size()) + " fixed)";
        if (e.space.has_constraints()) parameters += ", " + std::to_string(e.space.constraints().size()) + " parameter constraint(s)";
        std::fprintf(stderr, "created %s: %s; %s; strategy %s, budget %d\n", out->c_str(), parameters.c_str(),
                     e.outcomes.summary().c_str(), to_string(e.method.strategy), e.method.budget);
        if (!e.trials.empty() && !from) std::fprintf(stderr, "imported %zu completed trials\n", e.trials.size());
        else if (e.method.status_quo_first)
            std::fprintf(stderr, "first trial  the status quo: every parameter at its target (--no-status-quo to skip)\n");
        if (!from) warn_extreme_imports(e, e.trials.size(), *out);
        if (static_cast<int>(e.trials.size()) >= e.method.budget)
            std::fprintf(stderr, "note: the imported trials already fill the budget; raise it with --trials\n");
        if (e.evaluator.kind == EvaluatorSpec::Kind::Command) {
            std::fprintf(stderr, "evaluator    %s\n", describe_command(e.evaluator).c_str());
            std::fprintf(stderr, "next         sebo run %s --trials %d --evaluator command\n", out->c_str(), e.method.budget);
        } else {
            std::fprintf(stderr, "evaluator    manual\n");
            std::fprintf(stderr, "next         sebo suggest %s, then sebo observe %s --trial I --value %s\n", out->c_str(),
                         out->c_str(), e.outcomes.metrics.size() == 1 ? "V" : "NAME=V [--value NAME=V ...]");
        }
    }
    return 0;
}

int command_import(const Args& args) {
    Arguments parser("import", "FILE PAST.csv [--quiet]",
                     "Add past results to an experiment as completed trials (generator \"import\"). The CSV needs a\n"
                     "column per parameter and a column per metric, named as in the experiment (with one metric,\n"
                     "'objective' also names it); '<metric>_sem' (or 'sem' with one metric) holds a standard\n"
                     "error, other columns are ignored. Every row needs a value of each objective and constrained\n"
                     "metric (a tracked metric's cell may be empty). Every value is checked against the search\n"
                     "space; if any row has a problem, nothing is imported.",
                     {wait_option(), {"quiet", "", "print nothing but errors"}}, 2, "FILE PAST.csv");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().size() != 2) throw UsageError("an experiment FILE and a CSV file are required");
    const std::string& path = parser.positionals()[0];
    SharedExperimentFile file(path, lock_options("sebo import", wait_seconds(parser), parser.has("quiet")),
                              [](const std::string& note) { print_note("sebo import", note); });
    std::size_t count = 0;
    // Read, check and append under the write lock: the trials get indices after the file's last.
    const Experiment e = file.edit([&](Experiment& current) {
        std::vector<Trial> imported = read_import(current, parser.positionals()[1]);
        count = imported.size();
        for (Trial& t : imported) current.trials.push_back(std::move(t));
    });
    if (!parser.has("quiet")) {
        std::fprintf(stderr, "imported %zu completed trials into %s (%zu trials in all)\n", count, path.c_str(), e.trials.size());
        if (static_cast<int>(e.trials.size()) >= e.method.budget)
            std::fprintf(stderr, "note: the experiment has reached its budget of %d trials; raise it with 'sebo run %s --trials N'\n",
                         e.method.budget, path.c_str());
        warn_extreme_imports(e, count, path);
    }
    return 0;
}

}  // namespace sebo::cli
