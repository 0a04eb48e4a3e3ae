// Compare candidates (issue 32 item 3; experiment/comparison.h, io/comparison_export.h): each
// metric against the status quo in units and per cent, the status quo's replicates merged, the
// model's interval where it is given, only the changed parameters; the text, the CSV (formulas
// guarded) and the change request, against values worked out by hand.
#include "core/input_error.h"
#include "experiment/comparison.h"
#include "io/comparison_export.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_comparison {

using namespace sebo;

namespace {

// throughput (max), p99 (min), memory <= 100, cost tracked. The status quo (cache_mb 256, threads 4,
// mode plain) measured twice: throughput 1000 ± 10 and 1020 ± 10, p99 50 and 52 (no standard error).
Experiment service(const std::string& cache_name = "cache_mb") {
    Experiment e;
    e.name = "web service";
    Parameter cache = test::integer(cache_name, 64, 4096);
    cache.target = 256;
    Parameter threads = test::integer("threads", 1, 64);
    threads.target = 4;
    Parameter mode = test::choice("mode", {"plain", "fast"});
    mode.target = 0;
    e.space = SearchSpace({cache, threads, mode});
    e.outcomes.metrics = {"throughput", "p99", "memory", "cost"};
    e.outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"p99", true, std::nullopt}};
    e.outcomes.constraints = {OutcomeConstraint{"memory", ConstraintSense::AtMost, 100.0}};
    const auto add = [&](std::vector<double> p, double throughput, std::optional<double> sem, double p99, double memory,
                         double cost) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = std::move(p);
        t.status = TrialStatus::Completed;
        t.values = {{"throughput", {throughput, sem}},
                    {"p99", {p99, std::nullopt}},
                    {"memory", {memory, std::nullopt}},
                    {"cost", {cost, std::nullopt}}};
        e.trials.push_back(t);
    };
    add({256, 4, 0}, 1000, 10.0, 50, 80, 2);          // 0: the status quo
    add({811, 4, 0}, 1150, std::nullopt, 45, 90, 3);  // 1
    add({811, 8, 1}, 900, std::nullopt, 60, 120, 2);  // 2: breaks memory <= 100
    add({256, 4, 0}, 1020, 10.0, 52, 80, 2);          // 3: the status quo again
    Trial pending;
    pending.index = 4;
    pending.parameters = {300, 4, 0};
    e.trials.push_back(pending);
    e.chosen = {ChosenConfiguration{1, "cheap to roll out"}};
    return e;
}

// The model's estimates, as recommend_configurations would give them (values chosen by hand).
RecommendationReport estimates() {
    RecommendationReport r;
    r.status = RecommendationReport::Status::Ok;
    ConfigurationEstimate status_quo;
    status_quo.trials = {0, 3};
    status_quo.estimates["throughput"] = MetricEstimate{1012.0, 995.0, 1030.0};
    ConfigurationEstimate one;
    one.trials = {1};
    one.sparsity = 1;
    one.estimates["throughput"] = MetricEstimate{1140.0, 1100.0, 1180.0};
    one.estimates["p99"] = MetricEstimate{46.0, 43.5, 48.25};
    one.p_better_than_status_quo = {{"throughput", 0.97}, {"p99", 0.88}};
    r.configurations = {status_quo, one};
    r.status_quo = 0;
    return r;
}

const MetricComparison& metric(const CandidateComparison& c, const std::string& name) {
    for (const MetricComparison& m : c.metrics)
        if (m.metric == name) return m;
    throw std::runtime_error("no metric " + name);
}

}  // namespace

