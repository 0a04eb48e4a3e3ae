// Version 3 of the experiment file (issue 15): the sampler mode and its overrides, each trial's
// fit record and the experiment's sampler state (version 6: one per modelled metric) round-trip
// exactly; a version 3–5 file's single state becomes the first objective's; files of versions 1 and 2
// migrate to the paper's sampler they were run with (engine/io/experiment_migration.h); every
// experiment file in
// the repository still loads and round-trips; and a sampler state a file cannot honour — wrong
// sizes, values that are not finite, a metric that is not positive definite — is refused with the
// field's path, so a hostile file never reaches the sampler.

#include <QDirIterator>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "older_version.h"
#include "test_main.h"
#include "test_support.h"

namespace test_sampler_state_file {

using namespace sebo;
using Json = nlohmann::ordered_json;

namespace {

// The experiment as a file of an older `version` (1 to 3) would have held it.
Json older_version(const Experiment& e, int version) {
    Json j = Json::parse(experiment_to_json_text(e));
    test::rewrite_as_version(j, version);
    return j;
}

// Two continuous parameters: a SAAS state has 2 + 3 coordinates (known noise) or 2 + 4.
Experiment base_experiment() {
    Experiment e;
    e.space = SearchSpace({{"a", ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, "", {}, {}, false},
                           {"b", ParameterKind::Continuous, -1.0, 1.0, false, std::nullopt, "", {}, {}, false}});
    e.outcomes = Outcomes::single("y", true);
    e.method.strategy = StrategyKind::SeboL0;
    for (int i = 0; i < 3; ++i) {
        Trial t;
        t.index = i;
        t.parameters = {0.25 * i, -0.5 + 0.3 * i};
        t.status = TrialStatus::Completed;
        t.values["y"] = {1.0 / (i + 3.0), std::nullopt};
        e.trials.push_back(t);
    }
    return e;
}

// The state of metric "y" (base_experiment's objective).
MetricSamplerState dense_state() {
    MetricSamplerState s;
    s.metric = "y";
    s.warp_objective = false;
    s.trials = {0, 2, 1};
    s.fingerprint = 18446744073709551557ull;  // above 2^63: written as an unsigned JSON integer
    s.step_size = 0.1 / 3.0;
    s.dense_metric = true;
    s.positions = {{-2.3, 0.1, -0.7, 0.2, 1.0 / 7.0, -1e-300}, {-2.0, 0.3, -0.1, 0.0, 0.1, 0.0}};
    // 6 × 6: 2 on the diagonal, 0.5 on the first off-diagonals (positive definite).
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) s.inverse_metric.push_back(i == j ? 2.0 : std::abs(i - j) == 1 ? 0.5 : 0.0);
    return s;
}

FitRecord record() {
    FitRecord r;
    r.nuts = "fast";
    r.chains = 2;
    r.start = "mode";
    r.cold_start_reason = "no sampler state from an earlier fit";
    r.warmup = 128;
    r.draws = 16;
    r.divergences = 1;
    r.rhat = 1.0 + 1.0 / 3.0;
    r.ess_bulk = 123.25;
    r.parameters = {{"b", 1.01, 88.5}, {"a", std::nullopt, std::nullopt}};
    r.seconds = 0.125;
    return r;
}

SamplerState only(const MetricSamplerState& state) { return SamplerState{{state}}; }

Json document_with_state(const MetricSamplerState& state) {
    Experiment e = base_experiment();
    e.sampler_state = only(state);
    return Json::parse(experiment_to_json_text(e));
}

std::string refusal(const std::string& text) {
    try {
        experiment_from_json_text(text);
    } catch (const InputError& error) {
        return error.what();
    }
    return "(loaded)";
}

}  // namespace

