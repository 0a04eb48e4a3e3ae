#pragma once
// Exact hypervolume of m = 1..4 objectives, all maximized: the volume of the union of the boxes
// [r, p] over the points p that are strictly better than the reference r in every coordinate.
//
//   m = 1: the largest p − r;  m = 2: a sort and a sweep, O(n log n);
//   m = 3: the dimension sweep of Fonseca, Paquete & López-Ibáñez (CEC 2006) — points by the third
//          coordinate descending, the area of a 2-D staircase kept up to date per insertion,
//          O(n log n);
//   m = 4: slicing along the fourth coordinate, one 3-D sweep per slice, O(n² log n).
//
// Finite for any finite input: every coordinate is measured from the reference and scaled by a
// power of two so that the largest difference lies in [1, 2) (so no product of differences can
// overflow), the volume is computed in those units, and scaled back once at the end. Scaling by
// powers of two is exact, so for ordinary inputs the result is bit for bit the unscaled
// computation's; a volume too large for a double (e.g. 2e308 × 2e308) saturates at the largest
// finite double instead of becoming infinite. The volume is invariant, to the last bit, under
// adding dominated or repeated points.

#include <cstddef>
#include <span>
#include <vector>

namespace sebo {

// The number of objectives the exact hypervolume handles.
inline constexpr int kMaxHypervolumeObjectives = 4;

// points: each of size m = reference.size(), 1 <= m <= 4; finite.
double hypervolume_nd(const std::vector<std::vector<double>>& points, const std::vector<double>& reference);

// The building blocks, for callers that split a volume into parts (pareto/sparse_hypervolume.h).
// Per coordinate d, the exponent e_d with max_i (p_id − r_d)·2^(−e_d) in [1, 2) over the given
// points (0 where there are none); all points must be strictly better than the reference.
std::vector<int> hypervolume_exponents(const std::vector<std::vector<double>>& points,
                                       const std::vector<double>& reference);
// (p − r)·2^(−e), without the overflow of forming p − r first.
double scaled_difference(double p, double r, int e);
// The hypervolume of rows (a flat array, stride m) whose coordinates are all positive, with the
// reference at the origin.
double positive_hypervolume(std::span<const double> rows, int m);
// volume·2^exponent, saturated at the largest finite double.
double unscale_volume(double volume, int exponent);

}  // namespace sebo
