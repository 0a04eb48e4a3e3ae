#include "io/experiment_file.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/experiment_migration.h"
#include "io/experiment_fields.h"
#include "io/json_document.h"
#include "io/json_fields.h"
#include "io/choice_json.h"
#include "io/linear_constraint_text.h"
#include "io/min_change_json.h"

namespace sebo {
namespace {

using namespace json_fields;
using namespace experiment_fields;

// ---------------------------------------------------------------------------------------------
// Reading

// SearchSpace::validate_parameter says "field: message" of one parameter; the file calls the
// field "space.parameters[i].field" (names may contain any character, so a message is never
// searched for them).
void check_parameter(const Parameter& p, const std::string& path) {
    const auto error = SearchSpace::validate_parameter(p);
    if (!error) return;
    const auto colon = error->find(": ");
    if (colon != std::string::npos) fail(path + "." + error->substr(0, colon), error->substr(colon + 2));
    fail(path, *error);
}

// A fixed parameter (issue 14, item 2): {"name", "kind": "fixed", "value"}, bounds optional.
Parameter read_fixed_parameter(const Document& value, const std::string& path, Parameter p) {
    if (optional_member(value, "target"))
        fail(member_path(path, "target"), "a fixed parameter has a \"value\" instead of a target");
    if (!optional_member(value, "value")) fail(member_path(path, "value"), "a fixed parameter needs a value");
    double v = 0.0;
    read_required(value, path, "value", v);
    p.target = v;
    const bool lower = read_optional(value, path, "lower", p.lower);
    const bool upper = read_optional(value, path, "upper", p.upper);
    if (lower != upper)
        fail(member_path(path, lower ? "upper" : "lower"), "a fixed parameter's bounds are both given or neither");
    if (!lower) p.lower = p.upper = v;
    read_optional(value, path, "log", p.log_scale);
    read_optional(value, path, "group", p.group);
    if (const Document* m = optional_member(value, "min_change")) p.min_change = read_min_change(*m, member_path(path, "min_change"));
    check_parameter(p, path);
    return p;
}

Parameter read_parameter(const Document& value, const std::string& path) {
    expect_object(value, path);
    Parameter p;
    read_required(value, path, "name", p.name);
    if (p.name.empty()) fail(member_path(path, "name"), "a parameter name must not be empty");
    read_optional(value, path, "kind", p.kind);
    if (p.kind == ParameterKind::Fixed) return read_fixed_parameter(value, path, std::move(p));
    if (p.kind == ParameterKind::Choice) {
        read_choice_parameter(value, path, p);
        read_optional(value, path, "group", p.group);
        check_parameter(p, path);
        return p;
    }    if (optional_member(value, "value"))
        fail(member_path(path, "value"), "only a fixed parameter (\"kind\": \"fixed\") has a value; this one is " +
                                             std::string(to_string(p.kind)));
    read_required(value, path, "lower", p.lower);
    read_required(value, path, "upper", p.upper);
    read_optional(value, path, "log", p.log_scale);
    read_optional(value, path, "target", p.target);
    read_optional(value, path, "group", p.group);
    if (const Document* m = optional_member(value, "min_change")) p.min_change = read_min_change(*m, member_path(path, "min_change"));
    check_parameter(p, path);
    return p;
}

// "parameter_constraints": ["fa + fb <= 1", ...] over the parameters of `space` (issue 14).
std::vector<LinearConstraint> read_parameter_constraints(const Document& list, const std::string& path, const SearchSpace& space) {
    const std::vector<ConstraintVariable> variables = constraint_variables(space);
    std::vector<LinearConstraint> constraints;
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::string at = element_path(path, k);
        std::string text;
        read_value(list[k], at, text);
        const ConstraintParse parsed = parse_linear_constraint(text, variables);
        if (!parsed.ok()) fail(at, shown_text(text) + ", " + parsed.error.describe());
        constraints.push_back(*parsed.constraint);
    }
    return constraints;
}

SearchSpace read_space(const Document& value, const std::string& path) {
    expect_object(value, path);
    const std::string list_path = member_path(path, "parameters");
    const Document& list = expect_array(required_member(value, path, "parameters"), list_path);
    if (list.empty()) fail(list_path, "the search space has no parameters");
    std::vector<Parameter> parameters;
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = element_path(list_path, i);
        Parameter p = read_parameter(list[i], at);
        if (!names.insert(p.name).second) fail(member_path(at, "name"), "duplicate parameter name " + shown_text(p.name));
        parameters.push_back(std::move(p));
    }
    std::vector<LinearConstraint> constraints;
    if (const Document* list = optional_member(value, "parameter_constraints")) {
        const std::string at = member_path(path, "parameter_constraints");
        expect_array(*list, at);
        const SearchSpace plain(parameters);
        if (!list->empty() && !plain.validate())
            constraints = read_parameter_constraints(*list, at, plain);
    }
    SearchSpace space(std::move(parameters), std::move(constraints));
    if (auto error = space.validate()) fail(path, *error);  // covered above; kept as a backstop
    return space;
}

