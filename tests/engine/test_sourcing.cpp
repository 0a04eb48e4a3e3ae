// The recommender sourcing simulation (paper appendix F.1): the generated world against its
// defining formulas, the alias sampler against its probabilities, the Monte Carlo quality
// score against the closed-form expectation E[RS] - 0.6 C, reproducibility per seed, and the
// shape of the trade-off (returns diminish, the best policies use a subset of the sources).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

#include "problems/alias_table.h"
#include "problems/problem_catalog.h"
#include "problems/random_stream.h"
#include "problems/sourcing.h"
#include "test_main.h"
#include "test_support.h"

namespace test_sourcing {

using namespace sebo;

namespace {

constexpr int S = SourcingWorld::kSources;

std::vector<double> only(int source, double count) {
    std::vector<double> x(S, 0.0);
    x[static_cast<std::size_t>(source)] = count;
    return x;
}

// Coordinate ascent on the exact expected quality, from the all-zero policy.
std::vector<double> best_policy(const SourcingProblem& problem) {
    std::vector<double> x(S, 0.0);
    double current = 0.0;
    for (bool improved = true; improved;) {
        improved = false;
        for (std::size_t s = 0; s < x.size(); ++s) {
            double best_count = x[s];
            for (int n = 0; n <= SourcingWorld::kMaxRetrievals; ++n) {
                x[s] = n;
                const double v = problem.expected_value(x);
                if (v > current + 1e-12) {
                    current = v;
                    best_count = n;
                    improved = true;
                }
            }
            x[s] = best_count;
        }
    }
    return x;
}

ProblemSpec sourcing_spec() {
    ProblemSpec spec;
    spec.name = "sourcing";
    return spec;
}

int active(const std::vector<double>& x) {
    return static_cast<int>(std::count_if(x.begin(), x.end(), [](double v) { return v != 0.0; }));
}

}  // namespace

class TestSourcing : public QObject {
    Q_OBJECT

private slots:
    void world_follows_its_definition() {
        const SourcingWorld w(0);
        QCOMPARE(w.seed, SourcingWorld::kDefaultSeed);
        QCOMPARE(int(w.source_topics.size()), 25);
        QCOMPARE(int(w.topic_items.size()), 8);
        QCOMPARE(int(w.item_relevance.size()), 1000);
        for (const auto& theta : w.source_topics)
            SEBO_COMPARE_NEAR(std::accumulate(theta.begin(), theta.end(), 0.0), 1.0, 1e-12);
        for (const auto& phi : w.topic_items)
            SEBO_COMPARE_NEAR(std::accumulate(phi.begin(), phi.end(), 0.0), 1.0, 1e-12);
        for (const auto& p : w.item_probability)
            SEBO_COMPARE_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-12);
        // m_k = Σ_t φ_tk Q_t, so Σ_k m_k = Σ_t Q_t, fixed at T e^0.25.
        const double total_q = std::accumulate(w.topic_relevance.begin(), w.topic_relevance.end(), 0.0);
        SEBO_COMPARE_NEAR(total_q, 8.0 * std::exp(0.25), 1e-12);
        SEBO_COMPARE_NEAR(std::accumulate(w.item_relevance.begin(), w.item_relevance.end(), 0.0), total_q, 1e-10);
        double m17 = 0.0;
        for (int t = 0; t < 8; ++t)
            m17 += w.topic_items[static_cast<std::size_t>(t)][17] * w.topic_relevance[static_cast<std::size_t>(t)];
        SEBO_COMPARE_NEAR(w.item_relevance[17], m17, 1e-15);
        // Costs: mean q_s / (2 Σ q) with a 10% relative spread, so within ±40% (4 sigma) of the
        // mean, and they sum to about 1/2.
        const double total_source = std::accumulate(w.source_relevance.begin(), w.source_relevance.end(), 0.0);
        double cost_total = 0.0;
        for (int s = 0; s < S; ++s) {
            double q = 0.0;
            for (int t = 0; t < 8; ++t)
                q += w.source_topics[static_cast<std::size_t>(s)][static_cast<std::size_t>(t)] *
                     w.topic_relevance[static_cast<std::size_t>(t)];
            SEBO_COMPARE_NEAR(w.source_relevance[static_cast<std::size_t>(s)], q, 1e-12);
            const double mean = q / (2.0 * total_source);
            const double ratio = w.cost_per_item[static_cast<std::size_t>(s)] / mean;
            QVERIFY2(ratio > 0.6 && ratio < 1.4, qPrintable(QString("source %1: cost/mean %2").arg(s).arg(ratio)));
            cost_total += w.cost_per_item[static_cast<std::size_t>(s)];
        }
        SEBO_COMPARE_NEAR(cost_total, 0.5, 0.1);
        // θ_s ~ Dir(0.2) over 8 topics is concentrated: on average the largest topic weight is
        // well above the uniform 1/8 (its expectation is about 0.6).
        double largest = 0.0;
        for (const auto& theta : w.source_topics) largest += *std::max_element(theta.begin(), theta.end()) / S;
        QVERIFY2(largest > 0.45, qPrintable(QString::number(largest)));
    }

