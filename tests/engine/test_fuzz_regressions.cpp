// Replays every input kept by the fuzzers (fuzz/corpus/<target>/ and fuzz/regressions/<target>/,
// see docs/reliability.md) through the same loaders as the libFuzzer targets, in the
// normal build: nothing may crash, and nothing may escape as anything but an InputError. What
// loads must validate and survive save -> load -> save unchanged. Inputs in fuzz/regressions/ once
// crashed or broke one of these rules; each is a bug that stays fixed.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <optional>
#include <stdexcept>
#include <typeinfo>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "csv_fixture.h"
#include "import_check.h"
#include "linear_constraint_check.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/import_ax.h"
#include "io/results_import.h"
#include "io/space_file.h"
#include "test_support.h"
#include "test_main.h"

namespace test_fuzz_regressions {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

struct Input {
    QString path;
    std::string bytes;
};

std::vector<Input> inputs_of(const QString& target) {
    std::vector<Input> inputs;
    for (const char* kind : {"corpus", "regressions"}) {
        const QString folder = qs(test::source_path(std::string("fuzz/") + kind + "/")) + target;
        QDirIterator it(folder, QDir::Files);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) continue;
            const QByteArray bytes = file.readAll();
            inputs.push_back({path, std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()))});
        }
    }
    return inputs;
}

// Empty when the experiment validates and saves to a file that loads back to the same text.
std::string round_trip_problem(const Experiment& experiment) {
    if (const auto error = experiment.validate()) return "accepted but invalid: " + *error;
    const std::string saved = experiment_to_json_text(experiment);
    try {
        if (experiment_to_json_text(experiment_from_json_text(saved)) != saved) return "save -> load -> save changed the file";
    } catch (const InputError& e) {
        return std::string("the saved file does not load: ") + e.what();
    }
    return "";
}

