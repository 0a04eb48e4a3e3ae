#pragma once
// One tunable parameter of a search space (SPEC §1).

#include <optional>
#include <string>
#include <vector>

#include "space/min_change.h"

namespace sebo {

// Fixed (issue 14, item 2): a parameter pinned for a study. Its value (held in `target`) is sent
// to the evaluator with every configuration; it is never varied, never counted as active, and is
// not a column of the unit cube the models and optimizers work in (SearchSpace keeps it apart).
//
// Choice (issue 14, item 1): one of a list of values (texts or numbers). A configuration vector
// holds the value's index (0, 1, …, K−1) as a number; everything that leaves the engine (the
// evaluator, exports, files) shows the value itself (value_text, ChoiceValue). lower = 0 and
// upper = K − 1; the target is an index too (default 0: the first value). SearchSpace says how
// a choice maps into the unit cube and the model's inputs.
enum class ParameterKind { Continuous, Integer, Fixed, Choice };

const char* to_string(ParameterKind kind);
std::optional<ParameterKind> parameter_kind_from_string(const std::string& text);

// One value of a choice parameter: its text, and its number when it was written as one (JSON
// number, or a CSV cell that reads as a finite number); the evaluator then receives a JSON number.
// Another tool's categorical values may also be JSON's true, false or null (Optuna's and Ax's
// [True, False], Optuna's None; issue 31): `literal` is set and the text is "true", "false" or
// "null", and the evaluator, the files and `sebo suggest --json` give the literal itself, so a
// suggestion goes back to that tool with the type it had.
struct ChoiceValue {
    std::string text;
    std::optional<double> number;
    bool literal = false;
    bool operator==(const ChoiceValue&) const = default;
};

struct Parameter {
    std::string name;
    ParameterKind kind = ParameterKind::Continuous;
    double lower = 0.0;
    double upper = 1.0;
    bool log_scale = false;
    // The sparse point x^s for this parameter. When unset, 0 if 0 lies within the bounds,
    // otherwise the lower bound. A fixed parameter's value (required; the files call it "value").
    // A fixed parameter's bounds are optional: lower = upper = value when none were given.
    std::optional<double> target;
    // Parameters sharing a non-empty group name form one group for group sparsity;
    // a parameter without a group is a group of its own.
    std::string group;
    // Smaller changes from the target count as none and are snapped onto it (space/min_change.h);
    // unset: the 1 % rule (SearchSpace::kDefaultSnapTolerance).
    std::optional<MinChange> min_change;
    // A choice's values, in order (empty for the other kinds), and whether their order means
    // something to the model (space/search_space.h: one ordinal input instead of one-hot inputs).
    std::vector<ChoiceValue> values;
    bool ordered = false;

    double resolved_target() const;
    int levels() const { return static_cast<int>(values.size()); }
};

// A value of `p` as text: a choice's value (the index mapped to its text), a number otherwise.
std::string value_text(const Parameter& p, double value);
// The index of the choice value whose text is `text` (exact, or numerically equal for a number
// value); unset when there is none.
std::optional<int> choice_index(const Parameter& p, const std::string& text);

}  // namespace sebo
