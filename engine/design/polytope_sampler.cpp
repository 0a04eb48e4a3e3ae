#include "design/polytope_sampler.h"

#include <Eigen/QR>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "design/sobol.h"
#include "core/portable_random.h"
#include "space/polytope_analysis.h"
#include "space/polytope_projection.h"

namespace sebo {

std::optional<std::string> PolytopeSamplerOptions::validate() const {
    if (acceptance_probe < 1) return "acceptance_probe: " + std::to_string(acceptance_probe) + " must be at least 1";
    if (!(min_acceptance > 0.0 && min_acceptance <= 1.0)) return "min_acceptance must be in (0, 1]";
    if (burn_in_per_dimension < 0) return "burn_in_per_dimension: " + std::to_string(burn_in_per_dimension) + " must not be negative";
    if (thinning_per_dimension < 1) return "thinning_per_dimension: " + std::to_string(thinning_per_dimension) + " must be at least 1";
    return std::nullopt;
}

namespace {

Eigen::VectorXd to_vector(const std::vector<double>& p) { return Eigen::Map<const Eigen::VectorXd>(p.data(), static_cast<Eigen::Index>(p.size())); }

// The Sobol points inside P, in sequence order, from the `first`-th one on.
bool rejection(const Polytope& p, const ScrambledSobol& sobol, int first, int count, int probe, PolytopeSample& out) {
    const auto wanted = static_cast<std::size_t>(first) + static_cast<std::size_t>(count);
    // The probe said at least min_acceptance of the cube is inside; a scan this long finding too
    // few points means the probe was badly unrepresentative.
    const std::uint64_t limit = 100 * (static_cast<std::uint64_t>(wanted) + static_cast<std::uint64_t>(probe));
    std::size_t inside = 0;
    const int batch = 1024;
    for (std::uint64_t index = 0; inside < wanted && index < limit; index += batch) {
        for (const auto& point : sobol.points(index, batch)) {
            const Eigen::VectorXd u = to_vector(point);
            if (!p.contains(u)) continue;
            if (inside >= static_cast<std::size_t>(first) && inside < wanted) out.points.push_back(u);
            ++inside;
        }
    }
    return inside >= wanted;
}

bool hit_and_run(const Polytope& p, const PolytopeAnalysis& a, std::uint64_t seed, int first, int count,
                 const PolytopeSamplerOptions& options, PolytopeSample& out) {
    const Eigen::Index d = p.dimension(), k = a.directions.cols();
    if (k == 0) {  // a single point
        for (int i = 0; i < count; ++i) out.points.push_back(a.centre);
        return p.contains(a.centre);
    }
    // The rows that bound chords: the polytope's inequalities that are not implicit equalities,
    // and the box (a side that is an implicit equality has zero rate along every direction).
    std::vector<int> rows;
    for (Eigen::Index i = 0; i < p.inequality_matrix().rows(); ++i)
        if (std::find(a.implicit_equalities.begin(), a.implicit_equalities.end(), static_cast<int>(i)) == a.implicit_equalities.end())
            rows.push_back(static_cast<int>(i));
    Eigen::MatrixXd g(static_cast<Eigen::Index>(rows.size()), d);
    Eigen::VectorXd h(g.rows());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        g.row(static_cast<Eigen::Index>(r)) = p.inequality_matrix().row(rows[r]);
        h[static_cast<Eigen::Index>(r)] = p.inequality_bound()[rows[r]];
    }

    // Directions: a standard normal vector of R^D with its component outside the hull's span
    // removed is isotropic in the hull. With Q an orthonormal basis of the complement of the span
    // (D × (D − k): as many columns as equalities, usually few) this costs O(D·(D − k)) per step
    // instead of O(D·k) for mapping k normals through the span's basis.
    Eigen::MatrixXd q(d, d - k);
    if (d > k) {
        const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a.directions);
        q = qr.householderQ() * Eigen::MatrixXd::Identity(d, d).rightCols(d - k);
    }
    const auto along_hull = [&](const Eigen::VectorXd& v) -> Eigen::VectorXd { return q.cols() > 0 ? Eigen::VectorXd(v - q * (q.transpose() * v)) : v; };

