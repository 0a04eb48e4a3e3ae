#include "flops_bench.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "model/likelihood_kernel.h"
#include "model/likelihood_work.h"
#include "model/marginal_likelihood.h"
#include "model/saas_prior.h"
#include "peak_kernels.h"

namespace sebo_bench {

namespace {

namespace kernel = sebo::likelihood_kernel;

volatile double sink = 0.0;  // keeps the timed results alive

// Seconds per call of each work: calls grouped into blocks of about a millisecond (a call of a
// few microseconds is too short to time alone), the works' blocks taken in turn (so that works
// compared with each other see the same conditions) for about `budget` seconds in all, 21 rounds
// at least. Each figure holds its blocks' wall-clock and CPU seconds per call; the median is the
// one reported, so that blocks in which another process ran do not move it.
struct Work {
    std::string name;
    std::function<void()> call;
};

std::vector<Figure> time_in_turn(const std::vector<Work>& works, int n, int dimension, double budget) {
    std::vector<long> calls;
    double round_seconds = 0.0;
    for (const Work& w : works) {
        w.call();  // caches, page faults, lazy set-up
        const Stopwatch probe;
        w.call();
        const double once = std::max(probe.wall(), 1e-8);
        calls.push_back(std::max(1L, std::lround(1e-3 / once)));
        round_seconds += static_cast<double>(calls.back()) * once;
    }
    const long rounds = std::clamp(std::lround(budget / round_seconds), 21L, 5001L);
    std::vector<Figure> figures;
    for (const Work& w : works) figures.push_back(Figure{w.name, n, dimension, {}, {}, {}});
    for (long r = 0; r < rounds; ++r)
        for (std::size_t i = 0; i < works.size(); ++i) {
            const Stopwatch watch;
            for (long c = 0; c < calls[i]; ++c) works[i].call();
            figures[i].seconds.push_back(watch.wall() / static_cast<double>(calls[i]));
            figures[i].cpu_seconds.push_back(watch.cpu() / static_cast<double>(calls[i]));
        }
    return figures;
}

Figure time_per_call(const std::string& name, int n, int dimension, double budget, std::function<void()> call) {
    return time_in_turn({{name, std::move(call)}}, n, dimension, budget).front();
}

// One instruction set's copies of the arithmetic: Eigen's kernels (peak_kernels.h) and the
// likelihood kernel's own Cholesky factor and evaluation (model/likelihood_kernel.h).
struct Copy {
    const char* name;
    void (*gemm)(const double*, const double*, double*, long, long, long);
    void (*syrk_lower)(const double*, double*, long, long);
    void (*symm_lower)(const double*, const double*, double*, long, long);
    bool (*eigen_llt)(const double*, double*, long);
    void (*triangular_solve)(const double*, double*, long, long);
    void (*elementwise_exp)(const double*, double*, long);
    void (*elementwise_sqrt)(const double*, double*, long);
    kernel::Cholesky (*factor)(const double*, double*, long);
    kernel::Evaluate evaluate;
};

namespace peak_generic = peak::generic;
namespace peak_avx2 = peak::avx2;

const Copy kGeneric{"generic",
                    &peak_generic::gemm,
                    &peak_generic::syrk_lower,
                    &peak_generic::symm_lower,
                    &peak_generic::eigen_llt,
                    &peak_generic::triangular_solve,
                    &peak_generic::elementwise_exp,
                    &peak_generic::elementwise_sqrt,
                    &kernel::generic::jittered_factor,
                    &kernel::generic::evaluate};
const Copy kAvx2{"avx2+fma",
                 &peak_avx2::gemm,
                 &peak_avx2::syrk_lower,
                 &peak_avx2::symm_lower,
                 &peak_avx2::eigen_llt,
                 &peak_avx2::triangular_solve,
                 &peak_avx2::elementwise_exp,
                 &peak_avx2::elementwise_sqrt,
                 &kernel::avx2::jittered_factor,
                 &kernel::avx2::evaluate};

// The AVX2 copies run only where the likelihood kernel's would: built, and a CPU with AVX2 + FMA.
bool avx2_runs_here() { return peak::avx2::built() && kernel::avx2::built() && kernel::avx2::supported(); }

std::vector<const Copy*> copies_here() {
    if (avx2_runs_here()) return {&kAvx2, &kGeneric};
    return {&kGeneric};
}

double gemm_peak(const PeakRates& peak, const Copy& copy) {
    return &copy == &kAvx2 ? peak.gemm_avx2 : peak.gemm_generic;
}

std::string fixed(double v, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

// GFLOP/s from the CPU seconds: on a shared core that is what the work takes while it runs (the
// wall clock also counts the time others held the core).
double gflops_of(const Figure& f, double flops) { return flops / median(f.cpu_seconds) * 1e-9; }

// A row that does `flops` per call: its rate, and its share of the same copy's 512×512 GEMM.
void flop_row(Figure f, const char* copy, double flops, double reference_gflops, const std::string& note,
              std::vector<Figure>& figures) {
    const double seconds = median(f.seconds);
    const double gflops = gflops_of(f, flops);
    const std::string share = reference_gflops > 0.0 ? fixed(100.0 * gflops / reference_gflops, 1) : "-";
    std::printf("%-26s %4d %3d %-9s %11.2f %11.2f %9.4f %8.2f %6s  %s\n", f.benchmark.c_str(), f.n, f.dimension, copy,
                1e6 * seconds, 1e6 * median(f.cpu_seconds), flops * 1e-6, gflops, share.c_str(), note.c_str());
    std::fflush(stdout);
    f.detail = std::string(copy) + "; " + fixed(flops * 1e-6, 4) + " Mflop per call, " + fixed(gflops, 2) + " GFLOP/s" +
               (reference_gflops > 0.0 ? ", " + share + "% of the 512x512 GEMM of the same copy" : "") +
               (note.empty() ? "" : "; " + note);
    figures.push_back(std::move(f));
}

// A row of `elements` transcendental calls per call: nanoseconds per element.
void element_row(Figure f, const char* copy, double elements, const std::string& note, std::vector<Figure>& figures) {
    const double seconds = median(f.seconds);
    const double ns = median(f.cpu_seconds) / elements * 1e9;
    std::printf("%-26s %4d %3d %-9s %11.2f %11.2f %9s %8s %6s  %.3f ns per element; %s\n", f.benchmark.c_str(), f.n,
                f.dimension, copy, 1e6 * seconds, 1e6 * median(f.cpu_seconds), "-", "-", "-", ns, note.c_str());
    std::fflush(stdout);
    f.detail = std::string(copy) + "; " + fixed(ns, 3) + " ns per element; " + note;
    figures.push_back(std::move(f));
}

Eigen::MatrixXd uniform_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng, double lo, double hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return u(rng); });
}

