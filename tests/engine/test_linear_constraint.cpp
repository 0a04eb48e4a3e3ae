// Linear parameter constraints (space/linear_constraint.h): the grammar, every parse error with its
// column, the canonical text and its round trip, user-unit checks and the exact unit-cube image.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>

#include "io/linear_constraint_text.h"
#include "space/linear_constraint.h"
#include "space/search_space.h"
#include "parameter_builders.h"
#include "test_support.h"
#include "test_main.h"

namespace test_linear_constraint {

using namespace sebo;

using sebo::test::continuous;

namespace {

// fa, fb, fc in [0,1]; lr on a log scale; names that need quotes; an integer; an offset range.
SearchSpace space() {
    Parameter lr = continuous("lr", 1e-4, 1.0);
    lr.log_scale = true;
    Parameter n = continuous("n", 0.0, 10.0);
    n.kind = ParameterKind::Integer;
    return SearchSpace({continuous("fa", 0, 1), continuous("fb", 0, 1), continuous("fc", 0, 1), lr, continuous("cache size", 0, 100),
                        continuous("it's", -5, 5), n, continuous("x-1", 1, 3), continuous("débit", 0, 2)});
}

std::vector<std::string> names(const SearchSpace& s) {
    std::vector<std::string> out;
    for (const auto& p : s.parameters()) out.push_back(p.name);
    return out;
}

LinearConstraint parse(const std::string& text) {
    const ConstraintParse p = parse_linear_constraint(text, constraint_variables(space()));
    if (!p.ok()) qFatal("'%s' did not parse: %s", text.c_str(), p.error.describe().c_str());
    return *p.constraint;
}

std::string canonical(const std::string& text) { return canonical_text(parse(text), names(space())); }

}  // namespace

class TestLinearConstraint : public QObject {
    Q_OBJECT
private slots:
    void parses_the_issue_examples() {
        const LinearConstraint c = parse("2*fa + fb + fc <= 1");
        QCOMPARE(c.terms.size(), std::size_t(3));
        QCOMPARE(c.terms[0], (LinearTerm{0, 2.0}));
        QCOMPARE(c.terms[1], (LinearTerm{1, 1.0}));
        QCOMPARE(c.terms[2], (LinearTerm{2, 1.0}));
        QCOMPARE(c.relation, ConstraintRelation::LessEqual);
        QCOMPARE(c.bound, 1.0);
        const LinearConstraint d = parse("fa - 0.5*fb >= -1");
        QCOMPARE(d.terms, (std::vector<LinearTerm>{{0, 1.0}, {1, -0.5}}));
        QCOMPARE(d.relation, ConstraintRelation::GreaterEqual);
        QCOMPARE(d.bound, -1.0);
        const LinearConstraint e = parse("fa + fb = fc");
        QCOMPARE(e.terms, (std::vector<LinearTerm>{{0, 1.0}, {1, 1.0}, {2, -1.0}}));
        QCOMPARE(e.relation, ConstraintRelation::Equal);
        QCOMPARE(e.bound, 0.0);
    }

    void canonical_forms() {
        // Parameters gather on the left, numbers on the right; a numbers-only left side swaps.
        QCOMPARE(canonical("1 >= fa + 2*fb"), std::string("fa + 2*fb <= 1"));
        QCOMPARE(canonical("0.25 <= fa"), std::string("fa >= 0.25"));
        QCOMPARE(canonical("fa <= fb"), std::string("fa - fb <= 0"));
        QCOMPARE(canonical("fa + 1 <= 3 + fb"), std::string("fa - fb <= 2"));
        QCOMPARE(canonical("-fa + fb/4 == 0"), std::string("-fa + 0.25*fb = 0"));
        QCOMPARE(canonical("fa*2*3 - 1e-3*fc >= .5"), std::string("6*fa - 0.001*fc >= 0.5"));
        QCOMPARE(canonical("2E+2*fa <= 1E2"), std::string("200*fa <= 100"));
        // Duplicate terms merge; cancelling ones drop out.
        QCOMPARE(canonical("fa + fa + fb - fb + fc <= 1"), std::string("2*fa + fc <= 1"));
        // Quoted names, quotes doubled; a plain non-ASCII name; the Unicode operators.
        QCOMPARE(canonical("'cache size' + 'it''s' - 'x-1' <= 2"), std::string("'cache size' + 'it''s' - 'x-1' <= 2"));
        QCOMPARE(canonical("débit \xE2\x88\x92 fa \xE2\x89\xA4 1"), std::string("débit - fa <= 1"));
        QCOMPARE(canonical("fa \xE2\x89\xA5 0"), std::string("fa >= 0"));
        QCOMPARE(canonical("-0*fb + fa <= -0"), std::string("fa <= 0"));
    }

