// Linear parameter constraints and fixed parameters in the search space (issue 14, items 2 and 3):
// the space keeps fixed parameters apart (never varied, never active, not a unit-cube column, sent
// to the evaluator and exported in declared order), constraints name them as constants, the
// creation checks (an empty feasible set, a target outside the constraints) say which constraint
// and which values, the file form round-trips and version-4 files still load, historical rows
// outside the constraints are imported with a note, snapping onto a target projects the others
// back (a hand-computed case), and — the property test — over many random polytopes (fixed
// seeds) the initial design and the candidates of small SEBO-L0 and BONSAI steps with GP-MAP all
// satisfy the constraints to 1e-9 relative.
#include <algorithm>
#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "evaluators/command_evaluator.h"
#include "experiment/model_step.h"
#include "experiment/model_strategy.h"
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "io/csv_export.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/linear_constraint_text.h"
#include "io/results_import.h"
#include "space/feasible_point.h"
#include "space/polytope.h"
#include "space/space_constraints.h"
#include "parameter_builders.h"
#include "test_support.h"
#include "test_main.h"

namespace test_parameter_constraints {

using namespace sebo;
using Json = nlohmann::json;

using sebo::test::continuous;
using sebo::test::fixed;
using sebo::test::integer;

namespace {

// The space of `parameters` with constraints given as text (each must parse).
SearchSpace constrained(const std::vector<Parameter>& parameters, const std::vector<std::string>& texts) {
    const SearchSpace plain(parameters);
    std::vector<LinearConstraint> constraints;
    for (const std::string& t : texts) {
        const ConstraintParse parsed = parse_linear_constraint(t, constraint_variables(plain));
        if (!parsed.ok()) qFatal("'%s': %s", t.c_str(), parsed.error.describe().c_str());
        constraints.push_back(*parsed.constraint);
    }
    return SearchSpace(parameters, constraints);
}

Experiment experiment_of(SearchSpace space, std::uint64_t seed = 1) {
    Experiment e;
    e.space = std::move(space);
    e.outcomes = Outcomes::single("y", false);
    e.seed = seed;
    return e;
}

// A random space of 3–6 parameters with lower bounds 0 (so targets 0), some integer, and 1–3
// random constraints in user units that the target and one random inner point c satisfy (so the
// set is never empty and the creation checks pass); with `equality`, also an equality between
// two continuous parameters through the target and c.
SearchSpace random_space(std::mt19937_64& rng, bool equality) {
    std::uniform_int_distribution<int> dims(3, 6), count(1, 3);
    std::uniform_real_distribution<double> upper(1.0, 10.0), inner(0.1, 0.6), margin(0.05, 0.5);
    std::normal_distribution<double> normal(0.0, 1.0);
    const int d = dims(rng);
    std::vector<Parameter> parameters;
    std::vector<double> c;
    for (int i = 0; i < d; ++i) {
        const std::string name = "x" + std::to_string(i);
        if (i % 3 == 2) parameters.push_back(integer(name, 0, 10));
        else parameters.push_back(continuous(name, 0.0, upper(rng)));
        c.push_back(inner(rng) * parameters.back().upper);
        if (parameters.back().kind == ParameterKind::Integer) c.back() = std::round(c.back());
    }
    std::vector<LinearConstraint> constraints;
    const int k = count(rng);
    for (int j = 0; j < k; ++j) {
        LinearConstraint con;
        double at_c = 0.0, scale = 0.0;
        for (int i = 0; i < d; ++i) {
            if (normal(rng) < -0.3) continue;  // about 60 % of the parameters in each constraint
            const double a = normal(rng);
            con.terms.push_back({i, a});
            at_c += a * c[static_cast<std::size_t>(i)];
            scale += std::abs(a) * parameters[static_cast<std::size_t>(i)].upper;
        }
        if (con.terms.empty()) continue;
        // Through neither the target (0) nor c: both strictly inside.
        const double bound = std::max(at_c, 0.0) + margin(rng) * scale;
        if (j % 2 == 0) {
            con.relation = ConstraintRelation::LessEqual;
            con.bound = bound;
        } else {  // the same half-space written the other way round
            for (LinearTerm& t : con.terms) t.coefficient = -t.coefficient;
            con.relation = ConstraintRelation::GreaterEqual;
            con.bound = -bound;
        }
        constraints.push_back(con);
    }
    if (equality) {
        // c1·x0 − c0·x1 = 0 holds at the target (0, 0) and at c.
        LinearConstraint con;
        con.terms = {{0, c[1]}, {1, -c[0]}};
        con.relation = ConstraintRelation::Equal;
        con.bound = 0.0;
        constraints.push_back(con);
    }
    return SearchSpace(parameters, constraints);
}

// A smooth objective with its optimum away from the target: the model has something to find.
double objective(const SearchSpace& space, const std::vector<double>& x) {
    double f = 0.0;
    for (int i = 0; i < space.dimension(); ++i) {
        const double u = space.to_unit(i, x[static_cast<std::size_t>(i)]);
        f -= (u - 0.7) * (u - 0.7) * (1.0 + i);
    }
    return f;
}

void complete(Experiment& e, const std::vector<std::vector<double>>& points) {
    for (const auto& x : points) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = x;
        t.status = TrialStatus::Completed;
        t.generator = "sobol";
        t.values["y"] = Measurement{objective(e.space, x), std::nullopt};
        e.trials.push_back(std::move(t));
    }
}

QString violations(const SearchSpace& space, const std::vector<double>& x) {
    QString text;
    for (int k : space.violated_constraints(x)) text += QString::fromStdString(space.describe_violation(k, x)) + "; ";
    if (auto error = space.check_point(x)) text += QString::fromStdString(*error);
    return text;
}

}  // namespace

