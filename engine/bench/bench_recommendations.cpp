#include "bench/bench_recommendations.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/csv_cell.h"
#include "io/csv_table.h"
#include "io/file_io.h"

namespace sebo {

namespace {

constexpr const char* kCacheFormat = "sebo-bench-recommendations";
constexpr int kCacheVersion = 1;

using Json = nlohmann::ordered_json;

std::string join_numbers(const std::vector<double>& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ";" : "") + format_number(values[i]);
    return out;
}

std::string fingerprint_text(std::uint64_t fingerprint) {
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, fingerprint);
    return text;
}

int finished_trials(const Experiment& experiment) {
    int n = 0;
    for (const Trial& t : experiment.trials) n += t.status != TrialStatus::Pending;
    return n;
}

Json cache_json(std::uint64_t fingerprint, int trials, const RunRecommendations& run) {
    Json rows = Json::array();
    for (const BenchRecommendation& r : run.rows)
        rows.push_back({{"k", r.k},
                        {"trial", r.trial},
                        {"active", r.active},
                        {"mean", r.mean},
                        {"lower", r.lower},
                        {"upper", r.upper},
                        {"p_better_than_status_quo", r.p_better_than_status_quo},
                        {"noise_free", r.noise_free}});
    return Json{{"format", kCacheFormat},
                {"version", kCacheVersion},
                {"run_fingerprint", fingerprint_text(fingerprint)},
                {"trials", trials},
                {"status", run.source == RunRecommendations::Source::Failed ? "failed" : "ok"},
                {"message", run.message},
                {"rows", std::move(rows)}};
}

// The cached recommendations when the cache was made from this run text and is whole; otherwise
// unset (the cache is rebuilt).
std::optional<RunRecommendations> read_cache(const std::string& path, std::uint64_t fingerprint, const Experiment& experiment,
                                             const BenchRunInfo& info) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
    try {
        const Json j = Json::parse(read_text_file(path));
        if (j.at("format") != kCacheFormat || j.at("version") != kCacheVersion ||
            j.at("run_fingerprint") != fingerprint_text(fingerprint) ||
            j.at("trials").get<int>() != finished_trials(experiment))
            return std::nullopt;
        RunRecommendations out;
        const std::string status = j.at("status").get<std::string>();
        if (status != "ok" && status != "failed") return std::nullopt;
        out.source = status == "ok" ? RunRecommendations::Source::Cache : RunRecommendations::Source::Failed;
        out.message = j.at("message").get<std::string>();
        const std::size_t objectives = experiment.outcomes.objectives.size();
        for (const Json& row : j.at("rows")) {
            BenchRecommendation r;
            r.problem = info.problem;
            r.strategy = info.strategy;
            r.seed = info.seed;
            r.trials = finished_trials(experiment);
            r.k = row.at("k").get<int>();
            r.trial = row.at("trial").get<int>();
            r.active = row.at("active").get<int>();
            r.mean = row.at("mean").get<std::vector<double>>();
            r.lower = row.at("lower").get<std::vector<double>>();
            r.upper = row.at("upper").get<std::vector<double>>();
            r.p_better_than_status_quo = row.at("p_better_than_status_quo").get<std::vector<double>>();
            r.noise_free = row.at("noise_free").get<std::vector<double>>();
            const auto whole = [&](const std::vector<double>& v, bool may_be_empty) {
                return v.size() == objectives || (may_be_empty && v.empty());
            };
            if (r.k < 0 || r.active < 0 || r.active > r.k || !experiment.find_trial(r.trial) || !whole(r.mean, false) ||
                !whole(r.lower, false) || !whole(r.upper, false) || !whole(r.p_better_than_status_quo, true) ||
                !whole(r.noise_free, true))
                return std::nullopt;
            out.rows.push_back(std::move(r));
        }
        return out;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    } catch (const InputError&) {  // read_text_file: unreadable
        return std::nullopt;
    }
}

}  // namespace

