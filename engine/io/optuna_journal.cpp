#include "io/optuna_journal.h"

#include <climits>
#include <cmath>
#include <map>

#include "core/format.h"
#include "core/input_error.h"
#include "io/experiment_file.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo::optuna {

namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& message) { throw InputError(where, message); }

// optuna.storages.journal's JournalOperation.
enum Operation {
    kCreateStudy = 0,
    kDeleteStudy = 1,
    kSetStudyUserAttr = 2,
    kSetStudySystemAttr = 3,
    kCreateTrial = 4,
    kSetTrialParam = 5,
    kSetTrialStateValues = 6,
    kSetTrialIntermediateValue = 7,
    kSetTrialUserAttr = 8,
    kSetTrialSystemAttr = 9,
    kDiscardTrials = 10,  // Optuna 4's replay skips it (only its Rust port writes it)
};

// The system attributes the import reads; the rest (samplers' bookkeeping) is not kept.
bool kept_attribute(const std::string& key) { return key == "constraints" || key == "fixed_params" || key == "fail_reason"; }

const Json& member(const Json& op, const std::string& line, const char* key) {
    const auto it = op.find(key);
    if (it == op.end()) fail(member_path(line, key), "required field is missing");
    return *it;
}

long long integer(const Json& value, const std::string& where) {
    if (value.is_number_integer()) return value.get<long long>();
    if (value.is_number_unsigned() && value.get<unsigned long long>() <= static_cast<unsigned long long>(LLONG_MAX))
        return static_cast<long long>(value.get<unsigned long long>());
    fail(where, "expected an integer, got " + describe_value(value));
}

long long integer_member(const Json& op, const std::string& line, const char* key) {
    return integer(member(op, line, key), member_path(line, key));
}

std::string string_member(const Json& op, const std::string& line, const char* key) {
    const Json& v = member(op, line, key);
    if (!v.is_string()) fail(member_path(line, key), "expected a string, got " + describe_value(v));
    return v.get<std::string>();
}

double number(const Json& value, const std::string& where) {
    const auto x = python_float(value);
    if (!x) fail(where, "expected a number, got " + describe_value(value));
    return *x;
}

const Json& object_member(const Json& op, const std::string& line, const char* key) {
    const Json& v = member(op, line, key);
    if (!v.is_object()) fail(member_path(line, key), "expected an object, got " + describe_value(v));
    return v;
}

std::optional<double> time_member(const Json& op, const std::string& line, const char* key) {
    const auto it = op.find(key);
    if (it == op.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) fail(member_path(line, key), "expected a time, got " + describe_value(*it));
    return time_seconds(it->get<std::string>());
}

TrialState state_member(const Json& op, const std::string& line) {
    const long long n = integer_member(op, line, "state");
    const auto state = trial_state_from_number(n);
    if (!state) fail(member_path(line, "state"), std::to_string(n) + " is not a trial state (0 to 4)");
    return *state;
}

std::vector<double> values_of(const Json& values, const std::string& where) {
    if (!values.is_array()) fail(where, "expected a list of values, got " + describe_value(values));
    std::vector<double> out;
    for (std::size_t i = 0; i < values.size(); ++i) out.push_back(number(values[i], element_path(where, i)));
    return out;
}

bool finished(TrialState s) { return s == TrialState::Complete || s == TrialState::Pruned || s == TrialState::Fail; }

struct Replayer {
    std::map<long long, StudyRecord> studies;  // by study_id
    std::vector<long long> study_order;
    long long next_study = 0;
    std::vector<std::pair<long long, TrialRecord>> trials;  // by trial_id: (study_id, trial)

    StudyRecord* study(long long id) {
        const auto it = studies.find(id);
        return it == studies.end() ? nullptr : &it->second;
    }

    // The trial, when it exists and is not finished (Optuna ignores updates of either).
    TrialRecord* updatable(const Json& op, const std::string& line) {
        const long long id = integer_member(op, line, "trial_id");
        if (id < 0 || id >= static_cast<long long>(trials.size())) return nullptr;
        TrialRecord& t = trials[static_cast<std::size_t>(id)].second;
        return finished(t.state) ? nullptr : &t;
    }

