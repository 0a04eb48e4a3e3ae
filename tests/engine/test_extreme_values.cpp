// One absurd measurement (an error sentinel of 1e308, a unit slip) next to ordinary ones: the
// robust spread every rule is built on (core/robust_spread.h) against hand-computed quartiles,
// the extreme-value warning (experiment/extreme_values.h) and excluding a trial from analysis
// and including it again (experiment/trial_exclusion.h).

#include <cmath>
#include <limits>

#include "core/quantile.h"
#include "core/robust_spread.h"
#include "experiment/extreme_values.h"
#include "experiment/trial_exclusion.h"
#include "test_main.h"
#include "test_support.h"

namespace test_extreme_values {

using namespace sebo;

namespace {

Experiment with_values(const std::vector<double>& values, bool minimize = false) {
    Parameter p;
    p.name = "x";
    p.lower = 0.0;
    p.upper = 1.0;
    Experiment e;
    e.space = SearchSpace({p});
    e.outcomes = Outcomes::single("latency", minimize);
    for (std::size_t i = 0; i < values.size(); ++i) {
        Trial t;
        t.index = static_cast<int>(i);
        t.parameters = {0.1 * static_cast<double>(i % 10)};
        t.status = TrialStatus::Completed;
        t.values = {{"latency", {values[i], std::nullopt}}};
        e.trials.push_back(t);
    }
    return e;
}

}  // namespace

class TestExtremeValues : public QObject {
    Q_OBJECT

private slots:
    // Type 7: position q (n − 1), linear between the order statistics around it.
    void quantilesInterpolateAndStayFinite() {
        QCOMPARE(quantile({4.0, 1.0, 3.0, 2.0}, 0.5), 2.5);
        QCOMPARE(quantile({4.0, 1.0, 3.0, 2.0}, 0.25), 1.75);
        QCOMPARE(quantile({7.0}, 0.9), 7.0);
        QCOMPARE(sorted_quantile({1.0, 2.0, 3.0, 4.0, 100.0}, 0.75), 4.0);
        // −1e308 + 0.5 · (1e308 − (−1e308)) would be inf; the midpoint is 0.
        QCOMPARE(quantile({-1e308, 1e308}, 0.5), 0.0);
        constexpr double kMax = std::numeric_limits<double>::max();
        SEBO_COMPARE_NEAR(quantile({-kMax, kMax}, 0.25) / kMax, -0.5, 1e-15);
    }

    // {1, 2, 3, 4, 100}: median 3, quartiles 2 and 4 (positions 1 and 3), scale 2, fences
    // 2 − 6 = −4 and 4 + 6 = 10. 100 is far out (48.5 scales) but not extreme; 3000 is.
    void robustSpreadHandComputed() {
        const auto spread = robust_spread({100.0, 3.0, 1.0, 4.0, 2.0});
        QVERIFY(spread);
        QCOMPARE(spread->count, 5);
        QCOMPARE(spread->median, 3.0);
        QCOMPARE(spread->lower_quartile, 2.0);
        QCOMPARE(spread->upper_quartile, 4.0);
        QCOMPARE(spread->scale, 2.0);
        QVERIFY(spread->scale_is_interquartile_range());
        QCOMPARE(spread->lower_fence(), -4.0);
        QCOMPARE(spread->upper_fence(), 10.0);
        QVERIFY(spread->within_fences(10.0) && !spread->within_fences(10.5) && !spread->within_fences(100.0));
        QCOMPARE(spread->distance(100.0), 48.5);
        QVERIFY(!spread->extreme(100.0) && !spread->extreme(2003.0));
        QVERIFY(spread->extreme(2003.5) && spread->extreme(-1997.5));

        // One extreme value on each side moves neither quartile: {−1e308, 1, 2, 3, 1e308}.
        const auto both = robust_spread({-1e308, 1.0, 2.0, 3.0, 1e308});
        QVERIFY(both);
        QCOMPARE(both->median, 2.0);
        QCOMPARE(both->scale, 2.0);
        QVERIFY(both->extreme(1e308) && both->extreme(-1e308));
        QCOMPARE(both->distance(1e308), (1e308 - 2.0) / 2.0);

        // Fewer than 5 values: no spread (with 4, Q3 is a quarter of the way to the maximum).
        QVERIFY(!robust_spread({1.0, 2.0, 3.0, 1e308}));
        QVERIFY(!robust_spread({}));
        // Half or more equal: the scale is |median|; all zero: no scale.
        const auto flat = robust_spread({5.0, 5.0, 5.0, 5.0, 6.0});
        QVERIFY(flat);
        QCOMPARE(flat->scale, 5.0);
        QVERIFY(!flat->scale_is_interquartile_range());
        QVERIFY(!flat->extreme(6.0) && flat->extreme(5006.0));
        QVERIFY(!robust_spread({0.0, 0.0, 0.0, 0.0, 7.0}));
        // Quartiles ±1e308 apart: the scale overflows to inf, never NaN, and nothing is extreme.
        const auto wide = robust_spread({-1.7e308, -1.7e308, 0.0, 1.7e308, 1.7e308});
        QVERIFY(wide);
        QVERIFY(std::isinf(wide->scale));
        QCOMPARE(wide->distance(1.7e308), 0.0);
        QVERIFY(wide->within_fences(1.7e308) && !wide->extreme(-1.7e308));
    }