// Runs `action`; empty when it returned or threw an InputError, else what it threw.
template <class Action>
std::string only_input_errors(Action action) {
    try {
        action();
    } catch (const InputError&) {
    } catch (const std::exception& e) {
        return std::string("threw ") + typeid(e).name() + ": " + e.what();
    } catch (...) {
        return "threw a non-standard exception";
    }
    return "";
}

}  // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void experiment_file_inputs() {
        const std::vector<Input> inputs = inputs_of("experiment_file");
        QVERIFY2(inputs.size() >= 10, "fuzz/corpus/experiment_file is missing or nearly empty");
        int loaded = 0;
        for (const Input& input : inputs) {
            std::string problem = only_input_errors([&] {
                const Experiment e = experiment_from_json_text(input.bytes);
                ++loaded;
                const std::string why = round_trip_problem(e);
                if (!why.empty()) throw std::logic_error(why);
            });
            if (problem.empty())
                problem = only_input_errors([&] {
                    if (const auto error = space_from_json_text(input.bytes).validate()) throw std::logic_error(*error);
                });
            if (problem.empty())
                problem = only_input_errors([&] {
                    if (const auto outcomes = outcomes_from_json_text(input.bytes))
                        if (const auto error = outcomes->validate()) throw std::logic_error(*error);
                });
            QVERIFY2(problem.empty(), qPrintable(input.path + ": " + qs(problem)));
        }
        QVERIFY(loaded > 0);  // the corpus keeps valid files too, not only refusals
    }

    void csv_import_inputs() {
        const std::vector<Input> inputs = inputs_of("csv_import");
        QVERIFY2(inputs.size() >= 10, "fuzz/corpus/csv_import is missing or nearly empty");
        const Experiment base = fuzz::csv_fixture_experiment();
        int spaces = 0, matched = 0;
        for (const Input& input : inputs) {
            const std::string space_problem = only_input_errors([&] {
                Experiment e;
                e.space = space_from_csv_text(input.bytes, "space.csv");
                ++spaces;
                const std::string why = round_trip_problem(e);
                if (!why.empty()) throw std::logic_error(why);
                // The saved file holds the very parameters of the sheet (no byte replaced).
                const SearchSpace back = experiment_from_json_text(experiment_to_json_text(e)).space;
                for (int i = 0; i < e.space.dimension(); ++i)
                    if (!fuzz::same_parameter(e.space.parameter(i), back.parameter(i)))
                        throw std::logic_error("parameter " + std::to_string(i) + " changed when saved and loaded");
            });
            QVERIFY2(space_problem.empty(), qPrintable(input.path + " (space): " + qs(space_problem)));
            const std::string results_problem = only_input_errors([&] {
                const CsvTable table = parse_csv_table(input.bytes, "results.csv");
                for (const bool overwrite : {false, true}) {
                    const std::string why = only_input_errors([&] {
                        const ResultsMatch match = match_results(base, table, {overwrite});
                        if (match.rows.size() != table.rows.size()) throw std::logic_error("a row was not reported");
                        Experiment e = base;
                        record_results(e, match.results, "2026-01-01T00:00:00Z");
                        matched += static_cast<int>(match.results.size());
                        const std::string round = round_trip_problem(e);
                        if (!round.empty()) throw std::logic_error(round);
                    });
                    if (!why.empty()) throw std::logic_error(why);
                }
                const TrialImport import = import_trials(base, table);
                if (import.problems.empty()) {
                    Experiment e = base;
                    e.trials.insert(e.trials.end(), import.trials.begin(), import.trials.end());
                    const std::string round = round_trip_problem(e);
                    if (!round.empty()) throw std::logic_error(round);
                }
            });
            QVERIFY2(results_problem.empty(), qPrintable(input.path + " (results): " + qs(results_problem)));
        }
        QVERIFY(spaces > 0);
        QVERIFY(matched > 0);
    }

    void linear_constraint_inputs() {
        const std::vector<Input> inputs = inputs_of("linear_constraint");
        QVERIFY2(inputs.size() >= 10, "fuzz/corpus/linear_constraint is missing or nearly empty");
        for (const Input& input : inputs) {
            std::string broken;
            const std::string thrown = only_input_errors([&] { broken = fuzz::check_linear_constraints(input.bytes); });
            QVERIFY2(thrown.empty(), qPrintable(input.path + ": " + qs(thrown)));
            QVERIFY2(broken.empty(), qPrintable(input.path + ": " + qs(broken)));
        }
    }

    // The importers of other tools' experiments (issue 31): each input refused with an
    // InputError or read into a consistent experiment (import_check.h).
    void ax_snapshot_inputs() {
        const std::vector<Input> inputs = inputs_of("ax_snapshot");
        QVERIFY2(inputs.size() >= 8, "fuzz/corpus/ax_snapshot is missing or nearly empty");
        int loaded = 0;
        for (const Input& input : inputs) {
            std::string broken;
            const std::string thrown = only_input_errors([&] {
                broken = fuzz::check_imported(import_ax_snapshot_text(input.bytes));
                ++loaded;
            });
            QVERIFY2(thrown.empty(), qPrintable(input.path + ": " + qs(thrown)));
            QVERIFY2(broken.empty(), qPrintable(input.path + ": " + qs(broken)));
        }
        QVERIFY(loaded > 0);
    }

    void optuna_journal_inputs() {
        const std::vector<Input> inputs = inputs_of("optuna_journal");
        QVERIFY2(inputs.size() >= 5, "fuzz/corpus/optuna_journal is missing or nearly empty");
        int replayed = 0;
        for (const Input& input : inputs) {
            std::string broken;
            const std::string thrown = only_input_errors([&] {
                broken = fuzz::check_journal(input.bytes);
                ++replayed;
            });
            QVERIFY2(thrown.empty(), qPrintable(input.path + ": " + qs(thrown)));
            QVERIFY2(broken.empty(), qPrintable(input.path + ": " + qs(broken)));
        }
        QVERIFY(replayed > 0);
    }

    // As fuzz_optuna_sqlite does: the bytes as a database file.
    void optuna_sqlite_inputs() {
        const std::vector<Input> inputs = inputs_of("optuna_sqlite");
        QVERIFY2(inputs.size() >= 3, "fuzz/corpus/optuna_sqlite is missing or nearly empty");
        QTemporaryDir dir;
        const QString path = dir.filePath("storage.db");
        int read = 0;
        for (const Input& input : inputs) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(file.write(input.bytes.data(), static_cast<qint64>(input.bytes.size())), static_cast<qint64>(input.bytes.size()));
            file.close();
            std::string broken;
            const std::string thrown = only_input_errors([&] {
                broken = fuzz::check_sqlite_storage(path.toStdString());
                ++read;
            });
            QVERIFY2(thrown.empty(), qPrintable(input.path + ": " + qs(thrown)));
            QVERIFY2(broken.empty(), qPrintable(input.path + ": " + qs(broken)));
        }
        QVERIFY(read > 0);
    }
};

SEBO_TEST_MAIN(TestFuzzRegressions)
}  // namespace test_fuzz_regressions
#include "test_fuzz_regressions.moc"
