#pragma once
// What fuzz_linear_constraint checks on its input, shared with tests/engine/test_fuzz_regressions.cpp
// so that a saved finding replays through the very same checks in the normal build.
//
// The bytes are split into lines; each line is one constraint over a fixed space (fa, fb, fc,
// 'x y', an integer n, a log-scale lr and an excluded "choice" parameter). Every line must either
// parse or give an error whose column lies within the line and whose message is UTF-8. A parsed
// constraint has distinct parameters with finite non-zero coefficients and a finite bound, and its
// canonical text parses back to the same constraint. The constraints that parse form a polytope,
// whose analysis must not fail; a feasible polytope's centre, samples and a projection lie
// inside it, an empty one names a conflict.

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "design/polytope_sampler.h"
#include "io/linear_constraint_text.h"
#include "io/utf8_text.h"
#include "space/linear_constraint.h"
#include "space/polytope.h"
#include "space/polytope_analysis.h"
#include "space/polytope_projection.h"
#include "space/search_space.h"

namespace sebo::fuzz {

inline SearchSpace constraint_fixture_space() {
    const auto parameter = [](const char* name, double lower, double upper) {
        Parameter p;
        p.name = name;
        p.lower = lower;
        p.upper = upper;
        return p;
    };
    Parameter n = parameter("n", 0, 10);
    n.kind = ParameterKind::Integer;
    Parameter lr = parameter("lr", 1e-4, 1);
    lr.log_scale = true;
    return SearchSpace({parameter("fa", 0, 1), parameter("fb", -2, 3), parameter("fc", 0, 1000), parameter("x y", 1e-3, 1e-2), n,
                        lr, parameter("choice", 0, 1)});
}

// Empty when every rule above holds; otherwise which one broke, for the finding.
inline std::string check_linear_constraints(std::string_view bytes) {
    const SearchSpace space = constraint_fixture_space();
    std::vector<ConstraintVariable> variables = constraint_variables(space);
    variables.back().excluded = "it is a choice parameter";
    std::vector<std::string> names;
    for (const Parameter& p : space.parameters()) names.push_back(p.name);

    std::vector<LinearConstraint> constraints;
    std::vector<std::string> labels;
    std::size_t start = 0;
    for (int line = 0; start <= bytes.size() && line < 8; ++line) {
        const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
        const std::string_view text = bytes.substr(start, end - start);
        start = end + 1;
        const ConstraintParse parse = parse_linear_constraint(text, variables);
        if (!parse.ok()) {
            std::size_t characters = 0;
            for (unsigned char c : text) characters += (c & 0xC0) != 0x80;
            if (parse.error.column < 1 || static_cast<std::size_t>(parse.error.column) > characters + 1)
                return "error column " + std::to_string(parse.error.column) + " outside the text";
            if (find_invalid_utf8(parse.error.describe())) return "error message is not UTF-8: " + escape_invalid_utf8(parse.error.describe());
            if (parse.error.message.empty()) return "empty error message";
            continue;
        }
        const LinearConstraint& c = *parse.constraint;
        if (c.terms.empty()) return "a parsed constraint without terms";
        if (!std::isfinite(c.bound)) return "a non-finite bound";
        for (std::size_t i = 0; i < c.terms.size(); ++i) {
            const LinearTerm& t = c.terms[i];
            if (t.parameter < 0 || t.parameter >= space.dimension()) return "a term names no parameter";
            if (variables[static_cast<std::size_t>(t.parameter)].excluded) return "a term names an excluded parameter";
            if (!std::isfinite(t.coefficient) || t.coefficient == 0.0) return "a zero or non-finite coefficient";
            for (std::size_t j = 0; j < i; ++j)
                if (c.terms[j].parameter == t.parameter) return "a parameter appears twice";
        }
        const std::string canonical = canonical_text(c, names);
        const ConstraintParse again = parse_linear_constraint(canonical, variables);
        if (!again.ok()) return "the canonical text '" + escape_invalid_utf8(canonical) + "' does not parse: " + again.error.describe();
        if (!(*again.constraint == c)) return "the canonical text '" + escape_invalid_utf8(canonical) + "' parses to another constraint";
        constraints.push_back(c);
        labels.push_back(canonical);
    }
    if (constraints.empty()) return "";

    const Polytope polytope = Polytope::from_constraints(constraints, unit_coordinates(space), space.dimension(), labels);
    const PolytopeAnalysis analysis = analyze_polytope(polytope);
    switch (analysis.status) {
    case PolytopeAnalysis::Status::Failed: return "the analysis failed: " + analysis.message;
    case PolytopeAnalysis::Status::Empty:
        if (analysis.conflict.empty() || analysis.message.empty()) return "an empty polytope without a conflict";
        return "";
    case PolytopeAnalysis::Status::Feasible: break;
    }
    if (!polytope.contains(analysis.centre)) return "the centre is outside";
    const PolytopeSample sample = sample_polytope(polytope, 3, 1);
    if (sample.status != PolytopeSample::Status::Ok) return "sampling a feasible polytope failed: " + sample.message;
    for (const auto& u : sample.points)
        if (!polytope.contains(u)) return "a sample is outside";
    const PolytopeProjection projection = project_onto_polytope(polytope, Eigen::VectorXd::Ones(space.dimension()));
    if (projection.status != PolytopeProjection::Status::Ok) return "projecting onto a feasible polytope failed";
    return "";
}

}  // namespace sebo::fuzz