class TestParameterConstraints : public QObject {
    Q_OBJECT
private slots:
    void fixed_parameters_are_kept_apart() {
        const SearchSpace s({continuous("a"), fixed("lvl", 3.0), integer("b", 0, 5)});
        QVERIFY(!s.validate());
        QCOMPARE(s.dimension(), 2);
        QCOMPARE(s.declared_parameters().size(), std::size_t{3});
        QCOMPARE(s.fixed_parameters().front().name, std::string("lvl"));
        QCOMPARE(s.declared_values({0.5, 2.0}), (std::vector<double>{0.5, 3.0, 2.0}));
        QCOMPARE(s.with_fixed({0.5, 2.0}), (std::vector<double>{0.5, 2.0, 3.0}));
        QCOMPARE(s.variable_names(), (std::vector<std::string>{"a", "b", "lvl"}));
        QCOMPARE(s.active_count({0.0, 0.0}), 0);
        QCOMPARE(s.target(), (std::vector<double>{0.0, 0.0}));
        // The evaluator gets every parameter in declared order; an integral fixed value as an integer.
        Trial t;
        t.index = 4;
        t.parameters = {0.5, 2.0};
        QCOMPARE(command_input_json(s, t), std::string("{\"trial\":4,\"parameters\":{\"a\":0.5,\"lvl\":3,\"b\":2}}\n"));
        // Exports show it too, marked fixed: pinned, never changed.
        Experiment e = experiment_of(s);
        t.status = TrialStatus::Completed;
        t.values["y"] = Measurement{1.0, std::nullopt};
        e.trials.push_back(t);
        QVERIFY(trials_to_csv(e).find(",generator,a,lvl,b,") != std::string::npos);
        QVERIFY(trials_to_csv(e).find(",0.5,3,2,") != std::string::npos);
        QCOMPARE(configuration_to_csv(e, 4, false), std::string("parameter,value,target,changed\na,0.5,0,true\nlvl,3,3,fixed\nb,2,0,true\n"));
        QCOMPARE(configuration_to_csv(e, 4, true), std::string("parameter,value,target,changed\na,0.5,0,true\nb,2,0,true\n"));
        // The JSON lists it under "fixed", after the parameters; without it there (changed only) the
        // member is absent.
        const nlohmann::ordered_json all = nlohmann::ordered_json::parse(configuration_to_json(e, 4, false));
        QCOMPARE(all["parameters"].dump(), std::string(R"({"a":0.5,"lvl":3,"b":2})"));
        QCOMPARE(all["fixed"].dump(), std::string(R"(["lvl"])"));
        QCOMPARE(std::prev(all.end()).key(), std::string("fixed"));
        QVERIFY(!nlohmann::json::parse(configuration_to_json(e, 4, true)).contains("fixed"));
    }

