#include "io/optuna_sqlite.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <sqlite3.h>
#include <sys/stat.h>

#include "core/format.h"
#include "core/input_error.h"
#include "io/experiment_file.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo::optuna {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& message) { throw InputError(where, message); }

// A storage larger than this is refused before it is opened (a study of 100 000 trials is tens
// of MiB).
constexpr sqlite3_int64 kMaxStorageBytes = sqlite3_int64{1} << 30;
// No text or blob longer than this is read (a distribution or an attribute is a few hundred bytes).
constexpr int kMaxValueBytes = 64 << 20;
// The work one query may do, in SQLite virtual-machine steps (×1000, so 5·10^8, seconds): a
// hostile file cannot make a read run for ever, while each query of a real study reads its table
// once, a few steps per row.
constexpr int kProgressInterval = 1000;
constexpr long kMaxProgressCalls = 500'000;

// The tables and columns the import reads (models.py); other columns are not looked at.
const std::map<std::string, std::vector<std::string>>& required_columns() {
    static const std::map<std::string, std::vector<std::string>> columns = {
        {"version_info", {"schema_version", "library_version"}},
        {"studies", {"study_id", "study_name"}},
        {"study_directions", {"study_id", "direction", "objective"}},
        {"study_system_attributes", {"study_id", "key", "value_json"}},
        {"trials", {"trial_id", "number", "study_id", "state", "datetime_start", "datetime_complete"}},
        {"trial_params", {"param_id", "trial_id", "param_name", "param_value", "distribution_json"}},
        {"trial_values", {"trial_id", "objective", "value", "value_type"}},
        {"trial_intermediate_values", {"trial_id", "step", "intermediate_value", "intermediate_value_type"}},
        {"trial_system_attributes", {"trial_id", "key", "value_json"}},
    };
    return columns;
}

class Database {
public:
    explicit Database(const std::string& path) : path_(path) {
        struct stat info {};
        if (::stat(path.c_str(), &info) != 0) fail("file", "cannot open " + path + ": " + std::strerror(errno));
        if (!S_ISREG(info.st_mode)) fail("file", path + " is not a regular file");
        if (info.st_size > kMaxStorageBytes)
            fail("file", path + " is " + std::to_string(info.st_size) + " bytes; Optuna storages over " +
                             std::to_string(kMaxStorageBytes >> 20) + " MiB are refused");
        const int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK) {
            const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
            sqlite3_close(db_);
            db_ = nullptr;
            fail("file", "cannot open " + path + " as a SQLite database: " + why);
        }
        // A database is input: nothing in it runs (triggers, views, functions named in the schema),
        // and its pages are not trusted (defensive mode refuses writes that could corrupt memory).
        sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
        sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
        sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
        sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
        sqlite3_progress_handler(db_, kProgressInterval, &Database::progress, this);
        // Another process may be writing the study (an optimization running): wait a moment.
        sqlite3_busy_timeout(db_, 2000);
    }
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database() { sqlite3_close(db_); }

    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }
    void start_query() { progress_calls_ = 0; }
    [[noreturn]] void fail_sqlite(const std::string& what) const {
        const std::string why = progress_calls_ > kMaxProgressCalls ? "the query took too long (a damaged or hostile file?)"
                                                                    : sqlite3_errmsg(db_);
        fail("file", path_ + ": " + what + ": " + why);
    }

private:
    static int progress(void* self) { return ++static_cast<Database*>(self)->progress_calls_ > kMaxProgressCalls ? 1 : 0; }

    std::string path_;
    sqlite3* db_ = nullptr;
    long progress_calls_ = 0;
};

