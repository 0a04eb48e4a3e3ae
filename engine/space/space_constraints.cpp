#include "space/space_constraints.h"

#include "space/polytope.h"
#include "space/polytope_analysis.h"

namespace sebo {

std::optional<std::string> check_constraints_on_creation(const SearchSpace& space) {
    if (!space.has_constraints()) return std::nullopt;
    if (auto error = space.validate()) return error;
    const PolytopeAnalysis analysis = analyze_polytope(*space.polytope());
    if (analysis.status == PolytopeAnalysis::Status::Empty) return "parameter constraints: " + analysis.message;
    if (analysis.status == PolytopeAnalysis::Status::Failed)
        return "parameter constraints: they could not be checked (" + analysis.message + ")";
    const std::vector<double> target = space.target();
    const std::vector<int> violated = space.violated_constraints(target);
    if (violated.empty()) return std::nullopt;
    std::string message = "the target point (every parameter at its target: the status quo) violates the parameter constraint " +
                          space.describe_violation(violated.front(), target) + "; change the targets or the constraint";
    if (violated.size() > 1) message += " (it violates " + std::to_string(violated.size() - 1) + " more)";
    return message;
}

}  // namespace sebo
