#include "io/imported_experiment.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/format.h"
#include "core/input_error.h"
#include "io/csv_table.h"
#include "io/import_ax.h"
#include "io/import_optuna.h"
#include "space/space_constraints.h"

namespace sebo {

namespace {

const char* const kDefaultRule =
    "the default rule: 0, or the lower bound when 0 is outside the range, and a choice's first value";

// A --target value for parameter p, as a number in the configuration vector (a choice: its index).
double read_target_value(const Parameter& p, const std::string& text, const std::string& field) {
    if (p.kind == ParameterKind::Choice) {
        if (const auto k = choice_index(p, text)) return *k;
        std::string values;
        for (const ChoiceValue& v : p.values) values += (values.empty() ? "" : ", ") + v.text;
        throw InputError(field, "'" + text + "' is not one of the values " + values);
    }
    const auto value = parse_number(text);
    if (!value || !std::isfinite(*value)) throw InputError(field, "'" + text + "' is not a number");
    if (*value < p.lower || *value > p.upper)
        throw InputError(field, format_number(*value) + " is outside the range [" + format_number(p.lower) + ", " +
                                    format_number(p.upper) + "] of parameter '" + p.name + "'");
    if (p.kind == ParameterKind::Integer && std::floor(*value) != *value)
        throw InputError(field, format_number(*value) + " is not an integer (parameter '" + p.name + "' is)");
    return *value;
}

std::string names_of(const std::vector<Parameter>& parameters) {
    std::string names;
    for (const Parameter& p : parameters) names += (names.empty() ? "'" : ", '") + p.name + "'";
    return names;
}

}  // namespace

void finish_imported_experiment(ImportedExperiment& imported) {
    Experiment& e = imported.experiment;
    e.evaluator = EvaluatorSpec{};
    e.method = MethodSettings{};
    e.method.strategy = StrategyKind::SeboL0;
    constexpr int kRoom = 20;
    e.method.budget = std::max(e.method.budget, static_cast<int>(e.trials.size()) + kRoom);
    if (const auto error = e.validate()) {
        const auto colon = error->find(": ");
        throw InputError(colon == std::string::npos ? "" : error->substr(0, colon),
                         "the imported experiment is not consistent: " + (colon == std::string::npos ? *error : error->substr(colon + 2)));
    }
}

std::string target_values_text(const SearchSpace& space) {
    std::string text;
    for (const Parameter& p : space.parameters())
        text += (text.empty() ? "" : ", ") + p.name + " = " + value_text(p, p.resolved_target());
    return text;
}

ImportTarget choose_import_target(ImportedExperiment& imported, const ImportTargetChoice& choice) {
    Experiment& e = imported.experiment;
    std::vector<Parameter> parameters = e.space.declared_parameters();
    ImportTarget target;
    std::string base;
    // The base: a trial, the status quo, or the default rule (every target unset).
    std::optional<std::vector<double>> values;
    if (choice.trial) {
        if (*choice.trial < 0 || *choice.trial >= static_cast<int>(e.trials.size()))
            throw InputError("--target-trial", "there is no trial " + std::to_string(*choice.trial));
        const std::size_t t = static_cast<std::size_t>(*choice.trial);
        values = e.trials[t].parameters;
        target.basis = ImportTarget::Basis::Trial;
        base = t < imported.origins.size() ? imported.origins[t].label : "trial " + std::to_string(e.trials[t].index);
    } else if (imported.status_quo && !choice.default_rule) {
        values = imported.status_quo->values;
        target.basis = ImportTarget::Basis::StatusQuo;
        base = imported.status_quo->description;
    } else {
        target.basis = ImportTarget::Basis::DefaultRule;
        base = kDefaultRule;
    }
    std::size_t varying = 0;
    for (Parameter& p : parameters) {
        if (p.kind == ParameterKind::Fixed) continue;
        if (values && varying < values->size()) p.target = (*values)[varying];
        else p.target.reset();
        ++varying;
    }
    std::vector<std::string> overridden;
    for (const auto& given : choice.values) {
        // (Not a structured binding: a lambda below names the parameter, which clang 14 refuses.)
        const std::string& name = given.first;
        const std::string& text = given.second;
        const std::string field = "--target " + name;
        const auto it = std::find_if(parameters.begin(), parameters.end(), [&](const Parameter& p) { return p.name == name; });
        if (it == parameters.end()) throw InputError(field, "no parameter is named '" + name + "'; the parameters are " + names_of(parameters));
        if (it->kind == ParameterKind::Fixed)
            throw InputError(field, "'" + name + "' is a fixed parameter: its value is its own target and never changes");
        if (std::find(overridden.begin(), overridden.end(), name) != overridden.end())
            throw InputError(field, "'" + name + "' is given twice");
        it->target = read_target_value(*it, text, field);
        overridden.push_back(name);
    }
    e.space = SearchSpace(std::move(parameters), e.space.constraints());
    if (const auto error = e.space.validate()) throw InputError("target", *error);
    // As `sebo new` checks a new space: constraints no configuration satisfies, or a target that
    // violates one (space/space_constraints.h).
    if (const auto error = check_constraints_on_creation(e.space)) throw InputError("target", *error);
    target.description = base;
    if (!overridden.empty()) {
        std::string names;
        for (const std::string& n : overridden) names += (names.empty() ? "" : ", ") + n;
        target.description += ", with the targets given for " + names;
    }
    target.description += " (" + target_values_text(e.space) + ")";
    return target;
}

int find_source_trial(const ImportedExperiment& imported, const std::string& text) {
    const auto& origins = imported.origins;
    for (std::size_t i = 0; i < origins.size(); ++i)
        if (!origins[i].arm.empty() && origins[i].arm == text) return static_cast<int>(i);
    const auto number = parse_number(text);
    if (!number || std::floor(*number) != *number || std::abs(*number) > 2e9)
        throw InputError("--target-trial", "'" + text + "' is not a trial number" +
                                               (origins.empty() || origins.front().arm.empty() ? "" : " or an arm's name"));
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < origins.size(); ++i)
        if (origins[i].number == static_cast<int>(*number)) found.push_back(i);
    if (found.empty()) {
        std::string known;
        if (!origins.empty()) {
            int lowest = origins.front().number, highest = lowest;
            for (const TrialOrigin& o : origins) {
                lowest = std::min(lowest, o.number);
                highest = std::max(highest, o.number);
            }
            known = "; the imported trials are numbered " + std::to_string(lowest) + " to " + std::to_string(highest);
        }
        throw InputError("--target-trial", "no imported trial has the number " + text + known);
    }
    if (found.size() > 1) {
        std::string arms;
        for (std::size_t i : found) arms += (arms.empty() ? "" : ", ") + origins[i].arm;
        throw InputError("--target-trial", "trial " + text + " is a batch of " + std::to_string(found.size()) +
                                               " arms; name one of them: " + arms);
    }
    return static_cast<int>(found.front());
}