class TestSamplerStateFile : public QObject {
    Q_OBJECT
private slots:
    void roundTripIsExact() {
        Experiment e = base_experiment();
        e.method.nuts = NutsMode::Fast;
        e.method.nuts_chains = 3;
        e.method.nuts_warm_warmup = 64;
        e.method.nuts_samples = 240;
        e.sampler_state = only(dense_state());
        e.trials[2].fit = record();
        const std::string text = experiment_to_json_text(e);
        const Json j = Json::parse(text);
        QCOMPARE(j["version"].get<int>(), kExperimentVersion);
        QCOMPARE(j["method"]["nuts"].get<std::string>(), std::string("fast"));
        QVERIFY(!j["method"].contains("nuts_warmup"));  // unset overrides are not written
        QVERIFY(!j.contains("sampler_state"));
        QCOMPARE(j["sampler_states"]["y"]["metric"].get<std::string>(), std::string("dense"));
        QCOMPARE(j["trials"][2]["fit"]["start"].get<std::string>(), std::string("mode"));
        QVERIFY(!j["trials"][0].contains("fit"));

        const Experiment back = experiment_from_json_text(text);
        QCOMPARE(back.method.nuts, NutsMode::Fast);
        QCOMPARE(back.method.nuts_chains, std::optional<int>(3));
        QCOMPARE(back.method.nuts_warm_warmup, std::optional<int>(64));
        QCOMPARE(back.method.nuts_samples, std::optional<int>(240));
        QVERIFY(!back.method.nuts_warmup);
        QVERIFY(back.sampler_state);
        QCOMPARE(back.sampler_state->metrics.size(), std::size_t{1});
        const MetricSamplerState& s = back.sampler_state->metrics[0];
        QCOMPARE(s.metric, std::string("y"));
        QCOMPARE(s.warp_objective, false);
        QCOMPARE(s.trials, dense_state().trials);
        QCOMPARE(s.fingerprint, dense_state().fingerprint);
        QCOMPARE(s.step_size, dense_state().step_size);
        QCOMPARE(s.positions, dense_state().positions);  // bit for bit, -1e-300 included
        QCOMPARE(s.inverse_metric, dense_state().inverse_metric);
        QVERIFY(back.trials[2].fit);
        const FitRecord& r = *back.trials[2].fit;
        QCOMPARE(r.nuts, std::string("fast"));
        QCOMPARE(r.start, std::string("mode"));
        QCOMPARE(r.chains, 2);
        QCOMPARE(r.cold_start_reason, record().cold_start_reason);
        QCOMPARE(r.rhat, record().rhat);
        QCOMPARE(r.ess_bulk, record().ess_bulk);
        QCOMPARE(r.parameters.size(), std::size_t{2});
        QCOMPARE(r.parameters[0].parameter, std::string("b"));
        QCOMPARE(r.parameters[0].rhat, std::optional<double>(1.01));
        QVERIFY(!r.parameters[1].rhat && !r.parameters[1].ess_bulk);
        QCOMPARE(experiment_to_json_text(back), text);

        // A diagonal metric keeps d values.
        MetricSamplerState diagonal = dense_state();
        diagonal.dense_metric = false;
        diagonal.inverse_metric = {1, 2, 3, 4, 5, 6};
        e.sampler_state = only(diagonal);
        QCOMPARE(experiment_from_json_text(experiment_to_json_text(e)).sampler_state->metrics[0].inverse_metric,
                 diagonal.inverse_metric);
    }