    void set_attribute(std::map<std::string, Json>& into, const Json& op, const std::string& line, const char* key, bool all) {
        for (const auto& [k, v] : object_member(op, line, key).items())
            if (all || kept_attribute(k)) into[k] = v;
    }

    void create_study(const Json& op, const std::string& line) {
        const std::string name = string_member(op, line, "study_name");
        const Json& directions = member(op, line, "directions");
        if (!directions.is_array()) fail(member_path(line, "directions"), "expected a list, got " + describe_value(directions));
        for (const auto& [id, s] : studies)
            if (s.name == name) return;
        StudyRecord s;
        s.name = name;
        for (std::size_t i = 0; i < directions.size(); ++i) {
            const std::string at = element_path(member_path(line, "directions"), i);
            const long long d = integer(directions[i], at);
            // StudyDirection: NOT_SET = 0, MINIMIZE = 1, MAXIMIZE = 2.
            if (d != 1 && d != 2) fail(at, std::to_string(d) + " is not a direction (1 minimize, 2 maximize)");
            s.minimize.push_back(d == 1);
        }
        studies.emplace(next_study, std::move(s));
        study_order.push_back(next_study++);
    }

    void create_trial(const Json& op, const std::string& line) {
        const long long study_id = integer_member(op, line, "study_id");
        StudyRecord* s = study(study_id);
        if (!s) return;
        TrialRecord t;
        t.number = static_cast<int>(s->trials.size());
        t.where = "trial " + std::to_string(t.number) + " of study '" + s->name + "' (" + line + ")";
        t.state = op.contains("state") ? state_member(op, line) : TrialState::Running;
        t.started = time_member(op, line, "datetime_start");
        t.completed = time_member(op, line, "datetime_complete");
        std::map<std::string, Distribution> distributions;
        if (const auto d = op.find("distributions"); d != op.end()) {
            if (!d->is_object()) fail(member_path(line, "distributions"), "expected an object, got " + describe_value(*d));
            for (const auto& [name, text] : d->items()) {
                const std::string at = member_path(member_path(line, "distributions"), name);
                if (!text.is_string()) fail(at, "expected a distribution's JSON text, got " + describe_value(text));
                distributions[name] = parse_distribution(text.get<std::string>(), at);
            }
        }
        if (const auto p = op.find("params"); p != op.end()) {
            if (!p->is_object()) fail(member_path(line, "params"), "expected an object, got " + describe_value(*p));
            for (const auto& [name, value] : p->items()) {
                const std::string at = member_path(member_path(line, "params"), name);
                const auto d = distributions.find(name);
                if (d == distributions.end()) fail(at, "the parameter has no distribution");
                t.params.emplace_back(name, ParamValue{number(value, at), d->second});
            }
        }
        if (const auto v = op.find("values"); v != op.end() && !v->is_null()) t.values = values_of(*v, member_path(line, "values"));
        else if (const auto one = op.find("value"); one != op.end() && !one->is_null()) t.values = {number(*one, member_path(line, "value"))};
        if (const auto a = op.find("system_attrs"); a != op.end() && a->is_object())
            for (const auto& [k, v] : a->items())
                if (kept_attribute(k)) t.system_attrs[k] = v;
        if (const auto iv = op.find("intermediate_values"); iv != op.end() && iv->is_object())
            for (const auto& [step, v] : iv->items()) {
                const std::string at = member_path(member_path(line, "intermediate_values"), step);
                char* end = nullptr;
                const long long n = std::strtoll(step.c_str(), &end, 10);
                if (step.empty() || *end != '\0') fail(at, "the step " + shown_text(step) + " is not an integer");
                t.intermediate[n] = number(v, at);
            }
        s->trials.push_back(t);
        trials.emplace_back(study_id, std::move(t));
    }

