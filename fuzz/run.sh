#!/usr/bin/env bash
# Builds the libFuzzer targets (SEBO_FUZZ=ON, clang) and runs each one for SECONDS (default 60)
# on its committed corpus plus the regression inputs. New inputs go to a scratch folder, so the
# committed corpus is not changed. Exits non-zero when a target finds a crash, a sanitizer
# report, a timeout (> 5 s per input), an out-of-memory (> 2048 MB) or a leak; the input that
# triggered it is left in the artifacts folder named at the end.
#
#   fuzz/run.sh [SECONDS]
#   SEBO_FUZZ_BUILD_DIR  build folder (default: <repo>/build-fuzz)
#   SEBO_FUZZ_JOBS       targets run at the same time (default: the number of cores)
#   CXX / CC             clang to use (default: clang++-14 / clang-14 when present, else clang++ / clang)
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: fuzz/run.sh [SECONDS]   (SECONDS: a whole number >= 1, per target)" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SEBO_FUZZ_BUILD_DIR:-$root/build-fuzz}"

if [ -z "${CXX:-}" ]; then
  if command -v clang++-14 >/dev/null; then CXX=clang++-14; CC=clang-14; else CXX=clang++; CC=clang; fi
fi
if ! command -v "$CXX" >/dev/null; then
  echo "fuzz/run.sh: $CXX not found; libFuzzer needs clang (apt-get install clang-14)" >&2
  exit 2
fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC="${CC:-clang}" CXX="$CXX" cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSEBO_FUZZ=ON -DSEBO_BUILD_GUI=OFF -DSEBO_BUILD_TESTS=OFF "${launcher[@]}"
fi
cmake --build "$build" --target fuzz_experiment_file fuzz_csv_import fuzz_linear_constraint fuzz_ax_snapshot \
  fuzz_optuna_journal fuzz_optuna_sqlite

scratch="$(mktemp -d "${TMPDIR:-/tmp}/sebo-fuzz.XXXXXX")"
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
# Targets run side by side, one per core (SEBO_FUZZ_JOBS, default: the cores): each is
# single-threaded, so on 2 cores the stage takes half the wall time for the same fuzzing.
jobs="${SEBO_FUZZ_JOBS:-$(nproc)}"
run_target() {  # target name max_len; exit status in $scratch/$name.status
  local target=$1 name=$2 max_len=$3
  mkdir -p "$scratch/$name"
  local inputs=("$scratch/$name" "$root/fuzz/corpus/$name")
  if [ -d "$root/fuzz/regressions/$name" ]; then inputs+=("$root/fuzz/regressions/$name"); fi
  # The dictionary: the format's words and numbers at the edges of double (issue 18).
  local code=0
  "$build/fuzz/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len="$max_len" \
      -dict="$root/fuzz/dictionaries/$name.dict" \
      -print_final_stats=1 -artifact_prefix="$artifacts/$name-" "${inputs[@]}" 2>"$scratch/$name.log" || code=$?
  echo "$code" >"$scratch/$name.status"
}
# target, its corpus and regression folder name, the longest input to generate
specs=("fuzz_experiment_file experiment_file 16384" "fuzz_csv_import csv_import 4096"
       "fuzz_linear_constraint linear_constraint 512" "fuzz_ax_snapshot ax_snapshot 32768"
       "fuzz_optuna_journal optuna_journal 32768" "fuzz_optuna_sqlite optuna_sqlite 32768")
running=0
for spec in "${specs[@]}"; do
  read -r target name max_len <<<"$spec"
  echo "== $target: $seconds s"
  run_target "$target" "$name" "$max_len" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
status=0
for spec in "${specs[@]}"; do
  read -r target name max_len <<<"$spec"
  if [ "$(cat "$scratch/$name.status" 2>/dev/null || echo 1)" != 0 ]; then
    status=1
    tail -n 60 "$scratch/$name.log" >&2
    echo "fuzz/run.sh: $target found a problem; the input is in $artifacts (named $name-*)" >&2
  else
    echo "== $target:"
    grep -E '^#[0-9]+.*DONE|^stat::number_of_executed_units|^stat::peak_rss_mb' "$scratch/$name.log" || true
  fi
done
rm -rf "$scratch"
if [ "$status" -eq 0 ]; then echo "fuzz/run.sh: no findings"; fi
exit "$status"
