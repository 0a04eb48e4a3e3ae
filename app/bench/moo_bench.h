#pragma once
// sebo-bench's multi-objective section (issue 13): the cost of one evaluation of the exact EHVI of
// several objectives (value and gradient; acquisition/multi_ehvi.h), next to the one-objective
// closed form it generalizes, and of the exact m-objective hypervolume and its trace
// (pareto/hypervolume_nd.h, pareto/sparse_hypervolume.h). Prints its own table (microseconds per
// evaluation) and returns the figures in seconds per evaluation for the CSV.

#include <cstdint>
#include <vector>

#include "bench_timing.h"

namespace sebo_bench {

struct MooBenchOptions {
    bool ehvi = true;         // the "ehvi" rows
    bool hypervolume = true;  // the "hypervolume" rows
    int repetitions = 3;
    std::uint64_t seed = 0;
};

std::vector<Figure> run_moo_benchmarks(const MooBenchOptions& options);

}  // namespace sebo_bench