Objective read_objective(const Document& value, const std::string& path) {
    expect_object(value, path);
    Objective objective;
    read_required(value, path, "metric", objective.metric);
    // Required: a silently assumed direction would optimize the wrong way.
    read_required(value, path, "minimize", objective.minimize);
    read_optional(value, path, "threshold", objective.threshold);
    return objective;
}

OutcomeConstraint read_constraint(const Document& value, const std::string& path) {
    expect_object(value, path);
    OutcomeConstraint constraint;
    read_required(value, path, "metric", constraint.metric);
    std::string op;
    read_required(value, path, "op", op);
    const auto sense = constraint_sense_from_string(op);
    if (!sense) fail(member_path(path, "op"), shown_text(op) + " is not a constraint operator; expected \"<=\" or \">=\"");
    constraint.sense = *sense;
    read_required(value, path, "bound", constraint.bound);
    return constraint;
}

// "metrics" (optional: the objectives' metrics when absent), "objectives" (required, 1 to 4),
// "constraints" (optional) of `object`, an experiment file's top level or a space file.
Outcomes read_outcomes(const Document& object) {
    Outcomes outcomes;
    const Document& objectives = expect_array(required_member(object, "", "objectives"), "objectives");
    for (std::size_t i = 0; i < objectives.size(); ++i)
        outcomes.objectives.push_back(read_objective(objectives[i], element_path("objectives", i)));
    if (const Document* constraints = optional_member(object, "constraints")) {
        expect_array(*constraints, "constraints");
        for (std::size_t i = 0; i < constraints->size(); ++i)
            outcomes.constraints.push_back(read_constraint((*constraints)[i], element_path("constraints", i)));
    }
    if (!read_optional(object, "", "metrics", outcomes.metrics))
        for (const Objective& o : outcomes.objectives)
            if (!outcomes.has_metric(o.metric)) outcomes.metrics.push_back(o.metric);
    if (auto error = outcomes.validate()) fail_with_message(*error);
    return outcomes;
}

ProblemSpec read_problem(const Document& value, const std::string& path) {
    expect_object(value, path);
    required_member(value, path, "name");
    ProblemSpec spec;
    read_fields(value, path, spec, VisitProblem{});
    // Ranges only; whether the problem exists and accepts these settings is decided by
    // make_problem() when the experiment runs, so that a file naming a problem this build does
    // not know still opens (its trials can be inspected).
    if (spec.name.empty()) fail(member_path(path, "name"), "a problem name must not be empty");
    if (spec.dimension < 0) fail(member_path(path, "dimension"), std::to_string(spec.dimension) + " is negative");
    for (std::size_t i = 0; i < spec.effective.size(); ++i)
        if (spec.effective[i] < 0)
            fail(element_path(member_path(path, "effective"), i), std::to_string(spec.effective[i]) + " is negative");
    if (spec.target && (*spec.target < 0.0 || *spec.target > 1.0))
        fail(member_path(path, "target"), format_number(*spec.target) + " is outside the unit interval [0, 1]");
    if (spec.repetitions < 0)
        fail(member_path(path, "repetitions"), std::to_string(spec.repetitions) + " is negative");
    if (const Document* noise = optional_member(value, "noise")) {
        const std::string at = member_path(path, "noise");
        expect_object(*noise, at);
        for (auto it = noise->begin(); it != noise->end(); ++it) {
            double sd = 0.0;
            read_value(it.value(), member_path(at, it.key()), sd);
            if (!(sd > 0.0)) fail(member_path(at, it.key()), format_number(sd) + " is not a positive standard deviation");
            spec.noise[it.key()] = sd;
        }
    }
    return spec;
}

