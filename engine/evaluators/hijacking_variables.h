#pragma once
// Environment variables that let an experiment file change what its evaluator runs without
// changing the command line a person approves: hooks of the dynamic loader, of shells and of the
// common interpreters, of libraries and tools such programs use (OpenMP, CUDA, matplotlib, git,
// package managers and build tools), which load a library, a module or a start-up script of the
// file's choosing into an innocent-looking `python3 evaluate.py`, or pick which `python3` runs at all.
//
// Both front ends refuse a file whose evaluator environment sets one of them unless the person
// allows that variable by name (`sebo run --allow-env NAME`, a tick in the GUI's dialog). The
// list is deliberately of whole families where an interpreter keeps adding hooks (PYTHON*, LD_*):
// a harmless member (PYTHONUNBUFFERED) then needs one explicit allowance, which is cheaper than
// missing a new hook. Variables outside the list (OMP_NUM_THREADS, CUDA_VISIBLE_DEVICES, ...)
// are not refused, but they are shown like everything else (command_review.h).

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sebo {

// How a rule's pattern picks names.
enum class NameMatch {
    Exact,               // the name itself
    Prefix,              // every name that starts with the pattern (a family: PYTHON*, LD_*)
    PrefixIgnoringCase,  // the same in any letter case, for programs that read names so (npm)
};

struct HijackingVariableRule {
    std::string_view pattern;  // a name, or the start of a family of names
    NameMatch match;
    std::string_view reason;   // what the variable makes the program (or its interpreter) do
};

// Every rule, for the documentation and its test.
std::span<const HijackingVariableRule> hijacking_variable_rules();

// Why `name` can hijack the program, or nothing when it cannot. Names are compared exactly
// (environment names are case-sensitive), except by the rules of programs that ignore case.
std::optional<std::string> hijack_reason(std::string_view name);

}  // namespace sebo
