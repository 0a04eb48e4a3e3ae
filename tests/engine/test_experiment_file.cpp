// Experiment files (SPEC §7): lossless round trip, atomic saves, and a clear InputError naming
// the JSON path for every kind of malformed, hostile or future-version input.

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "test_support.h"

#include "experiment_file_fixtures.h"
#include "test_main.h"

namespace test_experiment_file {

using namespace sebo;
using namespace sebo::test::experiment_file;

class TestExperimentFile : public QObject {
    Q_OBJECT
private slots:
    void rich_round_trip_is_lossless() {
        const Experiment e = rich_experiment();
        QVERIFY2(!e.validate(), e.validate() ? e.validate()->c_str() : "");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("rich.sebo.json").toStdString();
        save_experiment(e, path);
        const Experiment back = load_experiment(path);
        compare_experiments(e, back);
        QCOMPARE(qs(experiment_to_json_text(back)), qs(experiment_to_json_text(e)));
        QCOMPARE(qs(read_all(path)), qs(experiment_to_json_text(e)));
        // Explicit targets stay explicit, default ones stay unset (gamma's equals its default).
        QVERIFY(back.space.parameter(4).target.has_value());
        QVERIFY(!back.space.parameter(0).target.has_value());
        QCOMPARE(back.space.group_count(), 5);
    }

    void written_layout() {
        const Json j = Json::parse(experiment_to_json_text(rich_experiment()));
        QCOMPARE(qs(j["format"].get<std::string>()), QString("sebo-experiment"));
        QVERIFY(j["version"].is_number_integer());
        QCOMPARE(j["version"].get<int>(), kExperimentVersion);
        QVERIFY(j["seed"].is_number_unsigned());  // a JSON integer, not a float
        QCOMPARE(j["seed"].get<std::uint64_t>(), 18446744073709551557ull);
        const Json& params = j["space"]["parameters"];
        QVERIFY(!params[0].contains("target"));  // written only when explicitly set
        QVERIFY(params[4].contains("target"));
        QVERIFY(!params[0].contains("group"));
        QCOMPARE(qs(params[1]["group"].get<std::string>()), QString("optimizer"));
        QCOMPARE(qs(params[5]["kind"].get<std::string>()), QString("integer"));
        QCOMPARE(params[5]["log"].get<bool>(), true);
        QCOMPARE(qs(j["evaluator"]["kind"].get<std::string>()), QString("command"));
        QVERIFY(!j["evaluator"].contains("problem"));
        QCOMPARE(qs(j["evaluator"]["environment"]["TAG"].get<std::string>()), QString("a=b; $(not run)"));
        QCOMPARE(j["evaluator"]["max_concurrency"].get<int>(), 3);
        // The command's optional settings: absent when unset, and then read back as defaults.
        Experiment plain = rich_experiment();
        plain.evaluator.working_directory.clear();
        plain.evaluator.environment.clear();
        const Json p = Json::parse(experiment_to_json_text(plain));
        QVERIFY(!p["evaluator"].contains("working_directory"));
        QVERIFY(!p["evaluator"].contains("environment"));
        Json old_file = p;  // a file written before these fields existed
        old_file["evaluator"].erase("max_concurrency");
        const Experiment back = experiment_from_json_text(old_file.dump());
        QVERIFY(back.evaluator.working_directory.empty());
        QVERIFY(back.evaluator.environment.empty());
        QCOMPARE(back.evaluator.max_concurrency, 1);
        QCOMPARE(qs(j["method"]["strategy"].get<std::string>()), QString("ei-ir"));
        QCOMPARE(qs(j["method"]["model"].get<std::string>()), QString("saas-map"));
        QCOMPARE(qs(j["method"]["penalty"].get<std::string>()), QString("l1"));
        const Json& t2 = j["trials"][2];
        QVERIFY(!t2.contains("values"));  // pending: absent, not null
        QVERIFY(!t2.contains("error"));
        QCOMPARE(t2["parameters"]["n.layers[0]"].get<double>(), 64.0);
        QCOMPARE(j["trials"][0]["parameters"].begin().key(), std::string("alpha"));  // space order
        // Metrics, objectives and constraints at the top level; values per trial, in metric
        // order, "sem" only when known; a threshold only when set.
        QCOMPARE(qs(j["metrics"].dump()), QString("[\"yield (%)\",\"cost\",\"purity \\\"µ\\\"\",\"notes.count\"]"));
        QCOMPARE(qs(j["objectives"].dump()),
                 QString("[{\"metric\":\"yield (%)\",\"minimize\":true,\"threshold\":0.30000000000000004},"
                         "{\"metric\":\"cost\",\"minimize\":false}]"));
        QCOMPARE(qs(j["constraints"].dump()), QString("[{\"metric\":\"purity \\\"µ\\\"\",\"op\":\">=\",\"bound\":0.95},"
                                                      "{\"metric\":\"cost\",\"op\":\"<=\",\"bound\":-1e-300}]"));
        QCOMPARE(qs(j["trials"][0]["values"].dump()),
                 QString("{\"yield (%)\":{\"mean\":0.30000000000000004,\"sem\":1e-300},\"cost\":{\"mean\":-0.0},"
                         "\"purity \\\"µ\\\"\":{\"mean\":0.99,\"sem\":0.004},\"notes.count\":{\"mean\":3.0}}"));
        QVERIFY(!j.contains("objective") && !j.contains("hypervolume_reference"));  // version 2's keys
        QVERIFY(!j["trials"][0].contains("objective") && !j["trials"][0].contains("sem"));
    }

