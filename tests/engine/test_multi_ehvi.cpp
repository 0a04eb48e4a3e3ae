// The exact EHVI of several objectives (acquisition/gaussian_interval.h, box_decomposition.h,
// box_ehvi.h, multi_ehvi.h): interval expectations against extended precision, box decompositions
// against hypervolume differences, the 2-D EHVI against brute-force numerical integration on
// hand-made fronts (1–6 points, one and several ξ-strips, mixtures; to 1e-12, by Gauss–Legendre
// between the improvement's kinks), m = 2..4 against Monte Carlo
// with a fixed seed, gradients against central finite differences, m = 1 against SparseEhviFront,
// and values far below the front against a long-double evaluation.

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "acquisition/box_decomposition.h"
#include "acquisition/gaussian.h"
#include "acquisition/gaussian_interval.h"
#include "acquisition/multi_ehvi.h"
#include "acquisition/sparse_ehvi.h"
#include "pareto/frontier.h"
#include "pareto/hypervolume_nd.h"
#include "test_main.h"
#include "test_support.h"

namespace test_multi_ehvi {

using namespace sebo;

namespace {

using Rows = std::vector<std::vector<double>>;
constexpr double kInf = std::numeric_limits<double>::infinity();

MixtureMoments mixture(std::vector<double> mean, std::vector<double> sd) {
    MixtureMoments m;
    m.mean = Eigen::Map<Eigen::VectorXd>(mean.data(), Eigen::Index(mean.size()));
    m.var.resize(Eigen::Index(sd.size()));
    for (std::size_t s = 0; s < sd.size(); ++s) m.var[Eigen::Index(s)] = sd[s] * sd[s];
    return m;
}

// Extended-precision h and Φ straight from their definitions.
long double ld_cdf(long double z) { return 0.5L * std::erfc(-z / std::sqrt(2.0L)); }
long double ld_pdf(long double z) {
    return std::exp(-0.5L * z * z) / std::sqrt(2.0L * 3.14159265358979323846264338327950288L);
}
long double ld_h(long double z) { return ld_pdf(z) + z * ld_cdf(z); }

double mixture_density(const MixtureMoments& m, double y) {
    double p = 0.0;
    for (Eigen::Index s = 0; s < m.mean.size(); ++s) {
        const double sd = std::sqrt(m.var[s]);
        p += normal_pdf((y - m.mean[s]) / sd) / sd;
    }
    return p / double(m.mean.size());
}

// Quadrature nodes (points and weights × density) for one objective's mixture over ±9 standard
// deviations of every component: 6-point Gauss–Legendre on pieces that end at every kink of the
// improvement (`kinks`, the front's coordinates in this objective) and are no wider than 1/pieces
// of the range. The improvement is a polynomial between kinks, so the rule converges fast.
std::vector<std::pair<double, double>> quadrature(const MixtureMoments& m, std::vector<double> kinks, int pieces) {
    double lo = kInf, hi = -kInf;
    for (Eigen::Index s = 0; s < m.mean.size(); ++s) {
        lo = std::min(lo, m.mean[s] - 9.0 * std::sqrt(m.var[s]));
        hi = std::max(hi, m.mean[s] + 9.0 * std::sqrt(m.var[s]));
    }
    std::vector<double> ends = {lo, hi};
    for (int i = 1; i < pieces; ++i) ends.push_back(lo + (hi - lo) * i / pieces);
    for (const double k : kinks)
        if (k > lo && k < hi) ends.push_back(k);
    std::sort(ends.begin(), ends.end());
    static constexpr double x[3] = {0.2386191860831969, 0.6612093864662645, 0.9324695142031521};
    static constexpr double w[3] = {0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
    std::vector<std::pair<double, double>> nodes;
    for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
        const double mid = 0.5 * (ends[i] + ends[i + 1]), half = 0.5 * (ends[i + 1] - ends[i]);
        for (int j = 0; j < 3; ++j)
            for (const double sign : {-1.0, 1.0}) {
                const double y = mid + sign * half * x[j];
                nodes.emplace_back(y, half * w[j] * mixture_density(m, y));
            }
    }
    return nodes;
}

// ∫∫ hvi(y1, y2) p1(y1) p2(y2) over the product of the mixtures (no pairing).
template <class Hvi>
double integrate_2d(const MixtureMoments& m1, const MixtureMoments& m2, const Rows& points, Hvi hvi, int pieces) {
    std::vector<double> kinks1, kinks2;
    for (const auto& p : points) {
        kinks1.push_back(p[0]);
        kinks2.push_back(p[1]);
    }
    const auto nodes1 = quadrature(m1, kinks1, pieces), nodes2 = quadrature(m2, kinks2, pieces);
    double total = 0.0;
    for (const auto& [y1, w1] : nodes1) {
        double inner = 0.0;
        for (const auto& [y2, w2] : nodes2) inner += w2 * hvi(y1, y2);
        total += w1 * inner;
    }
    return total;
}

// HVI of y in 2-D by pareto/frontier.h's hypervolume_2d (independent of the box decomposition).
double hvi_2d(const Rows& front, const std::vector<double>& reference, double y1, double y2) {
    std::vector<std::pair<double, double>> points;
    for (const auto& p : front) points.emplace_back(p[0], p[1]);
    const double before = hypervolume_2d(points, {reference[0], reference[1]});
    points.emplace_back(y1, y2);
    return hypervolume_2d(points, {reference[0], reference[1]}) - before;
}

// Inclusion–exclusion hypervolume of any dimension (independent of every sweep and decomposition).
double inclusion_exclusion(const Rows& points, const std::vector<double>& reference) {
    const std::size_t n = points.size();
    double volume = 0.0;
    for (unsigned long mask = 1; mask < (1ul << n); ++mask) {
        double box = 1.0;
        for (std::size_t d = 0; d < reference.size(); ++d) {
            double corner = kInf;
            for (std::size_t i = 0; i < n; ++i)
                if (mask & (1ul << i)) corner = std::min(corner, points[i][d]);
            box *= std::max(0.0, corner - reference[d]);
        }
        volume += (std::popcount(mask) % 2 ? 1.0 : -1.0) * box;
    }
    return volume;
}

// HVI of y against `points`: the box [r, y] minus the part of it the points already dominate.
double hvi_by_subsets(const Rows& points, const std::vector<double>& reference, const std::vector<double>& y) {
    double box = 1.0;
    for (std::size_t d = 0; d < y.size(); ++d) box *= std::max(0.0, y[d] - reference[d]);
    if (box == 0.0) return 0.0;
    Rows clipped;
    for (const auto& p : points) {
        std::vector<double> c(p.size());
        for (std::size_t d = 0; d < p.size(); ++d) c[d] = std::min(p[d], y[d]);
        clipped.push_back(c);
    }
    return box - inclusion_exclusion(clipped, reference);
}

// HVI of (y, −ξ) against observations (f, ξ) in m + 1 dimensions.
double hvi_sparse(const std::vector<SparseMultiEhvi::Observation>& observed, const std::vector<double>& reference_f,
                  double reference_xi, const std::vector<double>& y, double xi) {
    Rows points;
    for (const auto& o : observed) {
        points.push_back(o.f);
        points.back().push_back(-o.xi);
    }
    std::vector<double> reference = reference_f, candidate = y;
    reference.push_back(-reference_xi);
    candidate.push_back(-xi);
    return hvi_by_subsets(points, reference, candidate);
}

// Monte Carlo over the product of the mixtures: component and draw per objective, independently.
template <class Hvi>
std::pair<double, double> monte_carlo(const std::vector<MixtureMoments>& objectives, Hvi hvi, int n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    double sum = 0.0, sum2 = 0.0;
    std::vector<double> y(objectives.size());
    for (int i = 0; i < n; ++i) {
        for (std::size_t d = 0; d < objectives.size(); ++d) {
            std::uniform_int_distribution<Eigen::Index> pick(0, objectives[d].mean.size() - 1);
            const Eigen::Index s = pick(rng);
            y[d] = objectives[d].mean[s] + std::sqrt(objectives[d].var[s]) * normal(rng);
        }
        const double v = hvi(y);
        sum += v;
        sum2 += v * v;
    }
    const double mean = sum / n;
    return {mean, std::sqrt(std::max(0.0, sum2 / n - mean * mean) / n)};
}

struct Fd {
    double worst_relative = 0.0;
    void check(double analytic, double numeric) {
        worst_relative = std::max(worst_relative, std::abs(analytic - numeric) / std::max(1e-3, std::abs(numeric)));
    }
};

// Central differences of f(objectives, xi) w.r.t. every mean, variance and xi.
template <class F>
Fd finite_difference_check(std::vector<MixtureMoments> objectives, double xi,
                           const std::vector<MixtureGradient>& gradient, double dxi, F f, bool with_xi) {
    Fd fd;
    const double h = 1e-6;
    for (std::size_t d = 0; d < objectives.size(); ++d)
        for (Eigen::Index s = 0; s < objectives[d].mean.size(); ++s) {
            for (int which = 0; which < 2; ++which) {
                auto plus = objectives, minus = objectives;
                Eigen::VectorXd& vp = which == 0 ? plus[d].mean : plus[d].var;
                Eigen::VectorXd& vm = which == 0 ? minus[d].mean : minus[d].var;
                vp[s] += h;
                vm[s] -= h;
                const double numeric = (f(plus, xi) - f(minus, xi)) / (2 * h);
                fd.check(which == 0 ? gradient[d].dmean[s] : gradient[d].dvar[s], numeric);
            }
        }
    if (with_xi) fd.check(dxi, (f(objectives, xi + h) - f(objectives, xi - h)) / (2 * h));
    return fd;
}

}  // namespace

class TestMultiEhvi : public QObject {
    Q_OBJECT

private slots:
    void intervalExpectationsAgainstLongDouble() {
        // log(h(b) − h(a)) and log(Φ(b) − Φ(a)) in every regime: tails, mixed signs, above the
        // interval (mirror formulas), narrow intervals (Gauss–Legendre), unbounded.
        const std::vector<std::pair<double, double>> cases = {
            {-1.0, 0.5},    {-3.0, -2.0},    {-12.0, -9.0}, {-30.0, -25.0}, {0.5, 2.0},  {3.0, 9.0},    {-0.4, 0.3},
            {-2.0, -1.999}, {-20.0, -19.99}, {1.0, 1.0005}, {-0.01, 0.02},  {4.0, 40.0}, {-60.0, -59.0}};
        double worst_h = 0.0, worst_cdf = 0.0;
        for (const auto& [a, b] : cases) {
            const long double ref_h = ld_h(b) - ld_h(a);
            const long double ref_cdf = b > 0 && a > 0 ? ld_cdf(-a) - ld_cdf(-b) : ld_cdf(b) - ld_cdf(a);
            const double got_h = log_h_difference(a, b), got_cdf = log_normal_cdf_difference(a, b);
            worst_h = std::max(worst_h, std::abs(got_h - double(std::log(ref_h))));
            worst_cdf = std::max(worst_cdf, std::abs(got_cdf - double(std::log(ref_cdf))));
            // log h below −8 comes from acquisition/gaussian.h's 10-term asymptotic series, whose
            // relative error is about 1e-9 at z = −9: the tolerance of that header's own test.
            SEBO_COMPARE_NEAR(got_h, double(std::log(ref_h)), 1e-9 * std::max(1.0, std::abs(got_h)));
            SEBO_COMPARE_NEAR(got_cdf, double(std::log(ref_cdf)), 1e-9 * std::max(1.0, std::abs(got_cdf)));
        }
        qInfo("interval expectations: worst |log error| h %.2e, cdf %.2e", worst_h, worst_cdf);
        // Unbounded sides.
        SEBO_COMPARE_NEAR(log_h_difference(-kInf, -3.0), log_expected_improvement_h(-3.0), 1e-15);
        SEBO_COMPARE_NEAR(log_normal_cdf_difference(-kInf, 1.5), std::log(normal_cdf(1.5)), 1e-15);
        SEBO_COMPARE_NEAR(log_normal_cdf_difference(2.0, kInf), std::log(normal_cdf(-2.0)), 1e-15);
        // Very narrow and far in the tail, where differencing logs would cancel: h(b) − h(a) ≈ δ·Φ(mid).
        for (const double a : {-40.0, -5.0, 0.0, 7.0}) {
            const double b = a + 1e-9, delta = b - a;  // the width as represented
            SEBO_COMPARE_NEAR(log_h_difference(a, b), std::log(delta) + log_normal_cdf(a + 0.5 * delta), 1e-8);
            SEBO_COMPARE_NEAR(log_normal_cdf_difference(a, b), std::log(delta) - 0.5 * a * a - 0.91893853320467274178,
                              1e-7);
        }
        // The clipped improvement's derivatives against finite differences.
        for (const auto& [l, u] :
             std::vector<std::pair<double, double>>{{0.0, 1.0}, {0.5, kInf}, {-3.0, -2.0}, {4.0, 4.5}}) {
            const double mu = 0.3, sigma = 0.7, h = 1e-6;
            const LogClippedImprovement c = log_clipped_improvement(mu, sigma, l, u);
            const double dmu = (log_clipped_improvement(mu + h, sigma, l, u).value -
                                log_clipped_improvement(mu - h, sigma, l, u).value) /
                               (2 * h);
            const double dsg = (log_clipped_improvement(mu, sigma + h, l, u).value -
                                log_clipped_improvement(mu, sigma - h, l, u).value) /
                               (2 * h);
            SEBO_COMPARE_NEAR(c.dmean, dmu, 1e-7 * std::max(1.0, std::abs(dmu)));
            SEBO_COMPARE_NEAR(c.dsigma, dsg, 1e-7 * std::max(1.0, std::abs(dsg)));
        }
        QCOMPARE(log1mexp(-1e-20), std::log(1e-20));
        SEBO_COMPARE_NEAR(log1mexp(-50.0), -std::exp(-50.0), 1e-30);
    }