EvaluatorSpec read_evaluator(const Document& value, const std::string& path) {
    expect_object(value, path);
    EvaluatorSpec spec;
    read_required(value, path, "kind", spec.kind);
    if (spec.kind == EvaluatorSpec::Kind::Problem)
        spec.problem = read_problem(required_member(value, path, "problem"), member_path(path, "problem"));
    if (spec.kind == EvaluatorSpec::Kind::Command) {
        const std::string command_path = member_path(path, "command");
        read_required(value, path, "command", spec.command);
        if (spec.command.empty()) fail(command_path, "the command needs at least the program to run");
        if (spec.command.front().empty()) fail(element_path(command_path, 0), "the program name must not be empty");
        if (read_optional(value, path, "timeout_seconds", spec.timeout_seconds) && !(spec.timeout_seconds > 0.0))
            fail(member_path(path, "timeout_seconds"), format_number(spec.timeout_seconds) + " is not positive");
        read_optional(value, path, "working_directory", spec.working_directory);
        // An object of NAME: value strings (names are unique, so their order does not matter).
        if (const Document* environment = optional_member(value, "environment")) {
            const std::string environment_path = member_path(path, "environment");
            expect_object(*environment, environment_path);
            for (auto it = environment->begin(); it != environment->end(); ++it) {
                const std::string at = member_path(environment_path, it.key());
                if (it.key().empty() || it.key().find_first_of(std::string("=\0", 2)) != std::string::npos)
                    fail(at, "an environment variable name must be non-empty, without '=' or NUL");
                std::string text;
                read_value(it.value(), at, text);
                if (text.find('\0') != std::string::npos) fail(at, "the value contains a NUL character");
                spec.environment.emplace_back(it.key(), std::move(text));
            }
        }
        if (read_optional(value, path, "max_concurrency", spec.max_concurrency) &&
            (spec.max_concurrency < 1 || spec.max_concurrency > EvaluatorSpec::kMaxConcurrency))
            fail(member_path(path, "max_concurrency"), std::to_string(spec.max_concurrency) + " is outside [1, " +
                                                           std::to_string(EvaluatorSpec::kMaxConcurrency) + "]");
    }
    return spec;
}

MethodSettings read_method(const Document& value, const std::string& path) {
    expect_object(value, path);
    MethodSettings method;
    read_fields(value, path, method, VisitMethod{});
    if (auto error = method.validate()) fail_with_message(*error);
    return method;
}

// Durations and standard errors: optional, finite and not negative.
void read_nonnegative(const Document& object, const std::string& path, const char* key, double& out) {
    if (read_optional(object, path, key, out) && out < 0.0)
        fail(member_path(path, key), format_number(out) + " is negative");
}

void read_nonnegative(const Document& object, const std::string& path, const char* key, std::optional<double>& out) {
    if (read_optional(object, path, key, out) && *out < 0.0)
        fail(member_path(path, key), format_number(*out) + " is negative");
}

