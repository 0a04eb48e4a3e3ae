#pragma once
// Parameters of each kind for the engine's tests, built the way the space files build them.

#include <cstdlib>
#include <string>
#include <vector>

#include "space/parameter.h"

namespace sebo::test {

inline Parameter continuous(const std::string& name, double lower = 0.0, double upper = 1.0) {
    Parameter p;
    p.name = name;
    p.lower = lower;
    p.upper = upper;
    return p;
}

inline Parameter integer(const std::string& name, double lower, double upper) {
    Parameter p = continuous(name, lower, upper);
    p.kind = ParameterKind::Integer;
    return p;
}

// Sent to the evaluator, never varied: its bounds and target are the value.
inline Parameter fixed(const std::string& name, double value) {
    Parameter p;
    p.name = name;
    p.kind = ParameterKind::Fixed;
    p.target = value;
    p.lower = p.upper = value;
    return p;
}

// A value that reads as a whole number is a number (as in a CSV cell), the others are text.
inline Parameter choice(const std::string& name, const std::vector<std::string>& texts, bool ordered = false) {
    Parameter p;
    p.name = name;
    p.kind = ParameterKind::Choice;
    for (const std::string& t : texts) {
        ChoiceValue v{t, std::nullopt};
        char* end = nullptr;
        const double x = std::strtod(t.c_str(), &end);
        if (!t.empty() && end == t.c_str() + t.size()) v.number = x;
        p.values.push_back(v);
    }
    p.ordered = ordered;
    return p;
}

}  // namespace sebo::test
