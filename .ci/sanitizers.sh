#!/usr/bin/env bash
# CI: the test suite under sanitizers (docs/reliability.md, "Sanitizers").
#
#   1. AddressSanitizer (leak checking on) over the engine, the `sebo` CLI, the GUI library and
#      the tests, and UndefinedBehaviorSanitizer over the engine (below): every test except the
#      slow end-to-end ones and three long suites (ctest -LE slow, ASAN_SKIPPED) — every loader,
#      writer, importer, model, acquisition, optimizer and the external-command evaluator, in
#      process and through real `sebo` child processes, and the explorer's windows. The GUI was
#      left out for a while and a use-after-free in it went unseen: ASan reports it at once
#      (docs/reliability.md, "What the sanitizer stages cover").
#   2. ThreadSanitizer: the engine's threaded code — the external-command evaluator (concurrent
#      batches, its timeout and cancellation threads), the thread pool, the NUTS chains and the
#      optimizer restarts that run on it (a whole warm-started step, cancelled mid-fit too), and
#      the experiment files' writer lock (threads contending for it, a wait ended by a release or
#      a stop request from another thread); only those suites are built (SEBO_TESTS_ONLY). The
#      GUI's run controller and main window are left out: Debian's Qt is not built with TSan, so
#      the happens-before of Qt's event queue (futex-based QMutex) is invisible and every snapshot
#      handed from the worker thread to the GUI thread is reported as a race.
#
# Both are RelWithDebInfo (at -O1 -g1, below) with warnings as errors, and link the engine and the
# GUI library as shared libraries (SEBO_SHARED_LIBS): linked statically, every sanitized executable
# carried its own copy of them, about 400 MB each (docs/reliability.md, "Disk"). Any sanitizer
# report fails its test (the options below make every report fatal), and any failed test fails
# this script.
# QtTest's watchdog thread waits on a QWaitCondition inside uninstrumented QtCore, which TSan
# misreads as races at exit: .ci/tsan.supp suppresses exactly those (Qt frames only).
#
# Environment: ASAN_BUILD_DIR (default build-asan), TSAN_BUILD_DIR (default build-tsan),
# JOBS (default: number of cores), SANITIZERS ("asan tsan" by default; one of them to run only it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

JOBS=${JOBS:-$(nproc)}
ASAN_BUILD_DIR=${ASAN_BUILD_DIR:-build-asan}
TSAN_BUILD_DIR=${TSAN_BUILD_DIR:-build-tsan}
SANITIZERS=${SANITIZERS:-asan tsan}
TSAN_SUITES="test_command_evaluator;test_thread_pool;test_saas_nuts_chains;test_warm_start;test_file_lock"
# The three longest suites under ASan whose code the others run too (docs/reliability.md): the
# statistical quality of the model fits at larger sizes (the fits are those of test_gp_fit,
# test_saas_prior and the CLI runs), sebo bench end to end (its plan, runs and report are in
# test_bench_* and cli.test_cli_bench_commands), and the step corpus's 31 recorded candidate
# searches replayed for their quality bar (the candidate search runs in every model-based step of
# the engine, CLI and GUI suites; under ASan the corpus alone took 471 s of one core, a quarter of
# the stage's test time).
ASAN_SKIPPED="^(engine\.test_model_quality|cli\.test_cli_bench|engine\.test_step_corpus)$"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# GCC's -Wmaybe-uninitialized is unreliable with sanitizer instrumentation (it flags the
# destructor of a std::optional<std::string> loop variable in engine/experiment/experiment.cpp,
# which is initialized): off in these builds only; the normal -Werror build keeps it.
cxx_flags=""
if ! "${CXX:-c++}" -dM -E -x c++ /dev/null 2>/dev/null | grep -q __clang__; then
  cxx_flags="-Wno-maybe-uninitialized"
fi