std::vector<double> read_trial_parameters(const Document& value, const std::string& path, const SearchSpace& space,
                                          const std::unordered_map<std::string, int>& index_of) {
    expect_object(value, path);
    const auto d = static_cast<std::size_t>(space.dimension());
    std::vector<double> values(d, 0.0);
    std::vector<bool> seen(d, false);
    for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string at = member_path(path, it.key());
        const auto found = index_of.find(it.key());
        if (found == index_of.end())
            fail(at, "unknown parameter " + shown_text(it.key()) + "; the search space has no parameter of that name");
        const auto i = static_cast<std::size_t>(found->second);
        if (const Parameter& p = space.parameter(found->second); p.kind == ParameterKind::Choice)
            values[i] = read_choice_value(it.value(), at, p);
        else
            read_value(it.value(), at, values[i]);
        seen[i] = true;
    }
    for (std::size_t i = 0; i < d; ++i) {
        const std::string& name = space.parameter(static_cast<int>(i)).name;
        if (!seen[i]) fail(member_path(path, name), "missing value for parameter " + shown_text(name));
    }
    if (!space.check_point(values)) return values;
    // check_point reports "name: problem". Find the parameter by checking each value alone
    // (the others at their valid targets), so the path names it even when names look alike.
    const std::vector<double> target = space.target();
    for (std::size_t i = 0; i < d; ++i) {
        std::vector<double> probe = target;
        probe[i] = values[i];
        if (const auto error = space.check_point(probe)) {
            const std::string& name = space.parameter(static_cast<int>(i)).name;
            const std::string prefix = name + ": ";
            const bool named = error->compare(0, prefix.size(), prefix) == 0;
            fail(member_path(path, name), named ? error->substr(prefix.size()) : *error);
        }
    }
    fail(path, *space.check_point(values));
}

FitRecord read_fit_record(const Document& value, const std::string& path) {
    expect_object(value, path);
    required_member(value, path, "nuts");
    FitRecord r;
    read_fields(value, path, r, VisitFitRecord{});
    read_optional(value, path, "cold_start_reason", r.cold_start_reason);
    if (const Document* parameters = optional_member(value, "parameters")) {
        const std::string list = member_path(path, "parameters");
        expect_array(*parameters, list);
        for (std::size_t i = 0; i < parameters->size(); ++i) {
            const std::string at = element_path(list, i);
            const Document& entry = expect_object((*parameters)[i], at);
            ParameterConvergenceRecord p;
            read_required(entry, at, "name", p.parameter);
            read_optional(entry, at, "rhat", p.rhat);
            read_optional(entry, at, "ess_bulk", p.ess_bulk);
            r.parameters.push_back(std::move(p));
        }
    }
    if (auto error = r.validate(path)) fail_with_message(*error);
    return r;
}

MetricSamplerState read_metric_sampler_state(const Document& value, const std::string& path, const SearchSpace& space) {
    expect_object(value, path);
    MetricSamplerState s;
    read_optional(value, path, "warp_objective", s.warp_objective);
    read_required(value, path, "trials", s.trials);
    read_required(value, path, "fingerprint", s.fingerprint);
    read_required(value, path, "step_size", s.step_size);
    std::string metric;
    read_required(value, path, "metric", metric);
    if (metric != "dense" && metric != "diagonal")
        fail(member_path(path, "metric"), shown_text(metric) + " is not a metric kind; expected dense or diagonal");
    s.dense_metric = metric == "dense";
    read_required(value, path, "positions", s.positions);
    read_required(value, path, "inverse_metric", s.inverse_metric);
    if (auto error = s.validate(space.model_input_count(), path)) fail_with_message(*error);
    return s;
}

// {"NAME": state, ...}: each state is checked; those of metrics the experiment does not model
// (any more) are dropped — they could not be used — and the others kept in the order of the
// modelled metrics.
SamplerState read_sampler_state(const Document& value, const std::string& path, const SearchSpace& space,
                                const Outcomes& outcomes) {
    expect_object(value, path);
    std::map<std::string, MetricSamplerState> read;
    for (auto it = value.begin(); it != value.end(); ++it) {
        MetricSamplerState state = read_metric_sampler_state(it.value(), member_path(path, it.key()), space);
        state.metric = it.key();
        read.emplace(it.key(), std::move(state));
    }
    SamplerState s;
    for (const std::string& metric : outcomes.modelled_metrics())
        if (auto it = read.find(metric); it != read.end()) s.metrics.push_back(std::move(it->second));
    return s;
}