    // Needs 5 other trials that count; symmetric in the direction; excluded trials do not count.
    void extremeValueOfANewTrial() {
        Experiment e = with_values({12.0, 15.0, 11.0, 14.0, 13.0, 1e308});
        // The others: median 13, IQR 14 − 12 = 2; (1e308 − 13) / 2 scales.
        const auto extreme = find_extreme_value(e, 5);
        QVERIFY(extreme);
        QCOMPARE(extreme->trial, 5);
        QCOMPARE(extreme->metric, std::string("latency"));
        QCOMPARE(extreme->value, 1e308);
        QCOMPARE(extreme->median, 13.0);
        QCOMPARE(extreme->scale, 2.0);
        QCOMPARE(extreme->others, 5);
        QCOMPARE(extreme->distance, (1e308 - 13.0) / 2.0);
        const QString text = QString::fromStdString(describe(*extreme));
        QCOMPARE(text, QString("trial 5: latency = 1e+308 lies 5e+307 interquartile ranges (2) from the median (13) "
                               "of the other 5 trials"));
        // Ordinary values are not extreme, nor is 2013 (exactly 1e3 scales), but 2013.5 is.
        QVERIFY(!find_extreme_value(e, 0));
        e.trials[5].values["latency"].mean = 2013.0;
        QVERIFY(!find_extreme_value(e, 5));
        e.trials[5].values["latency"].mean = 2013.5;
        QVERIFY(find_extreme_value(e, 5));
        e.outcomes.objectives[0].minimize = true;
        QVERIFY(find_extreme_value(e, 5));
        e.trials[5].values["latency"].mean = -1e9;
        QVERIFY(find_extreme_value(e, 5));

        // With an excluded other, only 4 count: no rule. An excluded trial itself is not reported.
        e.trials[0].exclusion = TrialExclusion{"bad", ""};
        QVERIFY(!find_extreme_value(e, 5));
        e.trials[0].exclusion.reset();
        e.trials[5].exclusion = TrialExclusion{"bad", ""};
        QVERIFY(!find_extreme_value(e, 5));
        QVERIFY(!find_extreme_value(e, 42));

        // Most values equal: the scale is the median's size.
        const Experiment flat = with_values({5.0, 5.0, 5.0, 5.0, 5.0, 6.0, 1e9});
        QVERIFY(!find_extreme_value(flat, 5));
        const auto sentinel = find_extreme_value(flat, 6);
        QVERIFY(sentinel && !sentinel->scale_is_interquartile_range);
        QVERIFY(QString::fromStdString(describe(*sentinel)).endsWith("times the median's size from the median (5) "
                                                                           "of the other 6 trials, most of which are equal"));
    }

