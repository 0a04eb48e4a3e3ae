#include "io/import_optuna.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/format.h"
#include "core/input_error.h"
#include "io/choice_json.h"
#include "io/csv_table.h"
#include "io/file_io.h"
#include "io/json_document.h"
#include "io/optuna_journal.h"
#include "io/optuna_sqlite.h"
#include "io/optuna_study.h"
#include "io/python_json.h"

namespace sebo {

namespace optuna {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& message) { throw InputError(where, message); }

// Optuna's FloatDistribution accepts a value on the step grid to 1e-8 of a step (_contains).
constexpr double kGridTolerance = 1e-8;

std::string join(const std::vector<std::string>& items, std::size_t shown = 8) {
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) text += (i ? ", " : "") + items[i];
    if (items.size() > shown) text += " and " + std::to_string(items.size() - shown) + " more";
    return text;
}

// A grid value as people write it: low + k·step computed in floating point gives
// 0.30000000000000004 for 0.3; 15 significant digits give 0.3 back, well within Optuna's tolerance.
double tidy(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", x);
    return std::strtod(text, nullptr);
}

ChoiceValue choice_value(const nlohmann::json& c) {
    ChoiceValue v;
    if (c.is_string()) {
        v.text = c.get<std::string>();
    } else if (c.is_number()) {
        v = number_choice_value(c.get<double>(), c.is_number_float());
    } else {
        v.literal = true;  // true, false, null (Python's True, False, None)
        v.text = c.dump();
    }
    return v;
}

// How one of the study's parameters becomes a parameter here, and a trial's value a value of it.
struct ParameterMapping {
    std::string name;
    Distribution distribution;  // bounds widened to every trial's
    std::optional<Parameter> parameter;  // unset: left out
    std::vector<double> grid;            // a step's values, when it became an ordered choice
};

ParameterMapping map_parameter(const std::string& name, const Distribution& d, std::vector<std::string>& warnings) {
    ParameterMapping m{name, d, std::nullopt, {}};
    Parameter p;
    p.name = name;
    const auto fixed = [&](double value) {
        p.kind = ParameterKind::Fixed;
        p.target = p.lower = p.upper = value;
        m.parameter = p;
        return m;
    };
    if (d.kind == Distribution::Kind::Categorical) {
        if (d.choices.size() == 1) {
            if (d.choices.front().is_number()) return fixed(d.choices.front().get<double>());
            warnings.push_back("parameter '" + name + "' has the single choice " + choice_value(d.choices.front()).text +
                               ", which is not a number: it is left out (SEBO's fixed parameters are numbers)");
            return m;
        }
        p.kind = ParameterKind::Choice;
        for (const nlohmann::json& c : d.choices) p.values.push_back(choice_value(c));
        m.parameter = p;
        return m;
    }
    if (d.low == d.high) return fixed(d.low);
    const bool is_int = d.kind == Distribution::Kind::Int;
    if (d.step && !(is_int && *d.step == 1.0)) {
        const double count = std::floor((d.high - d.low) / *d.step + kGridTolerance) + 1.0;
        if (count > kMaxStepValues)
            fail("parameter '" + name + "'", "Optuna's step " + format_number(*d.step) + " on [" + format_number(d.low) + ", " +
                                                 format_number(d.high) + "] gives " + format_number(count) +
                                                 " values; SEBO has no step and keeps one only as an ordered choice of at most " +
                                                 std::to_string(kMaxStepValues) + " values");
        if (count < 2) return fixed(d.low);
        p.kind = ParameterKind::Choice;
        p.ordered = true;
        for (int k = 0; k < static_cast<int>(count); ++k) {
            const double value = is_int ? d.low + k * *d.step : tidy(d.low + k * *d.step);
            m.grid.push_back(value);
            p.values.push_back(number_choice_value(value, !is_int));
        }
        std::string shown = format_number(m.grid.front()) + ", " + format_number(m.grid[1]);
        shown += m.grid.size() > 3 ? ", ..., " + format_number(m.grid.back()) : m.grid.size() == 3 ? ", " + format_number(m.grid.back()) : "";
        warnings.push_back("parameter '" + name + "': Optuna's step " + format_number(*d.step) + " on [" + format_number(d.low) + ", " +
                           format_number(d.high) + "] becomes an ordered choice of its " + std::to_string(m.grid.size()) +
                           " values (" + shown + "), since SEBO has no step");
        m.parameter = p;
        return m;
    }
    p.kind = is_int ? ParameterKind::Integer : ParameterKind::Continuous;
    p.lower = d.low;
    p.upper = d.high;
    p.log_scale = d.log;
    m.parameter = p;
    return m;
}

