// Choice parameters (issue 14, item 1): the encodings round-trip (value ↔ index ↔ unit-cube cell ↔
// one-hot or ordinal features), a Sobol coordinate picks every value equally often, the L0 count
// and its homotopy surrogate count a choice exactly (groups too), the mixed acquisition optimizer
// finds the best values of two choices on a hand-made surface that the continuous stages alone
// cannot reach, the file forms (CSV, JSON, experiment file) round-trip and refuse bad input naming
// the field and the value, the evaluator receives the value itself, exports show it as text,
// imports read it, and SEBO-L0 / BONSAI / GPEI steps with a GP propose valid configurations.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "acquisition/sparsity_penalty.h"
#include "core/input_error.h"
#include "design/sobol.h"
#include "evaluators/command_evaluator.h"
#include "experiment/model_step.h"
#include "experiment/model_strategy.h"
#include "experiment/sobol_strategy.h"
#include "io/csv_export.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/results_import.h"
#include "io/space_file.h"
#include "model/input_encoding.h"
#include "optimize/homotopy.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_choice_parameters {

using namespace sebo;
using Json = nlohmann::json;

using sebo::test::choice;
using sebo::test::continuous;

namespace {

// compression none|lz4|zstd (target none), threads in [1, 16] (target 1), level 1|2|4 (ordered).
SearchSpace service_space() {
    Parameter threads = continuous("threads", 1.0, 16.0);
    threads.target = 1.0;
    return SearchSpace({choice("compression", {"none", "lz4", "zstd"}), threads, choice("level", {"1", "2", "4"}, true)});
}

Experiment experiment_of(SearchSpace space, std::uint64_t seed = 1) {
    Experiment e;
    e.space = std::move(space);
    e.outcomes = Outcomes::single("y", false);
    e.seed = seed;
    return e;
}

// The expected message of an InputError thrown by `read`.
template <class Read>
QString error_of(Read read) {
    try {
        read();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(no error)");
}

// A hand-made acquisition: −(x0 − 0.7)² plus a bonus per value of two choices (columns 1 and 2,
// of 3 and 2 values); its maximum is x0 = 0.7 with values 1 and 1 (0.5 + 0.3). The gradient in
// the choice columns is 0, as the model's is.
class ChoiceSurface final : public AcquisitionFunction {
public:
    double value(const Eigen::VectorXd& x, double, Eigen::VectorXd* grad) const override {
        static constexpr double kFirst[3] = {0.0, 0.5, 0.2}, kSecond[2] = {0.0, 0.3};
        if (grad) {
            grad->setZero(x.size());
            (*grad)[0] = -2.0 * (x[0] - 0.7);
        }
        return -(x[0] - 0.7) * (x[0] - 0.7) + kFirst[SearchSpace::choice_of_unit(x[1], 3)] + kSecond[SearchSpace::choice_of_unit(x[2], 2)];
    }
    double exact_value(const Eigen::VectorXd& x) const override { return value(x, 1.0, nullptr); }
};

void complete(Experiment& e, const std::vector<std::vector<double>>& points) {
    for (const auto& x : points) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = x;
        t.status = TrialStatus::Completed;
        t.generator = "sobol";
        // lz4 is best, zstd second; more threads help up to 12; the level matters a little.
        static constexpr double kCompression[3] = {0.0, 2.0, 1.0};
        t.values["y"] = Measurement{kCompression[static_cast<int>(x[0])] - std::pow((x[1] - 12.0) / 8.0, 2) + 0.1 * x[2], std::nullopt};
        e.trials.push_back(std::move(t));
    }
}

}  // namespace