    void linearAndLogIntervalsAgree() {
        // The linear-space interval moments (used while no boundary is far in the tail) against the
        // log-space ones, over widths from 1e-9 to 10 and positions from −34 to 30, both signs.
        double worst = 0.0;
        for (const double a : {-34.0, -20.0, -8.5, -7.5, -2.0, -0.3, 0.0, 0.4, 3.0, 9.0, 30.0})
            for (const double width : {1e-9, 1e-6, 1e-4, 1e-3, 2e-3, 0.05, 0.5, 2.0, 10.0}) {
                const double b = a + width, w = b - a;
                const IntervalMoments lin =
                    interval_moments(gaussian_boundary_values(b), gaussian_boundary_values(a), w);
                const LogIntervalMoments lg = log_interval_moments(gaussian_boundary(b), gaussian_boundary(a), w);
                const double e_h = std::abs(std::log(lin.h_difference) - lg.log_h_difference);
                const double e_c = std::abs(std::log(lin.cdf_difference) - lg.log_cdf_difference);
                const double pdf = lg.pdf_difference_sign * std::exp(lg.log_abs_pdf_difference);
                // The φ difference enters as φ-difference/h-difference (∂ log ψ/∂σ): compared on that
                // scale, relative where that ratio exceeds 1.
                const double e_p = std::abs(lin.pdf_difference - pdf) / std::max(lin.h_difference, std::abs(pdf));
                worst = std::max({worst, e_h, e_c});
                // 5e-9: between −10 and −8 both sides rest on gaussian.h's 10-term tail series,
                // good to about 1e-9 there.
                QVERIFY2(e_h < 5e-9 && e_c < 5e-9 && e_p < 1e-9,
                         qPrintable(QString("a=%1 width=%2: log h %3, log cdf %4, pdf %5")
                                        .arg(a)
                                        .arg(width)
                                        .arg(e_h)
                                        .arg(e_c)
                                        .arg(e_p)));
            }
        qInfo("linear vs log interval moments: worst |log difference| %.2e", worst);
        // Unbounded above.
        const IntervalMoments lin = interval_moments(gaussian_boundary_values(-3.0), GaussianBoundaryValues{}, kInf);
        SEBO_COMPARE_NEAR(std::log(lin.h_difference), log_expected_improvement_h(-3.0), 1e-14);
    }

