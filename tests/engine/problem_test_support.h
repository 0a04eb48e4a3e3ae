#pragma once
// Helpers shared by the tests of built-in problems and their catalog (test_problems.cpp,
// test_moo_problems.cpp).

#include <string>

#include "core/input_error.h"
#include "problems/problem_catalog.h"

namespace sebo::test {

// A problem spec with only its name: every option at its default.
inline ProblemSpec spec_named(const std::string& name) {
    ProblemSpec spec;
    spec.name = name;
    return spec;
}

// The field of the InputError make_problem throws for `spec` ("" when it does not throw); its
// message in *message when asked.
inline std::string error_field(const ProblemSpec& spec, std::string* message = nullptr) {
    try {
        make_problem(spec);
    } catch (const InputError& e) {
        if (message) *message = e.what();
        return e.field();
    }
    return {};
}

}  // namespace sebo::test
