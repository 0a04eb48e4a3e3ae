// Search space: unit-cube mapping, targets, snapping, active counts (SPEC §1).
#include <cmath>

#include "space/search_space.h"
#include "parameter_builders.h"
#include "test_support.h"
#include "test_main.h"

namespace test_search_space {

using namespace sebo;

using sebo::test::continuous;

namespace {

SearchSpace mixed_space() {
    Parameter a = continuous("a", -2.0, 6.0);           // target 0 (inside)
    Parameter b = continuous("b", 1e-3, 10.0);          // log; 0 outside -> target = lower
    b.log_scale = true;
    Parameter c = continuous("c", 0.0, 50.0);           // integer
    c.kind = ParameterKind::Integer;
    Parameter d = continuous("d", 2.0, 5.0);            // explicit target
    d.target = 3.5;
    return SearchSpace({a, b, c, d});
}

}  // namespace

class TestSearchSpace : public QObject {
    Q_OBJECT
private slots:
    void default_targets() {
        const SearchSpace s = mixed_space();
        QVERIFY(!s.validate());
        const auto t = s.target();
        QCOMPARE(t[0], 0.0);
        QCOMPARE(t[1], 1e-3);
        QCOMPARE(t[2], 0.0);
        QCOMPARE(t[3], 3.5);
    }

    void unit_mapping_hand_computed() {
        const SearchSpace s = mixed_space();
        QCOMPARE(s.to_unit(0, 0.0), 0.25);
        SEBO_COMPARE_NEAR(s.to_unit(1, 0.1), (std::log(0.1) - std::log(1e-3)) / (std::log(10.0) - std::log(1e-3)), 1e-15);
        QCOMPARE(s.from_unit(2, 0.5), 25.0);
        QCOMPARE(s.from_unit(2, 0.509), 25.0);  // 25.45 rounds to 25
        QCOMPARE(s.from_unit(2, 0.511), 26.0);  // 25.55 rounds to 26
        QCOMPARE(s.from_unit(0, -0.3), -2.0);   // clamped
        QCOMPARE(s.from_unit(0, 1.7), 6.0);
    }

    void round_trip_continuous_log_integer() {
        const SearchSpace s = mixed_space();
        const std::vector<double> x = {1.234567, 0.0421, 17.0, 4.99};
        const auto back = s.from_unit(s.to_unit(x));
        SEBO_COMPARE_NEAR(back[0], x[0], 1e-13);
        SEBO_COMPARE_NEAR(back[1], x[1], 1e-15);
        QCOMPARE(back[2], 17.0);  // integers round-trip exactly
        SEBO_COMPARE_NEAR(back[3], x[3], 1e-13);
        // Every integer in the range survives the round trip.
        for (int v = 0; v <= 50; ++v) QCOMPARE(s.from_unit(2, s.to_unit(2, v)), double(v));
        // Log endpoints map to exactly 0 and 1.
        QCOMPARE(s.to_unit(1, 1e-3), 0.0);
        SEBO_COMPARE_NEAR(s.to_unit(1, 10.0), 1.0, 1e-15);
    }

    void snapping_and_active_count() {
        const SearchSpace s = mixed_space();
        // a: 0.05 is 0.00625 away in unit scale -> snapped; b: 1.05e-3 is ~0.0053 -> snapped;
        // c: 1 is 0.02 away -> stays; d: 3.6 is 0.033 away -> stays.
        const auto snapped = s.snap({0.05, 1.05e-3, 1.0, 3.6});
        QCOMPARE(snapped[0], 0.0);
        QCOMPARE(snapped[1], 1e-3);
        QCOMPARE(snapped[2], 1.0);
        QCOMPARE(snapped[3], 3.6);
        QCOMPARE(s.active_count(snapped), 2);
        QCOMPARE(s.active_count(s.target()), 0);
        QCOMPARE(s.active_count({0.05, 1e-3, 0.0, 3.5}), 1);  // unsnapped 0.05 is active
        // A floor of 0.1 % of the range (space/min_change.h) snaps none of them.
        std::vector<Parameter> floored = s.parameters();
        for (Parameter& p : floored) p.min_change = MinChange{0.1, true};
        const SearchSpace tight_space(floored);
        const auto tight = tight_space.snap({0.05, 1.05e-3, 1.0, 3.6});
        QCOMPARE(tight_space.active_count(tight), 4);
    }

    void groups() {
        std::vector<Parameter> ps;
        for (int i = 0; i < 6; ++i) {
            Parameter p = continuous("p" + std::to_string(i), 0, 1);
            if (i < 4) p.group = i < 2 ? "ctx_a" : "ctx_b";
            ps.push_back(p);
        }
        const SearchSpace s(ps);  // groups: ctx_a{0,1}, ctx_b{2,3}, p4, p5
        QVERIFY(!s.validate());
        QVERIFY(s.has_groups());
        QCOMPARE(s.group_count(), 4);
        QCOMPARE(s.group_of(1), 0);
        QCOMPARE(s.group_of(3), 1);
        QCOMPARE(s.group_of(5), 3);
        QCOMPARE(QString::fromStdString(s.group_name(1)), QString("ctx_b"));
        QCOMPARE(QString::fromStdString(s.group_name(2)), QString("p4"));
        const std::vector<double> x = {0.3, 0.2, 0.0, 0.0, 0.0, 0.9};
        QCOMPARE(s.active_count(x), 3);
        QCOMPARE(s.active_group_count(x), 2);
        QVERIFY(!SearchSpace({continuous("a", 0, 1)}).has_groups());
    }

    void validation_names_field_and_value() {
        auto message = [](std::vector<Parameter> ps) { return QString::fromStdString(SearchSpace(ps).validate().value_or("")); };
        QVERIFY(message({continuous("a", 1, 1)}).contains("parameters[0] (a).upper: 1 is not above lower 1"));
        QVERIFY(message({continuous("a", 0, 1), continuous("a", 0, 2)}).contains("duplicate name 'a'"));
        QVERIFY(message({continuous("", 0, 1)}).contains("parameters[0].name"));
        Parameter lg = continuous("l", 0, 1);
        lg.log_scale = true;
        QVERIFY(message({lg}).contains("log scale needs a positive lower bound, got 0"));
        Parameter in = continuous("i", 0, 2.5);
        in.kind = ParameterKind::Integer;
        QVERIFY(message({in}).contains("upper: 2.5 is not an integer"));
        Parameter t = continuous("t", 0, 1);
        t.target = 2;
        QVERIFY(message({t}).contains("target: 2 is outside the bounds [0, 1]"));
        QVERIFY(message({continuous("n", 0, std::nan(""))}).contains("upper: nan is not a finite number"));
        QVERIFY(message({}).contains("no parameters"));
    }

    void check_point() {
        const SearchSpace s = mixed_space();
        QVERIFY(!s.check_point({0, 1, 3, 4}));
        QCOMPARE(QString::fromStdString(*s.check_point({7, 1, 3, 4})), QString("a: 7 is above the upper bound 6"));
        QCOMPARE(QString::fromStdString(*s.check_point({0, 1, 3.5, 4})), QString("c: 3.5 is not an integer"));
        QCOMPARE(QString::fromStdString(*s.check_point({0, 1, 3})), QString("expected 4 parameter values, got 3"));
    }
};

SEBO_TEST_MAIN(TestSearchSpace)
}  // namespace test_search_space
#include "test_search_space.moc"