    void continuousWhereTheEvaluationSwitchesToLogSpace() {
        // One objective's sample crosses z = kLinearTailZ at the front's top boundary: the values
        // just inside and just outside the linear range agree to the change the step itself makes.
        const MultiEhvi ehvi({{1.0, 3.0}, {2.0, 2.0}, {3.0, 1.0}}, {0.0, 0.0});
        const double sd = 0.05, top = 3.0;
        const double at = top + kLinearTailZ * sd;  // z = −35 at the top boundary
        for (const double step : {1e-9, 1e-7}) {
            std::vector<MixtureGradient> g;
            const std::vector<MixtureMoments> inside = {mixture({at + step, 2.0}, {sd, 0.3}), mixture({1.0}, {0.2})};
            const std::vector<MixtureMoments> outside = {mixture({at - step, 2.0}, {sd, 0.3}), mixture({1.0}, {0.2})};
            const double v_in = ehvi.log_ehvi(inside, &g);
            const double v_out = ehvi.log_ehvi(outside, nullptr);
            SEBO_COMPARE_NEAR(v_in - v_out, 2 * step * g[0].dmean[0], 1e-10);
        }
    }

    void boxDecompositionHandComputed() {
        // Staircase (1,3), (2,2), (3,1) over (0,0): slabs in y of [0,1), [1,2), [2,3), [3,∞) whose
        // x starts at the furthest point reaching above them: 3, 2, 1, 0.
        const NondominatedBoxes boxes({{1, 3}, {2, 2}, {3, 1}, {1, 1}}, {0, 0});
        QCOMPARE(boxes.size(), std::size_t{4});
        const std::vector<std::vector<double>> lower = {{3, 0}, {2, 1}, {1, 2}, {0, 3}};
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(boxes.lower(i)[0], lower[i][0]);
            QCOMPARE(boxes.lower(i)[1], lower[i][1]);
            QCOMPARE(boxes.upper(i)[0], kInf);
            QCOMPARE(boxes.upper(i)[1], i == 3 ? kInf : lower[i][1] + 1.0);
        }
        // (2.5, 2.5) adds [2, 2.5] × [1, 2.5] and [1, 2] × [2, 2.5]: 0.5·1.5 + 1·0.5.
        QCOMPARE(boxes.improvement(std::vector<double>{2.5, 2.5}), 1.25);
        QCOMPARE(boxes.improvement(std::vector<double>{0.5, 0.5}), 0.0);
        // An empty front: the whole orthant is one box.
        const NondominatedBoxes empty({}, {0, 0, 0});
        QCOMPARE(empty.size(), std::size_t{1});
        QCOMPARE(empty.improvement(std::vector<double>{1, 2, 3}), 6.0);
        // Points on or below the reference are left out.
        QCOMPARE(NondominatedBoxes({{0, 5}, {-1, -1}}, {0, 0}).size(), std::size_t{1});
    }