class TestChoiceParameters : public QObject {
    Q_OBJECT

private slots:
    void values_indices_cells_and_features_round_trip() {
        const SearchSpace s = service_space();
        QVERIFY2(!s.validate(), s.validate()->c_str());
        QCOMPARE(s.choice_levels(), (std::vector<int>{3, 0, 3}));
        QCOMPARE(s.parameter(0).upper, 2.0);  // bounds are the indices
        for (int k = 0; k < 3; ++k) {
            SEBO_COMPARE_NEAR(s.to_unit(0, k), (k + 0.5) / 3.0, 1e-15);
            QCOMPARE(s.from_unit(0, s.to_unit(0, k)), static_cast<double>(k));
        }
        // Every u of a cell maps to its value; the ends and beyond are clamped.
        QCOMPARE(s.from_unit(0, 0.0), 0.0);
        QCOMPARE(s.from_unit(0, 0.333), 0.0);
        QCOMPARE(s.from_unit(0, 0.334), 1.0);
        QCOMPARE(s.from_unit(0, 0.999), 2.0);
        QCOMPARE(s.from_unit(0, 1.0), 2.0);
        QCOMPARE(s.from_unit(0, -0.5), 0.0);
        // Texts and numbers.
        QCOMPARE(value_text(s.parameter(0), 2.0), std::string("zstd"));
        QCOMPARE(value_text(s.parameter(2), 2.0), std::string("4"));
        QCOMPARE(choice_index(s.parameter(0), "lz4"), std::optional<int>(1));
        QCOMPARE(choice_index(s.parameter(0), "LZ4"), std::optional<int>());
        QCOMPARE(choice_index(s.parameter(2), "4.0"), std::optional<int>(2));
        QCOMPARE(choice_index(s.parameter(2), "3"), std::optional<int>());
        // Activity: a choice is active off its target's value, and counts 1.
        QCOMPARE(s.active_count({0.0, 1.0, 0.0}), 0);
        QCOMPARE(s.active_count({2.0, 1.0, 1.0}), 2);
        QCOMPARE(s.snap({1.0, 1.05, 0.0}), (std::vector<double>{1.0, 1.0, 0.0}));  // threads within 1 %
        QVERIFY(s.check_point({1.5, 1.0, 0.0}).has_value());
        QVERIFY(!s.check_point({2.0, 16.0, 2.0}).has_value());

        // Features: one-hot for compression (3 columns), threads itself, the level's k/(K−1).
        const auto encoding = input_encoding(s);
        QVERIFY(encoding);
        QCOMPARE(encoding->feature_dimension(), 5);
        Eigen::MatrixXd X(3, 3);
        X << s.to_unit(0, 0), 0.25, s.to_unit(2, 0),  //
            0.40, 0.5, 0.70,                          // compression lz4 (cell 1), level 4 (cell 2)
            0.99, 1.0, 0.34;                          // zstd, level 2
        Eigen::MatrixXd expected(3, 5);
        expected << 1, 0, 0, 0.25, 0.0,  //
            0, 1, 0, 0.5, 1.0,           //
            0, 0, 1, 1.0, 0.5;
        QCOMPARE(encoding->encode(X), expected);
        QCOMPARE(encoding->column_of_feature(2), 0);
        QCOMPARE(encoding->value_of_feature(2), 2);
        QCOMPARE(encoding->column_of_feature(4), 2);
        QCOMPARE(encoding->value_of_feature(4), -1);
        QCOMPARE(feature_name(s, encoding.get(), 1), std::string("compression=lz4"));
        QCOMPARE(feature_name(s, encoding.get(), 3), std::string("threads"));
        // Gradients: the continuous column's own, 0 for the choices.
        Eigen::MatrixXd G(1, 5);
        G << 1, 2, 3, 4, 5;
        QCOMPARE(encoding->pull_back(G), Eigen::MatrixXd((Eigen::MatrixXd(1, 3) << 0, 4, 0).finished()));
        QVERIFY(!input_encoding(SearchSpace({continuous("a")})));
        QCOMPARE(s.model_input_count(), 5);

        // A SAAS sampler state (issue 15) is sized by the model's inputs, not the parameters: 5 + 3
        // or 5 + 4 coordinates per chain.
        Experiment e = experiment_of(s);
        MetricSamplerState state;
        state.metric = "y";
        state.step_size = 0.5;
        state.dense_metric = false;
        state.positions = {std::vector<double>(8, 0.0)};
        state.inverse_metric = std::vector<double>(8, 1.0);
        e.sampler_state = SamplerState{{state}};
        QVERIFY2(!e.validate(), e.validate()->c_str());
        state.positions = {std::vector<double>(6, 0.0)};
        state.inverse_metric = std::vector<double>(6, 1.0);
        e.sampler_state = SamplerState{{state}};
        QCOMPARE(e.validate().value_or(""),
                 std::string("sampler_states.y.positions[0]: 6 coordinates; a SAAS model of 5 inputs has 8 or 9"));
    }

    void sobol_picks_every_value_equally_often() {
        const SearchSpace s({choice("c", {"a", "b", "c"}), continuous("x")});
        int counts[3] = {0, 0, 0};
        const int n = 3072;
        for (const auto& u : ScrambledSobol(2, 7).points(0, n)) ++counts[static_cast<int>(s.from_unit(0, u[0]))];
        // A (0, m, 2)-net places exactly n/3 ± a few points in each third.
        for (int count : counts) QVERIFY2(std::abs(count - n / 3) <= 4, qPrintable(QString::number(count)));
    }