    void every_error_names_column_and_text() {
        struct Case {
            const char* text;
            int column;
            const char* found;
            const char* message;
        };
        const Case cases[] = {
            {"fa + + fb <= 1", 6, "+", "two signs in a row: expected a parameter or a number after '+', found '+'"},
            {"fa <= ", 7, "", "expected a parameter or a number after '<=', found the end of the text"},
            {"fa + fb 1", 9, "1", "expected an operator ('+', '-', '*', '/') or a comparison before '1'"},
            {"fa + fb", 8, "", "missing comparison: expected '<=', '>=' or '=' at the end of the text"},
            {"3 fa <= 1", 3, "fa", "expected an operator ('+', '-', '*', '/') or a comparison before 'fa' (write a product as 3*fa)"},
            {"2fa <= 1", 2, "fa", "expected an operator ('+', '-', '*', '/') or a comparison before 'fa' (write a product as 2*fa)"},
            {"fd + fa <= 1", 1, "fd", "unknown parameter 'fd' (did you mean fa?)"},
            {"fa + 'cache sise' <= 1", 6, "'cache sise'", "unknown parameter 'cache sise' (did you mean 'cache size'?)"},
            {"fa + zzzzzz <= 1", 6, "zzzzzz", "unknown parameter 'zzzzzz'"},
            {"fa + 2*lr <= 1", 8, "lr",
             "parameter 'lr' cannot appear in a linear constraint: it is on a log scale; constraints are linear in user "
             "units, and a log-scale parameter's unit-cube coordinate is not linear in its value (remove the log scale or "
             "the parameter)"},
            {"fa < 1", 4, "<", "strict '<' is not supported; use '<='"},
            {"fa > 1", 4, ">", "strict '>' is not supported; use '>='"},
            {"fa != 1", 4, "!=", "'!=' is not a linear constraint; use '<=', '>=' or '='"},
            {"0 <= fa <= 1", 9, "<=", "a second comparison: write a chain such as 0 <= fa <= 1 as two constraints"},
            {"2*(fa + fb) <= 1", 3, "(", "parentheses are not supported; multiply out, e.g. 2*fa + 2*fb instead of 2*(fa + fb)"},
            {"fa * fb <= 1", 6, "fb", "a product of two parameters is not linear"},
            {"fa / fb <= 1", 6, "fb", "division by a parameter is not linear"},
            {"fa / 0 <= 1", 6, "0", "division by zero"},
            {"1e999*fa <= 1", 1, "1e999", "the number is out of range"},
            {"1e300*1e10*fa <= 1", 1, "1e300", "the coefficient is out of range"},
            {"1 <= 2", 1, "1 <= 2", "the constraint names no parameter"},
            {"fa - fa <= 1", 1, "fa - fa <= 1", "the parameter terms cancel out: no parameter is left"},
            {"'fa <= 1", 1, "'fa <= 1", "unterminated quoted name: a name in quotes ends with ' (write '' for a quote inside it)"},
            {"'' + fa <= 1", 1, "''", "empty parameter name ''"},
            {"", 1, "", "the constraint is empty"},
            {"   ", 1, "", "the constraint is empty"},
            {"fa <= 1 #", 9, "#", "unexpected character"},
            {"fa <= 1 extra", 9, "extra", "expected an operator ('+', '-', '*', '/') or a comparison before 'extra' (write a product as 1*extra)"},
            {"fa + fb fc <= 1", 9, "fc", "expected an operator ('+', '-', '*', '/') or a comparison before 'fc'"},
            {"+", 2, "", "expected a parameter or a number after '+', found the end of the text"},
            {"<= 1", 1, "<=", "expected a parameter or a number, found '<='"},
            {"fa <= 1 +", 10, "", "expected a parameter or a number after '+', found the end of the text"},
            {"fa * <= 1", 6, "<=", "expected a parameter or a number after '*', found '<='"},
            // Columns count characters, not bytes: 'débit' is 7 characters and 8 bytes.
            {"'débit' + + fb <= 1", 11, "+", "two signs in a row: expected a parameter or a number after '+', found '+'"},
            {"\xC3 + fa <= 1", 1, "\\xC3", "unknown parameter '\\xC3'"},
            {"fa <= 1 \x01", 9, "\x01", "unexpected character"},
        };
        for (const Case& c : cases) {
            const ConstraintParse p = parse_linear_constraint(c.text, constraint_variables(space()));
            QVERIFY2(!p.ok(), c.text);
            QVERIFY2(p.error.column == c.column, qPrintable(QString("%1: column %2").arg(c.text).arg(p.error.column)));
            QVERIFY2(p.error.found == c.found, qPrintable(QString("%1: found '%2'").arg(c.text, QString::fromStdString(p.error.found))));
            QVERIFY2(p.error.message == c.message, qPrintable(QString("%1: %2").arg(c.text, QString::fromStdString(p.error.message))));
        }
        const ConstraintParse p = parse_linear_constraint("fa + + fb <= 1", constraint_variables(space()));
        QCOMPARE(p.error.describe(), std::string("column 6: two signs in a row: expected a parameter or a number after '+', found '+'"));
    }

