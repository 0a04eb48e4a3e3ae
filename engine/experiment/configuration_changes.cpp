#include "experiment/configuration_changes.h"

#include <cassert>

namespace sebo {

namespace {

ParameterChange change_of(const SearchSpace& space, int i, double from, double to) {
    const Parameter& p = space.parameter(i);
    return {i, p.name, from, to, value_text(p, from), value_text(p, to)};
}

}  // namespace

std::vector<ParameterChange> parameter_changes(const SearchSpace& space, const std::vector<double>& from,
                                               const std::vector<double>& to) {
    assert(static_cast<int>(from.size()) == space.dimension() && static_cast<int>(to.size()) == space.dimension());
    std::vector<ParameterChange> changes;
    for (int i = 0; i < space.dimension(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (from[k] != to[k]) changes.push_back(change_of(space, i, from[k], to[k]));
    }
    return changes;
}

std::vector<ParameterChange> changes_from_target(const SearchSpace& space, const std::vector<double>& values) {
    assert(static_cast<int>(values.size()) == space.dimension());
    const std::vector<double> target = space.target();
    const std::vector<bool> active = space.active_mask(values);
    std::vector<ParameterChange> changes;
    for (int i = 0; i < space.dimension(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (active[k]) changes.push_back(change_of(space, i, target[k], values[k]));
    }
    return changes;
}

std::string describe(const ParameterChange& change) {
    return change.name + " " + change.from_text + " \u2192 " + change.to_text;
}

std::string describe(const std::vector<ParameterChange>& changes, const std::string& separator) {
    if (changes.empty()) return "no change";
    std::string text;
    for (const ParameterChange& c : changes) text += (text.empty() ? "" : separator) + describe(c);
    return text;
}

}  // namespace sebo
