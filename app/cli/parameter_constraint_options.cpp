#include "cli/parameter_constraint_options.h"

#include <string>
#include <vector>

#include "core/input_error.h"
#include "io/linear_constraint_text.h"
#include "space/space_constraints.h"

namespace sebo::cli {

OptionSpec parameter_constraint_option() {
    OptionSpec o{"parameter-constraint", "\"EXPR <= V\"",
                 "a linear constraint between parameters, in their units, e.g. \"fa + 2*fb <= 1\" (<=, >= or =; "
                 "repeatable); every proposed configuration satisfies it"};
    o.repeatable = true;
    return o;
}

SearchSpace apply_parameter_constraint_flags(const Arguments& parser, const SearchSpace& space, const std::string& source) {
    std::vector<LinearConstraint> constraints = space.constraints();
    const std::vector<std::string> given = parser.values("parameter-constraint");
    if (!given.empty()) {
        const std::vector<ConstraintVariable> variables = constraint_variables(space);
        for (const std::string& text : given) {
            const ConstraintParse parsed = parse_linear_constraint(text, variables);
            if (!parsed.ok()) throw UsageError("--parameter-constraint '" + text + "': " + parsed.error.describe());
            constraints.push_back(*parsed.constraint);
        }
    }
    SearchSpace out(space.declared_parameters(), std::move(constraints));
    const std::string where = given.empty()                ? source
                              : space.has_constraints() ? source + " and --parameter-constraint"
                                                        : std::string("--parameter-constraint");
    if (auto error = out.validate()) throw InputError(where, *error);
    if (auto error = check_constraints_on_creation(out)) throw InputError(where, *error);
    return out;
}

}  // namespace sebo::cli