    void the_caller_excludes_parameters() {
        // A choice parameter (the other half of issue 14) is excluded by the caller with a reason.
        std::vector<ConstraintVariable> variables = constraint_variables(space());
        variables[2].excluded = "it is a choice parameter";
        const ConstraintParse p = parse_linear_constraint("fa + fc <= 1", variables);
        QVERIFY(!p.ok());
        QCOMPARE(p.error.column, 6);
        QCOMPARE(p.error.message, std::string("parameter 'fc' cannot appear in a linear constraint: it is a choice parameter"));
        QVERIFY(parse_linear_constraint("fa + fb <= 1", variables).ok());
    }

    void canonical_text_round_trips() {
        const SearchSpace s = space();
        const std::vector<std::string> n = names(s);
        std::mt19937_64 rng(77);
        const double specials[] = {1.0, -1.0, 0.1, -0.5, 3.0, 1e-7, -123456.789, 1e21, 2.5e-300, 1.0 / 3.0};
        std::uniform_real_distribution<double> any(-1e3, 1e3);
        for (int trial = 0; trial < 500; ++trial) {
            LinearConstraint c;
            for (int i = 0; i < s.dimension(); ++i) {
                if (i == 3 || rng() % 3 == 0) continue;  // lr is excluded
                const double a = rng() % 2 ? specials[rng() % std::size(specials)] : any(rng);
                c.terms.push_back({i, a});
            }
            if (c.terms.empty()) c.terms.push_back({0, any(rng)});
            std::shuffle(c.terms.begin(), c.terms.end(), rng);
            c.relation = static_cast<ConstraintRelation>(rng() % 3);
            c.bound = rng() % 4 == 0 ? 0.0 : any(rng);
            const std::string text = canonical_text(c, n);
            const ConstraintParse back = parse_linear_constraint(text, constraint_variables(s));
            QVERIFY2(back.ok(), qPrintable(QString::fromStdString(text + ": " + back.error.describe())));
            QVERIFY2(*back.constraint == c, text.c_str());
            QCOMPARE(canonical_text(*back.constraint, n), text);
        }
    }

    void names_that_need_quotes() {
        QCOMPARE(constraint_name_text("fa"), std::string("fa"));
        QCOMPARE(constraint_name_text("cache.size_2"), std::string("cache.size_2"));
        QCOMPARE(constraint_name_text("débit"), std::string("débit"));
        QCOMPARE(constraint_name_text("x-1"), std::string("'x-1'"));
        QCOMPARE(constraint_name_text("2x"), std::string("'2x'"));
        QCOMPARE(constraint_name_text("a b"), std::string("'a b'"));
        QCOMPARE(constraint_name_text("it's"), std::string("'it''s'"));
        QCOMPARE(constraint_name_text("a\xE2\x89\xA4" "b"), std::string("'a\xE2\x89\xA4" "b'"));
        QCOMPARE(constraint_name_text(".x"), std::string("'.x'"));
    }

    void checks_in_user_units() {
        const SearchSpace s = space();
        const auto coords = unit_coordinates(s);
        // 2*fa + fb <= 1 at fa = 0.3, fb = 0.5: left side 1.1, violated by 0.1.
        const LinearConstraint c = parse("2*fa + fb <= 1");
        std::vector<double> v = s.target();
        v[0] = 0.3;
        v[1] = 0.5;
        SEBO_COMPARE_NEAR(c.left_side(v), 1.1, 1e-15);
        SEBO_COMPARE_NEAR(c.violation(v), 0.1, 1e-15);
        // Magnitude: 2·1 + 1·1 + |1| = 4; 1e-9 relative is 4e-9.
        QCOMPARE(constraint_magnitude(c, coords), 4.0);
        v[1] = 0.4 + 3.9e-9;
        QVERIFY(satisfies(c, v, coords));
        v[1] = 0.4 + 4.1e-9;
        QVERIFY(!satisfies(c, v, coords));
        // >= and =.
        const LinearConstraint ge = parse("'x-1' - fa >= 2");
        v = s.target();  // x-1 at its lower bound 1 (0 is outside [1, 3])
        QCOMPARE(v[7], 1.0);
        SEBO_COMPARE_NEAR(ge.violation(v), 1.0, 1e-15);
        const LinearConstraint eq = parse("fa + fb = 1");
        v[0] = 0.7;
        v[1] = 0.2;
        SEBO_COMPARE_NEAR(eq.violation(v), 0.1, 1e-15);
        // Left-side range over the bounds: 'it''s' in [-5, 5], -2*'cache size' in [-200, 0].
        const auto [lo, hi] = left_side_range(parse("'it''s' - 2*'cache size' <= 0"), coords);
        QCOMPARE(lo, -205.0);
        QCOMPARE(hi, 5.0);
    }