    // Files of versions 1 and 2 were run with the paper's single chain: they migrate to
    // "nuts": "paper", dropping the NUTS numbers an older writer always wrote with the paper's
    // values and keeping any other value as an override; what an older reader ignored (a fit
    // record, a sampler state, the new settings) is dropped.
    void olderVersionsMigrateToThePaperSampler() {
        Json v1 = older_version(base_experiment(), 1);
        v1["method"].erase("nuts");
        v1["method"]["nuts_warmup"] = 512;
        v1["method"]["nuts_samples"] = 300;
        v1["method"]["nuts_thinning"] = 16.0;
        v1["method"]["nuts_max_tree_depth"] = 6;
        const Experiment e = experiment_from_json_text(v1.dump());
        QCOMPARE(e.method.nuts, NutsMode::Paper);
        QVERIFY(!e.method.nuts_warmup && !e.method.nuts_thinning && !e.method.nuts_max_tree_depth);
        QCOMPARE(e.method.nuts_samples, std::optional<int>(300));
        QCOMPARE(e.method.nuts_schedule(4).chains, 1);
        QCOMPARE(e.method.nuts_schedule(4).warmup, 512);
        QCOMPARE(Json::parse(experiment_to_json_text(e))["version"].get<int>(), kExperimentVersion);
        // No method at all (the defaults of version 1): the paper's sampler too.
        v1.erase("method");
        QCOMPARE(experiment_from_json_text(v1.dump()).method.nuts, NutsMode::Paper);
        // A version-2 reader ignored "nuts" and the rest: whatever they say, the file means the
        // paper's sampler, without a state or fit records.
        Experiment with_state = base_experiment();
        with_state.sampler_state = only(dense_state());
        with_state.trials[1].fit = record();
        with_state.method.nuts_chains = 2;
        Json v2 = older_version(with_state, 2);
        const Experiment migrated = experiment_from_json_text(v2.dump());
        QCOMPARE(migrated.method.nuts, NutsMode::Paper);
        QVERIFY(!migrated.sampler_state && !migrated.trials[1].fit && !migrated.method.nuts_chains);
        // Version 3 without "nuts": the fast default.
        Json v3 = older_version(base_experiment(), 3);
        v3["method"].erase("nuts");
        QCOMPARE(experiment_from_json_text(v3.dump()).method.nuts, NutsMode::Fast);
        // A newer version is refused, naming both versions.
        Json newer = Json::parse(experiment_to_json_text(base_experiment()));
        newer["version"] = kExperimentVersion + 1;
        QVERIFY(refusal(newer.dump()).find("this file has version " + std::to_string(kExperimentVersion + 1) +
                                           ", but this program reads versions up to " + std::to_string(kExperimentVersion)) !=
                std::string::npos);
    }

    // Version 6 keeps a state per modelled metric, written in the order of the modelled metrics
    // (objectives, then constrained metrics). A state of a metric that is not modelled (tracked,
    // or unknown) is dropped on reading: it could not be used.
    void statesPerMetricRoundTrip() {
        Experiment e = base_experiment();
        e.outcomes.metrics = {"y", "t", "c"};
        e.outcomes.constraints = {{"c", ConstraintSense::AtMost, 2.0}};
        for (Trial& t : e.trials) t.values["c"] = {0.5 * t.index, 0.125};
        MetricSamplerState y = dense_state();
        MetricSamplerState c = dense_state();
        c.metric = "c";
        c.positions.pop_back();
        c.positions[0].pop_back();  // known noise: D + 3 coordinates
        c.dense_metric = false;
        c.inverse_metric = {1, 2, 3, 4, 0.5};
        e.sampler_state = SamplerState{{c, y}};
        QVERIFY(!e.validate());
        const std::string text = experiment_to_json_text(e);
        const Json j = Json::parse(text);
        QCOMPARE(j["sampler_states"].size(), std::size_t{2});
        QCOMPARE(j["sampler_states"].begin().key(), std::string("y"));
        QCOMPARE(j["sampler_states"]["c"]["metric"].get<std::string>(), std::string("diagonal"));
        const Experiment back = experiment_from_json_text(text);
        QVERIFY(back.sampler_state);
        QCOMPARE(back.sampler_state->metrics.size(), std::size_t{2});
        QCOMPARE(back.sampler_state->metrics[0].metric, std::string("y"));
        QCOMPARE(back.sampler_state->metrics[1].metric, std::string("c"));
        QCOMPARE(back.sampler_state->find("c")->positions, c.positions);
        QCOMPARE(back.sampler_state->find("c")->inverse_metric, c.inverse_metric);
        QCOMPARE(experiment_to_json_text(back), text);

        Json extra = j;
        extra["sampler_states"]["t"] = j["sampler_states"]["y"];        // tracked: no model
        extra["sampler_states"]["gone"] = j["sampler_states"]["y"];     // no such metric
        const Experiment dropped = experiment_from_json_text(extra.dump());
        QCOMPARE(dropped.sampler_state->metrics.size(), std::size_t{2});
        QVERIFY(!dropped.sampler_state->find("t") && !dropped.sampler_state->find("gone"));
        QCOMPARE(experiment_to_json_text(dropped), text);
        // Only unusable states: as if there were none.
        Json useless = j;
        useless["sampler_states"] = Json{{"gone", j["sampler_states"]["y"]}};
        QVERIFY(!experiment_from_json_text(useless.dump()).sampler_state);
        // A dropped state is still checked: a broken file is refused whatever the metric.
        extra["sampler_states"]["gone"]["step_size"] = -1;
        QVERIFY2(refusal(extra.dump()).find("sampler_states.gone.step_size: -1 is not in (0, 1e7]") == 0,
                 refusal(extra.dump()).c_str());
        // In memory, a metric with two states is refused.
        Experiment twice = e;
        twice.sampler_state->metrics.push_back(y);
        QCOMPARE(twice.validate().value_or(""), std::string("sampler_states.y: the metric has two states"));
    }