    void bad_fixed_parameters_are_named() {
        Parameter no_value = fixed("lvl", 0.0);
        no_value.target.reset();
        QCOMPARE(*SearchSpace({continuous("a"), no_value}).validate(),
                 std::string("parameters[1] (lvl).value: a fixed parameter needs a value"));
        Parameter outside = fixed("lvl", 3.0);
        outside.lower = 0.0;
        outside.upper = 1.0;
        QCOMPARE(*SearchSpace({continuous("a"), outside}).validate(),
                 std::string("parameters[1] (lvl).value: 3 is outside the bounds [0, 1] given for the fixed parameter"));
        Parameter logged = fixed("lvl", 3.0);
        logged.log_scale = true;
        QCOMPARE(*SearchSpace({continuous("a"), logged}).validate(),
                 std::string("parameters[1] (lvl).log: a fixed parameter is never varied, so it has no scale"));
        QCOMPARE(*SearchSpace({fixed("lvl", 3.0)}).validate(),
                 std::string("parameters: every parameter is fixed; at least one must vary"));
    }

    void a_fixed_parameter_in_a_constraint_is_a_constant() {
        const SearchSpace s = constrained({continuous("a"), fixed("lvl", 3.0), continuous("b")}, {"a + lvl <= 3.5"});
        QVERIFY(!s.validate());
        QCOMPARE(s.constraint_text(0), std::string("a + lvl <= 3.5"));
        QVERIFY(s.violated_constraints({0.5, 0.9}).empty());
        QCOMPARE(s.violated_constraints({0.6, 0.0}), std::vector<int>{0});
        QCOMPARE(s.describe_violation(0, {0.6, 0.0}), std::string("a + lvl <= 3.5 (a + lvl = 3.6 with a = 0.6, lvl = 3)"));
        // In the unit cube: a <= 0.5, a row on column 0 only (b is free).
        const Polytope& p = *s.polytope();
        QCOMPARE(p.dimension(), 2);
        QVERIFY(p.contains(Eigen::Vector2d(0.5, 1.0)));
        QVERIFY(!p.contains(Eigen::Vector2d(0.51, 0.0)));
    }

    void creation_checks_name_the_constraint_and_the_values() {
        const std::vector<Parameter> ab = {continuous("fa"), continuous("fb"), continuous("fc")};
        QVERIFY(!check_constraints_on_creation(SearchSpace(ab)));
        QVERIFY(!check_constraints_on_creation(constrained(ab, {"fa + fb + fc <= 1"})));
        // No point within the bounds.
        const auto empty = check_constraints_on_creation(constrained(ab, {"fa + fb >= 3"}));
        QVERIFY(empty);
        QVERIFY2(empty->rfind("parameter constraints: no configuration satisfies 'fa + fb >= 3'", 0) == 0, empty->c_str());
        const auto conflict = check_constraints_on_creation(constrained(ab, {"fa + fb >= 1.5", "fa <= 0.2", "fc <= 1"}));
        QVERIFY(conflict);
        QVERIFY2(conflict->find("'fa + fb >= 1.5'") != std::string::npos && conflict->find("'fa <= 0.2'") != std::string::npos &&
                     conflict->find("fc <= 1") == std::string::npos,
                 conflict->c_str());
        // The target (0, 0, 0) outside.
        QCOMPARE(*check_constraints_on_creation(constrained(ab, {"fa + fb >= 0.5"})),
                 std::string("the target point (every parameter at its target: the status quo) violates the parameter "
                             "constraint fa + fb >= 0.5 (fa + fb = 0 with fa = 0, fb = 0); change the targets or the constraint"));
        std::vector<Parameter> targeted = ab;
        targeted[0].target = 0.8;
        targeted[1].target = 0.7;
        QCOMPARE(*check_constraints_on_creation(constrained(targeted, {"fa + fb <= 1", "fa <= 0.5"})),
                 std::string("the target point (every parameter at its target: the status quo) violates the parameter "
                             "constraint fa + fb <= 1 (fa + fb = 1.5 with fa = 0.8, fb = 0.7); change the targets or the "
                             "constraint (it violates 1 more)"));
    }

