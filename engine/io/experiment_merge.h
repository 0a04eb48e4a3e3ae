#pragma once
// Merging an experiment file that another process changed into this process's copy of it
// (docs/file-format.md, "Several writers"): a three-way merge of "base" (the file as this
// process last read or wrote it), "mine" (this process's experiment, with its changes since)
// and "theirs" (the file now), trial by trial index. Nothing either side recorded is lost:
//
//   - a trial only one side changed (a result recorded elsewhere, one recorded here) takes that
//     side's version; new trials of either side are kept;
//   - a new trial of each side with the same index: theirs keeps the index (it is on disk, and
//     may already have been printed or handed to someone), mine is renumbered after the last;
//   - both sides recorded different results for the same trial: theirs keeps the index, mine is
//     kept as a new trial with the same configuration (two measurements of it); other clashes
//     on one trial keep the file's version;
//   - a trial missing from the file, or pending there again after a result (the file was
//     replaced by an older copy), is kept as it was here: a merge never undoes a result;
//   - the chosen configurations merge per trial the same way;
//   - other settings (name, method, ...) take the side that changed them, mine when both did;
//     the problem itself (search space, objective) must not have changed on disk, or the merge
//     is refused.
//
// Settings are compared in the file's JSON form and trials with Trial's operator==, so every
// field the format holds, now or later, takes part without being listed here.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

// What a merge took from the file, and how it settled clashes.
struct MergeReport {
    std::vector<int> results_recorded;  // trials whose result was recorded elsewhere
    std::vector<int> trials_added;      // trials added elsewhere
    std::vector<int> trials_changed;    // other changes made elsewhere to a trial
    std::vector<std::pair<int, int>> renumbered;  // (mine's index, its new index): the index was taken
    std::vector<std::pair<int, int>> kept_both;   // (trial, new trial): mine's different result kept as that
    std::vector<int> kept_file_version;           // both changed the trial otherwise; the file's version kept
    std::vector<int> restored;  // missing from the file, or back to pending there: kept as they were here
    // Mine's new trial has the same configuration as a trial added elsewhere at the same time:
    // (mine's index, theirs).
    std::vector<std::pair<int, int>> same_configuration;
    std::vector<std::string> settings_changed;  // top-level fields taken from the file ("method", ...)
    std::vector<std::string> settings_kept;     // changed on both sides; mine kept
    bool chosen_changed = false;                // chosen configurations changed elsewhere
    bool file_was_missing = false;              // the file had gone (moved, deleted) and was written again
    // The file's sampler states were taken (another program's fit left newer warm starts). Not a
    // change to report, so empty() ignores it, but a window showing mine must take the merge.
    bool sampler_states_taken = false;

    bool empty() const;
    // The new index of mine's trial `index` (itself when it was not renumbered).
    int new_index(int index) const;
};

struct MergeResult {
    Experiment experiment;
    MergeReport report;
};

// The merge cannot be done without losing or mixing up data: the file now holds another problem.
class MergeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `base` may be null (this process never read the file: every trial is new on both sides).
// Throws MergeError.
MergeResult merge_experiments(const Experiment* base, const Experiment& mine, const Experiment& theirs);

// One sentence per event for people ("Trial 12's result was recorded elsewhere."), with
// `elsewhere` saying where the file's changes came from ("elsewhere", "outside the explorer")
// and `here` where mine came from ("here", "in the explorer").
std::vector<std::string> describe_merge(const MergeReport& report, const std::string& elsewhere = "elsewhere",
                                        const std::string& here = "here");

}  // namespace sebo
