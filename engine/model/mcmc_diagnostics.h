#pragma once
// Convergence diagnostics of several Markov chains: the rank-normalized split R-hat and the bulk
// effective sample size of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-
// normalization, folding, and localization: An improved R-hat for assessing convergence of MCMC",
// Bayesian Analysis 16(2), 667–718 — the diagnostics Stan and ArviZ report.
//
// Every function takes the draws of one scalar quantity as a matrix with one column per chain and
// one row per iteration (all chains of the same length, warm-up excluded). They are pure; NaN is
// returned where a diagnostic is undefined (a non-finite draw, too few iterations).

#include <Eigen/Core>

namespace sebo {

// Each chain cut into its first and second half (§4.2, "split"): 2M columns of ⌊N/2⌋ rows; with
// an odd N the middle iteration is dropped. One iteration per chain is returned unchanged.
Eigen::MatrixXd split_chains(const Eigen::MatrixXd& draws);

// Rank normalization (§4.1, eq. 14): every draw replaced by the normal score of its rank r among
// all S draws pooled, z = Φ⁻¹((r − 3/8) / (S + 1/4)) (Blom's offset), average ranks for ties.
// Requires finite draws.
Eigen::MatrixXd rank_normalize(const Eigen::MatrixXd& draws);

// The classic potential scale reduction of Gelman & Rubin over the given chains (BDA3 §11.4):
// √(((N − 1)/N · W + B/N) / W) with W the mean within-chain variance and B/N the variance of the
// chain means. 1 when every draw is the same; NaN for a non-finite draw or fewer than 2 rows.
double basic_rhat(const Eigen::MatrixXd& chains);

// The effective sample size of the given chains (§3.2, eq. 10–11): the multi-chain
// autocorrelation ρ̂_t = 1 − (W − mean of s²_m ρ̂_{t,m}) / var⁺ with Geyer's initial positive and
// monotone sequences, τ̂ = −1 + 2 Σ ρ̂_t (plus the first discarded even lag, as Stan and the
// `posterior` package do), ESS = M·N / max(τ̂, 1/log10(M·N)). M·N when every draw is the same;
// NaN for a non-finite draw or fewer than 3 rows.
double effective_sample_size(const Eigen::MatrixXd& chains);

// R̂ (§4.3): the larger of the rank-normalized split R-hat (bulk) and the rank-normalized split
// R-hat of the draws folded around their median, |θ − median| (tails). Values above 1.01 call for
// care, above 1.05 the chains have not mixed (the paper recommends 1.01; 1.05 is what this
// program warns at for its short chains).
double split_rank_normalized_rhat(const Eigen::MatrixXd& draws);

// Bulk-ESS (§4.3): the effective sample size of the rank-normalized split chains.
double bulk_effective_sample_size(const Eigen::MatrixXd& draws);

}  // namespace sebo
