#!/bin/sh
# The AVX2 copy of the likelihood kernel (engine/model/likelihood_kernel_avx2.cpp) must define
# no code outside its own namespaces: an inline or template function it compiled with AVX2
# instructions could otherwise be chosen by the linker for the whole program, and crash it on
# a processor without AVX2. Data symbols (constants) are harmless and allowed. Nor may it have
# static initializers, which run before any CPU check.
# Usage: check_simd_symbols.sh "OBJECT;OBJECT;..." (CMake's $<TARGET_OBJECTS:sebo_engine>).
set -eu
object=$(printf '%s\n' "$1" | tr ';' '\n' | grep 'likelihood_kernel_avx2\.cpp\.o$' || true)
if [ -z "$object" ]; then
    echo "check_simd_symbols: no likelihood_kernel_avx2.cpp object among the engine's objects" >&2
    exit 1
fi
# Code that runs before main() (static initializers) would run on every processor.
if objdump -h "$object" | grep -q -E '\.(init_array|ctors)'; then
    echo "check_simd_symbols: $object has static initializers (.init_array/.ctors)" >&2
    exit 1
fi
# Global and weak code symbols (T, W) whose mangled name does not begin in sebo_avx2_eigen:: or
# sebo::likelihood_kernel::avx2:: (the outermost scope of an Itanium-mangled name is spelled out
# first; _ZZ is a function-local entity, K a const member function).
foreign=$(nm --defined-only "$object" |
    awk '$2 == "T" || $2 == "W" { print $3 }' |
    grep -v -E '^_ZZ?NK?(15sebo_avx2_eigen|4sebo17likelihood_kernel4avx2)' || true)
count=$(nm --defined-only "$object" | awk '$2 == "T" || $2 == "W"' | wc -l)
if [ -n "$foreign" ]; then
    echo "check_simd_symbols: $object defines code outside its namespaces:" >&2
    printf '%s\n' "$foreign" | c++filt >&2
    exit 1
fi
echo "check_simd_symbols: $count code symbols in $object, all in sebo_avx2_eigen:: or sebo::likelihood_kernel::avx2::"
