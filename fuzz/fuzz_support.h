#pragma once
// Shared by the libFuzzer targets: how a target reports a finding that is not a crash by itself
// (a broken invariant), and the round-trip check every successfully loaded experiment must pass.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/input_error.h"
#include "io/experiment_file.h"

namespace sebo::fuzz {

// Prints the broken invariant and aborts, which libFuzzer records as a crash with its input.
[[noreturn]] inline void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "FUZZ FINDING: %s\n%s\n", what, detail.c_str());
    std::fflush(stderr);
    std::abort();
}

// An experiment the loaders accepted must be consistent, and saving it must give a file that
// loads back to the same experiment (nothing a colleague sends may become unsaveable or change
// on the next save). Returns the saved text.
inline std::string check_round_trip(const Experiment& experiment) {
    if (const auto error = experiment.validate()) finding("an accepted experiment does not validate", *error);
    const std::string saved = experiment_to_json_text(experiment);
    Experiment back;
    try {
        back = experiment_from_json_text(saved);
    } catch (const InputError& error) {
        finding("a saved experiment does not load again", std::string(error.what()) + "\n--- saved text:\n" + saved);
    }
    const std::string again = experiment_to_json_text(back);
    if (again != saved) finding("save -> load -> save changed the file", "--- first:\n" + saved + "\n--- second:\n" + again);
    return saved;
}

}  // namespace sebo::fuzz