    void alias_table_reproduces_its_weights() {
        const std::vector<double> weights = {1.0, 2.0, 3.0, 0.0, 4.0};
        const AliasTable table(weights);
        for (int i = 0; i < 5; ++i)
            SEBO_COMPARE_NEAR(table.probability(i), weights[static_cast<std::size_t>(i)] / 10.0, 1e-9);
        RandomStream rng(99);
        std::vector<int> counts(5, 0);
        const int n = 200000;
        for (int i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(table.sample(rng.next()))];
        QCOMPARE(counts[3], 0);
        for (int i = 0; i < 5; ++i) {
            const double p = weights[static_cast<std::size_t>(i)] / 10.0;
            const double sd = std::sqrt(n * p * (1 - p));
            QVERIFY(std::abs(counts[static_cast<std::size_t>(i)] - n * p) <= 5 * sd + 1e-9);
        }
        // The tables the simulation builds represent p_s exactly (up to 2^-32 per column).
        const SourcingWorld w(0);
        for (int s : {0, 12, 24}) {
            const AliasTable items(w.item_probability[static_cast<std::size_t>(s)]);
            for (int k = 0; k < 1000; k += 37)
                SEBO_COMPARE_NEAR(items.probability(k),
                                  w.item_probability[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)], 1e-9);
        }
    }

    void same_seed_same_value_different_seed_different_value() {
        const auto problem = make_problem(sourcing_spec());
        std::vector<double> x(S, 0.0);
        x[3] = 20;
        x[19] = 35;
        x[8] = 50;
        const Measurement a = problem->primary_measurement(x, 123);
        const Measurement b = problem->primary_measurement(x, 123);
        const Measurement c = problem->primary_measurement(x, 124);
        QCOMPARE(a.mean, b.mean);
        QCOMPARE(*a.sem, *b.sem);
        QVERIFY(a.mean != c.mean);
        QVERIFY(*a.sem > 0.0 && *c.sem > 0.0);
        // Two draws of the same mean: within 5 combined standard errors.
        QVERIFY(std::abs(a.mean - c.mean) < 5.0 * std::hypot(*a.sem, *c.sem));
        // A second problem object built from the same spec gives the same numbers.
        QCOMPARE(make_problem(sourcing_spec())->primary_measurement(x, 123).mean, a.mean);
    }

    void zero_policy_is_worth_exactly_zero() {
        const SourcingProblem problem(0, 1000);
        const Measurement v = problem.primary_measurement(std::vector<double>(S, 0.0), 5);
        QCOMPARE(v.mean, 0.0);
        QCOMPARE(*v.sem, 0.0);
        QCOMPARE(*problem.outcomes().objectives[0].threshold, 0.0);
        QCOMPARE(problem.expected_value(std::vector<double>(S, 0.0)), 0.0);
    }

    void monte_carlo_matches_closed_form_expectation() {
        const SourcingProblem problem(0, 1000);
        std::vector<std::vector<double>> policies = {only(19, 30), only(12, 50), std::vector<double>(S, 50.0),
                                                     best_policy(problem)};
        std::vector<double> mixed(S);
        for (int s = 0; s < S; ++s) mixed[static_cast<std::size_t>(s)] = (7 * s) % 51;
        policies.push_back(mixed);
        std::uint64_t seed = 1;
        for (const auto& x : policies) {
            const Measurement v = problem.primary_measurement(x, seed++);
            const double expected = problem.expected_value(x);
            QVERIFY2(std::abs(v.mean - expected) < 4.0 * *v.sem,
                     qPrintable(QString("MC %1 ± %2 vs exact %3").arg(v.mean).arg(*v.sem).arg(expected)));
        }
        // One repetition: no standard error.
        const SourcingProblem once(0, 1);
        QVERIFY(!once.primary_measurement(only(3, 10), 1).sem.has_value());
    }

    // The two parts of the quality score are metrics of their own (SPEC §10): relevance is the mean
    // of RS over the same simulations (so quality = relevance − 0.6 cost, and both have the same
    // standard error), cost is C exactly; the quality itself is unchanged by reporting them.
    void relevance_and_cost_are_metrics() {
        const SourcingProblem problem(0, 400);
        const Outcomes outcomes = problem.outcomes();
        QCOMPARE(outcomes.metrics, (std::vector<std::string>{"quality", "relevance", "cost"}));
        QCOMPARE(outcomes.objectives.size(), std::size_t{1});
        QCOMPARE(outcomes.objectives[0].metric, std::string("quality"));
        QVERIFY(outcomes.is_tracked("relevance") && outcomes.is_tracked("cost"));
        std::uint64_t seed = 11;
        for (const auto& x : {only(19, 30), best_policy(problem), std::vector<double>(S, 50.0)}) {
            const MetricValues values = problem.evaluate(x, seed);
            QCOMPARE(values.size(), std::size_t{3});
            QCOMPARE(values.at("quality").mean, problem.primary_measurement(x, seed).mean);
            QCOMPARE(values.at("cost").mean, problem.infrastructure_cost(x));
            QVERIFY(!values.at("cost").sem);
            const Measurement& relevance = values.at("relevance");
            SEBO_COMPARE_NEAR(values.at("quality").mean, relevance.mean - 0.6 * problem.infrastructure_cost(x), 1e-9);
            SEBO_COMPARE_NEAR(*values.at("quality").sem, *relevance.sem, 1e-9);
            // Against the closed form E[RS], independent of the simulation.
            const double expected = problem.expected_relevance(x);
            QVERIFY2(std::abs(relevance.mean - expected) < 4.0 * *relevance.sem,
                     qPrintable(QString("MC %1 ± %2 vs exact %3").arg(relevance.mean).arg(*relevance.sem).arg(expected)));
            ++seed;
        }
    }

    void cost_is_linear_in_the_retrieval_counts() {
        const SourcingProblem problem(0, 10);
        const auto& c = problem.world().cost_per_item;
        for (int s : {0, 7, 24})
            for (int n : {1, 13, 50})
                SEBO_COMPARE_NEAR(problem.infrastructure_cost(only(s, n)), n * c[static_cast<std::size_t>(s)], 1e-15);
        std::vector<double> a(S), b(S), sum(S);
        for (int s = 0; s < S; ++s) {
            a[static_cast<std::size_t>(s)] = s % 7;
            b[static_cast<std::size_t>(s)] = (3 * s) % 11;
            sum[static_cast<std::size_t>(s)] = a[static_cast<std::size_t>(s)] + b[static_cast<std::size_t>(s)];
        }
        SEBO_COMPARE_NEAR(problem.infrastructure_cost(sum),
                          problem.infrastructure_cost(a) + problem.infrastructure_cost(b), 1e-12);
        // The cost enters the score with weight 0.6: the score plus 0.6 C is a relevance sum,
        // between 0 and the total relevance of all items.
        const Measurement v = problem.primary_measurement(sum, 3);
        const double relevance = v.mean + 0.6 * problem.infrastructure_cost(sum);
        QVERIFY(relevance > 0.0 && relevance < 8.0 * std::exp(0.25));
        SEBO_COMPARE_NEAR(problem.expected_value(sum),
                          problem.expected_relevance(sum) - 0.6 * problem.infrastructure_cost(sum), 1e-12);
    }

    void returns_diminish_with_retrieval() {
        const SourcingProblem problem(0, 1000);
        // The best single source (its value alone at 50 retrievals): the value rises from 0 at
        // every step, but each retrieval adds less relevance than the one before (duplicates).
        int good = 0;
        for (int s = 1; s < S; ++s)
            if (problem.expected_value(only(s, 50)) > problem.expected_value(only(good, 50))) good = s;
        double previous_value = 0.0, previous_gain = INFINITY;
        for (int n = 1; n <= 50; ++n) {
            const double value = problem.expected_value(only(good, n));
            const double gain =
                problem.expected_relevance(only(good, n)) - problem.expected_relevance(only(good, n - 1));
            QVERIFY(value > previous_value);
            QVERIFY(gain < previous_gain);
            previous_value = value;
            previous_gain = gain;
        }
        // The Monte Carlo objective shows the same rise.
        const double v10 = problem.primary_measurement(only(good, 10), 1).mean, v50 = problem.primary_measurement(only(good, 50), 2).mean;
        QVERIFY(v10 > 0.0 && v50 > 3.0 * v10);

        // Sources on overlapping topics duplicate each other: retrieving n from each of the 16
        // best sources gains much less for the last 5 retrievals per source than the first 5.
        std::vector<int> order(S);
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return problem.expected_value(only(a, 50)) > problem.expected_value(only(b, 50));
        });
        auto top = [&](double n) {
            std::vector<double> x(S, 0.0);
            for (int i = 0; i < 16; ++i) x[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = n;
            return problem.expected_value(x);
        };
        const double first = top(5) - top(0), last = top(50) - top(45);
        QVERIFY2(last < 0.3 * first, qPrintable(QString("first %1, last %2").arg(first).arg(last)));

        // Up to a point: some source is worth retrieving from, but less at 50 than at its best
        // count in between (its cost overtakes its shrinking gains).
        bool peaked = false;
        for (int s = 0; s < S && !peaked; ++s) {
            int best_n = 0;
            double best = 0.0;
            for (int n = 1; n <= 50; ++n)
                if (problem.expected_value(only(s, n)) > best) {
                    best = problem.expected_value(only(s, n));
                    best_n = n;
                }
            peaked = best_n >= 5 && best_n <= 45 && problem.expected_value(only(s, 50)) < 0.8 * best;
        }
        QVERIFY(peaked);
    }

    void best_policies_use_a_subset_of_the_sources() {
        const SourcingProblem problem(0, 1000);
        const std::vector<double> best = best_policy(problem);
        const int k = active(best);
        QVERIFY2(k >= 5 && k <= 20, qPrintable(QString("%1 active sources").arg(k)));
        const std::vector<double> everything(S, 50.0);
        QVERIFY(problem.expected_value(best) > 1.0);
        QVERIFY(problem.expected_value(everything) < 0.0);
        // The simulated objective agrees, far beyond its noise.
        const Measurement at_best = problem.primary_measurement(best, 1), at_all = problem.primary_measurement(everything, 1);
        QVERIFY(at_best.mean - at_all.mean > 20.0 * std::hypot(*at_best.sem, *at_all.sem));
        // A handful of sources already captures a good part of the value: the 3 best sources
        // of that policy on their own.
        std::vector<int> on;
        for (int s = 0; s < S; ++s)
            if (best[static_cast<std::size_t>(s)] != 0.0) on.push_back(s);
        std::sort(on.begin(), on.end(), [&](int a, int b) {
            return problem.expected_value(only(a, best[static_cast<std::size_t>(a)])) >
                   problem.expected_value(only(b, best[static_cast<std::size_t>(b)]));
        });
        std::vector<double> few(S, 0.0);
        for (int i = 0; i < 3; ++i)
            few[static_cast<std::size_t>(on[static_cast<std::size_t>(i)])] =
                best[static_cast<std::size_t>(on[static_cast<std::size_t>(i)])];
        QVERIFY(problem.expected_value(few) > 0.25 * problem.expected_value(best));
    }

    // Appendix G scores a source by q_s − 4 c_s and finds that high scores get the most
    // retrievals. Under appendix F.1's formulas as read here (sourcing.cpp, notes 2 and 4) it is
    // the reverse: an item's value barely depends on its source's q_s while its cost grows with
    // it, so in the default world the best policy retrieves nothing from the ten best-scored
    // sources and the maximum from the ten worst-scored (docs/method.md, departures).
    void appendix_g_ranking_is_reversed() {
        const SourcingProblem problem(0, 1000);
        const SourcingWorld& w = problem.world();
        const std::vector<double> best = best_policy(problem);
        std::vector<int> by_score(S);
        std::iota(by_score.begin(), by_score.end(), 0);
        const auto score = [&](int s) {
            return w.source_relevance[static_cast<std::size_t>(s)] - 4.0 * w.cost_per_item[static_cast<std::size_t>(s)];
        };
        std::sort(by_score.begin(), by_score.end(), [&](int a, int b) { return score(a) < score(b); });
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(best[static_cast<std::size_t>(by_score[static_cast<std::size_t>(i)])], double(SourcingWorld::kMaxRetrievals));
            QCOMPARE(best[static_cast<std::size_t>(by_score[static_cast<std::size_t>(S - 1 - i)])], 0.0);
        }
    }

    void world_seed_changes_the_world() {
        const SourcingProblem a(0, 200), b(SourcingWorld::kDefaultSeed, 200), c(7, 200);
        QCOMPARE(a.world().topic_relevance, b.world().topic_relevance);
        QVERIFY(a.world().topic_relevance != c.world().topic_relevance);
        QVERIFY(a.world().cost_per_item != c.world().cost_per_item);
        QCOMPARE(c.world().seed, std::uint64_t{7});
        std::vector<double> x(S, 10.0);
        QCOMPARE(a.primary_measurement(x, 4).mean, b.primary_measurement(x, 4).mean);
        QVERIFY(std::abs(a.primary_measurement(x, 4).mean - c.primary_measurement(x, 4).mean) > 10.0 * *a.primary_measurement(x, 4).sem);

        ProblemSpec spec = sourcing_spec();
        spec.world_seed = 7;
        spec.repetitions = 200;
        QCOMPARE(make_problem(spec)->primary_measurement(x, 4).mean, c.primary_measurement(x, 4).mean);
    }

    void concurrent_evaluations_agree_with_sequential_ones() {
        const SourcingProblem problem(0, 300);
        std::vector<double> x(S, 0.0);
        for (int s = 0; s < S; s += 2) x[static_cast<std::size_t>(s)] = 2 + 2 * s;
        std::vector<double> sequential(8), parallel(8);
        for (int i = 0; i < 8; ++i)
            sequential[static_cast<std::size_t>(i)] = problem.primary_measurement(x, static_cast<std::uint64_t>(i)).mean;
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = t; i < 8; i += 4)
                    parallel[static_cast<std::size_t>(i)] = problem.primary_measurement(x, static_cast<std::uint64_t>(i)).mean;
            });
        for (auto& thread : threads) thread.join();
        QCOMPARE(parallel, sequential);
    }
};

SEBO_TEST_MAIN(TestSourcing)
}  // namespace test_sourcing
#include "test_sourcing.moc"
