// Hostile and damaged records of other tools (issue 31, "Reliability"): each is refused with an
// InputError naming the file's field (the JSON path, the table, row and column, or the journal
// line) and the value — never a crash, a hang or a half-made experiment. The inputs are the
// project's real fixtures, cut or changed in one place.

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "io/ax_json.h"
#include "io/import_ax.h"
#include "io/import_optuna.h"
#include "io/imported_experiment.h"
#include "test_main.h"
#include "test_support.h"

namespace test_import_hostile {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

std::string fixture(const std::string& name) { return test::source_path("tests/fixtures/" + name); }

std::string read_file(const std::string& path) {
    QFile f(qs(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

void write_file(const std::string& path, const std::string& text) {
    QFile f(qs(path));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(text.data(), static_cast<qint64>(text.size())), static_cast<qint64>(text.size()));
}

// "field: message" of the InputError f throws; the field alone is `field`.
template <class F>
QString error_of(F f, std::string* field = nullptr) {
    try {
        f();
    } catch (const InputError& e) {
        if (field) *field = e.field();
        return qs(e.what());
    }
    return "no error";
}

// A copy of the Optuna fixture studies.db changed by `sql`.
std::string changed_storage(const QTemporaryDir& dir, const char* name, const std::string& sql) {
    const std::string path = dir.filePath(name).toStdString();
    write_file(path, read_file(fixture("optuna/studies.db")));
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) qFatal("cannot open %s", path.c_str());
    char* message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) qFatal("%s: %s", sql.c_str(), message);
    sqlite3_close(db);
    return path;
}

// The real Client fixture with its first DataFrame's text replaced.
std::string with_data_frame(const std::string& replacement) {
    nlohmann::json snapshot = nlohmann::json::parse(read_file(fixture("ax/ax_client_1x_handwritten.json")));
    snapshot["experiment"]["data_by_trial"]["0"]["value"][0][1]["df"]["value"] = replacement;
    return snapshot.dump();
}

}  // namespace

class TestImportHostile : public QObject {
    Q_OBJECT
private slots:
    void ax_snapshots() {
        const std::string real = read_file(fixture("ax/ax_client_snapshot_2025-02.json"));
        std::string field;
        // Truncated JSON.
        QVERIFY(error_of([&] { import_ax_snapshot_text(real.substr(0, real.size() / 2)); }, &field)
                    .contains("found the end of the text (it is cut short)"));
        QCOMPARE(qs(field), QString(""));
        // A DataFrame whose text is not JSON, or not a DataFrame, or over the size limit.
        const QString frame = "experiment.data_by_trial.0.value[0][1].df.value";
        QVERIFY(error_of([&] { import_ax_snapshot_text(with_data_frame("arm_name,mean\n0_0,1")); }, &field)
                    .startsWith(frame + ": the DataFrame's text is not a DataFrame: not valid JSON"));
        QCOMPARE(qs(field), frame);
        QCOMPARE(error_of([&] { import_ax_snapshot_text(with_data_frame("[1, 2]")); }),
                 frame + ": the DataFrame's text is not a JSON object of columns, it is an array");
        QCOMPARE(error_of([&] { import_ax_snapshot_text(with_data_frame("{\"mean\": {\"0\": \"high\"}, \"arm_name\": {\"0\": \"0_0\"}}")); }),
                 frame + ": row 0, column mean: expected a number, got the string \"high\"");
        QCOMPARE(error_of([&] {
                     import_ax_snapshot_text(with_data_frame("{\"mean\": {\"0\": 1}, \"sem\": {\"0\": Infinity}, \"arm_name\": {\"0\": \"0_0\"}}"));
                 }),
                 frame + ": row 0, column sem: inf is not a standard error (>= 0, finite)");
        const std::string huge(ax::kMaxDataFrameBytes + 1, ' ');
        QCOMPARE(error_of([&] { import_ax_snapshot_text(with_data_frame(huge)); }),
                 frame + ": the DataFrame's text is 67108865 bytes; texts over 64 MiB are refused");
        // Nesting far beyond any snapshot's.
        QVERIFY(error_of([&] { import_ax_snapshot_text(std::string(200, '[') + std::string(200, ']')); })
                    .startsWith("arrays and objects are nested deeper than 128 levels"));
        // A value of the wrong type names its path.
        nlohmann::json snapshot = nlohmann::json::parse(real);
        snapshot["experiment"]["search_space"]["parameters"][1]["name"] = 5;
        QCOMPARE(error_of([&] { import_ax_snapshot_text(snapshot.dump()); }),
                 QString("experiment.search_space.parameters[1].name: expected a string, got 5"));
        snapshot = nlohmann::json::parse(real);
        snapshot["experiment"]["trials"]["4"]["status"]["name"] = "PAUSED";
        QVERIFY(error_of([&] { import_ax_snapshot_text(snapshot.dump()); })
                    .startsWith("experiment.trials.4.status: unknown trial status \"PAUSED\""));
    }

