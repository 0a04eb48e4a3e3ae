// A parameter's minimum meaningful change (issue 14, item 4; space/min_change.h): its text forms,
// the snapping rule in user units and on the unit cube (absolute, percent, log scale, integers),
// the optimizer's candidate transforms, snapping inside linear constraints with floors, and its
// validation, file and CSV forms (every error naming the field or line and column, and the value).
#include <Eigen/Core>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "experiment/model_step.h"
#include "io/experiment_file.h"
#include "older_version.h"
#include "io/space_file.h"
#include "polytope_test_support.h"
#include "space/feasible_snap.h"
#include "space/min_change.h"
#include "space/search_space.h"
#include "test_support.h"
#include "test_main.h"

namespace test_min_change {

using namespace sebo;
using Json = nlohmann::json;

namespace {

Parameter continuous(std::string name, double lo, double hi, std::optional<MinChange> floor = std::nullopt) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lo;
    p.upper = hi;
    p.min_change = floor;
    return p;
}

MinChange units(double amount) { return MinChange{amount, false}; }
MinChange percent(double amount) { return MinChange{amount, true}; }

QString validation(const Parameter& p) { return QString::fromStdString(SearchSpace({p}).validate().value_or("")); }

// The InputError's message of reading `text` as a space CSV ("" when it reads).
QString csv_error(const std::string& text) {
    try {
        space_from_csv_text(text, "space.csv");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

Json small_experiment_json() {
    Experiment e;
    e.name = "floors";
    e.space = SearchSpace({continuous("a", 0, 10, units(0.5)), continuous("b", 0, 1, percent(2.5)), continuous("c", 0, 1)});
    e.outcomes = Outcomes::single("y", false);
    return Json::parse(experiment_to_json_text(e));
}

QString file_error(const Json& j) {
    try {
        experiment_from_json_text(j.dump());
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestMinChange : public QObject {
    Q_OBJECT
private slots:
    void text_forms() {
        QVERIFY(min_change_from_text("0.5") == std::optional<MinChange>(units(0.5)));
        QVERIFY(min_change_from_text(" 2% ") == std::optional<MinChange>(percent(2.0)));
        QVERIFY(min_change_from_text("+1e-3%") == std::optional<MinChange>(percent(1e-3)));
        QVERIFY(min_change_from_text("-1") == std::optional<MinChange>(units(-1.0)));  // validate() refuses it
        for (const char* bad : {"", " ", "%", "+", "abc", "5 %", "1,5", "2%%", "0.5x", "1e400", "%5"})
            QVERIFY2(!min_change_from_text(bad), bad);
        for (const MinChange& m : {units(0.1), units(1e-300), percent(12.5), percent(100)})
            QVERIFY(min_change_from_text(to_text(m)) == std::optional<MinChange>(m));
        QCOMPARE(QString::fromStdString(to_text(percent(2))), QString("2%"));
    }

    // a in [−2, 6] (target 0), by the default 1 % rule, an absolute floor and a percentage.
    void snapping_in_user_units() {
        const SearchSpace plain({continuous("a", -2, 6)});
        QCOMPARE(plain.snap({0.079})[0], 0.0);  // 0.0099 of the unit scale: snapped
        QCOMPARE(plain.snap({0.09})[0], 0.09);  // 0.01125
        const SearchSpace absolute({continuous("a", -2, 6, units(0.5))});
        QCOMPARE(absolute.snap({0.49})[0], 0.0);
        QCOMPARE(absolute.snap({-0.3})[0], 0.0);
        QCOMPARE(absolute.snap({0.5})[0], 0.5);  // a change of exactly the floor counts
        QCOMPARE(absolute.snap({-0.7})[0], -0.7);
        QCOMPARE(absolute.active_count(absolute.snap({0.2})), 0);
        const SearchSpace share({continuous("a", -2, 6, percent(5))});  // 5 % of 8 = 0.4
        QCOMPARE(share.snap({0.39})[0], 0.0);
        QCOMPARE(share.snap({0.41})[0], 0.41);
        const SearchSpace none({continuous("a", -2, 6, units(0))});  // every change counts
        QCOMPARE(none.snap({1e-12})[0], 1e-12);
        QCOMPARE(none.snap({0.0})[0], 0.0);
    }

    // A log-scale b in [1e-3, 10], target 1e-3: an absolute floor is a distance in b's own units;
    // a percentage is of the log range (the unit scale): 10 % is a factor 10^0.4 ≈ 2.512.
    void snapping_on_a_log_scale() {
        Parameter b = continuous("b", 1e-3, 10, units(0.01));
        b.log_scale = true;
        QCOMPARE(SearchSpace({b}).snap({0.0105})[0], 1e-3);
        QCOMPARE(SearchSpace({b}).snap({0.0115})[0], 0.0115);
        b.min_change = percent(10);
        const SearchSpace s({b});
        QCOMPARE(s.snap({2.4e-3})[0], 1e-3);
        QCOMPARE(s.snap({2.6e-3})[0], 2.6e-3);
        // The unit-cube form agrees with the user-unit form on both sides of each floor.
        for (const double v : {2.4e-3, 2.6e-3, 5e-3, 1e-3})
            QCOMPARE(s.within_min_change_unit(0, s.to_unit(0, v)), s.within_min_change(0, v));
        b.min_change = units(0.01);
        const SearchSpace u({b});
        for (const double v : {0.0105, 0.0115, 0.5})
            QCOMPARE(u.within_min_change_unit(0, u.to_unit(0, v)), u.within_min_change(0, v));
    }

    // The optimizer works on relaxed integers; the floor applies to the relaxed value, and again
    // after rounding, so that rounding cannot bring a change below the floor.
    void integer_floors_through_the_candidate_transforms() {
        Parameter n = continuous("n", 0, 50, units(2.3));
        n.kind = ParameterKind::Integer;
        const SearchSpace s({n});
        QVERIFY(s.within_min_change_unit(0, s.to_unit(0, 1.6)));
        QVERIFY(!s.within_min_change_unit(0, s.to_unit(0, 2.4)));
        const CandidateTransforms transforms = make_candidate_transforms(s);
        const auto finalize = [&](double relaxed) {
            return s.from_unit(0, transforms.finalize(Eigen::VectorXd::Constant(1, s.to_unit(0, relaxed)))[0]);
        };
        QCOMPARE(finalize(1.6), 0.0);  // snapped before rounding
        QCOMPARE(finalize(2.4), 0.0);  // rounds to 2, a change below 2.3: snapped after rounding
        QCOMPARE(finalize(2.6), 3.0);
        QCOMPARE(s.from_unit(0, transforms.snap(Eigen::VectorXd::Constant(1, s.to_unit(0, 2.2)))[0]), 0.0);
        // A floor of 2 on an integer: a change of 1 is none, 2 counts.
        n.min_change = units(2);
        const SearchSpace two({n});
        QCOMPARE(two.snap({1.0})[0], 0.0);
        QCOMPARE(two.snap({2.0})[0], 2.0);
        // Without a floor the 1 % rule stays: 0.5 of 50 rounds to 0 or 1; 1 is 2 % away and stays.
        n.min_change.reset();
        const SearchSpace plain({n});
        const CandidateTransforms old = make_candidate_transforms(plain);
        QCOMPARE(plain.from_unit(0, old.finalize(Eigen::VectorXd::Constant(1, 0.02))[0]), 1.0);
        QCOMPARE(plain.from_unit(0, old.finalize(Eigen::VectorXd::Constant(1, 0.009))[0]), 0.0);
    }

    // Snapping inside linear constraints (space/feasible_snap.h) with the space's floors.
    void snapping_with_constraints_uses_the_floors() {
        std::vector<Parameter> ps;
        for (const char* name : {"fa", "fb", "fc"}) ps.push_back(continuous(name, 0, 1, percent(10)));
        const SearchSpace space(ps);
        const SnapRule rule = min_change_rule(space);
        const Eigen::VectorXd t = Eigen::VectorXd::Zero(3);
        auto vec = [](std::initializer_list<double> v) { return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(v.begin(), static_cast<Eigen::Index>(v.size()))); };
        // fa = 0.08 is below its 10 % floor: pinned at 0, and fb, fc projected back onto the sum.
        FeasibleSnap s = snap_feasibly(test::polytope_of(space, {"fa + fb + fc = 1"}), vec({0.08, 0.5, 0.42}), t, rule);
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x[0], 0.0);
        SEBO_COMPARE_NEAR(s.x[1], 0.54, 1e-12);
        SEBO_COMPARE_NEAR(s.x[2], 0.46, 1e-12);
        QCOMPARE(s.snapped, (std::vector<int>{0}));
        // The default rule (1 %) would have kept fa = 0.08.
        const SearchSpace plain = test::unit_space(3);
        s = snap_feasibly(test::polytope_of(plain, {"fa + fb + fc = 1"}), vec({0.08, 0.5, 0.42}), t, min_change_rule(plain));
        QCOMPARE(s.x[0], 0.08);
        QVERIFY(s.snapped.empty());
        // A constraint that keeps fa off its target wins over the floor: fa stays changed, reported.
        s = snap_feasibly(test::polytope_of(space, {"fa >= 0.05"}), vec({0.07, 0.5, 0.5}), t, rule);
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x[0], 0.07);
        QCOMPARE(s.kept_changed, (std::vector<int>{0}));
        // Rounding with floors: n integer in [0, 4] with a floor of 2; x free; n + x <= 2.5.
        Parameter n = continuous("n", 0, 4, units(2));
        n.kind = ParameterKind::Integer;
        const SearchSpace mixed({n, continuous("x", 0, 1)});
        const Polytope p = test::polytope_of(mixed, {"n + x <= 2.5"});
        // n relaxed at 1.6 (unit 0.4) is within its floor: it goes to its target 0, x stays.
        const FeasibleSnap r =
            finalize_feasibly(p, vec({0.4, 0.9}), Eigen::VectorXd::Zero(2), min_change_rule(mixed), {{0, 4}});
        QCOMPARE(r.status, FeasibleSnap::Status::Ok);
        QCOMPARE(r.x[0], 0.0);
        SEBO_COMPARE_NEAR(r.x[1], 0.9, 1e-12);
    }

    void validation_names_the_field_and_value() {
        QVERIFY(validation(continuous("a", 0, 1, units(0))).isEmpty());
        QVERIFY(validation(continuous("a", 0, 1, units(1))).isEmpty());  // the whole range: never changed
        QVERIFY(validation(continuous("a", 0, 1, percent(100))).isEmpty());
        QCOMPARE(validation(continuous("a", -2, 6, units(-0.1))), QString("parameters[0] (a).min_change: '-0.1' is negative"));
        QCOMPARE(validation(continuous("a", -2, 6, units(9))),
                 QString("parameters[0] (a).min_change: '9' is larger than the range 8 (from -2 to 6)"));
        QCOMPARE(validation(continuous("a", -2, 6, percent(150))),
                 QString("parameters[0] (a).min_change: '150%' is more than the whole range (100%)"));
        QCOMPARE(validation(continuous("a", -2, 6, percent(-1))), QString("parameters[0] (a).min_change: '-1%' is negative"));
        QCOMPARE(validation(continuous("a", -2, 6, units(std::nan("")))),
                 QString("parameters[0] (a).min_change: 'nan' is not a finite number"));
    }

    // Space CSV: the min_change column, and every bad cell named by file, line, column and value.
    void space_csv_column() {
        const SearchSpace s = space_from_csv_text("name,lower,upper,min_change\na,0,10,0.5\nb,0,1,2.5%\nc,0,1,\n", "space.csv");
        QVERIFY(s.parameter(0).min_change == std::optional<MinChange>(units(0.5)));
        QVERIFY(s.parameter(1).min_change == std::optional<MinChange>(percent(2.5)));
        QVERIFY(!s.parameter(2).min_change);
        QCOMPARE(csv_error("name,lower,upper,min_change\na,0,1,-0.1\n"),
                 QString("space.csv line 2, column min_change: '-0.1' is negative"));
        QCOMPARE(csv_error("name,lower,upper,min_change\na,0,1,ten\n"),
                 QString("space.csv line 2, column min_change: 'ten' is not a number or a percentage of the range "
                         "(such as 0.5 or 2%)"));
        QCOMPARE(csv_error("name,lower,upper,min_change\na,0,1,0.5\nb,0,1,2\n"),
                 QString("space.csv line 3, column min_change: '2' is larger than the range 1 (from 0 to 1)"));
        QCOMPARE(csv_error("name,lower,upper,MIN_CHANGE\na,0,1,101%\n"),
                 QString("space.csv line 2, column min_change: '101%' is more than the whole range (100%)"));
        QCOMPARE(csv_error("name,lower,upper,min_change\na,0,1,%\n"),
                 QString("space.csv line 2, column min_change: '%' is not a number or a percentage of the range "
                         "(such as 0.5 or 2%)"));
        QVERIFY(csv_error("name,lower,upper,min_chnge\na,0,1,1\n").contains("group, min_change"));
    }

    // Experiment (and space JSON) files: a number in user units or a "N%" string; round trips.
    void file_form_and_errors() {
        const Json j = small_experiment_json();
        QVERIFY(j["version"].get<int>() >= 4);  // min_change came with version 4
        QVERIFY(j["space"]["parameters"][0]["min_change"] == Json(0.5));
        QVERIFY(j["space"]["parameters"][1]["min_change"] == Json("2.5%"));
        QVERIFY(!j["space"]["parameters"][2].contains("min_change"));
        const Experiment e = experiment_from_json_text(j.dump());
        QVERIFY(e.space.parameter(0).min_change == std::optional<MinChange>(units(0.5)));
        QVERIFY(e.space.parameter(1).min_change == std::optional<MinChange>(percent(2.5)));
        QCOMPARE(QString::fromStdString(experiment_to_json_text(e)), QString::fromStdString(experiment_to_json_text(experiment_from_json_text(experiment_to_json_text(e)))));
        const auto with = [&](const Json& value) {
            Json k = j;
            k["space"]["parameters"][0]["min_change"] = value;
            return file_error(k);
        };
        QCOMPARE(with(-1), QString("space.parameters[0].min_change: '-1' is negative"));
        QCOMPARE(with(11), QString("space.parameters[0].min_change: '11' is larger than the range 10 (from 0 to 10)"));
        QCOMPARE(with("120%"), QString("space.parameters[0].min_change: '120%' is more than the whole range (100%)"));
        QCOMPARE(with("0.5"), QString("space.parameters[0].min_change: \"0.5\" is not a percentage of the range (such "
                                      "as \"2%\"); give a change in the parameter's units as a number"));
        QCOMPARE(with(true), QString("space.parameters[0].min_change: expected a number (the parameter's units) or a "
                                     "percentage such as \"2%\", got true"));
        QVERIFY(with(nullptr).isEmpty());  // null: none
        // The space JSON of `sebo new --space` names the file too.
        try {
            space_from_json_document_text(R"({"parameters": [{"name": "a", "lower": 0, "upper": 1, "min_change": "x%"}]})",
                                          "space.json");
            QFAIL("accepted a bad min_change");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).startsWith("space.json parameters[0].min_change: \"x%\" is not a percentage"),
                     error.what());
        }
    }

    // Version 3 had no min_change: a member an older writer left meant nothing and is dropped.
    void version_3_files_migrate() {
        Json j = small_experiment_json();
        test::rewrite_as_version(j, 3);
        const Experiment e = experiment_from_json_text(j.dump());
        for (int i = 0; i < 3; ++i) QVERIFY(!e.space.parameter(i).min_change);
        j["space"]["parameters"][0]["min_change"] = "not even valid";
        QVERIFY(file_error(j).isEmpty());
    }
};

SEBO_TEST_MAIN(TestMinChange)
}  // namespace test_min_change
#include "test_min_change.moc"
