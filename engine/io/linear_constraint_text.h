#pragma once
// The text of a linear constraint (space/linear_constraint.h), read against a space's parameters:
//
//     2*fa + fb + fc <= 1        fa - 0.5*fb >= -1        fa + fb = fc
//
// Grammar (spaces are free between tokens):
//
//     constraint := expression relation expression
//     relation   := "<=" | ">=" | "="          ("==" reads as "=", "≤" as "<=", "≥" as ">=")
//     expression := [sign] term { sign term }
//     sign       := "+" | "-"                  ("−", U+2212, reads as "-")
//     term       := factor { ("*" | "/") factor }   at most one factor a parameter; divisors are numbers
//     factor     := number | name
//     number     := digits ["." [digits]] [exponent] | "." digits [exponent]
//     exponent   := ("e" | "E") [sign] digits
//     name       := a letter, "_" or non-ASCII character, then letters, digits, "_", "." or non-ASCII
//                   (other than ≤ ≥ −)
//                 | '…' in single quotes, '' standing for a quote: any other name (spaces, "-", a
//                   leading digit), e.g. 'timeout-ms' + 'cache size' <= 10
//
// Both sides may hold parameters and numbers; the parameters are gathered on the left (`1 >= fa`
// reads as `fa <= 1`, `fa <= fb` as `fa - fb <= 0`) and the numbers on the right. Terms of the same
// parameter are added (`fa + fa <= 1` is `2*fa <= 1`; terms that cancel drop out). Refused, each with
// the column and the offending text: a juxtaposition such as `3 fa` or `2fa` (write `3*fa`; with `e` a
// possible name `2e` would otherwise be ambiguous), two signs in a row (`fa + + fb`), strict `<` and
// `>` (an optimizer needs a closed set), chains (`0 <= fa <= 1`: write two constraints), parentheses,
// products of two parameters, division by a parameter or by zero, numbers that overflow, unknown
// parameters, and parameters the caller excludes (log scale: a log-scale parameter's unit-cube
// coordinate is not linear in its value, so the constraint would not be linear where the optimizer
// works; the other kinds the caller names, e.g. choice parameters).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "space/linear_constraint.h"

namespace sebo {

struct ConstraintSyntaxError {
    int column = 1;       // 1-based, counted in characters (UTF-8 code points)
    std::string found;    // the offending text, "" at the end of the text
    std::string message;  // what is wrong, e.g. "expected a parameter or a number"

    // "column 6: expected a parameter or a number, found '+'"
    std::string describe() const;
};

// The parsed constraint, or the first error.
struct ConstraintParse {
    std::optional<LinearConstraint> constraint;
    ConstraintSyntaxError error;  // meaningful when constraint is empty

    bool ok() const { return constraint.has_value(); }
};

ConstraintParse parse_linear_constraint(std::string_view text, const std::vector<ConstraintVariable>& variables);

}  // namespace sebo