    // A 2 GB snapshot is refused from its size, before anything is read (the file is sparse).
    void huge_files_are_refused_unread() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("huge.json").toStdString();
        write_file(path, "{\"_type\": \"AxClient\", \"experiment\": {\"data_by_trial\": {\"0\": {\"df\": {\"value\": \"");
        const int fd = ::open(path.c_str(), O_WRONLY);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, off_t{2} << 30), 0);
        ::close(fd);
        std::string field;
        QCOMPARE(error_of([&] { import_experiment(path); }, &field),
                 qs(path) + ": 2147483648 bytes; files over 256 MiB are refused");
        QCOMPARE(qs(field), qs(path));
    }

    void files_that_are_none_of_the_formats() {
        QTemporaryDir dir;
        const std::string empty = dir.filePath("empty").toStdString();
        write_file(empty, "");
        QCOMPARE(error_of([&] { import_experiment(empty); }), "file: " + qs(empty) + " is empty");
        QCOMPARE(error_of([&] { import_experiment(dir.path().toStdString()); }), "file: " + dir.path() + " is not a regular file");
        const std::string csv = dir.filePath("results.csv").toStdString();
        write_file(csv, "trial,objective\n0,1\n");
        QVERIFY(error_of([&] { import_experiment(csv); }).startsWith("file: " + qs(csv) + " is neither an Ax JSON snapshot"));
        QVERIFY(error_of([&] { import_experiment(dir.filePath("missing.db").toStdString()); }).startsWith("file: cannot open"));
        // SEBO's own file is no other tool's.
        QCOMPARE(error_of([&] { import_experiment(test::source_path("resources/examples/branin-50d.sebo.json")); }),
                 QString("format: this is a SEBO experiment file already: open it as it is (File › Open; sebo commands take it as FILE)"));
        // The SQLite header and then garbage; the real storage cut in half.
        const std::string fake = dir.filePath("fake.db").toStdString();
        write_file(fake, std::string("SQLite format 3\0", 16) + std::string(4000, 'x'));
        QVERIFY(error_of([&] { import_experiment(fake); }).startsWith("file: "));
        const std::string real = read_file(fixture("optuna/studies.db"));
        const std::string cut = dir.filePath("cut.db").toStdString();
        write_file(cut, real.substr(0, real.size() / 2));
        std::string field;
        QVERIFY(error_of([&] { import_experiment(cut, {"mlp"}); }, &field).contains("malformed"));
        QCOMPARE(qs(field), QString("file"));
    }

    void optuna_storages() {
        QTemporaryDir dir;
        const auto refused = [&](const char* name, const std::string& sql) {
            return error_of([&] { import_optuna_sqlite(changed_storage(dir, name, sql), "mlp"); });
        };
        QVERIFY(refused("no_values.db", "DROP TABLE trial_values").startsWith("trial_values: the table is missing: "));
        QCOMPARE(refused("text_number.db", "UPDATE trials SET number = 'abc' WHERE trial_id = 1"),
                 QString("trials[trial_id=1].number: expected an integer, got the text \"abc\""));
        QCOMPARE(refused("state.db", "UPDATE trials SET state = 'DONE' WHERE trial_id = 2"),
                 QString("trials[trial_id=2].state: \"DONE\" is not a trial state (RUNNING, COMPLETE, PRUNED, FAIL, WAITING)"));
        QCOMPARE(refused("newer.db", "UPDATE version_info SET schema_version = 13"),
                 QString("version_info.schema_version: the storage has schema version 13 (written by Optuna 3.1.0); this program "
                         "reads schema version 12 (Optuna 3.0 to 4.x)"));
        QVERIFY(refused("old.db", "ALTER TABLE trial_values DROP COLUMN value_type")
                    .startsWith("trial_values.value_type: the column is missing (the storage's migration is v3.0.0.d); a storage "
                                "written by Optuna before 3.0 needs `optuna storage upgrade"));
        QCOMPARE(refused("view.db", "ALTER TABLE trials RENAME TO t2; CREATE VIEW trials AS SELECT * FROM t2"),
                 QString("trials: is a view, not a table"));
        QVERIFY(refused("distribution.db", "UPDATE trial_params SET distribution_json = '{oops' WHERE param_id = 1")
                    .startsWith("trial_params[param_id=1].distribution_json: not valid JSON"));
        QCOMPARE(refused("value.db", "UPDATE trial_values SET value = x'00ff' WHERE trial_id = 1"),
                 QString("trial_values[trial_id=1,objective=0].value: expected a number, got a blob of 2 bytes"));
        QCOMPARE(refused("kind.db", "UPDATE trial_params SET distribution_json = '{\"name\": \"GaussDistribution\", \"attributes\": "
                                    "{\"low\": 0, \"high\": 1}}' WHERE param_id = 1"),
                 QString("trial_params[param_id=1].distribution_json: unknown distribution \"GaussDistribution\" (known: "
                         "FloatDistribution, IntDistribution, CategoricalDistribution and Optuna 2's classes)"));
        // What the mapping cannot represent.
        QCOMPARE(refused("conditional.db", "DELETE FROM trial_params WHERE param_name = 'dropout' AND trial_id IN "
                                           "(SELECT trial_id FROM trials WHERE number IN (2, 4) AND study_id = 1)"),
                 QString("parameter 'dropout': completed trials 2, 4 have no value of it: the study's search space is conditional "
                         "(define-by-run), which SEBO cannot represent"));
        QCOMPARE(refused("fine_step.db", "UPDATE trial_params SET distribution_json = '{\"name\": \"FloatDistribution\", \"attributes\": "
                                         "{\"step\": 0.001, \"low\": 0.5, \"high\": 0.95, \"log\": false}}' WHERE param_name = 'momentum'"),
                 QString("parameter 'momentum': Optuna's step 0.001 on [0.5, 0.95] gives 451 values; SEBO has no step and keeps one "
                         "only as an ordered choice of at most 100 values"));
    }

    void optuna_journals() {
        const auto refused = [](const std::string& lines) { return error_of([&] { import_optuna_journal_text(lines, ""); }); };
        const std::string study = "{\"op_code\": 0, \"worker_id\": \"w\", \"study_name\": \"s\", \"directions\": [2]}";
        QCOMPARE(refused(study + "\n" + "{\"op_code\": 42, \"worker_id\": \"w\"}" + "\n"),
                 QString("line 2.op_code: 42 is not an operation of Optuna's journal (0 to 10)"));
        QCOMPARE(refused(study + "\n" + "{\"op_code\": 4, \"worker_id\": \"w\", \"study_id\": \"x\"}" + "\n"),
                 QString("line 2.study_id: expected an integer, got the string \"x\""));
        QCOMPARE(refused("{\"op_code\": 0, \"worker_id\": \"w\", \"study_name\": \"s\", \"directions\": [0]}" "\n"),
                 QString("line 1.directions[0]: 0 is not a direction (1 minimize, 2 maximize)"));
        QCOMPARE(refused(study + "\n" + "{\"op_code\": 4, \"worker_id\": \"w\", \"study_id\": 0, \"datetime_start\": null}" + "\n" +
                         "{\"op_code\": 5, \"worker_id\": \"w\", \"trial_id\": 0, \"param_name\": \"x\", \"param_value_internal\": 1, "
                         "\"distribution\": \"{\\\"name\\\": \\\"FloatDistribution\\\", \\\"attributes\\\": {\\\"low\\\": 0, \\\"high\\\": NaN}}\"}" + "\n"),
                 QString("line 3.distribution: the distribution's \"high\" is the special float nan, not a finite number"));
        QCOMPARE(refused(study + "\n"), QString("study 's': no trial of the study has a parameter"));
        QCOMPARE(refused("\n\n"), QString("file: the journal holds no study"));
    }
};

SEBO_TEST_MAIN(TestImportHostile)
}  // namespace test_import_hostile
#include "test_import_hostile.moc"
