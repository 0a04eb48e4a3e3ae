#pragma once
// sebo-bench's flops section (issue 34): where one value and gradient of the SAAS log posterior
// (model/saas_prior.h) stands against what this machine can do. For the data of a (n, D) it times
// the evaluation with the likelihood kernel in use, and the baseline copy beside it when that is
// another, and divides the flops it needs (model/likelihood_work.h) by the time; and it times, in
// the same run and with both of the kernel's instruction sets, the kinds of arithmetic the
// evaluation is made of (peak_kernels.h) at the evaluation's shapes. Once per run, the machine's
// ceiling: multiply-adds in registers, and a large matrix product. Prints its own table
// (microseconds per call, GFLOP/s) and returns the figures, in seconds per call, for the CSV.

#include <vector>

#include "bench_timing.h"
#include "model/training_data.h"

namespace sebo_bench {

// The machine's ceilings, GFLOP/s, for the rows' fractions.
struct PeakRates {
    double nominal_ghz = 0.0;  // the clock the kernel reports (/proc/cpuinfo), 0 when unknown
    double fma = 0.0;          // register-only AVX2 FMA chains; 0 without the AVX2 copy
    double gemm_avx2 = 0.0;    // 512×512 Eigen GEMM, AVX2 + FMA copy (0 without it)
    double gemm_generic = 0.0; // the same, baseline copy
};

// Measures and prints the ceilings (about 1.5 s × budget_scale); `nominal_mhz` is /proc/cpuinfo's
// "cpu MHz" (0 when unknown).
PeakRates run_peak_benchmarks(double nominal_mhz, double budget_scale, std::vector<Figure>& figures);

// The rows for one data set (about 10 s × budget_scale, 21 rounds of calls at least): the SAAS log
// posterior's value and gradient, and the kernels at its shapes.
void run_flops_benchmarks(const sebo::TrainingData& data, const PeakRates& peak, double budget_scale,
                          std::vector<Figure>& figures);

}  // namespace sebo_bench