    void problem_and_manual_evaluators_round_trip() {
        const Experiment e = problem_experiment();
        QVERIFY(!e.validate());
        const Experiment back = experiment_from_json_text(experiment_to_json_text(e));
        compare_experiments(e, back);
        QCOMPARE(qs(experiment_to_json_text(back)), qs(experiment_to_json_text(e)));
        QCOMPARE(back.evaluator.problem.world_seed, 9007199254740993ull);

        Experiment unset = e;
        unset.evaluator.problem.target.reset();
        QVERIFY(!experiment_from_json_text(experiment_to_json_text(unset)).evaluator.problem.target);

        Experiment manual = e;
        manual.evaluator = EvaluatorSpec{};
        const std::string text = experiment_to_json_text(manual);
        const Json j = Json::parse(text);
        QCOMPARE(j["evaluator"].size(), std::size_t{1});  // only "kind"
        QCOMPARE(experiment_from_json_text(text).evaluator.kind, EvaluatorSpec::Kind::Manual);
    }

    void doubles_read_back_bit_identical() {
        // The library property the format relies on, over random bit patterns (every exponent,
        // subnormals included), then the same through the file API.
        std::mt19937_64 rng(20230425);
        int checked = 0;
        for (int i = 0; i < 200000; ++i) {
            const double x = std::bit_cast<double>(rng());
            if (!std::isfinite(x)) continue;
            const double y = nlohmann::json::parse(nlohmann::json(x).dump()).get<double>();
            if (bits(x) != bits(y)) QFAIL(qPrintable(QString("%1 read back as %2").arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)));
            ++checked;
        }
        QVERIFY(checked > 199000);

        Experiment e;
        e.space = SearchSpace({make_parameter("x", -1.0, 1.0)});
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        for (int i = 0; i < 2000; ++i) {
            Trial t = make_trial(i, TrialStatus::Completed, {unit(rng)});
            double y;
            do y = std::bit_cast<double>(rng());
            while (!std::isfinite(y));
            t.values = {{"objective", {y, std::nullopt}}};
            e.trials.push_back(t);
        }
        const Experiment back = experiment_from_json_text(experiment_to_json_text(e));
        for (std::size_t i = 0; i < e.trials.size(); ++i) {
            QCOMPARE(bits(back.trials[i].parameters[0]), bits(e.trials[i].parameters[0]));
            QCOMPARE(bits(*back.trials[i].value("objective")), bits(*e.trials[i].value("objective")));
        }
    }

