#!/usr/bin/env bash
# CI: the test suite under sanitizers (docs/reliability.md, "Sanitizers").
#
#   1. AddressSanitizer + UndefinedBehaviorSanitizer (leak checking on): the engine, the `sebo`
#      CLI and the GUI library (the tests' own code under ASan alone, below), every test except the
#      slow end-to-end ones (ctest -LE slow) — every loader, writer, importer, model, acquisition,
#      optimizer and the external-command evaluator, in process and through real `sebo` child
#      processes, and the explorer's windows. The GUI was left out for a while and a
#      use-after-free in it went unseen: ASan reports it at once (docs/reliability.md, "What the
#      sanitizer stages cover").
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
# The two longest suites under ASan whose code the others run too (docs/reliability.md): the
# statistical quality of the model fits at larger sizes (the fits are those of test_gp_fit,
# test_saas_prior and the CLI runs), and sebo bench end to end (its plan, runs and report are in
# test_bench_* and cli.test_cli_bench_commands).
ASAN_SKIPPED="^(engine\.test_model_quality|cli\.test_cli_bench)$"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# GCC's -Wmaybe-uninitialized is unreliable with sanitizer instrumentation (it flags the
# destructor of a std::optional<std::string> loop variable in engine/experiment/experiment.cpp,
# which is initialized): off in these builds only; the normal -Werror build keeps it.
extra_flags=()
if ! "${CXX:-c++}" -dM -E -x c++ /dev/null 2>/dev/null | grep -q __clang__; then
  extra_flags=(-DCMAKE_CXX_FLAGS=-Wno-maybe-uninitialized)
fi

# -O1 with line tables only (-g1), as the sanitizers' documentation suggests: reports still name
# file and line, and the builds take about half the time of -O2 -g, which kept CI near its hour
# (engine/model/saas_nuts_fit.cpp under ASan: 76 s and 9.8 MB with -O2 -g, 53 s and 5.2 MB with
# -O2 -g1 on the loaded 2-core machine; 22 s with -O2 -g1 against 10 s with -O1 -g1 on the idle one).
# The GUI in the ASan build only (above); the precompiled headers as in the normal build. In the ASan
# build the tests' own code is compiled with ASan alone (SEBO_SANITIZE_TESTS=address): UBSan
# doubles a file's compile time (tests/engine/test_nuts.cpp: 48 s with both, 25 s with ASan alone)
# and would check the tests rather than the program; the engine and `sebo` keep both.
configure() {  # dir sanitizers [more cmake arguments]
  local dir=$1 sanitizers=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
        -DSEBO_WERROR=ON -DSEBO_SHARED_LIBS=ON -DSEBO_SANITIZE="$sanitizers" "${extra_flags[@]}" "${launcher[@]}" "$@"
}

export QT_QPA_PLATFORM=offscreen
failed=()
started=$SECONDS

if [[ " $SANITIZERS " == *" asan "* ]]; then
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer: build ($ASAN_BUILD_DIR)"
  t=$SECONDS
  configure "$ASAN_BUILD_DIR" "address,undefined" -DSEBO_SANITIZE_TESTS=address
  cmake --build "$ASAN_BUILD_DIR" -j "$JOBS"
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