    void l0_counts_choices_exactly() {
        const SearchSpace s = service_space();
        SparsityPenalty penalty = make_sparsity_penalty(s, PenaltyKind::L0);
        const double u_threads = 0.1;
        Eigen::Vector3d x(s.to_unit(0, 2), u_threads, s.to_unit(2, 0));  // zstd (changed), threads moved, level on target
        QCOMPARE(penalty.exact(x), 2.0);
        // φ_a: the changed choice counts 1 at every a, the level's 0; threads is smoothed.
        for (double a : {0.3, 0.05}) {
            Eigen::VectorXd grad;
            const double phi = penalty.smooth(x, a, &grad);
            const double bump = std::exp(-0.5 * u_threads * u_threads / (a * a));
            SEBO_COMPARE_NEAR(phi, 3.0 - 0.0 - bump - 1.0, 1e-14);
            QCOMPARE(grad[0], 0.0);
            QCOMPARE(grad[2], 0.0);
            SEBO_COMPARE_NEAR(grad[1], bump * u_threads / (a * a), 1e-12);
        }
        // Anywhere in the target's cell is on target.
        x[0] = 0.3;
        x[1] = 0.0;
        QCOMPARE(penalty.exact(x), 0.0);
        SEBO_COMPARE_NEAR(penalty.smooth(x, 0.3, nullptr), 0.0, 1e-15);
        // L1 and group lasso: 1 per changed choice.
        x[0] = s.to_unit(0, 1);
        SEBO_COMPARE_NEAR(make_sparsity_penalty(s, PenaltyKind::L1).exact(x), 1.0, 1e-15);
        SEBO_COMPARE_NEAR(make_sparsity_penalty(s, PenaltyKind::GroupLasso).exact(x), 1.0, 1e-15);
        // A group of a choice and a continuous parameter counts 1 when the choice changed.
        Parameter c = choice("codec", {"a", "b"});
        c.group = "io";
        Parameter r = continuous("rate");
        r.group = "io";
        const SearchSpace grouped({c, r, continuous("other")});
        QCOMPARE(grouped.group_count(), 2);
        QCOMPARE(grouped.active_group_count({1.0, 0.0, 0.0}), 1);
        const SparsityPenalty g = make_sparsity_penalty(grouped, PenaltyKind::L0);
        const Eigen::Vector3d y(0.75, 0.0, 0.0);
        QCOMPARE(g.exact(y), 1.0);
        SEBO_COMPARE_NEAR(g.smooth(y, 0.2, nullptr), 1.0, 1e-15);
    }

    void mixed_optimizer_finds_the_best_values() {
        const SearchSpace s({continuous("x"), choice("c", {"a", "b", "c"}), choice("d", {"p", "q"})});
        CandidateTransforms transforms = make_candidate_transforms(s);
        QCOMPARE(transforms.choice_levels, (std::vector<int>{0, 3, 2}));
        // Every raw sample has both choices on their first value: the continuous stages keep them.
        std::vector<Eigen::VectorXd> raw;
        for (double x0 : {0.1, 0.4, 0.9}) raw.push_back(Eigen::Vector3d(x0, 0.1, 0.2));
        AcquisitionOptimizerOptions options;
        options.restarts = 3;
        options.homotopy.steps = 3;
        const OptimizedCandidate found = optimize_acquisition(ChoiceSurface(), raw, transforms, options, StepControl{});
        QCOMPARE(found.status, OptimizedCandidate::Status::Ok);
        QCOMPARE(s.from_unit(1, found.x[1]), 1.0);
        QCOMPARE(s.from_unit(2, found.x[2]), 1.0);
        SEBO_COMPARE_NEAR(found.x[0], 0.7, 1e-4);
        SEBO_COMPARE_NEAR(found.value, 0.8, 1e-8);
        // The choice coordinates are the middles of their cells.
        QCOMPARE(found.x[1], 0.5);
        QCOMPARE(found.x[2], 0.75);
        // Without the local search (no choice levels) the start's values stay.
        transforms.choice_levels.clear();
        const OptimizedCandidate plain = optimize_acquisition(ChoiceSurface(), raw, transforms, options, StepControl{});
        QCOMPARE(s.from_unit(1, plain.x[1]), 0.0);
    }

