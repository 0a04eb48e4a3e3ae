#include "cli/sampler_options.h"

#include "core/thread_pool.h"

namespace sebo::cli {

OptionSpec threads_option() {
    return {"threads", "N",
            "threads for NUTS chains, SAAS-MAP's values of tau and optimizer restarts (default: the CPUs available, " +
                std::to_string(default_thread_count()) + " here)"};
}

int threads_from(const Arguments& parser) {
    return static_cast<int>(parser.integer("threads", 1, ThreadPool::kMaxThreads).value_or(default_thread_count()));
}

}  // namespace sebo::cli