    void file_form_round_trips_and_version_4_files_load() {
        Experiment e = experiment_of(constrained({continuous("fa"), fixed("lvl", 3.0), continuous("fb", 0, 2), integer("n", 0, 10)},
                                                 {"fa + 0.5*fb <= 1", "fa + 0.1*n + lvl >= 3", "fa = fb"}));
        const std::string text = experiment_to_json_text(e);
        const Json j = Json::parse(text);
        QCOMPARE(j["version"].get<int>(), kExperimentVersion);
        QCOMPARE(j["space"]["parameter_constraints"],
                 Json::array({"fa + 0.5*fb <= 1", "fa + 0.1*n + lvl >= 3", "fa - fb = 0"}));
        QCOMPARE(j["space"]["parameters"][1], Json::parse(R"({"name": "lvl", "kind": "fixed", "value": 3.0})"));
        const Experiment back = experiment_from_json_text(text);
        QCOMPARE(back.space.constraints(), e.space.constraints());
        QCOMPARE(back.space.variable_names(), e.space.variable_names());
        QCOMPARE(back.space.declared_parameters()[1].name, std::string("lvl"));
        QCOMPARE(experiment_to_json_text(back), text);
        // Fixed bounds, when given, are kept.
        Json bounded = j;
        bounded["space"]["parameters"][1] = Json::parse(R"({"name": "lvl", "kind": "fixed", "value": 3, "lower": 0, "upper": 5})");
        const Experiment with_bounds = experiment_from_json_text(bounded.dump());
        QCOMPARE(with_bounds.space.fixed_parameters()[0].upper, 5.0);
        QCOMPARE(Json::parse(experiment_to_json_text(with_bounds))["space"]["parameters"][1], bounded["space"]["parameters"][1]);

        // A version-4 file: a version-4 reader ignored "parameter_constraints" and a "value", so
        // they mean nothing there.
        Json old = j;
        old["version"] = 4;
        old["space"]["parameters"].erase(1);
        old["space"]["parameters"][0]["value"] = 7;
        old["space"]["parameter_constraints"] = Json::array({"fa + fb <= 1"});
        const Experiment migrated = experiment_from_json_text(old.dump());
        QVERIFY(!migrated.space.has_constraints());
        QCOMPARE(migrated.space.dimension(), 3);
    }

    void bad_file_forms_are_named() {
        Experiment e = experiment_of(SearchSpace({continuous("fa"), continuous("fb")}));
        const Json good = Json::parse(experiment_to_json_text(e));
        const auto refused = [&](const std::function<void(Json&)>& change) {
            Json j = good;
            change(j);
            try {
                experiment_from_json_text(j.dump());
            } catch (const InputError& error) {
                return std::string(error.what());
            }
            return std::string("accepted");
        };
        QCOMPARE(refused([](Json& j) { j["space"]["parameter_constraints"] = Json::array({"fa + + fb <= 1"}); }),
                 std::string("space.parameter_constraints[0]: \"fa + + fb <= 1\", column 6: two signs in a row: expected a "
                             "parameter or a number after '+', found '+'"));
        QCOMPARE(refused([](Json& j) { j["space"]["parameter_constraints"] = Json::array({"fa <= "}); }),
                 std::string("space.parameter_constraints[0]: \"fa <= \", column 7: expected a parameter or a number after "
                             "'<=', found the end of the text"));
        QVERIFY(refused([](Json& j) { j["space"]["parameter_constraints"] = Json::array({"fz <= 1"}); })
                    .find("space.parameter_constraints[0]: \"fz <= 1\", column 1: unknown parameter 'fz'") == 0);
        QVERIFY(refused([](Json& j) { j["space"]["parameter_constraints"] = Json::array({1}); })
                    .find("space.parameter_constraints[0]") == 0);
        QCOMPARE(refused([](Json& j) { j["space"]["parameters"][1] = Json::parse(R"({"name": "fb", "kind": "fixed"})"); }),
                 std::string("space.parameters[1].value: a fixed parameter needs a value"));
        QCOMPARE(refused([](Json& j) {
                     j["space"]["parameters"][1] = Json::parse(R"({"name": "fb", "kind": "fixed", "value": 3, "lower": 0, "upper": 1})");
                 }),
                 std::string("space.parameters[1].value: 3 is outside the bounds [0, 1] given for the fixed parameter"));
        QCOMPARE(refused([](Json& j) {
                     j["space"]["parameters"][1] = Json::parse(R"({"name": "fb", "kind": "fixed", "value": 3, "lower": 0})");
                 }),
                 std::string("space.parameters[1].upper: a fixed parameter's bounds are both given or neither"));
        QCOMPARE(refused([](Json& j) { j["space"]["parameters"][1]["value"] = 0.5; }),
                 std::string("space.parameters[1].value: only a fixed parameter (\"kind\": \"fixed\") has a value; this one is "
                             "continuous"));
        QVERIFY(refused([](Json& j) { j["space"]["parameters"][1]["kind"] = "enum"; }).find("continuous, integer, choice, fixed") !=
                std::string::npos);
        // A log-scale parameter in a constraint.
        QVERIFY(refused([](Json& j) {
                    j["space"]["parameters"][1]["lower"] = 1;
                    j["space"]["parameters"][1]["upper"] = 10;
                    j["space"]["parameters"][1]["log"] = true;
                    j["space"]["parameter_constraints"] = Json::array({"fa + fb <= 3"});
                }).find("column 6: parameter 'fb' cannot appear in a linear constraint: it is on a log scale") != std::string::npos);
    }

