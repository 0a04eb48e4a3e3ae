#include "model/likelihood_work.h"

#include <cassert>

namespace sebo {

double LikelihoodWork::flops() const {
    double total = 0.0;
    for (const PhaseWork& p : phases) total += p.flops;
    return total;
}

double LikelihoodWork::transcendentals() const {
    double total = 0.0;
    for (const PhaseWork& p : phases) total += p.transcendentals();
    return total;
}

const PhaseWork* LikelihoodWork::find(const std::string& phase) const {
    for (const PhaseWork& p : phases)
        if (p.phase == phase) return &p;
    return nullptr;
}

LikelihoodWork saas_gradient_work(long n_points, long dimension) {
    assert(n_points >= 1 && dimension >= 1);
    const double n = static_cast<double>(n_points);
    const double D = static_cast<double>(dimension);
    const double P = n * (n - 1.0) / 2.0;  // pairs i > j
    LikelihoodWork w;
    // ρ = exp(log ρ), σ² and the noise from their logs; S = X diag(√ρ): one product per entry.
    w.phases.push_back({"kernel inputs", n * D, D + 2.0, D, 0.0});
    // The lower triangle of G = S Sᵀ, diagonal included: D multiply-adds per entry.
    w.phases.push_back({"gram (syrk)", n * (n + 1.0) * D, 0.0, 0.0, 0.0});
    // Per pair: r² (3), √5 r (1 and a sqrt), e^{−√5 r} (an exp), k (5), dk/ds (3); per column the
    // scalar σ²·(−5/6), and per point the diagonal σ² + noise.
    w.phases.push_back({"matern elementwise", 12.0 * P + 2.0 * n, P, P, 0.0});
    // L_ij = (K_ij − Σ_{k<j} L_ik L_jk) / L_jj: 2j + 1 flops below the diagonal, 2j and a sqrt on it.
    w.phases.push_back({"cholesky (potrf)", (n * n * n - n) / 3.0 + P, 0.0, n, 0.0});
    // y − m, two triangular solves (n² each: 2i + 1 per row), (y − m)·α and Σ log L_ii.
    w.phases.push_back({"value (2 solves)", 2.0 * n * n + 4.0 * n, 0.0, 0.0, n});
    // (L⁻¹)_ij = −(Σ_{j<k≤i} (L⁻¹)_ik L_kj) / L_jj: 2(i − j) flops below the diagonal, a division on it.
    w.phases.push_back({"inverse factor (trtri)", (n * n * n - n) / 3.0 + n, 0.0, 0.0, 0.0});
    // (L⁻ᵀL⁻¹)_ij = Σ_{k≥i} (L⁻¹)_ki (L⁻¹)_kj for j ≤ i: 2(n − i) − 1 flops.
    w.phases.push_back({"K inverse (lauum)", n * (n + 1.0) * (2.0 * n + 1.0) / 6.0, 0.0, 0.0, 0.0});
    // 2W_ij = α_i α_j − (K⁻¹)_ij, its products with dk/ds and with k (summed) per pair, and the pair
    // weight added to the row sums of both its points; the diagonal's ½(α_i² − (K⁻¹)_ii) summed,
    // and Σ α_i.
    w.phases.push_back({"gradient weights", 7.0 * P + 5.0 * n, 0.0, 0.0, 0.0});
    // ∂L/∂log ρ_d = ρ_d Σ_i x_id (x_id r_i − (w x)_id): the symmetric product w x (n multiply-adds
    // per entry of the n×D result), 4 flops per entry to combine, and the product by ρ_d.
    w.phases.push_back({"lengthscale gradient (symm)", 2.0 * n * n * D + 4.0 * n * D + D, 0.0, 0.0, 0.0});
    // Per dimension: λ_d = exp(log λ_d) (twice), log ρ_d = log τ + log λ_d, the half-Cauchy log
    // density and its derivative (9 flops, a log and a log1p), the chain rule (5) and ∂/∂log τ's sum
    // (1); τ, σ², the noise and the mean add about 60 flops, 3 exps and 10 logs (lgamma included).
    w.phases.push_back({"SAAS prior", 16.0 * D + 60.0, 2.0 * D + 3.0, 0.0, 2.0 * D + 10.0});
    return w;
}

}  // namespace sebo