    void set_param(const Json& op, const std::string& line) {
        TrialRecord* t = updatable(op, line);
        if (!t) return;
        const std::string name = string_member(op, line, "param_name");
        const Json& d = member(op, line, "distribution");
        if (!d.is_string()) fail(member_path(line, "distribution"), "expected a distribution's JSON text, got " + describe_value(d));
        const Distribution distribution = parse_distribution(d.get<std::string>(), member_path(line, "distribution"));
        const double value = number(member(op, line, "param_value_internal"), member_path(line, "param_value_internal"));
        // The study's record of this trial is updated below with the others (sync_studies).
        const long long study_id = trials[static_cast<std::size_t>(integer_member(op, line, "trial_id"))].first;
        for (const auto& [sid, other] : trials)
            if (sid == study_id)
                if (const ParamValue* earlier = other.param(name)) {
                    if (!earlier->distribution.compatible(distribution)) return;
                    break;
                }
        for (auto& [n, v] : t->params)
            if (n == name) {
                v = ParamValue{value, distribution};
                return;
            }
        t->params.emplace_back(name, ParamValue{value, distribution});
    }

    void set_state_values(const Json& op, const std::string& line) {
        TrialRecord* t = updatable(op, line);
        if (!t) return;
        const TrialState state = state_member(op, line);
        if (state == TrialState::Running && t->state == TrialState::Running) return;
        if (state == TrialState::Running) t->started = time_member(op, line, "datetime_start");
        if (finished(state)) t->completed = time_member(op, line, "datetime_complete");
        t->state = state;
        if (const auto v = op.find("values"); v != op.end() && !v->is_null()) t->values = values_of(*v, member_path(line, "values"));
    }

    void apply(const Json& op, const std::string& line) {
        if (!op.is_object()) fail(line, "expected an operation (a JSON object), got " + describe_value(op));
        const long long code = integer_member(op, line, "op_code");
        switch (code) {
        case kCreateStudy: create_study(op, line); break;
        case kDeleteStudy: {
            const long long id = integer_member(op, line, "study_id");
            if (studies.erase(id)) std::erase(study_order, id);
            break;
        }
        case kSetStudyUserAttr:
            if (StudyRecord* s = study(integer_member(op, line, "study_id"))) set_attribute(s->user_attrs, op, line, "user_attr", true);
            break;
        case kSetStudySystemAttr:
            if (StudyRecord* s = study(integer_member(op, line, "study_id"))) set_attribute(s->system_attrs, op, line, "system_attr", true);
            break;
        case kCreateTrial: create_trial(op, line); break;
        case kSetTrialParam: set_param(op, line); break;
        case kSetTrialStateValues: set_state_values(op, line); break;
        case kSetTrialIntermediateValue:
            if (TrialRecord* t = updatable(op, line))
                t->intermediate[integer_member(op, line, "step")] =
                    number(member(op, line, "intermediate_value"), member_path(line, "intermediate_value"));
            break;
        case kSetTrialUserAttr:
            if (updatable(op, line)) object_member(op, line, "user_attr");  // checked, not kept
            break;
        case kSetTrialSystemAttr:
            if (TrialRecord* t = updatable(op, line)) set_attribute(t->system_attrs, op, line, "system_attr", false);
            break;
        case kDiscardTrials: break;
        default: fail(member_path(line, "op_code"), std::to_string(code) + " is not an operation of Optuna's journal (0 to 10)");
        }
    }
};

}  // namespace

JournalReplay replay_journal(const std::string& text) {
    Replayer r;
    JournalReplay out;
    std::size_t start = 0;
    int line_number = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = "line " + std::to_string(line_number);
        Json op;
        try {
            op = parse_python_json(line, kMaxJsonNesting);
        } catch (const InputError& e) {
            // A writer stopped in the middle of its last line: Optuna reads the lines before it.
            if (text.find_first_not_of(" \t\r\n", start) == std::string::npos) {
                out.warnings.push_back("the journal's last line (" + where + ") is cut short and is ignored, as Optuna ignores it");
                break;
            }
            fail(where, e.what());
        }
        r.apply(op, where);
    }
    // Each study's trials as they stand after every operation.
    for (auto& [id, s] : r.studies) s.trials.clear();
    for (const auto& [study_id, t] : r.trials)
        if (StudyRecord* s = r.study(study_id)) s->trials.push_back(t);
    for (long long id : r.study_order) {
        StudyRecord s = std::move(r.studies.at(id));
        s.storage = "Optuna journal file";
        out.studies.push_back(std::move(s));
    }
    return out;
}

}  // namespace sebo::optuna