// One query; rows are read with step(), values with the typed accessors, which name the table,
// the row's key and the column in their messages.
class Query {
public:
    Query(Database& db, const std::string& table, const std::string& sql) : db_(db), table_(table) {
        db.start_query();
        if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) db.fail_sqlite("reading table " + table);
    }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;
    ~Query() { sqlite3_finalize(stmt_); }

    void bind(int index, long long value) { sqlite3_bind_int64(stmt_, index, value); }
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc != SQLITE_DONE) db_.fail_sqlite("reading table " + table_);
        return false;
    }
    // The row's key for messages: "trials[trial_id=5]".
    void set_row(const std::string& key) { row_ = table_ + "[" + key + "]"; }

    std::string field(const char* column) const { return (row_.empty() ? table_ : row_) + "." + column; }
    bool is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }

    long long integer(int i, const char* column) const {
        const int type = sqlite3_column_type(stmt_, i);
        if (type == SQLITE_INTEGER) return sqlite3_column_int64(stmt_, i);
        if (type == SQLITE_FLOAT) {
            const double x = sqlite3_column_double(stmt_, i);
            if (std::floor(x) == x && std::abs(x) < 9e15) return static_cast<long long>(x);
        }
        fail(field(column), "expected an integer, got " + shown(i));
    }
    std::optional<double> real(int i, const char* column) const {
        const int type = sqlite3_column_type(stmt_, i);
        if (type == SQLITE_NULL) return std::nullopt;
        if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) return sqlite3_column_double(stmt_, i);
        fail(field(column), "expected a number, got " + shown(i));
    }
    std::string text(int i, const char* column) const {
        if (sqlite3_column_type(stmt_, i) != SQLITE_TEXT) fail(field(column), "expected text, got " + shown(i));
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
        return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)));
    }
    std::optional<std::string> optional_text(int i, const char* column) const {
        if (is_null(i)) return std::nullopt;
        return text(i, column);
    }

private:
    // "the text 'abc'", "the number 1.5", "null", "a blob of 12 bytes".
    std::string shown(int i) const {
        switch (sqlite3_column_type(stmt_, i)) {
        case SQLITE_NULL: return "null";
        case SQLITE_INTEGER: return "the integer " + std::to_string(sqlite3_column_int64(stmt_, i));
        case SQLITE_FLOAT: return "the number " + format_number(sqlite3_column_double(stmt_, i));
        case SQLITE_TEXT: {
            const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
            return "the text " + shown_text(std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))));
        }
        default: return "a blob of " + std::to_string(sqlite3_column_bytes(stmt_, i)) + " bytes";
        }
    }

    Database& db_;
    std::string table_;
    std::string row_;
    sqlite3_stmt* stmt_ = nullptr;
};

// Every table and column the import reads is there, as a table (not a view), and the schema is
// the one this reader knows.
std::string check_schema(Database& db) {
    for (const auto& [table, columns] : required_columns()) {
        Query kind(db, "sqlite_master", "SELECT type FROM sqlite_master WHERE name = '" + table + "'");
        if (!kind.step())
            fail(table, "the table is missing: " + db.path() + " is not an Optuna storage (or is damaged)");
        if (kind.text(0, "type") != "table") fail(table, "is a " + kind.text(0, "type") + ", not a table");
        std::set<std::string> present;
        Query info(db, table, "SELECT name FROM pragma_table_info('" + table + "')");
        while (info.step()) present.insert(info.text(0, "name"));
        for (const std::string& c : columns)
            if (!present.count(c)) {
                std::string revision;
                Query a(db, "sqlite_master", "SELECT 1 FROM sqlite_master WHERE name = 'alembic_version' AND type = 'table'");
                if (a.step()) {
                    Query v(db, "alembic_version", "SELECT version_num FROM alembic_version");
                    if (v.step() && !v.is_null(0)) revision = v.text(0, "version_num");
                }
                fail(table + "." + c, "the column is missing" +
                                          (revision.empty() ? std::string() : " (the storage's migration is " + revision + ")") +
                                          "; a storage written by Optuna before 3.0 needs `optuna storage upgrade --storage "
                                          "sqlite:///" + db.path() + "` first");
            }
    }
    Query v(db, "version_info", "SELECT schema_version, library_version FROM version_info");
    if (!v.step()) fail("version_info", "the table is empty: it should hold the schema version");
    const long long schema = v.integer(0, "schema_version");
    const std::string library = v.optional_text(1, "library_version").value_or("");
    if (schema > kOptunaSchemaVersion)
        fail("version_info.schema_version", "the storage has schema version " + std::to_string(schema) + " (written by Optuna " +
                                                library + "); this program reads schema version " +
                                                std::to_string(kOptunaSchemaVersion) + " (Optuna 3.0 to 4.x)");
    if (schema < kOptunaSchemaVersion)
        fail("version_info.schema_version", "the storage has schema version " + std::to_string(schema) + " (written by Optuna " +
                                                library + "); upgrade it with `optuna storage upgrade --storage sqlite:///" +
                                                db.path() + "` (this program reads schema version 12)");
    return "Optuna SQLite storage (Optuna " + (library.empty() ? std::string("?") : library) + ", schema " +
           std::to_string(schema) + ")";
}

