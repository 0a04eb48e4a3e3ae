#pragma once
// One tunable parameter of a search space (SPEC §1).

#include <optional>
#include <string>

#include "space/min_change.h"

namespace sebo {

// Fixed (issue 14, item 2): a parameter pinned for a study. Its value (held in `target`) is sent
// to the evaluator with every configuration; it is never varied, never counted as active, and is
// not a column of the unit cube the models and optimizers work in (SearchSpace keeps it apart).
enum class ParameterKind { Continuous, Integer, Fixed };

const char* to_string(ParameterKind kind);
std::optional<ParameterKind> parameter_kind_from_string(const std::string& text);

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

    double resolved_target() const;
};

}  // namespace sebo