    // Every metric is checked against the other trials' values of that metric: an absurd value
    // of a tracked metric is reported under its name. A trial that did not measure the metric is
    // not one of the others.
    void extremeValueOfAnotherMetric() {
        Experiment e = with_values({12.0, 15.0, 11.0, 14.0, 13.0, 12.5});
        e.outcomes.metrics.push_back("p99_ms");
        const std::vector<double> p99 = {40.0, 41.0, 39.0, 42.0, 40.5, 1e9};
        for (std::size_t i = 0; i < p99.size(); ++i) e.trials[i].values["p99_ms"] = {p99[i], std::nullopt};
        QVERIFY(!e.validate());
        const auto extreme = find_extreme_value(e, 5);
        QVERIFY(extreme);
        QCOMPARE(extreme->metric, std::string("p99_ms"));
        QCOMPARE(extreme->value, 1e9);
        // The others sorted: 39, 40, 40.5, 41, 42: median 40.5, quartiles 40 and 41.
        QCOMPARE(extreme->median, 40.5);
        QCOMPARE(extreme->scale, 1.0);
        QCOMPARE(QString::fromStdString(describe(*extreme)),
                 QString("trial 5: p99_ms = 1e+09 lies 1e+09 interquartile ranges (1) from the median (40.5) of the other 5 "
                         "trials"));
        QVERIFY(!find_extreme_value(e, 3));
        e.trials[0].values.erase("p99_ms");
        QVERIFY(!find_extreme_value(e, 5));
    }

    void excludeAndIncludeATrial() {
        Experiment e = with_values({1.0, 2.0, 3.0});
        e.trials.push_back(e.trials.back());
        e.trials.back().index = 3;
        e.trials.back().status = TrialStatus::Failed;
        e.trials.back().values.clear();
        QCOMPARE(exclude_trial(e, 1, "  timeout reported as a value \n", "2026-01-02T03:04:05Z"), std::optional<std::string>());
        QVERIFY(e.trials[1].exclusion);
        QCOMPARE(QString::fromStdString(e.trials[1].exclusion->reason), QString("timeout reported as a value"));
        QCOMPARE(QString::fromStdString(e.trials[1].exclusion->at), QString("2026-01-02T03:04:05Z"));
        QCOMPARE(e.trials[1].value("latency"), std::optional<double>(2.0));  // the value is kept
        QVERIFY(!e.validate());
        // A new reason replaces the old one.
        QVERIFY(!exclude_trial(e, 1, "unit slip", ""));
        QCOMPARE(QString::fromStdString(e.trials[1].exclusion->reason), QString("unit slip"));

        const Experiment before = e;
        const auto refuse = [&](int trial, const std::string& reason, const char* fragment) {
            const auto error = exclude_trial(e, trial, reason, "");
            QVERIFY(error);
            QVERIFY2(QString::fromStdString(*error).contains(fragment), error->c_str());
            QCOMPARE(e.excluded_count(), before.excluded_count());
        };
        refuse(7, "x", "there is no trial 7");
        refuse(3, "x", "trial 3 is failed: only completed trials can be excluded");
        refuse(0, " \t", "the reason for excluding trial 0 is empty");

        QCOMPARE(include_trial(e, 1), std::optional<std::string>());
        QVERIFY(!e.trials[1].exclusion);
        QCOMPARE(include_trial(e, 0), std::optional<std::string>());  // not excluded: unchanged
        QVERIFY(include_trial(e, 9));
        // Experiment::validate refuses what a file must not hold.
        e.trials[3].exclusion = TrialExclusion{"x", ""};
        QVERIFY(e.validate() && e.validate()->find("trials[3].excluded: only a completed trial") == 0);
        e.trials[3].exclusion.reset();
        e.trials[0].exclusion = TrialExclusion{"", ""};
        QVERIFY(e.validate() && e.validate()->find("trials[0].excluded.reason") == 0);
    }
};

SEBO_TEST_MAIN(TestExtremeValues)
}  // namespace test_extreme_values
#include "test_extreme_values.moc"
