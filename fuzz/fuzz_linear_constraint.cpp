// libFuzzer target: the linear-constraint parser (engine/space/linear_constraint.*) on arbitrary
// bytes, and the polytope machinery on whatever parses (linear_constraint_check.h). Nothing may
// crash or throw; the invariants of the check must hold.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "linear_constraint_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string broken = sebo::fuzz::check_linear_constraints(text);
    if (!broken.empty()) sebo::fuzz::finding("a linear-constraint invariant broke", broken);
    return 0;
}