// {"name": {"mean": v, "sem": s}} or {"name": v}, every name a metric of the experiment.
MetricValues read_values(const Document& value, const std::string& path, const Outcomes& outcomes) {
    expect_object(value, path);
    MetricValues values;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string at = member_path(path, it.key());
        if (!outcomes.has_metric(it.key()))
            fail(at, "unknown metric " + shown_text(it.key()) + "; the metrics are " + outcomes.metric_list());
        Measurement m;
        if (it.value().is_object()) {
            read_required(it.value(), at, "mean", m.mean);
            read_nonnegative(it.value(), at, "sem", m.sem);
        } else {
            read_value(it.value(), at, m.mean);
        }
        values.emplace(it.key(), m);
    }
    return values;
}

Trial read_trial(const Document& value, const std::string& path, const SearchSpace& space,
                 const std::unordered_map<std::string, int>& index_of, const Outcomes& outcomes) {
    expect_object(value, path);
    Trial t;
    read_required(value, path, "index", t.index);
    if (t.index < 0) fail(member_path(path, "index"), std::to_string(t.index) + " is negative");
    read_required(value, path, "status", t.status);
    t.parameters = read_trial_parameters(required_member(value, path, "parameters"), member_path(path, "parameters"),
                                         space, index_of);
    if (const Document* values = optional_member(value, "values"))
        t.values = read_values(*values, member_path(path, "values"), outcomes);
    if (t.status == TrialStatus::Completed)
        for (const Objective& o : outcomes.objectives)
            if (!t.measurement(o.metric))
                fail(member_path(member_path(path, "values"), o.metric),
                     "a completed trial needs a value of every objective");
    read_optional(value, path, "generator", t.generator);
    read_optional(value, path, "error", t.error);
    read_nonnegative(value, path, "generation_seconds", t.generation_seconds);
    read_nonnegative(value, path, "evaluation_seconds", t.evaluation_seconds);
    read_optional(value, path, "created_at", t.created_at);
    read_optional(value, path, "completed_at", t.completed_at);
    if (const Document* excluded = optional_member(value, "excluded")) {
        const std::string at = member_path(path, "excluded");
        expect_object(*excluded, at);
        if (t.status != TrialStatus::Completed)
            fail(at, std::string("only a completed trial can be excluded from analysis (this one is ") +
                         to_string(t.status) + ")");
        TrialExclusion exclusion;
        read_required(*excluded, at, "reason", exclusion.reason);
        if (exclusion.reason.empty()) fail(member_path(at, "reason"), "the reason must not be empty");
        read_optional(*excluded, at, "at", exclusion.at);
        t.exclusion = std::move(exclusion);
    }
    if (const Document* fit = optional_member(value, "fit")) t.fit = read_fit_record(*fit, member_path(path, "fit"));
    if (const Document* truth = optional_member(value, "noise_free")) {
        const std::string at = member_path(path, "noise_free");
        expect_object(*truth, at);
        for (auto it = truth->begin(); it != truth->end(); ++it) {
            if (!outcomes.has_metric(it.key()))
                fail(member_path(at, it.key()), "unknown metric " + shown_text(it.key()) + "; the metrics are " + outcomes.metric_list());
            read_value(it.value(), member_path(at, it.key()), t.noise_free[it.key()]);
        }
    }
    return t;
}

std::vector<Trial> read_trials(const Document& value, const std::string& path, const SearchSpace& space,
                               const Outcomes& outcomes) {
    expect_array(value, path);
    std::unordered_map<std::string, int> index_of;
    for (int i = 0; i < space.dimension(); ++i) index_of.emplace(space.parameter(i).name, i);
    std::vector<Trial> trials;
    trials.reserve(value.size());
    std::set<int> indices;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = element_path(path, i);
        Trial t = read_trial(value[i], at, space, index_of, outcomes);
        if (!indices.insert(t.index).second)
            fail(member_path(at, "index"), "duplicate trial index " + std::to_string(t.index));
        trials.push_back(std::move(t));
    }
    return trials;
}