// The value a trial's internal representation gives in a configuration (a choice: its index),
// or why it is none.
std::optional<double> configuration_value(const ParameterMapping& m, double internal, std::string& problem) {
    const Parameter& p = *m.parameter;
    if (!std::isfinite(internal)) {
        problem = m.name + " = " + format_number(internal);
        return std::nullopt;
    }
    if (m.distribution.kind == Distribution::Kind::Categorical) {
        if (std::floor(internal) != internal || internal < 0 || internal >= static_cast<double>(p.values.size())) {
            problem = m.name + " has the choice index " + format_number(internal) + ", but there are " +
                      std::to_string(p.values.size()) + " choices";
            return std::nullopt;
        }
        return internal;
    }
    if (!m.grid.empty()) {
        // As Optuna's _contains: on the grid when (value − low) / step is within 1e-8 of a whole number.
        const double steps = (internal - m.distribution.low) / *m.distribution.step;
        const double k = std::round(steps);
        if (k < 0 || k >= static_cast<double>(m.grid.size()) || !(std::abs(steps - k) < kGridTolerance)) {
            problem = m.name + " = " + format_number(internal) + " is not on the step grid";
            return std::nullopt;
        }
        return k;
    }
    return internal;
}

// The internal representation of an enqueued trial's fixed value (external: the choice itself).
std::optional<double> internal_of_fixed(const ParameterMapping& m, const nlohmann::json& value) {
    if (m.distribution.kind == Distribution::Kind::Categorical) {
        for (std::size_t k = 0; k < m.distribution.choices.size(); ++k)
            if (m.distribution.choices[k] == value) return static_cast<double>(k);
        return std::nullopt;
    }
    const auto x = python_float(value);
    return x && std::isfinite(*x) ? x : std::nullopt;
}

}  // namespace