nlohmann::json json_value(const std::string& text, const std::string& where) {
    try {
        return parse_python_json(text, kMaxJsonNesting);
    } catch (const InputError& e) {
        fail(where, std::string("not JSON: ") + e.what());
    }
}

std::vector<std::pair<long long, OptunaStudySummary>> studies_of(Database& db) {
    std::vector<std::pair<long long, OptunaStudySummary>> out;
    Query q(db, "studies",
            "SELECT s.study_id, s.study_name, (SELECT COUNT(*) FROM trials t WHERE t.study_id = s.study_id) "
            "FROM studies s ORDER BY s.study_id");
    while (q.step()) {
        const long long id = q.integer(0, "study_id");
        q.set_row("study_id=" + std::to_string(id));
        out.push_back({id, {q.text(1, "study_name"), static_cast<int>(q.integer(2, "trials"))}});
    }
    return out;
}

}  // namespace

std::vector<OptunaStudySummary> read_sqlite_studies(const std::string& path) {
    Database db(path);
    check_schema(db);
    std::vector<OptunaStudySummary> out;
    for (auto& [id, s] : studies_of(db)) out.push_back(std::move(s));
    return out;
}

StudyRecord read_sqlite_study(const std::string& path, const std::string& study_name) {
    Database db(path);
    StudyRecord study;
    study.storage = check_schema(db);
    const auto studies = studies_of(db);
    std::vector<OptunaStudySummary> summaries;
    for (const auto& [id, s] : studies) summaries.push_back(s);
    const auto& [study_id, summary] = studies[select_study(summaries, study_name, path)];
    study.name = summary.name;

    {
        Query q(db, "study_directions", "SELECT objective, direction FROM study_directions WHERE study_id = ?1 ORDER BY objective");
        q.bind(1, study_id);
        while (q.step()) {
            const long long objective = q.integer(0, "objective");
            q.set_row("study_id=" + std::to_string(study_id) + ",objective=" + std::to_string(objective));
            if (objective != static_cast<long long>(study.minimize.size()))
                fail(q.field("objective"), "objectives are numbered 0, 1, ...; found " + std::to_string(objective) + " after " +
                                               std::to_string(study.minimize.size()) + " direction(s)");
            const std::string direction = q.text(1, "direction");
            if (direction != "MINIMIZE" && direction != "MAXIMIZE")
                fail(q.field("direction"), shown_text(direction) + " is not a direction (MINIMIZE or MAXIMIZE)");
            study.minimize.push_back(direction == "MINIMIZE");
        }
    }
    {
        Query q(db, "study_system_attributes", "SELECT key, value_json FROM study_system_attributes WHERE study_id = ?1");
        q.bind(1, study_id);
        while (q.step()) {
            const std::string key = q.text(0, "key");
            q.set_row("key=" + key);
            study.system_attrs[key] = json_value(q.text(1, "value_json"), q.field("value_json"));
        }
    }
    std::map<long long, std::size_t> position;  // trial_id -> index into study.trials
    const auto trial_of = [&](long long id, const Query& q) -> TrialRecord& {
        const auto it = position.find(id);
        if (it == position.end()) fail(q.field("trial_id"), "no trial of the study has trial_id " + std::to_string(id));
        return study.trials[it->second];
    };
    {
        Query q(db, "trials",
                "SELECT trial_id, number, state, datetime_start, datetime_complete FROM trials WHERE study_id = ?1 "
                "ORDER BY number, trial_id");
        q.bind(1, study_id);
        std::set<long long> numbers;
        while (q.step()) {
            const long long id = q.integer(0, "trial_id");
            q.set_row("trial_id=" + std::to_string(id));
            TrialRecord t;
            const long long number = q.integer(1, "number");
            if (number < 0 || number > 1'000'000'000) fail(q.field("number"), std::to_string(number) + " is not a trial number");
            if (!numbers.insert(number).second) fail(q.field("number"), "trial number " + std::to_string(number) + " appears twice");
            t.number = static_cast<int>(number);
            const std::string state = q.text(2, "state");
            const auto parsed = trial_state_from_name(state);
            if (!parsed) fail(q.field("state"), shown_text(state) + " is not a trial state (RUNNING, COMPLETE, PRUNED, FAIL, WAITING)");
            t.state = *parsed;
            if (const auto s = q.optional_text(3, "datetime_start")) t.started = time_seconds(*s);
            if (const auto c = q.optional_text(4, "datetime_complete")) t.completed = time_seconds(*c);
            t.where = "trials[trial_id=" + std::to_string(id) + "] (trial " + std::to_string(number) + ")";
            position[id] = study.trials.size();
            study.trials.push_back(std::move(t));
        }
    }
    const std::string of_study = " JOIN trials t ON t.trial_id = x.trial_id WHERE t.study_id = ?1";
    {
        Query q(db, "trial_params",
                "SELECT x.param_id, x.trial_id, x.param_name, x.param_value, x.distribution_json FROM trial_params x" + of_study +
                    " ORDER BY x.param_id");
        q.bind(1, study_id);
        while (q.step()) {
            q.set_row("param_id=" + std::to_string(q.integer(0, "param_id")));
            TrialRecord& t = trial_of(q.integer(1, "trial_id"), q);
            const std::string name = q.text(2, "param_name");
            const auto value = q.real(3, "param_value");
            if (!value) fail(q.field("param_value"), "expected a number, got null");
            const Distribution d = parse_distribution(q.text(4, "distribution_json"), q.field("distribution_json"));
            if (t.param(name)) fail(q.field("param_name"), "trial " + std::to_string(t.number) + " has parameter '" + name + "' twice");
            t.params.emplace_back(name, ParamValue{*value, d});
        }
    }
    {
        Query q(db, "trial_values", "SELECT x.trial_id, x.objective, x.value, x.value_type FROM trial_values x" + of_study +
                                        " ORDER BY x.trial_id, x.objective");
        q.bind(1, study_id);
        while (q.step()) {
            const long long id = q.integer(0, "trial_id");
            const long long objective = q.integer(1, "objective");
            q.set_row("trial_id=" + std::to_string(id) + ",objective=" + std::to_string(objective));
            TrialRecord& t = trial_of(id, q);
            if (objective != static_cast<long long>(t.values.size()))
                fail(q.field("objective"), "values are numbered 0, 1, ...; found " + std::to_string(objective) + " after " +
                                               std::to_string(t.values.size()));
            const std::string type = q.text(3, "value_type");
            // TrialValueModel stores infinities as a type, the value null.
            if (type == "FINITE") {
                const auto v = q.real(2, "value");
                if (!v) fail(q.field("value"), "a FINITE value is null");
                t.values.push_back(*v);
            } else if (type == "INF_POS" || type == "INF_NEG") {
                t.values.push_back(type == "INF_POS" ? HUGE_VAL : -HUGE_VAL);
            } else {
                fail(q.field("value_type"), shown_text(type) + " is not a value type (FINITE, INF_POS, INF_NEG)");
            }
        }
    }
    {
        Query q(db, "trial_intermediate_values",
                "SELECT x.trial_id, x.step, x.intermediate_value, x.intermediate_value_type FROM trial_intermediate_values x" + of_study);
        q.bind(1, study_id);
        while (q.step()) {
            const long long id = q.integer(0, "trial_id");
            const long long step = q.integer(1, "step");
            q.set_row("trial_id=" + std::to_string(id) + ",step=" + std::to_string(step));
            const std::string type = q.text(3, "intermediate_value_type");
            double value = std::nan("");
            if (type == "FINITE") {
                const auto v = q.real(2, "intermediate_value");
                if (!v) fail(q.field("intermediate_value"), "a FINITE value is null");
                value = *v;
            } else if (type == "INF_POS" || type == "INF_NEG") {
                value = type == "INF_POS" ? HUGE_VAL : -HUGE_VAL;
            } else if (type != "NAN") {
                fail(q.field("intermediate_value_type"), shown_text(type) + " is not a value type (FINITE, INF_POS, INF_NEG, NAN)");
            }
            trial_of(id, q).intermediate[step] = value;
        }
    }
    {
        Query q(db, "trial_system_attributes",
                "SELECT x.trial_id, x.key, x.value_json FROM trial_system_attributes x" + of_study +
                    " AND x.key IN ('constraints', 'fixed_params', 'fail_reason')");
        q.bind(1, study_id);
        while (q.step()) {
            const long long id = q.integer(0, "trial_id");
            const std::string key = q.text(1, "key");
            q.set_row("trial_id=" + std::to_string(id) + ",key=" + key);
            trial_of(id, q).system_attrs[key] = json_value(q.text(2, "value_json"), q.field("value_json"));
        }
    }
    return study;
}

}  // namespace sebo::optuna
