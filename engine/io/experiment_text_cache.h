#pragma once
// An experiment file's text, re-serializing only what changed since the last text made here.
//
// Every autosave of a long run writes the whole file (atomically, docs/file-format.md), and
// serializing 2,000 trials of 100 parameters takes a few hundred milliseconds — on the GUI thread,
// after every step. The trials make up nearly all of the text and nearly all of them are unchanged
// from one save to the next, so their texts are kept and reused; the rest of the file (space,
// method, sampler state, chosen configurations) is small and serialized each time. The result is
// experiment_to_json_text(), byte for byte (tests/engine/test_experiment_text_cache.cpp).

#include <cstddef>
#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

class ExperimentTextCache {
public:
    std::string text(const Experiment& experiment);
    // How many trials the last text() serialized anew (the others' texts were reused).
    std::size_t serialized() const { return serialized_; }
    void clear();

private:
    struct Entry {
        Trial trial;
        std::string text;
    };
    std::vector<std::string> names_;    // the parameter names the texts were made with
    std::vector<std::string> metrics_;  // and the metrics
    std::vector<Entry> entries_;      // by position in the experiment's trials
    std::size_t serialized_ = 0;
};

}  // namespace sebo