void print_table_header() {
    std::printf("%-26s %4s %3s %-9s %11s %11s %9s %8s %6s  %s\n", "benchmark", "n", "D", "copy", "median_us", "cpu_us",
                "Mflop", "GFLOP/s", "%gemm", "work");
}

}  // namespace

PeakRates run_peak_benchmarks(double nominal_mhz, double budget_scale, std::vector<Figure>& figures) {
    PeakRates peak;
    peak.nominal_ghz = nominal_mhz / 1000.0;
    std::printf(
        "# flops (issue 34): microseconds per call (median over blocks of calls; cpu_us = median CPU), the flops a\n"
        "# call does (an FMA counts 2; exp, sqrt and log apart), GFLOP/s (from cpu_us), and %%gemm = the rate as a\n"
        "# share of the 512x512 Eigen GEMM of the same copy. Copies: avx2+fma (-mavx2 -mfma) and generic (the\n"
        "# build's flags).\n");
    if (peak.nominal_ghz > 0.0)
        std::printf("# nominal clock %.3f GHz (/proc/cpuinfo); with two 256-bit FMA pipes per core (assumed) AVX2\n"
                    "# code peaks at 16 flops per cycle = %.1f GFLOP/s per core at that clock\n",
                    peak.nominal_ghz, 16.0 * peak.nominal_ghz);
    print_table_header();
    if (avx2_runs_here()) {
        constexpr long kIterations = 20000;  // 1.92 Mflop per call
        Figure f = time_per_call("peak-fma-registers", 0, 0, 0.3 * budget_scale,
                                 [] { sink = sink + peak::avx2::fma_chains(kIterations); });
        const double flops = 96.0 * kIterations;
        peak.fma = gflops_of(f, flops);
        const std::string note = "12 chains of 4-wide FMAs in registers: " + fixed(peak.fma / 16.0, 3) +
                                 " GHz at 16 flops per cycle";
        flop_row(std::move(f), kAvx2.name, flops, 0.0, note, figures);
    }
    std::mt19937_64 rng(34);
    constexpr long kSize = 512;
    const Eigen::MatrixXd a = uniform_matrix(kSize, kSize, rng, -1.0, 1.0);
    const Eigen::MatrixXd b = uniform_matrix(kSize, kSize, rng, -1.0, 1.0);
    Eigen::MatrixXd c(kSize, kSize);
    for (const Copy* copy : copies_here()) {
        const int size = static_cast<int>(kSize);
        Figure f = time_per_call("gemm-512", size, size, 0.5 * budget_scale, [&] {
            copy->gemm(a.data(), b.data(), c.data(), kSize, kSize, kSize);
            sink = sink + c(1, 1);
        });
        const double flops = 2.0 * kSize * kSize * kSize;
        const double gflops = gflops_of(f, flops);
        (copy == &kAvx2 ? peak.gemm_avx2 : peak.gemm_generic) = gflops;
        const std::string note =
            peak.fma > 0.0 ? fixed(100.0 * gflops / peak.fma, 1) + "% of the FMA-register rate" : std::string();
        flop_row(std::move(f), copy->name, flops, 0.0, note, figures);
    }
    return peak;
}