std::vector<ChosenConfiguration> read_chosen(const Document& value, const std::string& path,
                                             const std::vector<Trial>& trials) {
    expect_array(value, path);
    std::set<int> indices;
    for (const Trial& t : trials) indices.insert(t.index);
    std::vector<ChosenConfiguration> chosen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = element_path(path, i);
        expect_object(value[i], at);
        ChosenConfiguration c;
        read_required(value[i], at, "trial", c.trial);
        if (!indices.count(c.trial)) fail(member_path(at, "trial"), "no trial with index " + std::to_string(c.trial));
        read_optional(value[i], at, "note", c.note);
        chosen.push_back(std::move(c));
    }
    return chosen;
}

int read_version(const Document& document) {
    const Document& value = required_member(document, "", "version");
    int version = 0;
    read_value(value, "version", version);
    if (version > kExperimentVersion)
        fail("version", "this file has version " + std::to_string(version) + ", but this program reads versions up to " +
                            std::to_string(kExperimentVersion) + "; open it with a newer SEBO Explorer");
    if (version < 1) fail("version", std::to_string(version) + " is not a valid version (versions start at 1)");
    return version;
}

Experiment read_experiment(Document& document) {
    expect_object(document, "");
    const auto format = document.find("format");
    if (format == document.end())
        fail("format", std::string("required field is missing: this is not a SEBO experiment file ") +
                           "(expected \"format\": \"" + kExperimentFormat + "\")");
    if (!format->is_string() || format->get_ref<const std::string&>() != kExperimentFormat)
        fail("format", describe_value(*format) + " is not a SEBO experiment file format (expected \"" + kExperimentFormat + "\")");
    migrate_experiment_document(document, read_version(document));

    Experiment e;
    read_optional(document, "", "name", e.name);
    read_optional(document, "", "description", e.description);
    read_optional(document, "", "seed", e.seed);
    e.outcomes = read_outcomes(document);
    e.space = read_space(required_member(document, "", "space"), "space");
    if (const Document* evaluator = optional_member(document, "evaluator"))
        e.evaluator = read_evaluator(*evaluator, "evaluator");
    if (const Document* method = optional_member(document, "method")) e.method = read_method(*method, "method");
    if (const Document* trials = optional_member(document, "trials"))
        e.trials = read_trials(*trials, "trials", e.space, e.outcomes);
    if (const Document* chosen = optional_member(document, "chosen"))
        e.chosen = read_chosen(*chosen, "chosen", e.trials);
    if (const Document* state = optional_member(document, "sampler_states")) {
        SamplerState s = read_sampler_state(*state, "sampler_states", e.space, e.outcomes);
        if (!s.metrics.empty()) e.sampler_state = std::move(s);
    }
    // Everything above is checked field by field; this is the experiment's own consistency
    // check, so that a rule added there is enforced on load too.
    if (auto error = e.validate()) fail_with_message(*error);
    return e;
}

}  // namespace

Experiment experiment_from_json_text(const std::string& text) {
    Document document = parse_json_document(text, kMaxJsonNesting);
    return read_experiment(document);
}

SearchSpace space_from_json_text(const std::string& text) {
    const Document document = parse_json_document(text, kMaxJsonNesting);
    return read_space(document, "");
}

std::optional<Outcomes> outcomes_from_json_text(const std::string& text) {
    const Document document = parse_json_document(text, kMaxJsonNesting);
    expect_object(document, "");
    for (const char* key : {"metrics", "objectives", "constraints"})
        if (optional_member(document, key)) return read_outcomes(document);
    return std::nullopt;
}

Experiment load_experiment(const std::string& path) { return experiment_from_json_text(read_experiment_text(path)); }

}  // namespace sebo
