// libFuzzer target: the Optuna journal importer (engine/io/optuna_journal.*, import_optuna.cpp)
// on arbitrary bytes: the journal is replayed and every study in it mapped to an experiment
// (import_check.h). Only InputErrors may leave it.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "import_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const std::string broken = sebo::fuzz::check_journal(text);
        if (!broken.empty()) sebo::fuzz::finding("an imported Optuna study broke a rule", broken);
    } catch (const sebo::InputError&) {
    }
    return 0;
}
