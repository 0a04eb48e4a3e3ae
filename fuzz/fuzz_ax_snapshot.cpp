// libFuzzer target: the Ax snapshot importer (engine/io/import_ax.*) on arbitrary bytes. Every
// input must either be refused with an InputError or give a consistent experiment that saves and
// loads back unchanged (import_check.h); any other exception, crash, sanitizer report, hang or
// leak is a finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "import_check.h"
#include "io/import_ax.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const std::string broken = sebo::fuzz::check_imported(sebo::import_ax_snapshot_text(text));
        if (!broken.empty()) sebo::fuzz::finding("an imported Ax experiment broke a rule", broken);
    } catch (const sebo::InputError&) {
        // Refused with a message: the expected outcome for most inputs.
    }
    return 0;
}
