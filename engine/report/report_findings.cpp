// The findings of the report (report/report_html.h, sections 2, 3, 4 and 6): the frontier, the
// chosen configurations, progress and warnings.
#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "experiment/configuration_changes.h"
#include "experiment/overtaken_choices.h"
#include "experiment/standard_errors.h"
#include "report/report_charts.h"
#include "report/report_sections.h"

namespace sebo::report_detail {

namespace {

// The metric values of a trial as table cells, in the experiment's metric order ("—" when the
// metric was not recorded).
std::string metric_cells(const Experiment& e, const Trial& t) {
    std::string cells;
    for (const std::string& metric : e.outcomes.metrics) {
        const Measurement* m = t.measurement(metric);
        cells += "<td class=\"number\">" + (m ? value_text(*m) : std::string("—")) + "</td>";
    }
    return cells;
}

std::string metric_headers(const Experiment& e) {
    std::string cells;
    for (const std::string& metric : e.outcomes.metrics)
        cells += "<th>" + esc(metric) + "<br><span class=\"role\">" + esc(metric_role(e, metric)) + "</span></th>";
    return cells;
}

// "cache_mb 256 → 811<br>mode plain → fast": each change on its own line; with `at_most`, the
// first ones and how many more (a frontier table of a 50-parameter space stays readable).
std::string changes_cell(const Experiment& e, const Trial& t, std::size_t at_most = std::string::npos) {
    const std::vector<ParameterChange> changes = changes_from_target(e.space, t.parameters);
    if (changes.empty()) return "no change (the status quo)";
    std::string text;
    for (std::size_t i = 0; i < changes.size() && i < at_most; ++i) text += (text.empty() ? "" : "<br>") + esc(describe(changes[i]));
    if (changes.size() > at_most) text += "<br>and " + std::to_string(changes.size() - at_most) + " more";
    return text;
}

// Changes listed per trial in a frontier table before "and N more".
constexpr std::size_t kFrontierChanges = 12;

bool is_chosen(const Experiment& e, int trial) {
    return std::any_of(e.chosen.begin(), e.chosen.end(), [&](const ChosenConfiguration& c) { return c.trial == trial; });
}

std::string trial_cell(const Experiment& e, const ShownTrials& shown, int trial) {
    std::string text = std::to_string(trial);
    if (const int n = shown.measurements(trial); n > 1) text += " <span class=\"role\">(mean of " + std::to_string(n) + ")</span>";
    if (is_chosen(e, trial)) text += " <span class=\"badge\">chosen</span>";
    return text;
}

// "k = 3" or "k = 3–50" for a run of levels with the same front.
std::string levels_text(int first, int last) {
    return first == last ? std::to_string(first) : std::to_string(first) + "–" + std::to_string(last);
}

FrontierChartData chart_data(const Experiment& e, const FrontierReport& frontier, const ShownTrials& shown,
                             std::size_t objective) {
    const Objective& o = e.outcomes.objectives[objective];
    FrontierChartData data;
    data.objective = o.metric;
    data.minimize = o.minimize;
    if (e.space.has_groups()) data.changes_title = "changed groups";
    for (const Trial& t : e.trials) {
        if (!e.analyzed(t) || shown.measurements(t.index) < 1) continue;
        const Trial merged = shown.shown(t);
        if (merged.index != t.index) continue;  // a replicate: its configuration is drawn once, at its first trial
        if (auto v = e.objective_value(merged, objective))
            data.points.push_back({t.index, e.sparsity(merged), *v, e.feasible(merged)});
    }
    for (const FrontierReport::Level& level : frontier.levels) {
        std::optional<double> best;
        int best_trial = 0;
        for (int index : level.front) {
            const Trial* t = e.find_trial(index);
            if (!t) continue;
            const auto u = e.utility(shown.shown(*t), objective);
            if (u && (!best || *u > *best)) {
                best = u;
                best_trial = index;
            }
        }
        if (!best) continue;
        data.staircase.emplace_back(level.k, o.from_utility(*best));
        if (std::find(data.best_trials.begin(), data.best_trials.end(), best_trial) == data.best_trials.end())
            data.best_trials.push_back(best_trial);
    }
    return data;
}

}  // namespace

std::string section_frontier(const Experiment& e, const FrontierReport& frontier, const ShownTrials& shown) {
    const std::size_t m = e.outcomes.objectives.size();
    const std::string unit = e.space.has_groups() ? "changed groups" : "changed parameters";
    std::string html = "<section id=\"frontier\">\n<h2>The frontier</h2>\n";
    html += "<p>How much of the best result needs how many " + unit + ": for each number k, the " +
            std::string(m == 1 ? "best feasible trial" : "feasible trials no other one beats on every objective") +
            " with at most k " + unit + ". Infeasible trials (an outcome constraint does not hold) are on no frontier.</p>\n";
    if (frontier.feasible_trials == 0) {
        html += "<p class=\"note\">No trial counts yet: no completed, feasible, included trial.</p>\n</section>\n";
        return html;
    }
    for (std::size_t j = 0; j < m; ++j) {
        const FrontierChartData data = chart_data(e, frontier, shown, j);
        html += "<figure>\n" + frontier_chart_svg(data) + "\n<figcaption>" + esc(data.objective) + " against the number of " +
                unit + "; the line is the best value with at most that many changes" +
                (e.outcomes.constraints.empty() ? "" : ", hollow points are infeasible") + ".</figcaption>\n</figure>\n";
    }
    html += "<table class=\"frontier\">\n<thead><tr><th>k</th><th>trial</th><th>changes</th>" + metric_headers(e) +
            "<th>changed parameters</th></tr></thead>\n<tbody>\n";
    // Runs of levels with the same front are one group of rows ("k = 4–50").
    const std::vector<FrontierReport::Level>& levels = frontier.levels;
    std::vector<int> listed;  // a trial's changes are given once, where it first appears
    for (std::size_t i = 0; i < levels.size();) {
        std::size_t last = i;
        while (last + 1 < levels.size() && levels[last + 1].front == levels[i].front) ++last;
        const std::vector<int>& front = levels[i].front;
        if (front.empty()) {
            html += "<tr><td>" + levels_text(levels[i].k, levels[last].k) + "</td><td colspan=\"" +
                    std::to_string(3 + e.outcomes.metrics.size()) + "\">no feasible trial with this few changes</td></tr>\n";
        } else {
            for (std::size_t r = 0; r < front.size(); ++r) {
                const Trial* t = e.find_trial(front[r]);
                if (!t) continue;
                const Trial merged = shown.shown(*t);
                html += "<tr" + std::string(r == 0 ? " class=\"level\"" : "") + ">";
                if (r == 0)
                    html += "<td rowspan=\"" + std::to_string(front.size()) + "\">" + levels_text(levels[i].k, levels[last].k) + "</td>";
                html += "<td>" + trial_cell(e, shown, t->index) + "</td><td class=\"number\">" +
                        std::to_string(e.sparsity(merged)) + "</td>" + metric_cells(e, merged) + "<td>" +
                        (std::find(listed.begin(), listed.end(), t->index) != listed.end()
                             ? std::string("as above")
                             : changes_cell(e, merged, kFrontierChanges)) +
                        "</td></tr>\n";
                listed.push_back(t->index);
            }
        }
        i = last + 1;
    }
    html += "</tbody>\n</table>\n</section>\n";
    return html;
}

std::string section_chosen(const Experiment& e, const ShownTrials& shown) {
    std::string html = "<section id=\"chosen\">\n<h2>Chosen configurations</h2>\n";
    if (e.chosen.empty()) {
        html += "<p class=\"note\">No configuration is chosen yet (the explorer's Mark as chosen).</p>\n</section>\n";
        return html;
    }
    // The status quo as measured: the configuration that changes nothing, merged with its replicates.
    std::optional<Trial> status_quo;
    for (const Trial& t : e.trials)
        if (e.analyzed(t) && e.space.active_count(t.parameters) == 0) {
            status_quo = shown.shown(t);
            break;
        }
    const std::vector<OvertakenChoice> overtaken = overtaken_choices(e);
    for (const ChosenConfiguration& c : e.chosen) {
        html += "<article class=\"chosen\">\n<h3>Trial " + std::to_string(c.trial) + "</h3>\n";
        if (!c.note.empty()) html += "<p class=\"chosen-note\">" + esc(c.note) + "</p>\n";
        const Trial* t = e.find_trial(c.trial);
        if (!t) {
            html += "<p class=\"warning\">This trial is not in the experiment.</p>\n</article>\n";
            continue;
        }
        const Trial merged = shown.shown(*t);
        const int changes = e.space.active_count(merged.parameters);
        html += "<p><strong>" + count_of(static_cast<std::size_t>(changes), "change", "changes") + "</strong>" +
                (changes ? ":<br>" : " ") + changes_cell(e, merged) + "</p>\n";
        if (t->status != TrialStatus::Completed) {
            html += "<p class=\"warning\">This trial is " + std::string(to_string(t->status)) + ": it has no result.</p>\n</article>\n";
            continue;
        }
        if (t->exclusion) html += "<p class=\"warning\">Excluded from the analysis: " + esc(t->exclusion->reason) + "</p>\n";
        if (const int n = shown.measurements(t->index); n > 1)
            html += "<p>Measured " + std::to_string(n) + " times; the values are the means.</p>\n";
        for (const OvertakenChoice& o : overtaken)
            if (o.chosen == c.trial)
                html += "<p class=\"warning\">Trial " + std::to_string(o.by) +
                        " is feasible and better on every objective than this one: worth a second look.</p>\n";
        const bool compare = status_quo && status_quo->index != t->index;
        if (status_quo && !compare) html += "<p>This is the status quo (every parameter at its target).</p>\n";
        if (!status_quo)
            html += "<p class=\"note\">The status quo (every parameter at its target) was not measured, so there is "
                    "nothing to compare with.</p>\n";
        html += "<table class=\"comparison\">\n<thead><tr><th>metric</th><th>role</th>";
        if (compare) html += "<th>status quo (trial " + std::to_string(status_quo->index) + ")</th>";
        html += "<th>trial " + std::to_string(c.trial) + "</th>";
        if (compare) html += "<th>difference</th><th>%</th><th></th>";
        html += "</tr></thead>\n<tbody>\n";
        for (const std::string& metric : e.outcomes.metrics) {
            const Measurement* mine = merged.measurement(metric);
            html += "<tr><td>" + esc(metric) + "</td><td>" + esc(metric_role(e, metric)) + "</td>";
            const Measurement* theirs = compare ? status_quo->measurement(metric) : nullptr;
            if (compare) html += "<td class=\"number\">" + (theirs ? value_text(*theirs) : std::string("—")) + "</td>";
            html += "<td class=\"number\">" + (mine ? value_text(*mine) : std::string("—")) + "</td>";
            if (compare) {
                std::string difference = "—", percent = "—", verdict;
                if (mine && theirs) {
                    const double d = mine->mean - theirs->mean;
                    difference = (d > 0 ? "+" : "") + format_short(d);
                    if (theirs->mean != 0.0) {
                        const double p = 100.0 * d / std::abs(theirs->mean);
                        percent = (p > 0 ? "+" : "") + format_short(p, 3) + " %";
                    }
                    if (const Objective* o = e.outcomes.objective_on(metric))
                        verdict = d == 0.0 ? "equal" : (o->to_utility(mine->mean) > o->to_utility(theirs->mean) ? "better" : "worse");
                }
                for (const OutcomeConstraint& oc : e.outcomes.constraints)
                    if (oc.metric == metric && mine)
                        verdict += (verdict.empty() ? "" : ", ") + std::string(oc.holds(mine->mean) ? "holds " : "violates ") + oc.text();
                html += "<td class=\"number\">" + difference + "</td><td class=\"number\">" + percent + "</td><td>" +
                        esc(verdict) + "</td>";
            }
            html += "</tr>\n";
        }
        html += "</tbody>\n</table>\n</article>\n";
    }
    html += "</section>\n";
    return html;
}

std::string section_progress(const Experiment& e, const FrontierReport& frontier) {
    std::string html = "<section id=\"progress\">\n<h2>Progress</h2>\n";
    std::string reference;
    for (std::size_t j = 0; j < e.outcomes.objectives.size(); ++j) {
        const Objective& o = e.outcomes.objectives[j];
        reference += (reference.empty() ? "" : ", ") + esc(o.metric) + " " +
                     format_short(o.from_utility(frontier.reference_utilities[j]));
    }
    html += "<p>The hypervolume measures the frontier as a whole: the region of objective values and changes that "
            "the feasible trials dominate, up to the reference point (" + reference + ", " +
            std::to_string(frontier.reference_sparsity) + " changes). It grows when a trial improves the frontier. "
            "After the last trial: <strong>" + format_short(frontier.hypervolume) + "</strong>.</p>\n";
    html += "<figure>\n" + hypervolume_chart_svg(frontier.hypervolume_trace) +
            "\n<figcaption>Hypervolume after each trial.</figcaption>\n</figure>\n";

    html += "<h3>Which parameters the frontier changes</h3>\n";
    std::vector<ActivationBar> bars;
    std::vector<std::string> never;
    for (int i = 0; i < e.space.dimension(); ++i) {
        const double share = i < static_cast<int>(frontier.activation_frequency.size())
                                 ? frontier.activation_frequency[static_cast<std::size_t>(i)]
                                 : 0.0;
        if (share > 0.0)
            bars.push_back({e.space.parameter(i).name, share});
        else
            never.push_back(e.space.parameter(i).name);
    }
    if (frontier.pareto_trials.empty()) {
        html += "<p class=\"note\">No trial is on the frontier yet.</p>\n</section>\n";
        return html;
    }
    std::stable_sort(bars.begin(), bars.end(), [](const ActivationBar& a, const ActivationBar& b) { return a.share > b.share; });
    constexpr std::size_t kMaxBars = 30;
    std::vector<std::string> beyond;
    while (bars.size() > kMaxBars) {
        beyond.insert(beyond.begin(), bars.back().parameter);
        bars.pop_back();
    }
    html += "<p>The share of the " + count_of(frontier.pareto_trials.size(), "trial", "trials") +
            " on the frontier (no other trial is better on every objective with as few changes) that change each parameter.</p>\n";
    if (!bars.empty()) html += "<figure>\n" + activation_chart_svg(bars) + "\n</figure>\n";
    const auto names = [](const std::vector<std::string>& list) {
        std::string text;
        for (const std::string& name : list) text += (text.empty() ? "" : ", ") + esc(name);
        return text;
    };
    if (!beyond.empty()) html += "<p>Changed less often: " + names(beyond) + ".</p>\n";
    if (!never.empty()) html += "<p>Never changed on the frontier: " + names(never) + ".</p>\n";
    html += "</section>\n";
    return html;
}

std::string section_warnings(const Experiment& e) {
    std::vector<std::string> items;
    for (const Trial& t : e.trials)
        if (t.fit)
            if (const std::string warning = t.fit->warning(); !warning.empty())
                items.push_back("The model fit that proposed trial " + std::to_string(t.index) + " did not converge: " + esc(warning) + ".");
    for (const Trial& t : e.trials)
        if (t.exclusion)
            items.push_back("Trial " + std::to_string(t.index) + " is excluded from the analysis: " + esc(t.exclusion->reason) + ".");
    for (const Trial& t : e.trials)
        if (t.status == TrialStatus::Failed)
            items.push_back("Trial " + std::to_string(t.index) + " failed" + (t.error.empty() ? "" : ": " + esc(t.error)) + ".");
    std::vector<int> pending, abandoned, infeasible;
    for (const Trial& t : e.trials) {
        if (t.status == TrialStatus::Pending) pending.push_back(t.index);
        if (t.status == TrialStatus::Abandoned) abandoned.push_back(t.index);
        if (e.analyzed(t) && !e.feasible(t)) infeasible.push_back(t.index);
    }
    if (!pending.empty())
        items.push_back(count_of(pending.size(), "trial is", "trials are") + " still waiting for a result (" + list_of(pending) + ").");
    if (!abandoned.empty()) items.push_back(count_of(abandoned.size(), "trial was", "trials were") + " abandoned (" + list_of(abandoned) + ").");
    if (!infeasible.empty())
        items.push_back(count_of(infeasible.size(), "trial does", "trials do") + " not satisfy every outcome constraint (" +
                        list_of(infeasible) + ") and " + (infeasible.size() == 1 ? "is" : "are") + " on no frontier.");
    for (const PartialStandardErrors& p : partial_standard_errors(e)) items.push_back(esc(describe(p)) + ".");
    for (const OvertakenChoice& o : overtaken_choices(e))
        items.push_back("Chosen trial " + std::to_string(o.chosen) + " is beaten on every objective by trial " + std::to_string(o.by) +
                        ", which is feasible.");
    std::string html = "<section id=\"warnings\">\n<h2>Warnings</h2>\n";
    if (items.empty()) return html + "<p>None: every fit converged, and no trial is excluded, failed or waiting.</p>\n</section>\n";
    html += "<ul class=\"warnings\">\n";
    for (const std::string& item : items) html += "<li>" + item + "</li>\n";
    return html + "</ul>\n</section>\n";
}

}  // namespace sebo::report_detail