    void boxImprovementEqualsHypervolumeDifference() {
        std::mt19937_64 rng(13);
        std::uniform_real_distribution<double> u(-0.5, 2.0);
        for (int m = 1; m <= 4; ++m)
            for (int trial = 0; trial < 15; ++trial) {
                Rows front(std::size_t(1 + trial % 8), std::vector<double>(std::size_t(m)));
                for (auto& p : front)
                    for (auto& x : p) x = trial % 2 ? std::round(4 * u(rng)) / 4 : u(rng);
                const std::vector<double> reference(std::size_t(m), 0.0);
                const NondominatedBoxes boxes(front, reference);
                const double base = hypervolume_nd(front, reference);
                for (int k = 0; k < 10; ++k) {
                    std::vector<double> y(static_cast<std::size_t>(m));
                    for (auto& x : y) x = u(rng) + 0.3;
                    Rows with = front;
                    with.push_back(y);
                    SEBO_COMPARE_NEAR(boxes.improvement(y), hypervolume_nd(with, reference) - base, 1e-12);
                }
            }
    }

    void ehvi2dAgainstNumericalIntegration() {
        struct Case {
            Rows front;
            std::vector<double> reference;
            MixtureMoments f1, f2;
        };
        const std::vector<Case> cases = {
            {{{1.0, 1.0}}, {0.0, 0.0}, mixture({0.8}, {0.5}), mixture({1.2}, {0.3})},
            {{{0.5, 2.0}, {1.5, 1.0}}, {0.0, 0.0}, mixture({1.0}, {0.4}), mixture({1.0}, {0.4})},
            {{{0.2, 1.8}, {0.7, 1.5}, {1.1, 0.9}, {1.6, 0.3}},
             {-0.5, -0.5},
             mixture({1.3, 0.2, 0.9}, {0.2, 0.6, 0.35}),
             mixture({0.8}, {0.9})},
            {{{-1.0, 2.0}, {0.0, 1.5}, {0.5, 1.0}, {1.0, 0.5}, {1.5, 0.0}, {2.0, -1.0}},
             {-2.0, -2.0},
             mixture({0.5, 1.5}, {1.0, 0.3}),
             mixture({0.2, -0.4}, {0.5, 1.2})},
            {{{3.0, 3.0}, {4.0, 1.0}, {1.0, 4.0}},
             {0.0, 0.0},
             mixture({-0.5}, {1.5}),
             mixture({0.5}, {0.8})},  // below the front
            {{{0.3, 0.3}, {0.1, 0.6}, {0.6, 0.1}, {0.35, 0.35}, {0.0, 0.7}},
             {0.0, 0.0},
             mixture({2.0}, {0.2}),
             mixture({1.5}, {0.25})},  // far above
        };
        double worst_abs = 0.0, worst_rel = 0.0;
        for (const Case& c : cases) {
            const MultiEhvi ehvi(c.front, c.reference);
            const std::vector<MixtureMoments> objectives = {c.f1, c.f2};
            const double exact = std::exp(ehvi.log_ehvi(objectives, nullptr));
            Rows kinks = c.front;
            kinks.push_back(c.reference);
            const double integral = integrate_2d(
                c.f1, c.f2, kinks, [&](double y1, double y2) { return hvi_2d(c.front, c.reference, y1, y2); }, 120);
            worst_abs = std::max(worst_abs, std::abs(exact - integral));
            worst_rel = std::max(worst_rel, std::abs(exact - integral) / integral);
            QVERIFY2(std::abs(exact - integral) <= 1e-12 * integral,
                     qPrintable(QString("EHVI %1 vs integral %2").arg(exact, 0, 'g', 12).arg(integral, 0, 'g', 12)));
        }
        qInfo("2-D EHVI vs numerical integration: max abs error %.3e, max rel error %.3e", worst_abs, worst_rel);
    }

