// Writing the experiment file (io/experiment_file.h): the experiment to JSON text, a trial's text
// for the text cache, and the atomic save.
#include <string>
#include <string_view>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/version.h"
#include "io/choice_json.h"
#include "io/experiment_fields.h"
#include "io/experiment_file.h"
#include "io/experiment_text_cache.h"
#include "io/file_io.h"
#include "io/json_fields.h"
#include "io/linear_constraint_text.h"
#include "io/min_change_json.h"

namespace sebo {
namespace {

using namespace json_fields;
using namespace experiment_fields;

Json parameter_to_json(const Parameter& p) {
    Json j = Json::object();
    j["name"] = p.name;
    j["kind"] = to_string(p.kind);
    if (p.kind == ParameterKind::Fixed) {
        j["value"] = p.resolved_target();
        // Bounds only when they were given (and say more than the value).
        if (p.lower != p.upper) {
            j["lower"] = p.lower;
            j["upper"] = p.upper;
        }
        return j;
    }
    if (p.kind == ParameterKind::Choice) {
        put_choice_parameter(j, p);
        if (!p.group.empty()) j["group"] = p.group;
        return j;
    }
    j["lower"] = p.lower;
    j["upper"] = p.upper;
    j["log"] = p.log_scale;
    put(j, "target", p.target);
    if (!p.group.empty()) j["group"] = p.group;
    if (p.min_change) j["min_change"] = min_change_to_json(*p.min_change);
    return j;
}

Json evaluator_to_json(const EvaluatorSpec& spec) {
    Json j = Json::object();
    j["kind"] = to_string(spec.kind);
    if (spec.kind == EvaluatorSpec::Kind::Problem) {
        j["problem"] = write_fields(spec.problem, VisitProblem{});
        if (!spec.problem.noise.empty()) j["problem"]["noise"] = spec.problem.noise;
    }
    if (spec.kind == EvaluatorSpec::Kind::Command) {
        j["command"] = spec.command;
        j["timeout_seconds"] = spec.timeout_seconds;
        if (!spec.working_directory.empty()) j["working_directory"] = spec.working_directory;
        if (!spec.environment.empty()) {
            Json environment = Json::object();
            for (const auto& [name, value] : spec.environment) environment[name] = value;
            j["environment"] = std::move(environment);
        }
        j["max_concurrency"] = spec.max_concurrency;
    }
    return j;
}

Json fit_record_to_json(const FitRecord& r) {
    Json j = write_fields(r, VisitFitRecord{});
    if (!r.cold_start_reason.empty()) j["cold_start_reason"] = r.cold_start_reason;
    Json parameters = Json::array();
    for (const ParameterConvergenceRecord& p : r.parameters) {
        Json entry = Json::object();
        entry["name"] = p.parameter;
        put(entry, "rhat", p.rhat);
        put(entry, "ess_bulk", p.ess_bulk);
        parameters.push_back(std::move(entry));
    }
    j["parameters"] = std::move(parameters);
    return j;
}

// {"name": {"mean": v, "sem": s}, ...} in the experiment's metric order; "sem" only when set.
Json values_to_json(const MetricValues& values, const std::vector<std::string>& metrics) {
    Json j = Json::object();
    for (const std::string& metric : metrics) {
        const auto it = values.find(metric);
        if (it == values.end()) continue;
        Json m = Json::object();
        m["mean"] = it->second.mean;
        put(m, "sem", it->second.sem);
        j[metric] = std::move(m);
    }
    return j;
}

void put_outcomes(Json& j, const Outcomes& outcomes) {
    j["metrics"] = outcomes.metrics;
    Json objectives = Json::array();
    for (const Objective& o : outcomes.objectives) {
        Json entry = Json{{"metric", o.metric}, {"minimize", o.minimize}};
        put(entry, "threshold", o.threshold);
        objectives.push_back(std::move(entry));
    }
    j["objectives"] = std::move(objectives);
    Json constraints = Json::array();
    for (const OutcomeConstraint& c : outcomes.constraints)
        constraints.push_back(Json{{"metric", c.metric}, {"op", to_string(c.sense)}, {"bound", c.bound}});
    j["constraints"] = std::move(constraints);
}

Json trial_to_json(const Trial& t, const SearchSpace& space, const std::vector<std::string>& metrics) {
    Json j = Json::object();
    j["index"] = t.index;
    j["status"] = to_string(t.status);
    Json values = Json::object();
    const std::size_t n = std::min(t.parameters.size(), static_cast<std::size_t>(space.dimension()));
    // Appended without ordered_json's operator[], which searches the keys linearly and would
    // make a trial of D parameters cost O(D^2). Names are unique in a valid space.
    auto& members = static_cast<Json::object_t::Container&>(values.get_ref<Json::object_t&>());
    members.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Parameter& p = space.parameter(static_cast<int>(i));
        if (p.kind == ParameterKind::Choice) members.emplace_back(p.name, choice_value_json(p, t.parameters[i]));
        else members.emplace_back(p.name, t.parameters[i]);
    }
    j["parameters"] = std::move(values);
    if (!t.values.empty()) j["values"] = values_to_json(t.values, metrics);
    j["generator"] = t.generator;
    if (!t.error.empty()) j["error"] = t.error;
    j["generation_seconds"] = t.generation_seconds;
    j["evaluation_seconds"] = t.evaluation_seconds;
    j["created_at"] = t.created_at;
    j["completed_at"] = t.completed_at;
    if (t.exclusion) j["excluded"] = Json{{"reason", t.exclusion->reason}, {"at", t.exclusion->at}};
    if (t.fit) j["fit"] = fit_record_to_json(*t.fit);
    if (!t.noise_free.empty()) j["noise_free"] = t.noise_free;
    return j;
}

Json metric_sampler_state_to_json(const MetricSamplerState& s) {
    Json j = Json::object();
    j["warp_objective"] = s.warp_objective;
    j["trials"] = s.trials;
    j["fingerprint"] = s.fingerprint;
    j["step_size"] = s.step_size;
    j["metric"] = s.dense_metric ? "dense" : "diagonal";
    j["positions"] = s.positions;
    j["inverse_metric"] = s.inverse_metric;
    return j;
}

// {"NAME": state, ...} in the order of the modelled metrics; a state of a metric that is no
// longer modelled is left out (it could not be used).
Json sampler_state_to_json(const SamplerState& s, const Outcomes& outcomes) {
    Json j = Json::object();
    for (const std::string& metric : outcomes.modelled_metrics())
        if (const MetricSamplerState* state = s.find(metric)) j[metric] = metric_sampler_state_to_json(*state);
    return j;
}

// `with_trials` false: an empty "trials" array, for experiment_json_text's splicing.
Json experiment_to_json(const Experiment& e, bool with_trials = true) {
    Json j = Json::object();
    j["format"] = kExperimentFormat;
    j["version"] = kExperimentVersion;
    j["written_by"] = program_version_text();
    j["name"] = e.name;
    j["description"] = e.description;
    j["seed"] = e.seed;
    put_outcomes(j, e.outcomes);
    Json parameters = Json::array();
    for (const Parameter& p : e.space.declared_parameters()) parameters.push_back(parameter_to_json(p));
    j["space"] = Json{{"parameters", std::move(parameters)}};
    if (e.space.has_constraints()) {
        Json constraints = Json::array();
        for (int k = 0; k < static_cast<int>(e.space.constraints().size()); ++k) constraints.push_back(e.space.constraint_text(k));
        j["space"]["parameter_constraints"] = std::move(constraints);
    }
    j["evaluator"] = evaluator_to_json(e.evaluator);
    j["method"] = write_fields(e.method, VisitMethod{});
    Json trials = Json::array();
    if (with_trials)
        for (const Trial& t : e.trials) trials.push_back(trial_to_json(t, e.space, e.outcomes.metrics));
    j["trials"] = std::move(trials);
    Json chosen = Json::array();
    for (const ChosenConfiguration& c : e.chosen) chosen.push_back(Json{{"trial", c.trial}, {"note", c.note}});
    j["chosen"] = std::move(chosen);
    if (e.sampler_state)
        if (Json states = sampler_state_to_json(*e.sampler_state, e.outcomes); !states.empty())
            j["sampler_states"] = std::move(states);
    return j;
}

}  // namespace

