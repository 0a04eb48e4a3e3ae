// libFuzzer target: the CSV importers (engine/io/csv_table.*, space_file.*, results_import.*).
// The same bytes are read as
//   - a search-space CSV (`sebo new --space`): what is accepted must become an experiment that
//     saves and loads back with the very same parameters;
//   - a results sheet for a fixed small experiment (`sebo observe --csv`), with and without
//     overwrite: what matches must record cleanly and the experiment must still save and load;
//   - historical trials for the same experiment (`sebo import`): likewise.
// Every input must be accepted or refused with an InputError; anything else is a finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include "csv_fixture.h"
#include "fuzz_support.h"
#include "io/csv_table.h"
#include "io/results_import.h"
#include "io/space_file.h"

namespace {

using namespace sebo;

const Experiment& fixed_experiment() {
    static const Experiment experiment = fuzz::csv_fixture_experiment();
    return experiment;
}

void fuzz_space_csv(const std::string& text) {
    SearchSpace space;
    try {
        space = space_from_csv_text(text, "space.csv");
    } catch (const InputError&) {
        return;
    }
    Experiment e;
    e.space = space;
    const Experiment back = experiment_from_json_text(fuzz::check_round_trip(e));
    if (back.space.declared_parameters().size() != space.declared_parameters().size())
        fuzz::finding("the number of parameters read from CSV changed when saved and loaded", experiment_to_json_text(e));
    for (std::size_t i = 0; i < space.declared_parameters().size(); ++i)
        if (!fuzz::same_parameter(space.declared_parameters()[i], back.space.declared_parameters()[i]))
            fuzz::finding("a parameter read from CSV changed when saved and loaded",
                          "parameter " + std::to_string(i) + ": " + experiment_to_json_text(e));
}

void fuzz_results_csv(const std::string& text) {
    CsvTable table;
    try {
        table = parse_csv_table(text, "results.csv");
    } catch (const InputError&) {
        return;
    }
    const Experiment& base = fixed_experiment();
    for (const bool overwrite : {false, true}) {
        try {
            const ResultsMatch match = match_results(base, table, {overwrite});
            if (match.rows.size() != table.rows.size())
                fuzz::finding("match_results did not report every row", std::to_string(match.rows.size()));
            Experiment e = base;
            record_results(e, match.results, "2026-01-01T00:00:00Z");
            fuzz::check_round_trip(e);
        } catch (const InputError&) {
        }
    }
    try {
        const TrialImport import = import_trials(base, table);
        if (import.problems.empty()) {
            Experiment e = base;
            e.trials.insert(e.trials.end(), import.trials.begin(), import.trials.end());
            fuzz::check_round_trip(e);
        }
    } catch (const InputError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz_space_csv(text);
    fuzz_results_csv(text);
    return 0;
}
