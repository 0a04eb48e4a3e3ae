#include "cli/sampler_options.h"

#include "core/thread_pool.h"

namespace sebo::cli {

OptionSpec threads_option() {
    return {"threads", "N",
            "threads for NUTS chains and optimizer restarts (default: the CPUs available, " +
                std::to_string(default_thread_count()) + " here)"};
}

OptionSpec nuts_option() {
    return {"nuts", "MODE",
            "SAAS sampling: fast (chains in parallel, warm-started; the default) or paper (the paper's single chain, "
            "512 warm-up, 256 samples, every 16th kept, from scratch every step)"};
}

int threads_from(const Arguments& parser) {
    return static_cast<int>(parser.integer("threads", 1, ThreadPool::kMaxThreads).value_or(default_thread_count()));
}

OptionSpec noisy_acquisition_option() {
    return {"noisy-acquisition", "MODE",
            "auto (the default: integrate over the posterior at the measured configurations when the model infers "
            "noise), on, or off (trust the measured values, as before format version 7)"};
}

void apply_noisy_acquisition_flag(const Arguments& parser, MethodSettings& method) {
    const auto name = parser.value("noisy-acquisition");
    if (!name) return;
    const auto mode = noisy_acquisition_from_string(*name);
    if (!mode) throw UsageError("--noisy-acquisition: unknown setting '" + *name + "' (known: auto, on, off)");
    method.noisy_acquisition = *mode;
}

void apply_nuts_flag(const Arguments& parser, MethodSettings& method) {
    const auto name = parser.value("nuts");
    if (!name) return;
    const auto mode = nuts_mode_from_string(*name);
    if (!mode) throw UsageError("--nuts: unknown setting '" + *name + "' (known: fast, paper)");
    method.nuts = *mode;
}

}  // namespace sebo::cli