ImportedExperiment study_to_experiment(const StudyRecord& study) {
    ImportedExperiment imported;
    Experiment& e = imported.experiment;
    std::vector<std::string>& warnings = imported.warnings;
    e.name = study.name;
    imported.source = study.storage + ", study '" + study.name + "'";
    if (study.minimize.empty()) fail("study '" + study.name + "'", "the study has no direction (study_directions is empty)");

    // Parameters, in the order they first appear; their distributions widened to every trial's.
    std::vector<std::pair<std::string, Distribution>> seen;
    for (const TrialRecord& t : study.trials)
        for (const auto& [name, value] : t.params) {
            const auto it = std::find_if(seen.begin(), seen.end(), [&n = name](const auto& s) { return s.first == n; });
            if (it == seen.end()) {
                seen.emplace_back(name, value.distribution);
                continue;
            }
            if (!it->second.compatible(value.distribution))
                fail(t.where, "parameter '" + name + "' has the distribution " + value.distribution.json + ", but earlier trials have " +
                                  it->second.json);
            if (value.distribution.low < it->second.low || value.distribution.high > it->second.high) {
                it->second.low = std::min(it->second.low, value.distribution.low);
                it->second.high = std::max(it->second.high, value.distribution.high);
                it->second.json += " (widened)";
            }
        }
    std::vector<ParameterMapping> mappings;
    for (const auto& [name, d] : seen) {
        if (d.json.ends_with(" (widened)"))
            warnings.push_back("parameter '" + name + "' had different bounds in different trials: its range is all of them, [" +
                               format_number(d.low) + ", " + format_number(d.high) + "]");
        mappings.push_back(map_parameter(name, d, warnings));
    }
    if (mappings.empty()) fail("study '" + study.name + "'", "no trial of the study has a parameter");
    // A completed trial without one of the parameters: a conditional (define-by-run) space.
    for (const ParameterMapping& m : mappings) {
        std::vector<std::string> without;
        for (const TrialRecord& t : study.trials)
            if (t.state == TrialState::Complete && !t.param(m.name)) without.push_back(std::to_string(t.number));
        if (!without.empty())
            fail("parameter '" + m.name + "'", "completed trials " + join(without) +
                                                   " have no value of it: the study's search space is conditional (define-by-run), "
                                                   "which SEBO cannot represent");
    }
    std::vector<Parameter> parameters;
    for (const ParameterMapping& m : mappings)
        if (m.parameter) parameters.push_back(*m.parameter);
    e.space = SearchSpace(std::move(parameters));
    if (const auto error = e.space.validate()) fail("study '" + study.name + "'", *error);

    // Objectives: the study's metric names (Optuna 3.2+ study.set_metric_names), or Optuna's own
    // column names "value" / "values_0", "values_1", ...
    std::vector<std::string> names;
    if (const auto it = study.system_attrs.find("study:metric_names"); it != study.system_attrs.end()) {
        if (it->second.is_array() && it->second.size() == study.minimize.size() &&
            std::all_of(it->second.begin(), it->second.end(), [](const nlohmann::json& n) { return n.is_string(); }))
            for (const nlohmann::json& n : it->second) names.push_back(n.get<std::string>());
        else
            warnings.push_back("the study's metric names " + it->second.dump() + " do not fit its " +
                               std::to_string(study.minimize.size()) + " direction(s); Optuna's column names are used");
    }
    if (names.empty())
        for (std::size_t i = 0; i < study.minimize.size(); ++i)
            names.push_back(study.minimize.size() == 1 ? "value" : "values_" + std::to_string(i));
    e.outcomes = Outcomes{};
    for (std::size_t i = 0; i < names.size(); ++i) {
        e.outcomes.metrics.push_back(names[i]);
        e.outcomes.objectives.push_back({names[i], study.minimize[i], std::nullopt});
    }
    // Constraints: Optuna's constrained samplers record constraints_func's values per trial; a
    // trial is feasible when every one is <= 0.
    std::size_t constraint_count = 0;
    for (const TrialRecord& t : study.trials)
        if (const auto it = t.system_attrs.find("constraints"); it != t.system_attrs.end()) {
            if (!it->second.is_array()) fail(t.where, "its \"constraints\" are " + describe_value(it->second) + ", not a list of numbers");
            constraint_count = std::max(constraint_count, it->second.size());
        }
    for (std::size_t i = 0; i < constraint_count; ++i) {
        const std::string metric = "constraint_" + std::to_string(i);
        e.outcomes.metrics.push_back(metric);
        e.outcomes.constraints.push_back({metric, ConstraintSense::AtMost, 0.0});
    }
    if (const auto error = e.outcomes.validate()) fail("study '" + study.name + "'", *error);

    // Trials.
    std::map<std::string, std::vector<std::string>> dropped;  // state -> trial numbers
    std::vector<std::string> infinite, partial_constraints;
    for (const TrialRecord& t : study.trials) {
        Trial trial;
        trial.index = t.number;
        trial.generator = "optuna";
        std::string problem;
        const auto fixed_params = t.system_attrs.find("fixed_params");
        for (const ParameterMapping& m : mappings) {
            if (!m.parameter || m.parameter->kind == ParameterKind::Fixed) continue;
            std::optional<double> internal;
            if (const ParamValue* v = t.param(m.name)) internal = v->internal;
            // An enqueued trial not started yet holds its values in fixed_params (external form).
            else if (fixed_params != t.system_attrs.end() && fixed_params->second.is_object())
                if (const auto f = fixed_params->second.find(m.name); f != fixed_params->second.end()) internal = internal_of_fixed(m, *f);
            if (!internal) {
                problem = "no value of " + m.name;
                break;
            }
            const auto value = configuration_value(m, *internal, problem);
            if (!value) break;
            trial.parameters.push_back(*value);
        }
        if (problem.empty())
            if (const auto outside = e.space.check_point(trial.parameters)) problem = *outside;
        if (!problem.empty()) {
            if (t.state == TrialState::Complete) fail(t.where, "it cannot be a configuration of the search space: " + problem);
            dropped[to_string(t.state)].push_back(std::to_string(t.number));
            continue;
        }
        if (t.started && t.completed && *t.completed >= *t.started) trial.evaluation_seconds = *t.completed - *t.started;
        switch (t.state) {
        case TrialState::Running:
        case TrialState::Waiting: trial.status = TrialStatus::Pending; break;
        case TrialState::Fail: {
            trial.status = TrialStatus::Failed;
            const auto reason = t.system_attrs.find("fail_reason");  // Optuna 2 recorded one
            trial.error = reason != t.system_attrs.end() && reason->second.is_string()
                              ? reason->second.get<std::string>()
                              : "failed in Optuna (the storage does not record why)";
            break;
        }
        case TrialState::Pruned: {
            trial.status = TrialStatus::Abandoned;
            trial.error = "pruned by Optuna";
            if (!t.intermediate.empty()) {
                const auto& [step, value] = *t.intermediate.rbegin();
                trial.error += " at step " + std::to_string(step) + " (last reported value " + format_number(value) + ")";
            }
            break;
        }
        case TrialState::Complete: {
            if (t.values.size() != names.size())
                fail(t.where, "it has " + std::to_string(t.values.size()) + " value(s), but the study has " +
                                  std::to_string(names.size()) + " direction(s)");
            trial.status = TrialStatus::Completed;
            for (std::size_t i = 0; i < names.size(); ++i) {
                if (!std::isfinite(t.values[i])) {
                    trial.status = TrialStatus::Failed;
                    trial.values.clear();
                    trial.error = "Optuna recorded the value " + format_number(t.values[i]) + " of '" + names[i] + "'";
                    infinite.push_back(std::to_string(t.number));
                    break;
                }
                trial.values[names[i]] = Measurement{t.values[i], std::nullopt};
            }
            if (trial.status != TrialStatus::Completed) break;
            if (const auto it = t.system_attrs.find("constraints"); it != t.system_attrs.end()) {
                if (it->second.size() != constraint_count) partial_constraints.push_back(std::to_string(t.number));
                for (std::size_t i = 0; i < it->second.size(); ++i) {
                    const auto x = python_float(it->second[i]);
                    if (!x) fail(t.where, "its constraint value " + describe_value(it->second[i]) + " is not a number");
                    if (std::isfinite(*x)) trial.values["constraint_" + std::to_string(i)] = Measurement{*x, std::nullopt};
                }
            }
            break;
        }
        }
        e.trials.push_back(std::move(trial));
        imported.origins.push_back({t.number, "", "Optuna trial " + std::to_string(t.number)});
    }
    for (const auto& [state, numbers] : dropped)
        warnings.push_back(std::to_string(numbers.size()) + " " + state + " trial(s) without a value of every parameter (they stopped "
                           "before all were suggested) are not imported: " + join(numbers));
    if (!infinite.empty())
        warnings.push_back(std::to_string(infinite.size()) + " complete trial(s) with an infinite value are imported as failed: " + join(infinite));
    if (!partial_constraints.empty())
        warnings.push_back("trials " + join(partial_constraints) + " record fewer constraint values than others; the missing ones are "
                           "unknown, so those trials count as infeasible");
    finish_imported_experiment(imported);
    return imported;
}

}  // namespace optuna