    void space_files_read_choices_and_refuse_bad_ones() {
        const SearchSpace csv = space_from_csv_text("name,kind,lower,upper,values,target,ordered,group\n"
                                                    "compression,choice,,,none|lz4|zstd,lz4,,io\n"
                                                    "level,choice,,,1|2|4,,yes,\n"
                                                    "threads,integer,1,16,,1,,\n",
                                                    "space.csv");
        QCOMPARE(csv.dimension(), 3);
        QCOMPARE(csv.parameter(0).resolved_target(), 1.0);
        QCOMPARE(csv.parameter(0).group, std::string("io"));
        QVERIFY(!csv.parameter(0).ordered);
        QVERIFY(csv.parameter(1).ordered);
        QCOMPARE(csv.parameter(1).values[2].number, std::optional<double>(4.0));
        QCOMPARE(csv.parameter(0).values[1].number, std::optional<double>());

        const QString header = "name,kind,lower,upper,log,min_change,values,target,ordered\n";
        const auto csv_error = [&](const QString& row) {
            return error_of([&] { space_from_csv_text((header + row + "\n").toStdString(), "space.csv"); });
        };
        QCOMPARE(csv_error("c,choice,,,,,,,"),
                 QString("space.csv line 2, column values: a choice parameter needs its values, separated by | (such as none|lz4|zstd)"));
        QCOMPARE(csv_error("c,choice,,,,,none||zstd,,"), QString("space.csv line 2, column values: value 2 is empty"));
        QCOMPARE(csv_error("c,choice,,,,,none|lz4|none,,"),
                 QString("space.csv line 2, column values: 'none' appears twice (values 1 and 3)"));
        QCOMPARE(csv_error("c,choice,,,,,1|2|2.0,,"), QString("space.csv line 2, column values: '2' appears twice (values 2 and 3)"));
        QCOMPARE(csv_error("c,choice,,,,,none,,"), QString("space.csv line 2, column values: a choice needs at least two values, got 1"));
        QCOMPARE(csv_error("c,choice,,,,,none|lz4,brotli,"),
                 QString("space.csv line 2, column target: 'brotli' is not one of the values 'none|lz4'"));
        QCOMPARE(csv_error("c,choice,,,,,none|lz4,,maybe"),
                 QString("space.csv line 2, column ordered: 'maybe' is not true or false (or yes/no, 1/0)"));
        QCOMPARE(csv_error("c,choice,0,,,,none|lz4,,"),
                 QString("space.csv line 2, column lower: a choice parameter has values (column values, such as none|lz4|zstd) instead of bounds"));
        QCOMPARE(csv_error("c,choice,,,true,,none|lz4,,"), QString("space.csv line 2, column log: 'true': a choice parameter has no scale"));
        QCOMPARE(csv_error("c,choice,,,,1,none|lz4,,"),
                 QString("space.csv line 2, column min_change: '1': a choice parameter has no minimum change"));
        QCOMPARE(csv_error("c,continuous,0,1,,,a|b,,"),
                 QString("space.csv line 2, column values: only a choice parameter (kind choice) has values; this one is continuous"));

        const auto json_error = [&](const std::string& parameter) {
            return error_of([&] { space_from_json_text(R"({"parameters": [)" + parameter + "]}"); });
        };
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": []})"),
                 QString("parameters[0].values: a choice needs at least two values, got 0"));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice"})"),
                 QString("parameters[0].values: a choice parameter needs its values, such as [\"none\", \"lz4\", \"zstd\"]"));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": ["a", {"b": 1}]})"),
                 QString("parameters[0].values[1]: expected a string, a number, true, false or null, got an object"));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": ["a", "b", "a"]})"),
                 QString("parameters[0].values: 'a' appears twice (values 1 and 3)"));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": ["a", "b"], "target": "z"})"),
                 QString("parameters[0].target: \"z\" is not one of the values \"a\", \"b\""));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": [1, 2], "target": "1"})"),
                 QString("parameters[0].target: \"1\" is not one of the values 1, 2"));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": ["a", "b"], "ordered": "yes"})"),
                 QString("parameters[0].ordered: expected true or false, got the string \"yes\""));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": ["a", "b"], "upper": 1})"),
                 QString("parameters[0].upper: a choice parameter has \"values\" instead of bounds"));
        QCOMPARE(json_error(R"({"name": "c", "kind": "choice", "values": ["a", "b"], "min_change": 1})"),
                 QString("parameters[0].min_change: a choice changes or does not; it has no minimum change"));
        // A constraint may not name a choice.
        const QString constraint = error_of([] {
            space_from_json_text(R"({"parameters": [{"name": "x", "lower": 0, "upper": 1},
                {"name": "c", "kind": "choice", "values": [1, 2]}], "parameter_constraints": ["x + c <= 1"]})");
        });
        QVERIFY2(constraint.startsWith("parameter_constraints[0]: \"x + c <= 1\", column 5: ") && constraint.contains("it is a choice"),
                 qPrintable(constraint));
    }

    void experiment_file_evaluator_exports_and_imports_show_the_value() {
        Experiment e = experiment_of(service_space());
        Trial t;
        t.index = 0;
        t.parameters = {2.0, 4.0, 2.0};  // zstd, 4 threads, level 4
        t.status = TrialStatus::Completed;
        t.generator = "manual";
        t.values["y"] = Measurement{1.5, std::nullopt};
        e.trials.push_back(t);
        const std::string text = experiment_to_json_text(e);
        const Json file = Json::parse(text);
        QCOMPARE(file["space"]["parameters"][0]["values"], Json::parse(R"(["none", "lz4", "zstd"])"));
        QCOMPARE(file["space"]["parameters"][2]["values"], Json::parse("[1, 2, 4]"));
        QCOMPARE(file["space"]["parameters"][2]["ordered"], Json(true));
        QCOMPARE(file["trials"][0]["parameters"], Json::parse(R"({"compression": "zstd", "threads": 4.0, "level": 4.0})"));
        const Experiment back = experiment_from_json_text(text);
        QCOMPARE(back.trials[0].parameters, t.parameters);
        QCOMPARE(back.space.parameter(0).values, e.space.parameter(0).values);
        QCOMPARE(experiment_to_json_text(back), text);
        // A trial value that is not one of the values.
        std::string bad = text;
        const std::string value = "\"compression\": \"zstd\"";
        QVERIFY(bad.find(value) != std::string::npos);
        bad.replace(bad.find(value), value.size(), "\"compression\": \"brotli\"");
        QCOMPARE(error_of([&] { experiment_from_json_text(bad); }),
                 QString("trials[0].parameters.compression: \"brotli\" is not one of the values \"none\", \"lz4\", \"zstd\""));

        // The evaluator gets the value: a string, or a number for a number value.
        const Json input = Json::parse(command_input_json(e.space, t));
        QCOMPARE(input["parameters"], Json::parse(R"({"compression": "zstd", "threads": 4.0, "level": 4})"));

        // Exports: text.
        const std::string trials = trials_to_csv(e);
        QVERIFY2(trials.find(",zstd,4,4,") != std::string::npos, trials.c_str());
        QCOMPARE(Json::parse(configuration_to_json(e, 0, true))["parameters"],
                 Json::parse(R"({"compression": "zstd", "threads": 4, "level": 4})"));
        const std::string configuration = configuration_to_csv(e, 0, false);
        QVERIFY2(configuration.find("compression,zstd,none,true") != std::string::npos, configuration.c_str());

        // Imports read the value's text, and refuse one that is not among the values.
        const TrialImport imported =
            import_trials(e, parse_csv_table("compression,threads,level,y\nlz4,2,2,1.0\nbrotli,2,2,1.0\n", "past.csv"));
        QCOMPARE(imported.trials.size(), std::size_t{1});
        QCOMPARE(imported.trials[0].parameters, (std::vector<double>{1.0, 2.0, 1.0}));
        QCOMPARE(imported.problems.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(imported.problems[0]),
                 QString("past.csv line 3, column compression: 'brotli' is not one of the values none|lz4|zstd of parameter 'compression'"));
    }

    // Another tool's categorical values (issue 31): true, false and null are JSON literals, and a
    // number written as a float (2.0) stays one, in the file, for the evaluator and in exports;
    // a trial names a literal by the literal, not by its text.
    void literal_and_float_values_keep_their_json_type() {
        const SearchSpace space = space_from_json_text(
            "{\"parameters\": [{\"name\": \"bn\", \"kind\": \"choice\", \"values\": [true, false]},"
            " {\"name\": \"wd\", \"kind\": \"choice\", \"values\": [2.0, 0.0001, null, 3]}]}");
        QCOMPARE(space.parameter(0).values, (std::vector<ChoiceValue>{{"true", std::nullopt, true}, {"false", std::nullopt, true}}));
        QCOMPARE(space.parameter(1).values, (std::vector<ChoiceValue>{{"2.0", 2.0, false}, {"1e-04", 0.0001, false},
                                                                       {"null", std::nullopt, true}, {"3", 3.0, false}}));
        Experiment e = experiment_of(space);
        Trial t;
        t.index = 0;
        t.parameters = {1.0, 2.0};  // false, null
        t.status = TrialStatus::Completed;
        t.values["y"] = Measurement{1.0, std::nullopt};
        e.trials.push_back(t);
        t.index = 1;
        t.parameters = {0.0, 0.0};  // true, 2.0
        e.trials.push_back(t);
        const std::string text = experiment_to_json_text(e);
        const Json file = Json::parse(text);
        QCOMPARE(file["space"]["parameters"][1]["values"].dump(), std::string("[2.0,0.0001,null,3]"));
        QCOMPARE(file["trials"][0]["parameters"].dump(), std::string(R"({"bn":false,"wd":null})"));
        QCOMPARE(file["trials"][1]["parameters"].dump(), std::string(R"({"bn":true,"wd":2.0})"));
        QCOMPARE(experiment_to_json_text(experiment_from_json_text(text)), text);
        QCOMPARE(Json::parse(command_input_json(e.space, e.trials[1]))["parameters"].dump(), std::string(R"({"bn":true,"wd":2.0})"));
        QCOMPARE(Json::parse(configuration_to_json(e, 0, false))["parameters"].dump(), std::string(R"({"bn":false,"wd":null})"));
        // A string "true" is not the literal true, nor "2" the float 2.0's text.
        std::string bad = text;
        bad.replace(bad.find("\"bn\": false"), 11, "\"bn\": \"false\"");
        QCOMPARE(error_of([&] { experiment_from_json_text(bad); }),
                 QString("trials[0].parameters.bn: \"false\" is not one of the values true, false"));
        QCOMPARE(error_of([] { space_from_json_text("{\"parameters\": [{\"name\": \"c\", \"kind\": \"choice\", \"values\": [[1], 2]}]}"); }),
                 QString("parameters[0].values[0]: expected a string, a number, true, false or null, got an array"));
    }

    void model_steps_propose_valid_choices() {
        // Sobol design, then a step of every strategy family with a GP: valid configurations, the
        // choices on their indices; SEBO-L0 is asked for two at once.
        Experiment e = experiment_of(service_space(), 3);
        complete(e, next_sobol_points(e, 10));
        for (const Trial& t : e.trials) QVERIFY(!e.space.check_point(t.parameters));
        for (StrategyKind kind : {StrategyKind::SeboL0, StrategyKind::SeboL1, StrategyKind::Bonsai, StrategyKind::Gpei,
                                  StrategyKind::EiEr}) {
            MethodSettings m;
            m.strategy = kind;
            m.model = ModelKind::Gp;
            m.initial_trials = 10;
            m.raw_samples = 64;
            m.restarts = 3;
            m.homotopy_steps = 4;
            ModelStrategy strategy(m);
            const Proposal p = strategy.propose(e, kind == StrategyKind::SeboL0 ? 2 : 1, StepControl{});
            QVERIFY2(p.status == Proposal::Status::Ok, p.message.c_str());
            for (const auto& x : p.points) {
                const auto problem = e.space.check_point(x);
                QVERIFY2(!problem, problem ? problem->c_str() : "");
                QVERIFY(x[0] == 0.0 || x[0] == 1.0 || x[0] == 2.0);
                QVERIFY(x[2] == 0.0 || x[2] == 1.0 || x[2] == 2.0);
            }
        }
        // The posterior sees the features: two points of the same value predict the same.
        const std::optional<TrainingSet> training = make_training_set(e, WarpMode::Off);
        QVERIFY(training && training->data->encoding);
        const SurrogateFit fit = fit_surrogate(training->data, surrogate_options([] {
                                                   MethodSettings m;
                                                   m.model = ModelKind::Gp;
                                                   return m;
                                               }()),
                                               5);
        QVERIFY2(fit.status == SurrogateFit::Status::Ok, fit.message.c_str());
        QCOMPARE(fit.posterior->model_data().dimension(), 5);
        QCOMPARE(fit.posterior->dimension(), 3);
        Eigen::MatrixXd X(2, 3);
        X << 0.40, 0.5, 0.1,  //
            0.60, 0.5, 0.2;
        const EnsembleMoments m = fit.posterior->predict(X);
        QCOMPARE(m.mean(0, 0), m.mean(1, 0));
    }
};

SEBO_TEST_MAIN(TestChoiceParameters)
}  // namespace test_choice_parameters
#include "test_choice_parameters.moc"