std::string experiment_to_json_text(const Experiment& experiment) {
    // nlohmann writes doubles with the shortest digits that parse back to the same bits
    // (checked in tests/engine/test_experiment_file.cpp), so the round trip is lossless.
    return experiment_to_json(experiment).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string trial_json_text(const Trial& trial, const SearchSpace& space, const std::vector<std::string>& metrics) {
    const std::string text = trial_to_json(trial, space, metrics).dump(2, ' ', false, Json::error_handler_t::replace);
    // An element of the root object's "trials" array is two levels deep. A string's line breaks
    // are escaped, so every '\n' of the text starts a line of the layout.
    constexpr std::string_view kIndent = "    ";
    std::string indented(kIndent);
    indented.reserve(text.size() + text.size() / 6);
    for (const char c : text) {
        indented += c;
        if (c == '\n') indented += kIndent;
    }
    return indented;
}

std::string experiment_json_text(const Experiment& experiment, const std::vector<const std::string*>& trial_texts) {
    if (trial_texts.size() != experiment.trials.size())
        throw std::logic_error("experiment_json_text: one text per trial is needed");
    std::string shell = experiment_to_json(experiment, false).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
    if (trial_texts.empty()) return shell;
    // The root's members are indented by two spaces (a sampler state's "trials" by six).
    constexpr std::string_view kEmptyTrials = "\n  \"trials\": []";
    const std::size_t at = shell.find(kEmptyTrials);
    if (at == std::string::npos) throw std::logic_error("experiment_json_text: no trials array in the layout");
    std::size_t size = shell.size() + 4 + 2 * trial_texts.size();
    for (const std::string* t : trial_texts) size += t->size();
    std::string text;
    text.reserve(size);
    text.append(shell, 0, at + kEmptyTrials.size() - 1);  // up to and including '['
    for (std::size_t i = 0; i < trial_texts.size(); ++i) {
        text += i == 0 ? "\n" : ",\n";
        text += *trial_texts[i];
    }
    text += "\n  ]";
    text.append(shell, at + kEmptyTrials.size(), std::string::npos);  // after ']'
    return text;
}

void save_experiment(const Experiment& experiment, const std::string& path, ExperimentTextCache* cache) {
    if (auto error = experiment.validate())
        throw std::runtime_error("cannot save " + path + ": the experiment is not valid (" + *error + ")");
    write_file_atomic(path, cache ? cache->text(experiment) : experiment_to_json_text(experiment));
}

}  // namespace sebo
