#pragma once
// A report to share (issue 32 item 4; SPEC §11 "the decision desk"): one self-contained HTML file
// that says what was asked, what was found and how far to trust it, for a reader who has neither
// the program nor the experiment file. Nothing in it is fetched: the style sheet is inline, the
// charts are inline SVG (report/report_charts.h), and there is no script and no address.
//
// Sections, in order:
//  1. The question: objectives and their directions, outcome constraints, tracked metrics, the
//     space in brief (parameter counts by kind, fixed parameters, linear constraints) and the
//     status quo (every parameter's target).
//  2. The frontier: per objective, a chart of its value against the number of changed parameters
//     with the staircase of the best value with at most k changes; a table per number of changes
//     of the non-dominated feasible trials with their values and changed parameters ("cache_mb
//     256 → 811", experiment/configuration_changes.h). Replicates are one configuration with
//     their mean values (experiment/replicates.h), as in every raw view.
//  3. The chosen configurations (Experiment::chosen) with their notes, their changes and each
//     metric compared with the measured status quo (difference in units and in %).
//  4. Progress: the hypervolume trace, and how often each parameter is changed on the frontier.
//  5. The method and its settings.
//  6. Warnings: model fits that did not converge (FitRecord::warning: R-hat, divergences),
//     excluded, failed and pending trials, standard errors reported for some measurements only
//     (experiment/standard_errors.h), chosen configurations a later feasible trial beats on every
//     objective (experiment/overtaken_choices.h).
//  7. Where it came from: the file, the SHA-256 of its bytes, the trials and their dates, the
//     evaluator (a command as the shell would quote it), the program that wrote the report.
// Every text the user wrote is escaped (report/html_text.h).

#include <string>

#include "experiment/analytics.h"
#include "experiment/experiment.h"

namespace sebo {

// Where the experiment came from.
struct ReportSource {
    std::string path;    // the experiment file as named by the user; empty when it has none
    std::string sha256;  // of the file's bytes (core/sha256.h); empty when there is no file
    // The experiment shown is not the file's content (the explorer's unsaved changes): the report
    // says so next to the hash.
    bool unsaved_changes = false;
};

struct ReportOptions {
    std::string generated_at;     // ISO-8601 UTC of the report; empty: not stated
    std::string program_version;  // e.g. program_version_text(); empty: not stated
};

// The report of an experiment that passes Experiment::validate(), from its frontier analysis
// (analyze_frontier(experiment), computed once by the caller as for every other view).
std::string report_html(const Experiment& experiment, const FrontierReport& frontier, const ReportSource& source,
                        const ReportOptions& options = {});

}  // namespace sebo