class TestComparison : public QObject {
    Q_OBJECT
private slots:
    void differencesToTheStatusQuoInUnitsAndPercent() {
        const Experiment e = service();
        const Comparison c = compare_candidates(e, {1, 2, 1});
        QCOMPARE(c.status_quo_trials, (std::vector<int>{0, 3}));
        QVERIFY(c.status_quo);
        // The status quo's replicates merged: the mean, sqrt(10² + 10²)/2 for throughput (both have
        // a standard error), the sample sd / √2 = √2/√2 = 1 for p99 (neither has one).
        const MetricComparison& base = metric(*c.status_quo, "throughput");
        QCOMPARE(*base.value, 1010.0);
        SEBO_COMPARE_NEAR(*base.sem, std::sqrt(200.0) / 2.0, 1e-12);
        QCOMPARE(base.count, 2);
        QVERIFY(!base.difference);
        SEBO_COMPARE_NEAR(*metric(*c.status_quo, "p99").sem, 1.0, 1e-12);

        QCOMPARE(c.candidates.size(), std::size_t{2});  // trial 1 named twice, compared once
        const CandidateComparison& one = c.candidates[0];
        QCOMPARE(one.trial, 1);
        QCOMPARE(one.sparsity, 1);
        QCOMPARE(describe(one.changes), std::string("cache_mb 256 \u2192 811"));
        QCOMPARE(one.feasibility, Feasibility::Feasible);
        const MetricComparison& throughput = metric(one, "throughput");
        QCOMPARE(*throughput.difference, 140.0);
        SEBO_COMPARE_NEAR(*throughput.relative, 140.0 / 1010.0, 1e-15);
        QCOMPARE(*throughput.better, true);
        const MetricComparison& p99 = metric(one, "p99");
        QCOMPARE(*p99.difference, -6.0);
        SEBO_COMPARE_NEAR(*p99.relative, -6.0 / 51.0, 1e-15);
        QCOMPARE(*p99.better, true);  // minimized: lower is better
        QVERIFY(!metric(one, "memory").better);  // a constraint, not an objective
        QVERIFY(metric(one, "memory").constrained);
        QVERIFY(!metric(one, "cost").objective && !metric(one, "cost").constrained);
        QVERIFY(!throughput.estimate);

        const CandidateComparison& two = c.candidates[1];
        QCOMPARE(describe(two.changes), std::string("cache_mb 256 \u2192 811, threads 4 \u2192 8, mode plain \u2192 fast"));
        QCOMPARE(two.feasibility, Feasibility::Infeasible);
        QCOMPARE(*metric(two, "throughput").difference, -110.0);
        QCOMPARE(*metric(two, "throughput").better, false);

        // The wording: one decimal of a per cent, the standard error and the count.
        QCOMPARE(describe_value(throughput), std::string("1150 (+140, +13.9 %)"));
        QCOMPARE(describe_value(p99), std::string("45 (-6, -11.8 %)"));
        QCOMPARE(describe_value(base), std::string("1010 \u00b1 7.07 (mean of 2)"));
        QCOMPARE(percent_text(0.0), std::string("+0.0 %"));
    }

    void theModelsIntervalWhereItHasOne() {
        const Experiment e = service();
        const RecommendationReport r = estimates();
        const Comparison c = compare_candidates(e, {1, 3}, &r);
        const MetricComparison& throughput = metric(c.candidates[0], "throughput");
        QCOMPARE(throughput.estimate->lower, 1100.0);
        QCOMPARE(*throughput.p_better_than_status_quo, 0.97);
        QCOMPARE(describe_estimate(throughput), std::string("model 1140 (95 %: 1100 \u2013 1180), P(better than the status quo) 0.97"));
        QVERIFY(!metric(c.candidates[0], "cost").estimate);  // not modelled
        // Trial 3 is the status quo's replicate: its estimate is the configuration's.
        QVERIFY(c.candidates[1].is_status_quo);
        QCOMPARE(c.candidates[1].measurements, (std::vector<int>{0, 3}));
        QCOMPARE(metric(c.candidates[1], "throughput").estimate->mean, 1012.0);
        QCOMPARE(*metric(c.candidates[1], "throughput").difference, 0.0);
        QVERIFY(!metric(c.candidates[1], "throughput").better);
    }

    void withoutAStatusQuoOnlyValues() {
        Experiment e = service();
        e.trials[0].exclusion = TrialExclusion{"measured on the wrong build", ""};
        e.trials[3].status = TrialStatus::Failed;
        e.trials[3].values.clear();
        const Comparison c = compare_candidates(e, {1});
        QVERIFY(!c.status_quo);
        QVERIFY(!metric(c.candidates[0], "throughput").difference);
        QCOMPARE(describe_value(metric(c.candidates[0], "throughput")), std::string("1150"));
        QVERIFY(comparison_text(e, c).starts_with("No status quo"));
    }