    void sparseEhviAgainstNumericalIntegration() {
        // (f1, f2, ξ) observations; reference (0, 0, r_ξ = 5). One strip (all at ξ = 1) and several.
        using O = SparseMultiEhvi::Observation;
        struct Case {
            std::vector<O> observed;
            double xi;
            MixtureMoments f1, f2;
            std::size_t strips;
        };
        const std::vector<Case> cases = {
            {{{{1.0, 1.0}, 1.0}}, 0.5, mixture({0.9}, {0.4}), mixture({1.1}, {0.5}), 2},
            {{{{1.0, 1.0}, 1.0}, {{0.5, 1.5}, 1.0}}, 1.0, mixture({0.9}, {0.4}), mixture({1.1}, {0.5}), 2},
            {{{{0.5, 0.5}, 0.0}, {{1.0, 0.4}, 1.0}, {{0.3, 1.2}, 2.0}, {{1.4, 1.4}, 3.5}, {{0.2, 0.2}, 2.5}},
             0.7,
             mixture({0.8, 1.2}, {0.3, 0.6}),
             mixture({0.9}, {0.45}),
             5},
            {{{{0.5, 0.5}, 0.0}, {{1.0, 0.4}, 1.0}, {{0.3, 1.2}, 2.0}, {{1.4, 1.4}, 3.5}},
             2.2,
             mixture({0.5}, {0.3}),
             mixture({0.6, 1.4}, {0.2, 0.5}),
             5},
            {{{{0.5, 0.5}, 0.0}, {{1.0, 0.4}, 1.0}, {{0.3, 1.2}, 2.0}, {{1.4, 1.4}, 3.5}, {{2.0, 2.0}, 6.0}},
             0.0,
             mixture({1.0}, {0.7}),
             mixture({1.0}, {0.7}),
             5},  // the last point is beyond r_ξ
        };
        double worst_abs = 0.0, worst_rel = 0.0;
        for (const Case& c : cases) {
            const SparseMultiEhvi ehvi(c.observed, {0.0, 0.0}, 5.0);
            QCOMPARE(ehvi.strips().size(), c.strips);
            const std::vector<MixtureMoments> objectives = {c.f1, c.f2};
            const double exact = std::exp(ehvi.log_ehvi(objectives, c.xi, nullptr, nullptr));
            Rows kinks = {{0.0, 0.0}};
            for (const auto& o : c.observed) kinks.push_back(o.f);
            const double integral = integrate_2d(
                c.f1, c.f2, kinks,
                [&](double y1, double y2) { return hvi_sparse(c.observed, {0.0, 0.0}, 5.0, {y1, y2}, c.xi); }, 80);
            worst_abs = std::max(worst_abs, std::abs(exact - integral));
            worst_rel = std::max(worst_rel, std::abs(exact - integral) / integral);
            QVERIFY2(
                std::abs(exact - integral) <= 1e-12 * integral,
                qPrintable(QString("sparse EHVI %1 vs integral %2").arg(exact, 0, 'g', 12).arg(integral, 0, 'g', 12)));
            // The strips' volume is the hypervolume in (f, −ξ).
            Rows points;
            for (const auto& o : c.observed) points.push_back({o.f[0], o.f[1], -o.xi});
            SEBO_COMPARE_NEAR(ehvi.hypervolume(), hypervolume_nd(points, {0.0, 0.0, -5.0}), 1e-12);
        }
        qInfo("sparse 2-D EHVI vs numerical integration: max abs error %.3e, max rel error %.3e", worst_abs, worst_rel);
        // Beyond the sparsity reference: nothing to gain.
        const SparseMultiEhvi ehvi({{{1.0, 1.0}, 1.0}}, {0.0, 0.0}, 5.0);
        const std::vector<MixtureMoments> objectives = {mixture({1.0}, {1.0}), mixture({1.0}, {1.0})};
        QCOMPARE(ehvi.log_ehvi(objectives, 5.0, nullptr, nullptr), SparseMultiEhvi::kLogZero);
    }