# -O1 with line tables only (-g1), as the sanitizers' documentation suggests: reports still name
# file and line, and the builds take about half the time of -O2 -g, which kept CI near its hour
# (engine/model/saas_nuts_fit.cpp under ASan: 76 s and 9.8 MB with -O2 -g, 53 s and 5.2 MB with
# -O2 -g1 on the loaded 2-core machine; 22 s with -O2 -g1 against 10 s with -O1 -g1 on the idle one).
# The GUI in the ASan build only (above); the precompiled headers as in the normal build.
# UBSan is the costly part of the ASan build: with it a file takes 2.5 times as long to compile
# and its object is 3.5 times as large (engine/core/lbfgsb.cpp: 62 s and 15 MB, against 21 s and
# 4 MB with ASan alone, on 2 idle cores). So, in the ASan build (docs/reliability.md):
#   - UBSan checks the engine only (SEBO_SANITIZE_CLIENTS=address): the CLI, the GUI library, the
#     programs and the tests' own code are compiled with ASan alone;
#   - and only what ASan cannot see (SEBO_NO_SANITIZE leaves out the rest): signed overflow,
#     shifts, division by zero, array bounds, invalid bool and enum values, a missing return,
#     unreachable code. The pointer checks left out are what ASan reports when the pointer is
#     used (a null or misaligned dereference faults; an access past an object is an overflow) or
#     do not apply (vptr: the engine downcasts nothing). lbfgsb.cpp then takes 24 s.
configure() {  # dir sanitizers [more cmake arguments]
  local dir=$1 sanitizers=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
        -DSEBO_WERROR=ON -DSEBO_SHARED_LIBS=ON -DSEBO_SANITIZE="$sanitizers" -DCMAKE_CXX_FLAGS="$cxx_flags" \
        "${launcher[@]}" "$@"
}

export QT_QPA_PLATFORM=offscreen
failed=()
started=$SECONDS

if [[ " $SANITIZERS " == *" asan "* ]]; then
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer: build ($ASAN_BUILD_DIR)"
  t=$SECONDS
  configure "$ASAN_BUILD_DIR" "address,undefined" \
            -DSEBO_NO_SANITIZE=alignment,null,vptr,pointer-overflow,object-size,nonnull-attribute,returns-nonnull-attribute \
            -DSEBO_SANITIZE_CLIENTS=address
  # The test runners and the programs they run (their CMake dependencies): not the benchmarks'
  # recorder and latency probe, which no test runs.
  cmake --build "$ASAN_BUILD_DIR" -j "$JOBS" --target engine_tests cli_tests ui_tests
  echo "== ASan+UBSan build: $((SECONDS - t)) s"
  t=$SECONDS
  # Every report is fatal: ASan stops at the first error by default; UBSan is told to.
  if ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1" \
     UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
     ctest --test-dir "$ASAN_BUILD_DIR" -LE slow -E "$ASAN_SKIPPED" --output-on-failure -j "$JOBS"; then
    echo "== ASan+UBSan tests passed: $((SECONDS - t)) s"
  else
    echo "== ASan+UBSan tests FAILED: $((SECONDS - t)) s"
    failed+=(asan)
  fi
fi

if [[ " $SANITIZERS " == *" tsan "* ]]; then
  echo "== ThreadSanitizer: build ($TSAN_BUILD_DIR)"
  t=$SECONDS
  configure "$TSAN_BUILD_DIR" "thread" -DSEBO_TESTS_ONLY="$TSAN_SUITES" -DSEBO_BUILD_GUI=OFF
  cmake --build "$TSAN_BUILD_DIR" -j "$JOBS" --target engine_tests
  echo "== TSan build: $((SECONDS - t)) s"
  t=$SECONDS
  tsan_options="halt_on_error=1:second_deadlock_stack=1"
  [ -f .ci/tsan.supp ] && tsan_options+=":suppressions=$root/.ci/tsan.supp"
  if TSAN_OPTIONS="$tsan_options" \
     ctest --test-dir "$TSAN_BUILD_DIR" --output-on-failure -j "$JOBS"; then
    echo "== TSan tests passed: $((SECONDS - t)) s"
  else
    echo "== TSan tests FAILED: $((SECONDS - t)) s"
    failed+=(tsan)
  fi
fi

echo "== sanitizers: $((SECONDS - started)) s in total"
if [ ${#failed[@]} -gt 0 ]; then
  echo "== FAILED: ${failed[*]}" >&2
  exit 1
fi
