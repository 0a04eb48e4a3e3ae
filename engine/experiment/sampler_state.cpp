#include "experiment/sampler_state.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cmath>
#include <cstring>
#include <set>
#include <unordered_map>

#include "core/format.h"

namespace sebo {

std::optional<std::string> MetricSamplerState::validate(int inputs, const std::string& path) const {
    const auto at = [&path](const std::string& field) { return path + "." + field; };
    std::set<int> seen;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const std::string where = at("trials[" + std::to_string(i) + "]");
        if (trials[i] < 0) return where + ": " + std::to_string(trials[i]) + " is negative";
        if (!seen.insert(trials[i]).second) return where + ": trial " + std::to_string(trials[i]) + " is listed twice";
    }
    if (!(step_size > 0.0 && step_size <= 1e7)) return at("step_size") + ": " + format_number(step_size) + " is not in (0, 1e7]";
    if (positions.empty()) return at("positions") + ": at least one chain position is needed";
    if (positions.size() > static_cast<std::size_t>(kMaxChains))
        return at("positions") + ": " + std::to_string(positions.size()) + " chains; at most " + std::to_string(kMaxChains);
    const auto d = positions.front().size();
    if (d != static_cast<std::size_t>(inputs + 3) && d != static_cast<std::size_t>(inputs + 4))
        return at("positions[0]") + ": " + std::to_string(d) + " coordinates; a SAAS model of " + std::to_string(inputs) +
               " inputs has " + std::to_string(inputs + 3) + " or " + std::to_string(inputs + 4);
    for (std::size_t c = 0; c < positions.size(); ++c) {
        const std::string where = at("positions[" + std::to_string(c) + "]");
        if (positions[c].size() != d)
            return where + ": " + std::to_string(positions[c].size()) + " coordinates, positions[0] has " + std::to_string(d);
        for (std::size_t i = 0; i < d; ++i)
            if (!std::isfinite(positions[c][i]))
                return where + "[" + std::to_string(i) + "]: " + format_number(positions[c][i]) + " is not finite";
    }
    const std::size_t expected = dense_metric ? d * d : d;
    if (inverse_metric.size() != expected)
        return at("inverse_metric") + ": " + std::to_string(inverse_metric.size()) + " values; a " +
               (dense_metric ? "dense" : "diagonal") + " metric of " + std::to_string(d) + " coordinates has " +
               std::to_string(expected);
    for (std::size_t k = 0; k < inverse_metric.size(); ++k)
        if (!std::isfinite(inverse_metric[k]))
            return at("inverse_metric[" + std::to_string(k) + "]") + ": " + format_number(inverse_metric[k]) + " is not finite";
    const auto n = static_cast<Eigen::Index>(d);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(dense_metric ? i * n + i : i);
        if (!(inverse_metric[k] > 0.0))
            return at("inverse_metric[" + std::to_string(k) + "]") + ": the variance " + format_number(inverse_metric[k]) +
                   " is not positive";
    }
    if (dense_metric) {
        using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        const Eigen::Map<const RowMajor> matrix(inverse_metric.data(), n, n);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < i; ++j)
                if (matrix(i, j) != matrix(j, i))
                    return at("inverse_metric[" + std::to_string(i * n + j) + "]") + ": the matrix is not symmetric (" +
                           format_number(matrix(i, j)) + " against " + format_number(matrix(j, i)) + ")";
        if (Eigen::LLT<Eigen::MatrixXd>(Eigen::MatrixXd(matrix)).info() != Eigen::Success)
            return at("inverse_metric") + ": the matrix is not positive definite";
    }
    return std::nullopt;
}

const MetricSamplerState* SamplerState::find(const std::string& metric) const {
    for (const MetricSamplerState& s : metrics)
        if (s.metric == metric) return &s;
    return nullptr;
}

std::optional<std::string> SamplerState::validate(int inputs) const {
    std::set<std::string> seen;
    for (const MetricSamplerState& s : metrics) {
        if (s.metric.empty()) return std::string("sampler_states: a state without a metric name");
        const std::string path = "sampler_states." + s.metric;
        if (!seen.insert(s.metric).second) return path + ": the metric has two states";
        if (auto error = s.validate(inputs, path)) return error;
    }
    return std::nullopt;
}

namespace {

class Fnv1a {
public:
    void add(const void* bytes, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(bytes);
        for (std::size_t i = 0; i < size; ++i) {
            hash_ ^= p[i];
            hash_ *= 0x100000001b3ull;
        }
    }
    void add(double x) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &x, sizeof bits);
        add_bits(bits);
    }
    void add_bits(std::uint64_t bits) {
        unsigned char bytes[8];
        for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(bits >> (8 * i));  // little-endian on every host
        add(bytes, sizeof bytes);
    }
    std::uint64_t value() const { return hash_; }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::optional<std::uint64_t> data_fingerprint(const std::vector<Trial>& trials, const Objective& objective,
                                              const std::vector<int>& indices) {
    std::unordered_map<int, const Trial*> by_index;
    for (const Trial& t : trials) by_index.emplace(t.index, &t);
    Fnv1a hash;
    for (const int index : indices) {
        const auto found = by_index.find(index);
        if (found == by_index.end()) return std::nullopt;
        const Trial& t = *found->second;
        // An excluded trial is no longer in the model's data (experiment/trial.h).
        const Measurement* m = t.measurement(objective.metric);
        if (t.status != TrialStatus::Completed || !m || t.exclusion) return std::nullopt;
        hash.add_bits(static_cast<std::uint64_t>(static_cast<std::int64_t>(index)));
        for (const double x : t.parameters) hash.add(x);
        hash.add(objective.to_utility(m->mean));
        hash.add_bits(m->sem ? 1 : 0);
        if (m->sem) hash.add(*m->sem);
    }
    return hash.value();
}

Objective modelled_sign(const Outcomes& outcomes, const std::string& metric) {
    if (const Objective* objective = outcomes.objective_on(metric)) return *objective;
    return Objective{metric, false, std::nullopt};
}

}  // namespace sebo