    void unit_cube_image_is_exact() {
        const SearchSpace s = space();
        const auto coords = unit_coordinates(s);
        const int d = s.dimension();
        // 3*'x-1' - 0.5*'it''s' >= 4: x = 1 + 2u7, y = −5 + 10u5 → 6u7 − 5u5 >= 4 − 3 − 2.5 → −6u7 + 5u5 <= 1.5.
        const LinearConstraint c = parse("3*'x-1' - 0.5*'it''s' >= 4");
        const UnitConstraint u = to_unit_constraint(c, coords, d);
        QVERIFY(!u.equality);
        QCOMPARE(u.coefficients[7], -6.0);
        QCOMPARE(u.coefficients[5], 5.0);
        QCOMPARE(u.bound, 1.5);
        // On random configurations, user left side − bound and the unit image agree (up to the sign
        // of a >= constraint).
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (const char* text : {"2*fa + fb + fc <= 1", "3*'x-1' - 0.5*'it''s' >= 4", "'cache size'/100 + n = 3", "débit - 2*fa >= -0.5"}) {
            const LinearConstraint lc = parse(text);
            const UnitConstraint image = to_unit_constraint(lc, coords, d);
            for (int k = 0; k < 50; ++k) {
                std::vector<double> ucube(static_cast<std::size_t>(d));
                for (double& x : ucube) x = unit(rng);
                std::vector<double> user(static_cast<std::size_t>(d));
                for (int i = 0; i < d; ++i) user[static_cast<std::size_t>(i)] = coords[static_cast<std::size_t>(i)].offset + coords[static_cast<std::size_t>(i)].scale * ucube[static_cast<std::size_t>(i)];
                double lhs = 0.0;
                for (int i = 0; i < d; ++i) lhs += image.coefficients[static_cast<std::size_t>(i)] * ucube[static_cast<std::size_t>(i)];
                const double sign = lc.relation == ConstraintRelation::GreaterEqual ? -1.0 : 1.0;
                SEBO_COMPARE_NEAR(lhs - image.bound, sign * (lc.left_side(user) - lc.bound), 1e-12);
            }
        }
        // A parameter that does not vary (column −1) moves into the bound: fa fixed at 0.25.
        std::vector<UnitCoordinate> fixed = coords;
        fixed[0] = {-1, 0.25, 0.0};
        const UnitConstraint f = to_unit_constraint(parse("2*fa + fb <= 1"), fixed, d);
        QCOMPARE(f.coefficients[0], 0.0);
        QCOMPARE(f.coefficients[1], 1.0);
        QCOMPARE(f.bound, 0.5);
    }

    void a_unit_image_beyond_double_is_scaled_not_infinite() {
        // 0.9e308*'it''s' over a range of 10 is 9e308 per unit: beyond a double. The image is the
        // same set divided by a power of two (a fuzz finding: it was infinite).
        const SearchSpace s = space();
        const UnitConstraint u = to_unit_constraint(parse("fa - 0.9e308*'it''s' >= -1"), unit_coordinates(s), s.dimension());
        QVERIFY(std::all_of(u.coefficients.begin(), u.coefficients.end(), [](double a) { return std::isfinite(a); }));
        QVERIFY(std::isfinite(u.bound));
        // −fa + 0.9e308·(10u5 − 5) <= 1  ⇔  −fa + 9e308·u5 <= 1 + 4.5e308, divided by 2^1027.
        const double unit = std::ldexp(0.9e308, -1027);
        SEBO_COMPARE_NEAR(u.coefficients[5], 10.0 * unit, 1e-15);
        SEBO_COMPARE_NEAR(u.bound, 5.0 * unit, 1e-15);
        QCOMPARE(std::ldexp(u.coefficients[0], 1027), -1.0);
        QVERIFY(std::count(u.coefficients.begin(), u.coefficients.end(), 0.0) == s.dimension() - 2);
    }

    void log_scale_is_excluded_by_default() {
        const auto v = constraint_variables(space());
        QVERIFY(!v[0].excluded);
        QVERIFY(v[3].excluded);
        QVERIFY(!v[6].excluded);  // integers are allowed (relaxed)
    }
};

SEBO_TEST_MAIN(TestLinearConstraint)
}  // namespace test_linear_constraint
#include "test_linear_constraint.moc"