    // A file of versions 3 to 5 has one state, the first objective's fit: version 6 files it under
    // that metric. A "sampler_states" member in such a file meant nothing to its reader: dropped.
    void versionFiveStateBelongsToTheFirstObjective() {
        Experiment e = base_experiment();
        e.outcomes.metrics = {"y", "c"};
        e.outcomes.objectives.push_back({"c", false, std::nullopt});
        for (Trial& t : e.trials) t.values["c"] = {0.5 * t.index, std::nullopt};
        MetricSamplerState c = dense_state();
        c.metric = "c";
        c.step_size = 0.5;
        e.sampler_state = SamplerState{{dense_state(), c}};
        for (const int version : {3, 4, 5}) {
            Json old = Json::parse(experiment_to_json_text(e));
            test::rewrite_as_version(old, version);  // version 3: "y" alone
            QCOMPARE(old["sampler_state"]["step_size"].get<double>(), dense_state().step_size);
            old["sampler_states"] = Json{{"y", old["sampler_state"]}};
            old["sampler_states"]["y"]["step_size"] = 0.25;  // an older reader ignored it
            const Experiment migrated = experiment_from_json_text(old.dump());
            QVERIFY(migrated.sampler_state);
            QCOMPARE(migrated.sampler_state->metrics.size(), std::size_t{1});
            QCOMPARE(migrated.sampler_state->metrics[0].metric, std::string("y"));
            QCOMPARE(migrated.sampler_state->metrics[0].step_size, dense_state().step_size);
            QCOMPARE(migrated.sampler_state->metrics[0].positions, dense_state().positions);
        }
        // A version-5 state that does not fit the space is refused with the version-6 path.
        Json broken = Json::parse(experiment_to_json_text(e));
        test::rewrite_as_version(broken, 5);
        broken["sampler_state"]["positions"] = Json::parse("[[1, 2]]");
        QVERIFY2(refusal(broken.dump()).find("sampler_states.y.positions[0]: 2 coordinates") == 0, refusal(broken.dump()).c_str());
    }

