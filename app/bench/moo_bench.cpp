#include "moo_bench.h"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>

#include "acquisition/multi_ehvi.h"
#include "acquisition/sparse_ehvi.h"
#include "model/ensemble_posterior.h"
#include "model/surrogate.h"
#include "pareto/hypervolume_nd.h"
#include "pareto/sparse_hypervolume.h"

namespace sebo_bench {

namespace {

constexpr int kSamples = 16;  // the paper's SAAS ensemble

// k mutually non-dominated points of m objectives on the positive part of the unit sphere, so that
// every point is on the front (the largest decomposition for k points).
std::vector<std::vector<double>> sphere_front(int k, int m, std::mt19937_64& rng) {
    std::normal_distribution<double> normal;
    std::vector<std::vector<double>> front;
    while (static_cast<int>(front.size()) < k) {
        std::vector<double> p(static_cast<std::size_t>(m));
        double norm = 0.0;
        for (double& x : p) {
            x = std::abs(normal(rng));
            norm += x * x;
        }
        for (double& x : p) x /= std::sqrt(norm);
        front.push_back(std::move(p));
    }
    return front;
}

// 64 sets of per-objective moments (16 samples each) around the front, cycled through by the loop.
std::vector<std::vector<sebo::MixtureMoments>> moment_sets(int m, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> mean(0.0, 1.0), sd(0.05, 0.4);
    std::vector<std::vector<sebo::MixtureMoments>> sets(64);
    for (auto& set : sets)
        for (int d = 0; d < m; ++d) {
            sebo::MixtureMoments mm;
            mm.mean.resize(kSamples);
            mm.var.resize(kSamples);
            for (int s = 0; s < kSamples; ++s) {
                mm.mean[s] = mean(rng);
                mm.var[s] = std::pow(sd(rng), 2);
            }
            set.push_back(std::move(mm));
        }
    return sets;
}

// Seconds per call of `work` (wall and CPU), from `calls` calls per repetition.
template <class Work>
Figure time_per_call(const std::string& name, int n, int m, int calls, int repetitions, Work work) {
    Figure f{name, n, m, {}, {}, {}};
    for (int r = 0; r < repetitions; ++r) {
        const Stopwatch watch;
        for (int i = 0; i < calls; ++i) work(i);
        f.seconds.push_back(watch.wall() / calls);
        f.cpu_seconds.push_back(watch.cpu() / calls);
    }
    return f;
}

void print(const Figure& f) {
    const auto [lo, hi] = std::minmax_element(f.seconds.begin(), f.seconds.end());
    std::printf("%-22s %5d %3d %11.1f %11.1f %11.1f %11.1f  %s\n", f.benchmark.c_str(), f.n, f.dimension,
                1e6 * median(f.seconds), 1e6 * *lo, 1e6 * *hi, 1e6 * median(f.cpu_seconds), f.detail.c_str());
    std::fflush(stdout);
}

volatile double sink = 0.0;  // keeps the timed results alive

void ehvi_rows(const MooBenchOptions& options, std::vector<Figure>& figures) {
    std::mt19937_64 rng(options.seed);
    for (const int m : {2, 3, 4})
        for (const int k : {5, 20, 50}) {
            const auto front = sphere_front(k, m, rng);
            const auto sets = moment_sets(m, rng);
            const sebo::MultiEhvi ehvi(front, std::vector<double>(static_cast<std::size_t>(m), 0.0));
            const int calls = m == 2 ? 2000 : 200;
            std::vector<sebo::MixtureGradient> gradient;
            Figure f =
                time_per_call("ehvi-" + std::to_string(m) + "d+grad", k, m, calls, options.repetitions, [&](int i) {
                    sink = sink + ehvi.log_ehvi(sets[static_cast<std::size_t>(i) % sets.size()], &gradient);
                });
            f.detail = std::to_string(ehvi.boxes().size()) + " boxes, S = 16 per objective";
            print(f);
            figures.push_back(std::move(f));
            if (m == 2) {
                Figure v = time_per_call("ehvi-2d", k, m, calls, options.repetitions, [&](int i) {
                    sink = sink + ehvi.log_ehvi(sets[static_cast<std::size_t>(i) % sets.size()], nullptr);
                });
                v.detail = "value only";
                print(v);
                figures.push_back(std::move(v));
            }
        }

    // SEBO's sparse form with two objectives: n observations, ξ an active count in 0..D = 50 (most
    // of them dominated, as in a run), against the one-objective closed form on the first objective.
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uniform_int_distribution<int> active(0, 50);
    for (const int n : {20, 100}) {
        std::vector<sebo::SparseMultiEhvi::Observation> observed;
        std::vector<std::pair<double, double>> single;
        for (int i = 0; i < n; ++i) {
            const double xi = active(rng);
            // Sparser observations are worse on average: the trade-off SEBO explores.
            const double scale = 0.3 + 0.7 * xi / 50.0;
            const double f1 = scale * u(rng), f2 = scale * u(rng);
            observed.push_back({{f1, f2}, xi});
            single.emplace_back(f1, xi);
        }
        const sebo::SparseMultiEhvi sparse(observed, {0.0, 0.0}, 50.0);
        const sebo::SparseEhviFront one(single, 0.0, 50.0);
        const auto sets = moment_sets(2, rng);
        std::size_t boxes = 0;
        for (const auto& strip : sparse.strips()) boxes += strip.front.size() + 1;
        std::vector<sebo::MixtureGradient> gradient;
        double dxi = 0.0;
        Figure f = time_per_call("sparse-ehvi-2d+grad", n, 2, 2000, options.repetitions, [&](int i) {
            sink = sink + sparse.log_ehvi(sets[static_cast<std::size_t>(i) % sets.size()], 2.5, &gradient, &dxi);
        });
        f.detail =
            std::to_string(sparse.strips().size()) + " strips, " + std::to_string(boxes) + " boxes, ξ = 2.5, S = 16";
        print(f);
        figures.push_back(std::move(f));
        Eigen::VectorXd dmean, dvar;
        Figure g = time_per_call("sparse-ehvi-1d+grad", n, 1, 2000, options.repetitions, [&](int i) {
            const auto& mm = sets[static_cast<std::size_t>(i) % sets.size()][0];
            sink = sink + one.log_ehvi(mm.mean, mm.var, 2.5, &dmean, &dvar, &dxi);
        });
        g.detail = std::to_string(one.strips().size()) + " strips, SparseEhviFront (today's m = 1 code)";
        print(g);
        figures.push_back(std::move(g));
    }
}

// For scale: the posterior moments and input gradients of one 16-sample model at a point, what
// every acquisition evaluation pays per modelled metric (n = 100 random points in D = 50, 16
// hyperparameter sets of SAAS-like lengthscales: a few short, most long).
void posterior_row(const MooBenchOptions& options, std::vector<Figure>& figures) {
    std::mt19937_64 rng(options.seed + 2);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const int n = 100, dimension = 50;
    auto data = std::make_shared<sebo::TrainingData>();
    data->inputs = Eigen::MatrixXd::NullaryExpr(n, dimension, [&] { return u(rng); });
    data->targets = Eigen::VectorXd::NullaryExpr(n, [&] { return 2.0 * u(rng) - 1.0; });
    std::vector<sebo::GpHyperparameters> samples(kSamples);
    for (auto& h : samples) {
        h.inverse_squared_lengthscales = Eigen::VectorXd::NullaryExpr(dimension, [&] { return 1e-3 * u(rng); });
        h.inverse_squared_lengthscales.head(3).setConstant(2.0 + u(rng));
        h.output_scale = 1.0 + u(rng);
        h.noise = 1e-3;
    }
    const sebo::EnsemblePosteriorView view(std::make_shared<const sebo::EnsemblePosterior>(data, samples));
    std::vector<Eigen::VectorXd> points(64);
    for (auto& x : points) x = Eigen::VectorXd::NullaryExpr(dimension, [&] { return u(rng); });
    Eigen::VectorXd mean, var;
    Eigen::MatrixXd dmean, dvar;
    Figure f = time_per_call("posterior-moments+grad", n, dimension, 500, options.repetitions, [&](int i) {
        view.moments(points[static_cast<std::size_t>(i) % points.size()], mean, var, &dmean, &dvar);
        sink = sink + mean[0];
    });
    f.detail = "one 16-sample model, n = 100, D = 50 (the m column is D here)";
    print(f);
    figures.push_back(std::move(f));
}

void hypervolume_rows(const MooBenchOptions& options, std::vector<Figure>& figures) {
    std::mt19937_64 rng(options.seed + 1);
    for (const int m : {2, 3, 4})
        for (const int n : {100, 1000}) {
            const auto front = sphere_front(n, m, rng);  // all non-dominated: the worst case
            const std::vector<double> reference(static_cast<std::size_t>(m), 0.0);
            const int calls = m == 4 && n == 1000 ? 1 : (m == 4 ? 20 : 200);
            Figure f = time_per_call("hypervolume-" + std::to_string(m) + "d", n, m, calls, options.repetitions,
                                     [&](int) { sink = sink + sebo::hypervolume_nd(front, reference); });
            f.detail = "all points non-dominated";
            print(f);
            figures.push_back(std::move(f));
        }
    // The trace of a run's worth of trials: (f1, f2, active count), n = 1000, D = 50.
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uniform_int_distribution<int> active(0, 50);
    std::vector<sebo::ObjectivePoint> trials;
    for (int i = 0; i < 1000; ++i) trials.push_back({{u(rng), u(rng)}, active(rng), i});
    Figure f = time_per_call("hypervolume-trace-2d", 1000, 2, 5, options.repetitions, [&](int) {
        sink = sink + sebo::hypervolume_trace(trials, {{0.0, 0.0}, 50}).back();
    });
    f.detail = "per trace (1000 prefixes), sparsity 0..50";
    print(f);
    figures.push_back(std::move(f));
}

}  // namespace

std::vector<Figure> run_moo_benchmarks(const MooBenchOptions& options) {
    std::vector<Figure> figures;
    if (!options.ehvi && !options.hypervolume) return figures;
    std::printf(
        "# multi-objective: microseconds per call (median, min, max wall clock; cpu_us = median CPU);\n"
        "# n = front size, observations or points, m = objectives\n");
    std::printf("%-22s %5s %3s %11s %11s %11s %11s  %s\n", "benchmark", "n", "m", "median_us", "min_us", "max_us",
                "cpu_us", "work");
    if (options.ehvi) {
        ehvi_rows(options, figures);
        posterior_row(options, figures);
    }
    if (options.hypervolume) hypervolume_rows(options, figures);
    return figures;
}

}  // namespace sebo_bench