    void atomic_save_replaces_and_leaves_no_temporary() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("e.sebo.json").toStdString();
        write_all(path, "old contents");
        QCOMPARE(::chmod(path.c_str(), 0640), 0);
        const Experiment e = small_experiment();
        save_experiment(e, path);
        QCOMPARE(qs(read_all(path)), qs(experiment_to_json_text(e)));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"e.sebo.json"});
        struct stat info {};
        QCOMPARE(::stat(path.c_str(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0640u);  // permissions of the replaced file are kept

        Experiment changed = e;
        changed.name = "second save";
        save_experiment(changed, path);
        QCOMPARE(qs(load_experiment(path).name), QString("second save"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);

        write_file_atomic(path, "plain text");
        QCOMPARE(qs(read_all(path)), QString("plain text"));
    }

    void save_failures_name_the_path() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("missing/folder/e.sebo.json").toStdString();
        try {
            save_experiment(small_experiment(), path);
            QFAIL("saving into a missing folder did not throw");
        } catch (const std::runtime_error& error) {
            const QString message = qs(error.what());
            QVERIFY2(message.contains(qs(path)), qPrintable(message));
            QVERIFY2(message.contains("No such file or directory"), qPrintable(message));
        }
        // The target is a folder: rename fails, and the temporary file is removed.
        const std::string folder = dir.filePath("a-folder").toStdString();
        QVERIFY(QDir().mkdir(qs(folder)));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, write_file_atomic(folder, "text"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
        // An invalid experiment is refused rather than written as a file that cannot be opened.
        Experiment invalid = small_experiment();
        invalid.trials[0].values.clear();
        const std::string target = dir.filePath("invalid.sebo.json").toStdString();
        try {
            save_experiment(invalid, target);
            QFAIL("saving an invalid experiment did not throw");
        } catch (const std::runtime_error& error) {
            QVERIFY2(qs(error.what()).contains("trials[0].values.objective: a completed trial needs a value of every objective"),
                     error.what());
        }
        QVERIFY(!QFile::exists(qs(target)));
    }

    void document_level_errors() {
        const std::string valid = experiment_to_json_text(small_experiment());
        const Failure truncated = load_error(valid.substr(0, valid.size() / 2));
        QVERIFY(truncated.thrown);
        QCOMPARE(truncated.field, QString(""));
        QVERIFY2(truncated.message.contains("line") && truncated.message.contains("column") &&
                     truncated.message.contains("byte"),
                 qPrintable(truncated.message));
        EXPECT_INPUT_ERROR("", "", "empty");
        EXPECT_INPUT_ERROR(" \n\t\r\n", "", "empty");
        EXPECT_INPUT_ERROR("[1, 2, 3]", "", "expected an object, got an array");
        EXPECT_INPUT_ERROR("\"sebo-experiment\"", "", "expected an object");
        EXPECT_INPUT_ERROR("{\"format\": \"sebo-experiment\", \"version\": 1,}", "", "line 1, column 44");
        EXPECT_INPUT_ERROR("{\"format\": \"sebo-experiment\", \"version\": NaN}", "", "not valid JSON");
        // Not UTF-8: a Latin-1 byte inside a string.
        EXPECT_INPUT_ERROR("{\"format\": \"sebo-experiment\", \"name\": \"caf\xe9\"}", "", "UTF-8");
        EXPECT_INPUT_ERROR(std::string("{\"format\"\0: 1}", 14), "", "not valid JSON");
        // A syntax error names the field being read when it happened.
        const std::string cut = valid.substr(0, valid.find("\"boom\"") + 3);
        EXPECT_INPUT_ERROR(cut, "", "in trials[1].error");
        // Duplicate keys would silently keep the last value; they are refused where they occur.
        std::string twice = valid;
        twice.insert(twice.find("\"space\""), "\"metrics\": [\"y\"],\n");
        EXPECT_INPUT_ERROR(twice, "metrics", "the key \"metrics\" appears twice");
        std::string twice_value = valid;
        twice_value.insert(twice_value.find("\"beta\": 4.0"), "\"beta\": 4.5, ");
        EXPECT_INPUT_ERROR(twice_value, "trials[1].parameters.beta", "the key \"beta\" appears twice");
    }

    void deep_nesting_is_refused_without_crashing() {
        EXPECT_INPUT_ERROR(std::string(100000, '['), "", "nested deeper than 64");
        const std::string balanced = std::string(100000, '[') + std::string(100000, ']');
        EXPECT_INPUT_ERROR(balanced, "", "nested deeper than 64");
        std::string text = experiment_to_json_text(small_experiment());
        text.insert(1, "\"extra\": " + std::string(70, '{') + std::string(70, '}') + ",\n");
        EXPECT_INPUT_ERROR(text, "", "line 1, column 74");
        // Brackets inside strings do not count, and nesting within the limit in an unknown key loads.
        Json j = small_json();
        j["name"] = std::string(1000, '[');
        std::string ok = j.dump();
        ok.insert(1, "\"future\": " + std::string(60, '[') + std::string(60, ']') + ",");
        QCOMPARE(qs(experiment_from_json_text(ok).name), qs(std::string(1000, '[')));
    }

    void format_and_version() {
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["format"] = "other-format"; }), "format", "\"other-format\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j.erase("format"); }), "format", "not a SEBO experiment file");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["format"] = 1; }), "format", "not a SEBO experiment file");
        const Failure newer = load_error(mutated([](Json& j) { j["version"] = kExperimentVersion + 1; }));
        QVERIFY(newer.thrown);
        QCOMPARE(newer.field, QString("version"));
        QVERIFY2(newer.message.contains(QString("version %1").arg(kExperimentVersion + 1)) &&
                     newer.message.contains(QString("up to %1").arg(kExperimentVersion)),
                 qPrintable(newer.message));
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["version"] = 0; }), "version", "0 is not a valid version");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["version"] = "1"; }), "version", "the string \"1\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j.erase("version"); }), "version", "missing");
    }

    void excluded_trials_round_trip_and_errors() {
        Json j = small_json();
        j["trials"][0]["excluded"] = {{"reason", "timeout reported as 1e308"}, {"at", "2026-11-26T08:00:00Z"}};
        const Experiment e = experiment_from_json_text(j.dump());
        QVERIFY(e.trials[0].exclusion);
        QCOMPARE(qs(e.trials[0].exclusion->reason), QString("timeout reported as 1e308"));
        QCOMPARE(e.trials[0].value("objective"), std::optional<double>(12345.5));
        QVERIFY(!e.trials[1].exclusion);
        const Json written = Json::parse(experiment_to_json_text(e));
        QCOMPARE(qs(written["trials"][0]["excluded"].dump()),
                 QString(R"({"reason":"timeout reported as 1e308","at":"2026-11-26T08:00:00Z"})"));
        QVERIFY(!written["trials"][1].contains("excluded"));
        // "at" is optional; null means absent, as everywhere in the format.
        j["trials"][0]["excluded"].erase("at");
        QCOMPARE(qs(experiment_from_json_text(j.dump()).trials[0].exclusion->at), QString());
        j["trials"][0]["excluded"] = nullptr;
        QVERIFY(!experiment_from_json_text(j.dump()).trials[0].exclusion);

        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][1]["excluded"] = {{"reason", "x"}}; }), "trials[1].excluded",
                           "only a completed trial can be excluded from analysis (this one is failed)");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = Json::object(); }),
                           "trials[0].excluded.reason", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = {{"reason", ""}}; }),
                           "trials[0].excluded.reason", "must not be empty");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = {{"reason", 3}}; }),
                           "trials[0].excluded.reason", "expected a string");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = true; }), "trials[0].excluded",
                           "expected an object, got true");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = {{"reason", "x"}, {"at", 5}}; }),
                           "trials[0].excluded.at", "expected a string");
    }

    // A version-1 file loads unchanged, and is saved in the current version. Version 1 had no
    // exclusions: an "excluded" member it carried meant nothing (its reader ignored it), so the
    // trial counts after the upgrade too.
    void version_1_files_migrate() {
        Json j = old_layout(small_json(), 1);
        const Experiment plain = experiment_from_json_text(j.dump());
        compare_experiments(plain, small_experiment());
        j["trials"][0]["excluded"] = {{"reason", "written by a newer tool"}};
        j["trials"][1]["excluded"] = "not even an object";
        const Experiment e = experiment_from_json_text(j.dump());
        QVERIFY(!e.trials[0].exclusion && !e.trials[1].exclusion);
        const Json saved = Json::parse(experiment_to_json_text(e));
        QCOMPARE(saved["version"].get<int>(), kExperimentVersion);
        QVERIFY(!saved["trials"][0].contains("excluded"));
    }

    // A version-2 file (one objective) loads with the same meaning: one metric, the one objective
    // on it with the hypervolume reference as its threshold, each trial's value and standard
    // error under "values"; it is saved in the current version. A broken version-2 file is
    // reported with the path it has in that file.
    void version_2_files_migrate() {
        Experiment e = small_experiment();
        e.outcomes = Outcomes::single("yield", true, -2.5);
        e.trials[0].values = {{"yield", {12345.5, 0.25}}};
        e.trials[0].exclusion = TrialExclusion{"sentinel", "2026-11-26T08:00:00Z"};
        const Json j = old_layout(Json::parse(experiment_to_json_text(e)), 2);
        QVERIFY(j.contains("objective") && !j.contains("objectives") && j["trials"][0].contains("sem"));
        const Experiment back = experiment_from_json_text(j.dump());
        compare_experiments(back, e);
        check_migrated(nlohmann::json::parse(j.dump()), back);
        const Json saved = Json::parse(experiment_to_json_text(back));
        QCOMPARE(saved["version"].get<int>(), kExperimentVersion);
        QCOMPARE(qs(saved["trials"][0]["values"].dump()), QString(R"({"yield":{"mean":12345.5,"sem":0.25}})"));
        QVERIFY(!saved.contains("objective") && !saved.contains("hypervolume_reference"));

        // The defaults of version 2: no name (or an empty one) is "objective"; no reference is no
        // threshold. A value on a pending trial is kept (it never counted); a standard error
        // without a value, and "values" (which version 2 did not know), mean nothing.
        Json k = old_layout(small_json(), 2);
        k["objective"].erase("name");
        k["trials"][1]["status"] = "pending";
        k["trials"][1]["objective"] = 4.0;
        k["trials"].push_back(Json{{"index", 7}, {"status", "pending"}, {"parameters", k["trials"][1]["parameters"]},
                                   {"sem", 0.5}, {"values", {{"junk", 1}}}});
        const Experiment d = experiment_from_json_text(k.dump());
        check_migrated(nlohmann::json::parse(k.dump()), d);
        QCOMPARE(d.trials[1].value("objective"), std::optional<double>(4.0));
        QVERIFY(d.trials[2].values.empty());
        k["objective"]["name"] = "";
        QCOMPARE(experiment_from_json_text(k.dump()).outcomes.metrics, std::vector<std::string>{"objective"});

        const auto old = [](const std::function<void(Json&)>& change) {
            Json o = old_layout(small_json(), 2);
            change(o);
            return o.dump();
        };
        EXPECT_INPUT_ERROR(old([](Json& o) { o.erase("objective"); }), "objective", "required field is missing");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"] = 3; }), "objective", "expected an object, got 3");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"].erase("minimize"); }), "objective.minimize", "missing");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"]["minimize"] = "yes"; }), "objective.minimize",
                           "expected true or false, got the string \"yes\"");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"]["name"] = 5; }), "objective.name", "expected a string, got 5");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["hypervolume_reference"] = "high"; }), "hypervolume_reference",
                           "expected a number, got the string \"high\"");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0]["objective"] = "x"; }), "trials[0].objective",
                           "expected a number");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0].erase("objective"); }), "trials[0].objective",
                           "a completed trial needs an objective value");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0]["sem"] = -0.5; }), "trials[0].sem", "-0.5 is negative");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0]["sem"] = true; }), "trials[0].sem", "expected a number");
    }

    void repository_files_load_and_round_trip() {
        int found = 0, migrated = 0, states = 0;
        for (const char* folder : {"resources/examples", "docs", "tests/fixtures", "fuzz/corpus/experiment_file"}) {
            const QString root = qs(test::source_path(folder));
            QDirIterator it(root, {"*.sebo.json"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const std::string path = it.next().toStdString();
                ++found;
                Experiment e;
                try {
                    e = load_experiment(path);
                } catch (const InputError& error) {
                    QFAIL(qPrintable(qs(path + ": " + error.what())));
                }
                // A file of an older version (one objective) means the same after the upgrade.
                std::ifstream in(path);
                const nlohmann::json raw = nlohmann::json::parse(in);
                if (raw.at("version").get<int>() < 3) {
                    ++migrated;
                    check_migrated(raw, e);
                }
                // Versions 3 to 5: the one sampler state is the first objective's in version 6.
                if (raw.at("version").get<int>() < 6 && raw.contains("sampler_state")) {
                    ++states;
                    QVERIFY(e.sampler_state);
                    QCOMPARE(e.sampler_state->metrics.size(), std::size_t{1});
                    QCOMPARE(qs(e.sampler_state->metrics[0].metric), qs(e.primary_objective().metric));
                    QCOMPARE(e.sampler_state->metrics[0].positions,
                             (raw["sampler_state"]["positions"].get<std::vector<std::vector<double>>>()));
                    QCOMPARE(e.sampler_state->metrics[0].inverse_metric,
                             raw["sampler_state"]["inverse_metric"].get<std::vector<double>>());
                }
                const std::string saved = experiment_to_json_text(e);
                QCOMPARE(Json::parse(saved)["version"].get<int>(), kExperimentVersion);
                QCOMPARE(qs(experiment_to_json_text(experiment_from_json_text(saved))), qs(saved));
            }
        }
        QVERIFY2(found >= 4, qPrintable(QString("only %1 files found").arg(found)));
        QVERIFY2(migrated >= 1, "no file of an older version was found");
        QVERIFY2(states >= 1, "no file of versions 3 to 5 with a sampler state was found");
    }

    void unknown_keys_are_ignored_and_absent_optionals_take_defaults() {
        Json j = small_json();
        j["future_top"] = {{"a", 1}};
        j["space"]["parameters"][0]["future"] = "x";
        j["trials"][0]["future"] = Json::array();
        j["method"]["future_setting"] = 3.5;
        j["method"].erase("budget");
        j["trials"][1].erase("generator");
        j["trials"][1].erase("created_at");
        j["space"]["parameters"][0].erase("kind");
        j["space"]["parameters"][0].erase("log");
        j.erase("evaluator");
        j.erase("seed");
        j.erase("chosen");
        j["trials"][1]["values"] = nullptr;  // null is "absent"
        const Experiment e = experiment_from_json_text(j.dump());
        QCOMPARE(e.method.budget, MethodSettings{}.budget);
        QCOMPARE(e.method.initial_trials, 8);  // kept from the file
        QCOMPARE(qs(e.trials[1].generator), QString(""));
        QCOMPARE(qs(e.trials[1].created_at), QString(""));
        QCOMPARE(e.space.parameter(0).kind, ParameterKind::Continuous);
        QCOMPARE(e.space.parameter(0).log_scale, false);
        QCOMPARE(e.evaluator.kind, EvaluatorSpec::Kind::Manual);
        QCOMPARE(e.seed, std::uint64_t{0});
        QVERIFY(e.chosen.empty());
        QVERIFY(e.trials[1].values.empty());
        // Integral numbers written as floats (or integers written for doubles) are accepted.
        Json k = small_json();
        k["method"]["budget"] = 40.0;
        k["space"]["parameters"][0]["lower"] = -2;
        const Experiment f = experiment_from_json_text(k.dump());
        QCOMPARE(f.method.budget, 40);
        QCOMPARE(f.space.parameter(0).lower, -2.0);
    }

    void file_errors() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string missing = dir.filePath("nope.sebo.json").toStdString();
        try {
            (void)load_experiment(missing);
            QFAIL("loading a missing file did not throw");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY(qs(e.what()).contains(qs(missing)));
        }
        try {
            (void)load_experiment(dir.path().toStdString());
            QFAIL("loading a folder did not throw");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY(qs(e.what()).contains("not a regular file"));
        }
        // A sparse file just over the limit: refused from its size, without reading it.
        const std::string big = dir.filePath("big.sebo.json").toStdString();
        {
            std::ofstream touch(big);
        }
        QCOMPARE(::truncate(big.c_str(), static_cast<off_t>(kMaxExperimentFileBytes + 1)), 0);
        try {
            (void)load_experiment(big);
            QFAIL("an oversized file was read");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY2(qs(e.what()).contains("256 MiB"), e.what());
        }
        const std::string empty = dir.filePath("empty.sebo.json").toStdString();
        write_all(empty, "");
        try {
            (void)load_experiment(empty);
            QFAIL("an empty file loaded");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString(""));
            QVERIFY(qs(e.what()).contains("empty"));
        }
    }

    void every_truncation_and_random_corruption_is_an_input_error() {
        // Hostile input never crashes and never escapes as another exception type.
        const std::string valid = experiment_to_json_text(small_experiment());
        QVERIFY(valid.size() > 2 && valid.substr(valid.size() - 2) == "}\n");
        for (std::size_t n = 0; n + 1 < valid.size(); ++n) {  // without the final "\n" it is whole
            const Failure f = load_error(valid.substr(0, n));
            if (!f.thrown) QFAIL(qPrintable(QString("prefix of %1 bytes loaded").arg(n)));
        }
        std::mt19937 rng(7);
        std::uniform_int_distribution<std::size_t> position(0, valid.size() - 1);
        std::uniform_int_distribution<int> byte(0, 255);
        int rejected = 0;
        for (int i = 0; i < 3000; ++i) {
            std::string text = valid;
            const int edits = 1 + i % 4;
            for (int k = 0; k < edits; ++k) text[position(rng)] = static_cast<char>(byte(rng));
            try {
                const Experiment e = experiment_from_json_text(text);
                QVERIFY(!e.validate());  // whatever loads is a consistent experiment
            } catch (const InputError&) {
                ++rejected;
            }
        }
        QVERIFY(rejected > 2000);
    }
};

SEBO_TEST_MAIN(TestExperimentFile)
}  // namespace test_experiment_file
#include "test_experiment_file.moc"