std::vector<OptunaStudySummary> list_optuna_studies(const std::string& source) {
    const std::string path = import_source_path(source);
    if (detect_import_format(path) == ImportFormat::OptunaSqlite) return optuna::read_sqlite_studies(path);
    const optuna::JournalReplay replay = optuna::replay_journal(read_text_file(path, kMaxExperimentFileBytes));
    std::vector<OptunaStudySummary> out;
    for (const optuna::StudyRecord& s : replay.studies) out.push_back({s.name, static_cast<int>(s.trials.size())});
    return out;
}

ImportedExperiment import_optuna_sqlite(const std::string& path, const std::string& study) {
    return optuna::study_to_experiment(optuna::read_sqlite_study(path, study));
}

ImportedExperiment import_optuna_journal_text(const std::string& text, const std::string& study) {
    optuna::JournalReplay replay = optuna::replay_journal(text);
    std::vector<OptunaStudySummary> summaries;
    for (const optuna::StudyRecord& s : replay.studies) summaries.push_back({s.name, static_cast<int>(s.trials.size())});
    const std::size_t chosen = optuna::select_study(summaries, study, "the journal");
    ImportedExperiment imported = optuna::study_to_experiment(replay.studies[chosen]);
    imported.warnings.insert(imported.warnings.begin(), replay.warnings.begin(), replay.warnings.end());
    return imported;
}

ImportedExperiment import_optuna_journal(const std::string& path, const std::string& study) {
    return import_optuna_journal_text(read_text_file(path, kMaxExperimentFileBytes), study);
}

}  // namespace sebo