    void refusesWhatCannotBeCompared() {
        const Experiment e = service();
        for (const auto& [trials, words] : std::vector<std::pair<std::vector<int>, std::string>>{
                 {{}, "no trial"}, {{1, 99}, "no trial 99"}, {{4}, "trial 4 is pending"}}) {
            try {
                compare_candidates(e, trials);
                QFAIL("no InputError");
            } catch (const InputError& error) {
                QCOMPARE(error.field(), std::string("trials"));
                QVERIFY2(std::string(error.what()).find(words) != std::string::npos, error.what());
            }
        }
    }

    void textAndChangeRequest() {
        const Experiment e = service();
        const RecommendationReport r = estimates();
        const std::string text = comparison_text(e, compare_candidates(e, {1}, &r));
        QCOMPARE(text, std::string("Compared with the status quo (trials 0, 3): throughput 1010 \u00b1 7.07 (mean of 2), "
                                   "p99 51 \u00b1 1 (mean of 2), memory 80 \u00b1 0 (mean of 2), cost 2 \u00b1 0 (mean of 2)\n"
                                   "\n"
                                   "Trial 1: 1 change: cache_mb 256 \u2192 811\n"
                                   "  throughput (maximized): 1150 (+140, +13.9 %); model 1140 (95 %: 1100 \u2013 1180), "
                                   "P(better than the status quo) 0.97\n"
                                   "  p99 (minimized): 45 (-6, -11.8 %); model 46 (95 %: 43.5 \u2013 48.25), "
                                   "P(better than the status quo) 0.88\n"
                                   "  memory (memory <= 100): 90 (+10, +12.5 %)\n"
                                   "  cost (tracked): 3 (+1, +50.0 %)\n"
                                   "  constraints: met\n"));
        const std::string request = change_request_text(e, 1);
        QCOMPARE(request, std::string("Change request: the configuration of trial 1 of the experiment \"web service\"\n"
                                      "\n"
                                      "Change 1 parameter (every other one stays as it is):\n"
                                      "  cache_mb 256 \u2192 811\n"
                                      "\n"
                                      "Expected effect, as measured:\n"
                                      "  throughput (maximized): 1150 (+140, +13.9 %)\n"
                                      "  p99 (minimized): 45 (-6, -11.8 %)\n"
                                      "  memory (memory <= 100): 90 (+10, +12.5 %)\n"
                                      "  cost (tracked): 3 (+1, +50.0 %)\n"
                                      "  constraints: met\n"
                                      "\n"
                                      "Compared with the status quo (trials 0, 3): throughput 1010 \u00b1 7.07 (mean of 2), "
                                      "p99 51 \u00b1 1 (mean of 2), memory 80 \u00b1 0 (mean of 2), cost 2 \u00b1 0 (mean of 2)\n"
                                      "\n"
                                      "Note: cheap to roll out\n"));
        QVERIFY(change_request_text(e, 0).find("Change nothing: this is the status quo") != std::string::npos);
    }

    void csvRowsWithFormulasGuarded() {
        // A parameter name a spreadsheet would run: the changes cell starts with an apostrophe.
        const Experiment e = service("=HYPERLINK(\"http://x\")");
        const RecommendationReport r = estimates();
        const std::string csv = comparison_csv(e, compare_candidates(e, {1, 0}, &r));
        std::vector<std::string> lines;
        for (std::size_t start = 0, end; (end = csv.find('\n', start)) != std::string::npos; start = end + 1)
            lines.push_back(csv.substr(start, end - start));
        // The header, the status quo's 4 metrics once (trial 0 asked for again is not repeated), trial 1's 4.
        QCOMPARE(lines.size(), std::size_t{9});
        QCOMPARE(lines[0], std::string("trial,status_quo,changes,active,metric,role,value,sem,count,difference,"
                                       "difference_percent,model_mean,model_lower,model_upper,p_better_than_status_quo"));
        QCOMPARE(lines[1], std::string("0,true,,0,throughput,maximize,1010,7.0710678118654755,2,,,1012,995,1030,"));
        QCOMPARE(lines[5], std::string("1,false,\"'=HYPERLINK(\"\"http://x\"\") 256 \u2192 811\",1,throughput,maximize,1150,,1,"
                                       "140,13.861386138613863,1140,1100,1180,0.97"));
        QCOMPARE(lines[7], std::string("1,false,\"'=HYPERLINK(\"\"http://x\"\") 256 \u2192 811\",1,memory,constraint,90,,1,"
                                       "10,12.5,,,,"));
    }
};

SEBO_TEST_MAIN(TestComparison)
}  // namespace test_comparison
#include "test_comparison.moc"