void run_flops_benchmarks(const sebo::TrainingData& data, const PeakRates& peak, double budget_scale,
                          std::vector<Figure>& figures) {
    const int n = data.num_points(), dimension = data.dimension();
    const long N = n, D = dimension, P = N * (N - 1) / 2;
    const sebo::LikelihoodWork work = sebo::saas_gradient_work(N, D);
    std::printf("# one value + gradient of the SAAS log posterior at n = %d, D = %d: %.4f Mflop; transcendentals:\n"
                "#   phase                          Mflop  share     exp    sqrt     log\n",
                n, dimension, work.flops() * 1e-6);
    for (const sebo::PhaseWork& p : work.phases)
        std::printf("#   %-28s %8.4f %5.1f%% %7.0f %7.0f %7.0f\n", p.phase.c_str(), p.flops * 1e-6,
                    100.0 * p.flops / work.flops(), p.exp, p.sqrt, p.log);
    print_table_header();

    // The evaluation NUTS makes, at the sampler's central starting point (its cost does not
    // depend on θ unless the factorization needs jitter, which the row reports).
    const auto shared = std::make_shared<const sebo::LikelihoodData>(data);
    sebo::SaasLogDensity density(shared);
    const Eigen::VectorXd theta = density.initial_point();
    Eigen::VectorXd gradient;
    const Eigen::VectorXd gp_theta = sebo::to_unconstrained(density.hyperparameters(theta), shared->layout());
    sebo::LmlWorkspace workspace(*shared);
    Eigen::VectorXd gp_gradient(gp_theta.size());
    const kernel::Result check = kernel::selected()(sebo::kernel_buffers(*shared, workspace), gp_theta.data(),
                                                    gp_gradient.data());
    if (!std::isfinite(density(theta, gradient)) || !check.cholesky.ok) {
        std::fprintf(stderr, "sebo-bench: the SAAS log posterior is not finite at its starting point (n = %d, D = %d)\n",
                     n, dimension);
        return;
    }
    const std::string factorizations = std::to_string(check.cholesky.attempts) + " factorization(s)";
    const Copy& in_use = kernel::selected() == &kernel::avx2::evaluate ? kAvx2 : kGeneric;
    // Beside it, each copy of the likelihood alone (no prior) on the same hyperparameters, with and
    // without the gradient: the difference is the gradient's own part (K⁻¹, the weights, the
    // product with the pair differences); the value's is K, its factor and two solves. All taken
    // in turn, so that the differences are measured under the same load.
    double value_flops = 0.0;
    for (const char* phase :
         {"kernel inputs", "gram (syrk)", "matern elementwise", "cholesky (potrf)", "value (2 solves)"})
        value_flops += work.find(phase)->flops;
    const double likelihood_flops = work.flops() - work.find("SAAS prior")->flops;
    const kernel::Buffers buffers = sebo::kernel_buffers(*shared, workspace);
    const std::vector<const Copy*> copies = copies_here();
    std::vector<Work> works = {{"saas-gradient", [&] { sink = sink + density(theta, gradient); }}};
    for (const Copy* copy : copies) {
        works.push_back(
            {"lml-value", [&, copy] { sink = sink + copy->evaluate(buffers, gp_theta.data(), nullptr).value; }});
        works.push_back({"lml-gradient", [&, copy] {
                             sink = sink + copy->evaluate(buffers, gp_theta.data(), gp_gradient.data()).value;
                         }});
    }
    const double budget = budget_scale * (1.0 + 1.2 * static_cast<double>(copies.size()));
    std::vector<Figure> timed = time_in_turn(works, n, dimension, budget);
    {
        Figure& f = timed[0];
        const double gflops = gflops_of(f, work.flops());
        std::string note = "the kernel in use, with the prior; " + factorizations;
        if (peak.fma > 0.0) note += "; " + fixed(100.0 * gflops / peak.fma, 1) + "% of the FMA-register rate";
        flop_row(std::move(f), in_use.name, work.flops(), gemm_peak(peak, in_use), note, figures);
    }
    for (std::size_t c = 0; c < copies.size(); ++c) {
        const Copy& copy = *copies[c];
        Figure& value = timed[1 + 2 * c];
        Figure& full = timed[2 + 2 * c];
        const double gradient_part = median(full.cpu_seconds) - median(value.cpu_seconds);
        const std::string note = "the gradient's part: " + fixed(1e6 * gradient_part, 2) + " us, " +
                                 fixed((likelihood_flops - value_flops) / gradient_part * 1e-9, 2) + " GFLOP/s";
        flop_row(std::move(value), copy.name, value_flops, gemm_peak(peak, copy), "K, its factor, two solves", figures);
        flop_row(std::move(full), copy.name, likelihood_flops, gemm_peak(peak, copy), note, figures);
    }

    // The evaluation's kinds of arithmetic at its shapes, each copy. Inputs: S (n×D) as the Gram
    // product's, the data's own n(n−1)/2 × D squared pair differences, and a well-conditioned
    // symmetric positive definite n×n matrix with its factor (a factorization's cost does not
    // depend on the values as long as it succeeds).
    std::mt19937_64 rng(34 + static_cast<std::uint64_t>(n) * 1000 + static_cast<std::uint64_t>(dimension));
    const Eigen::MatrixXd s = uniform_matrix(N, D, rng, -0.5, 0.5);
    const Eigen::MatrixXd st = s.transpose();
    const Eigen::MatrixXd pair_weights = uniform_matrix(N, N, rng, -1.0, 1.0);  // its lower triangle read
    const Eigen::MatrixXd spd = [&] {
        const Eigen::MatrixXd b = uniform_matrix(N, N, rng, -1.0, 1.0);
        return Eigen::MatrixXd(b * b.transpose() / static_cast<double>(N) + Eigen::MatrixXd::Identity(N, N));
    }();
    const Eigen::MatrixXd lower = spd.llt().matrixL();
    const Eigen::MatrixXd rhs = uniform_matrix(N, N, rng, -1.0, 1.0);
    const Eigen::VectorXd distances = uniform_matrix(P, 1, rng, 0.0, 5.0);  // −√5 r: exp's arguments, negated
    const Eigen::VectorXd exponents = -distances;
    Eigen::MatrixXd out(N, N), solve(N, N);
    Eigen::MatrixXd out_nd(N, D);
    Eigen::VectorXd out_p(P);
    const double potrf_flops = work.find("cholesky (potrf)")->flops;
    const double micro = 0.3 * budget_scale;  // seconds per microbenchmark
    for (const Copy* copy : copies) {
        const double reference = gemm_peak(peak, *copy);
        flop_row(time_per_call("syrk n x D", n, dimension, micro, [&] {
                     copy->syrk_lower(s.data(), out.data(), N, D);
                     sink = sink + out(N - 1, 0);
                 }),
                 copy->name, static_cast<double>(N * (N + 1) * D), reference, "G = S S^T, lower triangle", figures);
        flop_row(time_per_call("gemm n x D x n", n, dimension, micro, [&] {
                     copy->gemm(s.data(), st.data(), out.data(), N, D, N);
                     sink = sink + out(N - 1, 0);
                 }),
                 copy->name, 2.0 * static_cast<double>(N * N * D), reference, "S S^T as a full product", figures);
        flop_row(time_per_call("symm n x n x D", n, dimension, micro, [&] {
                     copy->symm_lower(pair_weights.data(), s.data(), out_nd.data(), N, D);
                     sink = sink + out_nd(N - 1, 0);
                 }),
                 copy->name, 2.0 * static_cast<double>(N * N * D), reference,
                 "the lengthscale gradient's product w X, w symmetric", figures);
        flop_row(time_per_call("potrf n (the kernel's)", n, dimension, micro, [&] {
                     sink = sink + copy->factor(spd.data(), out.data(), N).attempts;
                 }),
                 copy->name, potrf_flops, reference, "the likelihood kernel's recursive factor, n sqrt besides",
                 figures);
        flop_row(time_per_call("llt n (Eigen)", n, dimension, micro, [&] {
                     sink = sink + copy->eigen_llt(spd.data(), out.data(), N);
                 }),
                 copy->name, potrf_flops, reference, "Eigen::LLT in place, n sqrt besides", figures);
        flop_row(time_per_call("trsv n", n, dimension, micro, [&] {
                     solve.col(0) = rhs.col(0);
                     copy->triangular_solve(lower.data(), solve.data(), N, 1);
                     sink = sink + solve(N - 1, 0);
                 }),
                 copy->name, static_cast<double>(N * N), reference, "L^-1 b, one right-hand side (as for alpha)",
                 figures);
        flop_row(time_per_call("trsm n x n", n, dimension, micro, [&] {
                     solve = rhs;
                     copy->triangular_solve(lower.data(), solve.data(), N, N);
                     sink = sink + solve(N - 1, 0);
                 }),
                 copy->name, static_cast<double>(N * N * N), reference,
                 "L^-1 B, n right-hand sides (copy of B included)", figures);
        element_row(time_per_call("exp n(n-1)/2", n, dimension, micro, [&] {
                        copy->elementwise_exp(exponents.data(), out_p.data(), P);
                        sink = sink + out_p[0];
                    }),
                    copy->name, static_cast<double>(P), "Eigen's array exp, arguments in [-5, 0]", figures);
        element_row(time_per_call("sqrt n(n-1)/2", n, dimension, micro, [&] {
                        copy->elementwise_sqrt(distances.data(), out_p.data(), P);
                        sink = sink + out_p[0];
                    }),
                    copy->name, static_cast<double>(P), "Eigen's array sqrt", figures);
    }
}

}  // namespace sebo_bench