    void ehviAgainstMonteCarlo() {
        // m = 2, 3, 4; sparse (strips) and plain. 200k draws, fixed seed; within 4 standard errors.
        std::mt19937_64 rng(99);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        double worst_z = 0.0;
        for (int m = 2; m <= 4; ++m) {
            std::vector<SparseMultiEhvi::Observation> observed;
            Rows plain;
            for (int i = 0; i < 6; ++i) {
                std::vector<double> f(static_cast<std::size_t>(m));
                for (auto& x : f) x = u(rng);
                observed.push_back({f, double(i % 3)});
                plain.push_back(f);
            }
            const std::vector<double> reference(std::size_t(m), -0.2);
            std::vector<MixtureMoments> objectives;
            for (int d = 0; d < m; ++d)
                objectives.push_back(d % 2 ? mixture({0.6, 0.9}, {0.3, 0.2}) : mixture({0.7}, {0.35}));
            const SparseMultiEhvi sparse(observed, reference, 4.0);
            const MultiEhvi flat(plain, reference);
            for (const double xi : {0.5, 1.5}) {
                const double exact = std::exp(sparse.log_ehvi(objectives, xi, nullptr, nullptr));
                const auto [mc, se] = monte_carlo(
                    objectives,
                    [&](const std::vector<double>& y) { return hvi_sparse(observed, reference, 4.0, y, xi); }, 200000,
                    5u + unsigned(m));
                worst_z = std::max(worst_z, std::abs(exact - mc) / se);
                QVERIFY2(std::abs(exact - mc) <= 4 * se,
                         qPrintable(QString("m=%1 sparse EHVI %2 vs MC %3 ± %4").arg(m).arg(exact).arg(mc).arg(se)));
            }
            const double exact = std::exp(flat.log_ehvi(objectives, nullptr));
            const auto [mc, se] = monte_carlo(
                objectives, [&](const std::vector<double>& y) { return hvi_by_subsets(plain, reference, y); }, 200000,
                50u + unsigned(m));
            worst_z = std::max(worst_z, std::abs(exact - mc) / se);
            QVERIFY2(std::abs(exact - mc) <= 4 * se,
                     qPrintable(QString("m=%1 EHVI %2 vs MC %3 ± %4").arg(m).arg(exact).arg(mc).arg(se)));
        }
        qInfo("EHVI vs Monte Carlo: largest deviation %.2f standard errors", worst_z);
    }

