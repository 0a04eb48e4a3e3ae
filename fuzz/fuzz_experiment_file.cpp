// libFuzzer target: the experiment file loader (engine/io/experiment_file.*) on arbitrary bytes.
// Every input must either load or be refused with an InputError; any other exception, crash,
// sanitizer report, hang or leak is a finding. What loads must survive save -> load -> save
// unchanged. The same bytes also go through the stand-alone search-space reader and the reader
// of a space file's metrics, objectives and constraints.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "io/experiment_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const sebo::Experiment experiment = sebo::experiment_from_json_text(text);
        sebo::fuzz::check_round_trip(experiment);
    } catch (const sebo::InputError&) {
        // Refused with a message: the expected outcome for most inputs.
    }
    try {
        const sebo::SearchSpace space = sebo::space_from_json_text(text);
        if (const auto error = space.validate()) sebo::fuzz::finding("an accepted space does not validate", *error);
    } catch (const sebo::InputError&) {
    }
    try {
        if (const auto outcomes = sebo::outcomes_from_json_text(text))
            if (const auto error = outcomes->validate()) sebo::fuzz::finding("accepted outcomes do not validate", *error);
    } catch (const sebo::InputError&) {
    }
    return 0;
}
