#pragma once
// The recommender sourcing simulation of the paper's appendix F.1 ("Ranking sourcing system
// simulation", Algorithm "Recsys Simulation"): S = 25 content sources, K = 1000 items and
// T = 8 latent topics in an LDA-like generative model. A policy x in {0..50}^25 retrieves x_s
// items from source s; the quality score of one simulation is
//     Q = RS - 0.6 C,   RS = sum over distinct retrieved items k of m_k,   C = sum_s c_s x_s,
// and the objective is the mean of Q over repeated simulations, with its standard error.
// The two parts are metrics of their own (SPEC §10): "relevance" (the mean of RS, with its
// standard error) and "cost" (C, deterministic), so that the problem can also run with both as
// objectives, or as "maximize relevance subject to cost <= budget".
//
// The world (topic mixtures, relevances, costs) is drawn once from a world seed; the
// simulations draw from a noise seed, so a value is a deterministic function of
// (x, noise seed, world seed). See sourcing.cpp for how each ambiguity of the paper's text
// was resolved.

#include <array>
#include <cstdint>
#include <vector>

#include "problems/alias_table.h"
#include "problems/problem.h"

namespace sebo {

struct SourcingWorld {
    static constexpr int kSources = 25;         // S
    static constexpr int kItems = 1000;         // K
    static constexpr int kTopics = 8;           // T
    static constexpr int kMaxRetrievals = 50;   // x_s in [0, 50]
    static constexpr double kCostWeight = 0.6;  // Q = RS - 0.6 C
    // The world used when the spec leaves the seed at 0 (the AISTATS 2023 opening day).
    static constexpr std::uint64_t kDefaultSeed = 20230425;

    // Generates the world; seed 0 means kDefaultSeed.
    explicit SourcingWorld(std::uint64_t seed);

    std::uint64_t seed = 0;                                  // the resolved seed
    std::vector<std::array<double, kTopics>> source_topics;  // theta_s ~ Dir(0.2), S rows
    std::vector<std::vector<double>> topic_items;            // phi_t ~ Dir(0.5), T rows of K
    std::vector<double> topic_relevance;                     // Q_t, T (sum fixed, see sourcing.cpp)
    std::vector<double> item_relevance;                      // m_k = sum_t phi_{t,k} Q_t, K
    std::vector<double> source_relevance;                    // q_s = sum_t theta_{s,t} Q_t, S
    std::vector<double> cost_per_item;                       // c_s, S
    // p_s(k) = sum_t theta_{s,t} phi_{t,k}: one retrieval from source s returns item k with
    // this probability (the topic draw of Algorithm "Item-retrieval" marginalized out). S rows.
    std::vector<std::vector<double>> item_probability;
};

class SourcingProblem final : public Problem {
public:
    static constexpr int kDefaultRepetitions = 1000;  // paper F.1: 1000 simulations per policy

    // world_seed 0: SourcingWorld::kDefaultSeed. repetitions >= 1. target_count in [0, 50]:
    // the retrieval count every source is compared with for sparsity (the paper uses 0).
    SourcingProblem(std::uint64_t world_seed, int repetitions, int target_count = 0);

    static constexpr const char* kQuality = "quality";
    static constexpr const char* kRelevance = "relevance";
    static constexpr const char* kCost = "cost";

    const SearchSpace& space() const override { return space_; }
    // Metrics quality, relevance and cost; by default quality is maximized, with the expected
    // quality of the target policy as threshold (0 for the paper's all-zero target), and the
    // other two are tracked.
    Outcomes outcomes() const override;
    // Mean quality score and mean relevance over `repetitions` simulations, with their standard
    // errors (unset when repetitions == 1), and the cost. x: integer counts in [0, 50] (asserted;
    // ProblemEvaluator checks).
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;

    const SourcingWorld& world() const { return world_; }
    int repetitions() const { return repetitions_; }

    // C = sum_s c_s x_s: the infrastructure load of a policy (deterministic, linear in x).
    double infrastructure_cost(const std::vector<double>& x) const;
    // E[RS] in closed form: item k is missed by all retrievals with probability
    // prod_s (1 - p_s(k))^{x_s}, so E[RS] = sum_k m_k (1 - prod_s (1 - p_s(k))^{x_s}).
    double expected_relevance(const std::vector<double>& x) const;
    // E[Q] = E[RS] - 0.6 C: what the simulation estimates (exact; for tests and analysis).
    double expected_value(const std::vector<double>& x) const;
    // quality E[Q], relevance E[RS] and the cost, in closed form.
    std::map<std::string, double> noise_free_values(const std::vector<double>& x) const override;
    bool noisy() const override { return true; }

private:
    SourcingWorld world_;
    int repetitions_;
    SearchSpace space_;
    std::vector<AliasTable> samplers_;             // one per source, over the K items
    std::vector<std::vector<double>> log_missed_;  // log(1 - p_s(k)), S rows of K
};

}  // namespace sebo