    PortableRandom rng(seed ^ 0x4A17'AD5E'0C0F'FEE1ull);
    Eigen::VectorXd x = a.centre, z(d), dir(d);
    const auto step = [&]() {
        for (Eigen::Index i = 0; i < d; ++i) z[i] = rng.normal();
        dir = along_hull(z);
        dir /= dir.norm();
        double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
        const auto limit_by = [&](double rate, double slack) {
            slack = std::max(0.0, slack);
            if (rate > 1e-12) hi = std::min(hi, slack / rate);
            else if (rate < -1e-12) lo = std::max(lo, slack / rate);
        };
        if (g.rows() > 0) {
            const Eigen::VectorXd rates = g * dir, slacks = h - g * x;
            for (Eigen::Index r = 0; r < g.rows(); ++r) limit_by(rates[r], slacks[r]);
        }
        // The box, vectorized: along dir, side u_j = 1 is at (1 − x_j)/dir_j and side u_j = 0 at
        // −x_j/dir_j; the larger bounds the chord from above, the smaller from below.
        const Eigen::ArrayXd to_upper = (1.0 - x.array()).max(0.0) / dir.array();
        const Eigen::ArrayXd to_lower = -x.array().max(0.0) / dir.array();
        const auto moving = dir.array().abs() > 1e-12;
        hi = std::min(hi, moving.select(to_upper.max(to_lower), std::numeric_limits<double>::infinity()).minCoeff());
        lo = std::max(lo, moving.select(to_upper.min(to_lower), -std::numeric_limits<double>::infinity()).maxCoeff());
        if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) return;  // no chord: stay
        x += (lo + (hi - lo) * rng.uniform()) * dir;
    };
    const int burn_in = options.burn_in_per_dimension * static_cast<int>(k);
    const int thinning = options.thinning_per_dimension * static_cast<int>(k);
    for (int i = 0; i < first + count; ++i) {
        const int steps = i == 0 ? std::max(1, burn_in) : thinning;
        for (int s = 0; s < steps; ++s) {
            step();
            // Round-off drifts off the equalities' subspace over many steps: back onto it.
            if (s % 64 == 63) x = a.centre + along_hull(x - a.centre);
        }
        if (i < first) continue;
        if (p.contains(x)) {
            out.points.push_back(x);
            continue;
        }
        // On a chord's end round-off can leave a point a hair outside: the nearest point inside.
        const PolytopeProjection inside = project_onto_polytope(p, x.cwiseMax(0.0).cwiseMin(1.0));
        if (inside.status != PolytopeProjection::Status::Ok) return false;
        out.points.push_back(inside.x);
    }
    return true;
}

}  // namespace

PolytopeSample sample_polytope(const Polytope& polytope, int count, std::uint64_t seed, const PolytopeSamplerOptions& options, int first) {
    assert(!options.validate());
    assert(count >= 0 && first >= 0);
    const int d = polytope.dimension();
    assert(d >= 1 && d <= ScrambledSobol::kMaxDimension);
    PolytopeSample out;
    const ScrambledSobol sobol(d, seed);
    if (polytope.equality_matrix().rows() == 0) {
        int inside = 0;
        for (const auto& point : sobol.points(0, options.acceptance_probe))
            if (polytope.contains(to_vector(point))) ++inside;
        out.acceptance = static_cast<double>(inside) / options.acceptance_probe;
    }
    if (out.acceptance >= options.min_acceptance) {
        out.method = PolytopeSamplingMethod::Rejection;
        if (rejection(polytope, sobol, first, count, options.acceptance_probe, out)) {
            out.status = PolytopeSample::Status::Ok;
        } else {
            out.points.clear();
            out.message = "rejection sampling found fewer points inside the constraints than the acceptance probe promised";
        }
        return out;
    }
    out.method = PolytopeSamplingMethod::HitAndRun;
    const PolytopeAnalysis analysis = analyze_polytope(polytope);
    if (analysis.status != PolytopeAnalysis::Status::Feasible) {
        out.status = analysis.status == PolytopeAnalysis::Status::Empty ? PolytopeSample::Status::Empty : PolytopeSample::Status::Failed;
        out.message = analysis.message;
        return out;
    }
    if (hit_and_run(polytope, analysis, seed, first, count, options, out)) {
        out.status = PolytopeSample::Status::Ok;
    } else {
        out.points.clear();
        out.message = "a hit-and-run sample could not be brought inside the constraints (numerical trouble)";
    }
    return out;
}

}  // namespace sebo