std::vector<BenchRecommendation> bench_recommendations(const Experiment& experiment, const RecommendationReport& report,
                                                       const BenchRunInfo& info) {
    std::vector<BenchRecommendation> rows;
    const int trials = finished_trials(experiment);
    for (const RecommendationReport::Level& level : report.levels)
        for (std::size_t position : level.recommended) {
            const ConfigurationEstimate& c = report.configurations[position];
            BenchRecommendation r;
            r.problem = info.problem;
            r.strategy = info.strategy;
            r.seed = info.seed;
            r.trials = trials;
            r.k = level.k;
            r.trial = c.trial();
            r.active = c.sparsity;
            const Trial* trial = experiment.find_trial(c.trial());
            for (const Objective& o : experiment.outcomes.objectives) {
                const MetricEstimate& e = c.estimates.at(o.metric);
                r.mean.push_back(e.mean);
                r.lower.push_back(e.lower);
                r.upper.push_back(e.upper);
                if (const auto p = c.p_better_than_status_quo.find(o.metric); p != c.p_better_than_status_quo.end())
                    r.p_better_than_status_quo.push_back(p->second);
                if (const auto v = trial->noise_free.find(o.metric); v != trial->noise_free.end())
                    r.noise_free.push_back(v->second);
            }
            // Per objective or not at all: a value missing for one objective leaves the cell empty.
            if (r.p_better_than_status_quo.size() != r.mean.size()) r.p_better_than_status_quo.clear();
            if (r.noise_free.size() != r.mean.size()) r.noise_free.clear();
            rows.push_back(std::move(r));
        }
    return rows;
}

std::string format_bench_recommendations(const std::vector<BenchRecommendation>& rows) {
    std::string out = "problem,strategy,seed,trials,k,trial,active,mean,lower,upper,p_better_than_status_quo,noise_free\n";
    for (const BenchRecommendation& r : rows)
        out += csv_text_cell(r.problem) + "," + csv_text_cell(r.strategy) + "," + std::to_string(r.seed) + "," +
               std::to_string(r.trials) + "," + std::to_string(r.k) + "," + std::to_string(r.trial) + "," +
               std::to_string(r.active) + "," + join_numbers(r.mean) + "," + join_numbers(r.lower) + "," +
               join_numbers(r.upper) + "," + join_numbers(r.p_better_than_status_quo) + "," + join_numbers(r.noise_free) +
               "\n";
    return out;
}

std::uint64_t run_text_fingerprint(const std::string& text) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::string recommendations_cache_path(const std::string& run_path) {
    const std::string suffix = ".sebo.json";
    const bool named = run_path.size() > suffix.size() && run_path.ends_with(suffix);
    return (named ? run_path.substr(0, run_path.size() - suffix.size()) : run_path) + ".recommendations.json";
}

RunRecommendations run_recommendations(const std::string& run_path, const std::string& run_text,
                                       const Experiment& experiment, const BenchRunInfo& info, const StepControl& control) {
    const std::string cache = recommendations_cache_path(run_path);
    const std::uint64_t fingerprint = run_text_fingerprint(run_text);
    if (auto cached = read_cache(cache, fingerprint, experiment, info)) return std::move(*cached);

    RunRecommendations out;
    const RecommendationReport report = recommend_configurations(experiment, control);
    switch (report.status) {
    case RecommendationReport::Status::Cancelled:
        out.source = RunRecommendations::Source::Cancelled;
        return out;
    case RecommendationReport::Status::Failed:
        out.source = RunRecommendations::Source::Failed;
        out.message = report.message;
        break;
    case RecommendationReport::Status::Ok:
        out.source = RunRecommendations::Source::Fitted;
        out.rows = bench_recommendations(experiment, report, info);
        break;
    }
    write_file_atomic(cache, cache_json(fingerprint, finished_trials(experiment), out).dump() + "\n");
    return out;
}

}  // namespace sebo