    void imported_rows_outside_the_constraints_are_data_with_a_note() {
        Experiment e = experiment_of(constrained({continuous("fa"), continuous("fb"), fixed("lvl", 2.0)}, {"fa + fb <= 1"}));
        const CsvTable table = parse_csv_table("fa,fb,y\n0.2,0.3,1\n0.8,0.7,2\n", "past.csv");
        const TrialImport imported = import_trials(e, table);
        QVERIFY(imported.problems.empty());
        QCOMPARE(imported.trials.size(), std::size_t{2});
        QCOMPARE(imported.notes, std::vector<std::string>{"past.csv line 3: outside the parameter constraint fa + fb <= 1 (fa + fb "
                                                          "= 1.5 with fa = 0.8, fb = 0.7); imported as data (no proposal will be "
                                                          "outside it)"});
        // A fixed parameter's column, when there, must hold its value.
        const TrialImport other = import_trials(e, parse_csv_table("fa,fb,lvl,y\n0.2,0.3,2,1\n0.2,0.3,5,1\n", "past.csv"));
        QCOMPARE(other.problems,
                 std::vector<std::string>{"past.csv line 3, column lvl: 5 differs from the fixed value 2 of parameter 'lvl'"});
    }

    void snapping_onto_a_target_projects_the_others_back() {
        // fa − fb <= 0.1, targets 0. At (0.104, 0.005), inside, fb is within the 1 % rule:
        // snapped onto 0 it would leave fa − fb = 0.104, so fb is pinned at 0 and fa projected back
        // to 0.1 (the nearest point of the polytope with fb = 0).
        const SearchSpace s = constrained({continuous("fa"), continuous("fb")}, {"fa - fb <= 0.1"});
        const CandidateTransforms transforms = make_candidate_transforms(s);
        QVERIFY(transforms.feasible_set);
        const Eigen::VectorXd x = transforms.finalize(Eigen::Vector2d(0.104, 0.005));
        SEBO_COMPARE_NEAR(x[0], 0.1, 1e-12);
        QCOMPARE(x[1], 0.0);
        const auto values = feasible_configuration(s, Eigen::Vector2d(0.104, 0.005));
        QVERIFY(values);
        SEBO_COMPARE_NEAR((*values)[0], 0.1, 1e-12);
        QCOMPARE((*values)[1], 0.0);
        QVERIFY(s.violated_constraints(*values).empty());
        // Without the constraint the same point snaps to (0.104, 0), which would violate it.
        const Eigen::VectorXd plain = make_candidate_transforms(SearchSpace({continuous("fa"), continuous("fb")})).finalize(Eigen::Vector2d(0.104, 0.005));
        QCOMPARE(plain, Eigen::Vector2d(0.104, 0.0));
        // An integer rounded onto its grid inside the constraint: fa + 0.1*n <= 0.55 at n = 4.6
        // (relaxed) with fa = 0.09 rounds n to 5 and projects fa to 0.05.
        const SearchSpace r = constrained({continuous("fa"), integer("n", 0, 10)}, {"fa + 0.1*n <= 0.55"});
        const auto rounded = feasible_configuration(r, Eigen::Vector2d(0.09, 0.46));
        QVERIFY(rounded);
        QCOMPARE((*rounded)[1], 5.0);
        SEBO_COMPARE_NEAR((*rounded)[0], 0.05, 1e-12);
    }