    // Every experiment file in the repository (bundled examples, benchmark results, fixtures)
    // loads, and saves back to text that loads to the same text.
    void repositoryFilesLoadAndRoundTrip() {
        int files = 0;
        for (const char* folder : {"resources", "docs", "tests/fixtures"}) {
            QDirIterator it(QString::fromStdString(test::source_path(folder)), {"*.sebo.json"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const std::string path = it.next().toStdString();
                Experiment e;
                try {
                    e = load_experiment(path);
                } catch (const InputError& error) {
                    QFAIL(qPrintable(QString::fromStdString(path + ": " + error.what())));
                }
                const std::string text = experiment_to_json_text(e);
                QCOMPARE(experiment_to_json_text(experiment_from_json_text(text)), text);
                ++files;
            }
        }
        QVERIFY(files >= 1);
        // The bundled example is written in the current version with the fast sampler: were its
        // version number older, the migration would turn it into a paper-sampler file.
        const Experiment example = load_experiment(test::source_path("resources/examples/branin-50d.sebo.json"));
        QCOMPARE(example.method.nuts, NutsMode::Fast);
    }

    // A version-2 file (main's "excluded", issue 18) passes through both steps: the exclusion
    // stays, and the sampler becomes the paper's.
    void versionTwoKeepsItsExclusions() {
        Experiment e = base_experiment();
        e.trials[1].exclusion = TrialExclusion{"sensor fault", "2026-11-26T12:00:00Z"};
        Json v2 = older_version(e, 2);
        v2["method"].erase("nuts");
        const Experiment migrated = experiment_from_json_text(v2.dump());
        QVERIFY(migrated.trials[1].exclusion.has_value());
        QCOMPARE(migrated.trials[1].exclusion->reason, std::string("sensor fault"));
        QCOMPARE(migrated.method.nuts, NutsMode::Paper);
    }

    void hostileStatesAreRefused_data() {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("step size zero") << "/sampler_states/y/step_size" << "0"
                                        << "sampler_states.y.step_size: 0 is not in (0, 1e7]";
        QTest::newRow("step size huge") << "/sampler_states/y/step_size" << "1e300"
                                        << "sampler_states.y.step_size: 1e+300 is not in (0, 1e7]";
        QTest::newRow("step size beyond double") << "/sampler_states/y/step_size" << "1e400"
                                                 << "sampler_states.y.step_size: 1e400 is not a finite number";
        QTest::newRow("no positions") << "/sampler_states/y/positions" << "[]"
                                      << "sampler_states.y.positions: at least one chain position is needed";
        QTest::newRow("ragged positions") << "/sampler_states/y/positions/1" << "[1, 2]"
                                          << "sampler_states.y.positions[1]: 2 coordinates, positions[0] has 6";
        QTest::newRow("wrong dimension") << "/sampler_states/y/positions" << "[[1, 2, 3]]"
                                         << "sampler_states.y.positions[0]: 3 coordinates; a SAAS model of 2 inputs has 5 or 6";
        QTest::newRow("position not a number") << "/sampler_states/y/positions/0/2" << "\"x\""
                                               << "sampler_states.y.positions[0][2]: expected a number";
        QTest::newRow("metric too short") << "/sampler_states/y/inverse_metric" << "[1, 2, 3]"
                                          << "sampler_states.y.inverse_metric: 3 values; a dense metric of 6 coordinates has 36";
        QTest::newRow("negative variance") << "/sampler_states/y/inverse_metric/7" << "-2"
                                           << "sampler_states.y.inverse_metric[7]: the variance -2 is not positive";
        QTest::newRow("asymmetric") << "/sampler_states/y/inverse_metric/1" << "0.25"
                                    << "sampler_states.y.inverse_metric[6]: the matrix is not symmetric";
        QTest::newRow("metric kind") << "/sampler_states/y/metric" << "\"full\""
                                     << "sampler_states.y.metric: \"full\" is not a metric kind";
        QTest::newRow("trial negative") << "/sampler_states/y/trials/0" << "-1" << "sampler_states.y.trials[0]: -1 is negative";
        QTest::newRow("trial twice") << "/sampler_states/y/trials/1" << "0"
                                     << "sampler_states.y.trials[1]: trial 0 is listed twice";
        QTest::newRow("fingerprint negative") << "/sampler_states/y/fingerprint" << "-5"
                                              << "sampler_states.y.fingerprint: -5 is negative";
        QTest::newRow("missing step size") << "/sampler_states/y/step_size" << "null"
                                           << "sampler_states.y.step_size: expected a number, got null";
        QTest::newRow("state not an object") << "/sampler_states/y" << "[1]" << "sampler_states.y: expected an object";
        QTest::newRow("not an object") << "/sampler_states" << "[1]" << "sampler_states: expected an object";
        QTest::newRow("too many chains") << "/sampler_states/y/positions" << "many"
                                         << "sampler_states.y.positions: 65 chains; at most 64";
    }
    void hostileStatesAreRefused() {
        QFETCH(QString, pointer);
        QFETCH(QString, json);
        QFETCH(QString, message);
        Json document = document_with_state(dense_state());
        if (json == "many") {
            Json positions = Json::array();
            for (int c = 0; c < 65; ++c) positions.push_back(document["sampler_states"]["y"]["positions"][0]);
            document["sampler_states"]["y"]["positions"] = positions;
        } else {
            document[Json::json_pointer(pointer.toStdString())] = json == "1e400" ? Json() : Json::parse(json.toStdString());
        }
        std::string text = document.dump();
        if (json == "1e400") {  // not representable in the document: patch the text
            const auto at = text.find("\"step_size\":null");
            text.replace(at, 16, "\"step_size\":1e400");
        }
        const std::string error = refusal(text);
        QVERIFY2(error.find(message.toStdString()) == 0, error.c_str());
    }

    // A dense metric must factor: an indefinite symmetric matrix is refused.
    void indefiniteMetricIsRefused() {
        MetricSamplerState s = dense_state();
        s.inverse_metric[1] = s.inverse_metric[6] = 3.0;  // |0.5| → 3: no longer positive definite
        const std::string error = refusal(document_with_state(s).dump());
        QVERIFY2(error == "sampler_states.y.inverse_metric: the matrix is not positive definite", error.c_str());
    }

    void hostileFitRecordsAreRefused_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("nuts") << "nuts" << "\"slow\"" << "trials[0].fit.nuts: \"slow\" is not a sampler setting";
        QTest::newRow("start") << "start" << "\"lukewarm\"" << "trials[0].fit.start: \"lukewarm\" is not a start";
        QTest::newRow("chains") << "chains" << "0" << "trials[0].fit.chains: 0 is not positive";
        QTest::newRow("rhat") << "rhat" << "-1" << "trials[0].fit.rhat: -1 is not a number >= 0";
        QTest::newRow("draws") << "draws" << "-3" << "trials[0].fit.draws: -3 is negative";
        QTest::newRow("seconds") << "seconds" << "-0.5" << "trials[0].fit.seconds: -0.5 is not a number >= 0";
        QTest::newRow("parameters") << "parameters" << "[{\"rhat\": 1}]" << "trials[0].fit.parameters[0].name: required field is missing";
        QTest::newRow("parameter rhat") << "parameters" << "[{\"name\": \"a\", \"rhat\": \"x\"}]"
                                        << "trials[0].fit.parameters[0].rhat: expected a number";
        QTest::newRow("no nuts") << "nuts" << "remove" << "trials[0].fit.nuts: required field is missing";
    }
    void hostileFitRecordsAreRefused() {
        QFETCH(QString, key);
        QFETCH(QString, json);
        QFETCH(QString, message);
        Experiment e = base_experiment();
        e.trials[0].fit = record();
        Json document = Json::parse(experiment_to_json_text(e));
        if (json == "remove") document["trials"][0]["fit"].erase(key.toStdString());
        else document["trials"][0]["fit"][key.toStdString()] = Json::parse(json.toStdString());
        const std::string error = refusal(document.dump());
        QVERIFY2(error.find(message.toStdString()) == 0, error.c_str());
    }
};

SEBO_TEST_MAIN(TestSamplerStateFile)
}  // namespace test_sampler_state_file
#include "test_sampler_state_file.moc"