const char* to_string(ImportFormat format) {
    switch (format) {
    case ImportFormat::AxSnapshot: return "Ax JSON snapshot";
    case ImportFormat::OptunaSqlite: return "Optuna SQLite storage";
    case ImportFormat::OptunaJournal: return "Optuna journal file";
    }
    return "Ax JSON snapshot";
}

std::string import_source_path(const std::string& source) {
    // Optuna's RDB URL for SQLite: "sqlite:///relative.db" or "sqlite:////absolute.db".
    constexpr std::string_view kSqlite = "sqlite:///";
    if (source.compare(0, kSqlite.size(), kSqlite) == 0) return source.substr(kSqlite.size());
    return source;
}

ImportFormat detect_import_format(const std::string& path) {
    const auto message = [](int error) { return std::string(std::strerror(error)); };
    // O_NONBLOCK: a FIFO must not hang the check; it is refused as not a regular file.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw InputError("file", "cannot open " + path + ": " + message(errno));
    std::array<char, 512> head{};
    ssize_t n = -1;
    struct stat info {};
    const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
    if (regular) {
        do n = ::read(fd, head.data(), head.size());
        while (n < 0 && errno == EINTR);
    }
    const int read_error = errno;
    ::close(fd);
    if (!regular) throw InputError("file", path + " is not a regular file");
    if (n < 0) throw InputError("file", "cannot read " + path + ": " + message(read_error));
    const std::string_view bytes(head.data(), static_cast<std::size_t>(n));
    if (bytes.empty()) throw InputError("file", path + " is empty");
    // Every SQLite database file starts with this header string (sqlite.org/fileformat.html).
    if (bytes.substr(0, 16) == std::string_view("SQLite format 3\0", 16)) return ImportFormat::OptunaSqlite;
    std::size_t first = 0;
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") first = 3;
    while (first < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[first]))) ++first;
    if (first < bytes.size() && bytes[first] == '{') {
        // A journal's every line is one operation, and each starts with its op_code (Optuna writes
        // {"op_code": ..., "worker_id": ..., ...}); a snapshot is one object ("_type" first).
        const std::string_view line = bytes.substr(first, bytes.find('\n', first) - first);
        if (line.find("\"op_code\"") != std::string_view::npos) return ImportFormat::OptunaJournal;
        return ImportFormat::AxSnapshot;
    }
    throw InputError("file", path + " is neither an Ax JSON snapshot, an Optuna SQLite storage nor an Optuna journal file "
                                    "(it does not start with '{' or with the SQLite header)");
}

ImportedExperiment import_experiment(const std::string& source, const ImportOptions& options) {
    const std::string path = import_source_path(source);
    const ImportFormat format = detect_import_format(path);
    if (format == ImportFormat::AxSnapshot) {
        if (!options.study.empty())
            throw InputError("--study", "an Ax snapshot holds one experiment; --study names an Optuna study");
        return import_ax_snapshot(path);
    }
    if (format == ImportFormat::OptunaSqlite) return import_optuna_sqlite(path, options.study);
    return import_optuna_journal(path, options.study);
}

}  // namespace sebo