    void status_quo_and_initial_design_are_feasible() {
        Experiment e = experiment_of(constrained({continuous("fa"), continuous("fb"), continuous("fc"), fixed("lvl", 1.0)},
                                                 {"fa + fb + fc <= 1", "fa + lvl >= 1"}));
        e.method.status_quo_first = true;
        SobolStrategy sobol;
        QCOMPARE(run_step(e, sobol, nullptr, StepControl{}, 9).status, StepResult::Status::Completed);
        QCOMPARE(e.trials.size(), std::size_t{9});
        QCOMPARE(e.trials[0].parameters, (std::vector<double>{0.0, 0.0, 0.0}));
        for (const Trial& t : e.trials) QVERIFY2(e.space.violated_constraints(t.parameters).empty(), qPrintable(violations(e.space, t.parameters)));
        // The design continues the same sequence one trial at a time (a resumed run).
        const auto batch = next_sobol_points(e, 3);
        Experiment one = e;
        for (int k = 0; k < 3; ++k) {
            const auto next = next_sobol_points(one, 1);
            QCOMPARE(next.size(), std::size_t{1});
            QCOMPARE(next[0], batch[static_cast<std::size_t>(k)]);
            Trial t;
            t.index = one.next_trial_index();
            t.parameters = next[0];
            t.generator = "sobol";
            one.trials.push_back(t);
        }
    }

    void random_polytopes_design_and_candidates_are_feasible() {
        // Fixed seeds; every proposal checked against the user-unit constraints (1e-9 relative).
        int designs = 0, candidates = 0;
        for (std::uint64_t seed = 0; seed < 24; ++seed) {
            std::mt19937_64 rng(1000 + seed);
            const SearchSpace space = random_space(rng, seed % 4 == 3);
            QVERIFY2(!space.validate(), space.validate()->c_str());
            QVERIFY2(!check_constraints_on_creation(space), check_constraints_on_creation(space)->c_str());
            Experiment e = experiment_of(space, seed);
            const auto design = next_sobol_points(e, 8);
            QCOMPARE(design.size(), std::size_t{8});
            for (const auto& x : design) {
                QVERIFY2(space.violated_constraints(x).empty() && !space.check_point(x),
                         qPrintable(QString("seed %1: %2").arg(seed).arg(violations(space, x))));
                ++designs;
            }
            if (seed % 3 != 0) continue;  // a model step for every third space (8 of them)
            complete(e, design);
            MethodSettings m;
            m.strategy = seed % 6 == 3 ? StrategyKind::Bonsai : StrategyKind::SeboL0;
            m.model = ModelKind::Gp;
            m.initial_trials = 8;
            m.raw_samples = 64;
            m.restarts = 3;
            m.homotopy_steps = 4;
            ModelStrategy strategy(m);
            const Proposal p = strategy.propose(e, 2, StepControl{});
            QVERIFY2(p.status == Proposal::Status::Ok, p.message.c_str());
            // SEBO-L0's own step, or its dense start under noise (docs/method.md §13)
            QVERIFY2(p.generator == to_string(m.strategy) ||
                         p.generator == dense_start_generator(m.strategy, DenseStart::ExpectedImprovement) ||
                         p.generator == dense_start_generator(m.strategy, DenseStart::Thompson),
                     p.generator.c_str());
            QCOMPARE(p.points.size(), std::size_t{2});
            for (const auto& x : p.points) {
                QVERIFY2(space.violated_constraints(x).empty() && !space.check_point(x),
                         qPrintable(QString("seed %1 (%2): %3").arg(seed).arg(to_string(m.strategy)).arg(violations(space, x))));
                ++candidates;
            }
        }
        QCOMPARE(designs, 24 * 8);
        QCOMPARE(candidates, 8 * 2);
    }
};

SEBO_TEST_MAIN(TestParameterConstraints)
}  // namespace test_parameter_constraints
#include "test_parameter_constraints.moc"