    void gradientsMatchFiniteDifferences() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        double worst = 0.0;
        for (int m = 1; m <= 4; ++m)
            for (const int samples : {1, 4}) {
                std::vector<SparseMultiEhvi::Observation> observed;
                Rows plain;
                for (int i = 0; i < 6; ++i) {
                    std::vector<double> f(static_cast<std::size_t>(m));
                    for (auto& x : f) x = u(rng);
                    observed.push_back({f, 0.5 * i});
                    plain.push_back(f);
                }
                const std::vector<double> reference(std::size_t(m), -0.3);
                const SparseMultiEhvi sparse(observed, reference, 4.0);
                const MultiEhvi flat(plain, reference);
                std::vector<MixtureMoments> objectives;
                for (int d = 0; d < m; ++d) {
                    // A 1-sample objective next to S-sample ones (a MAP GP next to SAAS ensembles).
                    const int s_d = d == 1 ? 1 : samples;
                    MixtureMoments mm;
                    mm.mean.resize(s_d);
                    mm.var.resize(s_d);
                    for (int s = 0; s < s_d; ++s) {
                        mm.mean[s] = 1.4 * u(rng) - 0.2;
                        mm.var[s] = 0.02 + 0.3 * u(rng);
                    }
                    objectives.push_back(mm);
                }
                for (const double xi : {0.3, 1.7, 2.6}) {
                    std::vector<MixtureGradient> gradient;
                    double dxi = 0.0;
                    sparse.log_ehvi(objectives, xi, &gradient, &dxi);
                    const Fd fd = finite_difference_check(
                        objectives, xi, gradient, dxi,
                        [&](const std::vector<MixtureMoments>& o, double x) {
                            return sparse.log_ehvi(o, x, nullptr, nullptr);
                        },
                        true);
                    worst = std::max(worst, fd.worst_relative);
                    QVERIFY2(
                        fd.worst_relative < 1e-6,
                        qPrintable(
                            QString("sparse m=%1 S=%2 xi=%3: %4").arg(m).arg(samples).arg(xi).arg(fd.worst_relative)));
                }
                std::vector<MixtureGradient> gradient;
                flat.log_ehvi(objectives, &gradient);
                const Fd fd = finite_difference_check(
                    objectives, 0.0, gradient, 0.0,
                    [&](const std::vector<MixtureMoments>& o, double) { return flat.log_ehvi(o, nullptr); }, false);
                worst = std::max(worst, fd.worst_relative);
                QVERIFY2(fd.worst_relative < 1e-6,
                         qPrintable(QString("plain m=%1 S=%2: %3").arg(m).arg(samples).arg(fd.worst_relative)));
            }
        qInfo("EHVI gradients vs central differences: worst relative error %.2e", worst);
    }

    void oneObjectiveMatchesSparseEhviFront() {
        const std::vector<std::pair<double, double>> observed = {{2, 1},   {3, 3},    {1, 0.5},
                                                                 {1.5, 2}, {-1, 0.1}, {2.5, 2.0}};
        const SparseEhviFront front(observed, 0.0, 5.0);
        std::vector<SparseMultiEhvi::Observation> as_multi;
        for (const auto& [f, xi] : observed) as_multi.push_back({{f}, xi});
        const SparseMultiEhvi multi(as_multi, {0.0}, 5.0);
        QCOMPARE(multi.strips().size(), front.strips().size());
        for (std::size_t j = 0; j < front.strips().size(); ++j) {
            QCOMPARE(multi.strips()[j].lo, front.strips()[j].lo);
            QCOMPARE(multi.strips()[j].hi, front.strips()[j].hi);
        }
        SEBO_COMPARE_NEAR(multi.hypervolume(), front.hypervolume(), 1e-14);
        Eigen::VectorXd mean(3), var(3);
        mean << 1.1, -0.2, 2.5;
        var << 0.2, 0.9, 0.01;
        double worst = 0.0;
        for (const double xi : {-1.0, 0.3, 1.5, 3.7, 4.99}) {
            for (const double shift : {0.0, -6.0, -30.0}) {  // -30: far below the front
                const Eigen::VectorXd m = mean.array() + shift;
                Eigen::VectorXd dmean, dvar;
                double dxi_front = 0.0, dxi_multi = 0.0;
                const double expected = front.log_ehvi(m, var, xi, &dmean, &dvar, &dxi_front);
                std::vector<MixtureGradient> gradient;
                const std::vector<MixtureMoments> objectives = {{m, var}};
                const double got = multi.log_ehvi(objectives, xi, &gradient, &dxi_multi);
                worst = std::max(worst, std::abs(got - expected));
                SEBO_COMPARE_NEAR(got, expected, 1e-12 * std::max(1.0, std::abs(expected)));
                for (int s = 0; s < 3; ++s) {
                    SEBO_COMPARE_NEAR(gradient[0].dmean[s], dmean[s], 1e-10 * std::max(1.0, std::abs(dmean[s])));
                    SEBO_COMPARE_NEAR(gradient[0].dvar[s], dvar[s], 1e-10 * std::max(1.0, std::abs(dvar[s])));
                }
                SEBO_COMPARE_NEAR(dxi_multi, dxi_front, 1e-10 * std::max(1.0, std::abs(dxi_front)));
            }
        }
        qInfo("m = 1 against SparseEhviFront: largest |log EHVI difference| %.2e", worst);
        QCOMPARE(multi.log_ehvi(std::vector<MixtureMoments>{{mean, var}}, 5.0, nullptr, nullptr),
                 SparseEhviFront::kLogZero);
    }

    void finiteAndInformativeFarBelowTheFront() {
        // μ 40 standard deviations below the front in both objectives: the linear EHVI underflows,
        // its logarithm matches a long-double sum over the boxes, and the gradient points up.
        const Rows front = {{1.0, 3.0}, {2.0, 2.0}, {3.0, 1.0}};
        const MultiEhvi ehvi(front, {0.0, 0.0});
        for (const double below : {10.0, 40.0, 120.0}) {
            const double sd = 0.05, mu1 = 1.0 - below * sd, mu2 = 1.0 - below * sd;
            const std::vector<MixtureMoments> objectives = {mixture({mu1}, {sd}), mixture({mu2}, {sd})};
            std::vector<MixtureGradient> gradient;
            const double got = ehvi.log_ehvi(objectives, &gradient);
            QVERIFY(std::isfinite(got));
            QVERIFY(gradient[0].dmean[0] > 0.0 && gradient[1].dmean[0] > 0.0);
            if (below > 100.0) continue;  // beyond long double's range
            long double total = 0.0L;
            const NondominatedBoxes& boxes = ehvi.boxes();
            for (std::size_t b = 0; b < boxes.size(); ++b) {
                long double product = 1.0L;
                for (int d = 0; d < 2; ++d) {
                    const long double mu = d == 0 ? mu1 : mu2;
                    const long double zl = (mu - boxes.lower(b)[std::size_t(d)]) / sd;
                    const double u = boxes.upper(b)[std::size_t(d)];
                    const long double hu = std::isinf(u) ? 0.0L : ld_h((mu - u) / sd);
                    product *= sd * (ld_h(zl) - hu);
                }
                total += product;
            }
            SEBO_COMPARE_NEAR(got, double(std::log(total)), 1e-9 * std::abs(got));
        }
        // Finite-difference gradient in the far tail too.
        const std::vector<MixtureMoments> far = {mixture({-2.0}, {0.1}), mixture({-1.5, -1.0}, {0.1, 0.2})};
        std::vector<MixtureGradient> gradient;
        ehvi.log_ehvi(far, &gradient);
        const Fd fd = finite_difference_check(
            far, 0.0, gradient, 0.0,
            [&](const std::vector<MixtureMoments>& o, double) { return ehvi.log_ehvi(o, nullptr); }, false);
        QVERIFY2(fd.worst_relative < 1e-5, qPrintable(QString("far tail gradient error %1").arg(fd.worst_relative)));
    }

    void evaluationIsDeterministic() {
        std::vector<SparseMultiEhvi::Observation> observed = {
            {{0.5, 0.5, 0.5}, 0.0}, {{1.0, 0.2, 0.7}, 1.0}, {{0.1, 0.9, 0.3}, 2.0}};
        const SparseMultiEhvi ehvi(observed, {0.0, 0.0, 0.0}, 3.0);
        const std::vector<MixtureMoments> objectives = {mixture({0.6, 0.7}, {0.2, 0.3}), mixture({0.5}, {0.4}),
                                                        mixture({0.4, 0.2}, {0.1, 0.2})};
        const double first = ehvi.log_ehvi(objectives, 0.4, nullptr, nullptr);
        for (int i = 0; i < 5; ++i) QCOMPARE(ehvi.log_ehvi(objectives, 0.4, nullptr, nullptr), first);
        const SparseMultiEhvi again(observed, {0.0, 0.0, 0.0}, 3.0);
        QCOMPARE(again.log_ehvi(objectives, 0.4, nullptr, nullptr), first);
    }
};

SEBO_TEST_MAIN(TestMultiEhvi)
}  // namespace test_multi_ehvi
#include "test_multi_ehvi.moc"
