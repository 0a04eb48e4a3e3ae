#!/usr/bin/env bash
# Makes the bundled example experiments other than branin-50d.sebo.json with the command line,
# so that they can be made again (and checked) with a newer engine:
#
#   resources/examples/make-examples.sh build/app/sebo
#
# sourcing-25.sebo.json   a finished SEBO-L0 run on the recommender sourcing simulation (paper
#                         App. F.1): 25 integer retrieval counts
# hartmann6-50d.sebo.json a finished SEBO-L0 run on Hartmann6 hidden in 50 dimensions
# service-tuning.sebo.json an experiment of one's own, measured by hand: past measurements
#                         imported, batches suggested and recorded, a failure, and three trials
#                         still waiting for their results
#
# The model is saas-map (seconds per trial) rather than the paper's SAAS sampled with NUTS
# (minutes per trial); the descriptions say so. Everything is seeded: the same engine makes the
# same files.
set -euo pipefail
sebo=$(realpath "${1:?usage: make-examples.sh path/to/sebo}")
cd "$(dirname "$0")"

"$sebo" run --problem sourcing --strategy sebo-l0 --model saas-map --init 8 --trials 40 --seed 2 \
  --name "Recommender sourcing, 25 sources" \
  --description "A finished run on the recommender sourcing simulation of the paper (App. F.1): how many items to retrieve from each of 25 sources (integers 0-50, target 0), quality maximized. SEBO-L0 with the fast saas-map model, 8 Sobol + 32 model trials, seed 2. Made with resources/examples/make-examples.sh." \
  --out sourcing-25.sebo.json --force --quiet

"$sebo" run --problem hartmann6 --strategy sebo-l0 --model saas-map --init 8 --trials 60 --seed 7 \
  --name "Hartmann6 in 50 dimensions" \
  --description "A finished run on Hartmann6 hidden in 50 dimensions, of which only x0-x5 matter (minimized, target 0). SEBO-L0 with the fast saas-map model, 8 Sobol + 52 model trials, seed 7. Made with resources/examples/make-examples.sh." \
  --out hartmann6-50d.sebo.json --force --quiet

# Your own system, measured by hand. The "measurements" are the README's stand-in for a service.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/space.csv" <<'CSV'
name,kind,lower,upper,log,target
cache_mb,integer,64,4096,true,256
prefetch,continuous,0,1,,0
threads,integer,1,32,,8
compression,integer,0,9,,0
timeout_ms,continuous,10,1000,true,100
retry_backoff,continuous,0,5,,1
CSV
# Fills the throughput column of a sheet written by 'sebo suggest --csv' (columns: trial,
# cache_mb, prefetch, threads, compression, timeout_ms, retry_backoff, throughput).
measure() {
  awk -F, 'NR == 1 { print; next }
    { l = log($2) / log(2) - 10; p = $3; t = $4 - 8; if (t < 0) t = -t
      v = 1000 + 400 * exp(-l * l / 4) + 300 * p * (1 - p) - 2 * t - 5 * $5
      printf "%s,%s,%s,%s,%s,%s,%s,%.1f\n", $1, $2, $3, $4, $5, $6, $7, v }' "$1" > "$1.filled"
}
lab=service-tuning.sebo.json
"$sebo" new --space "$work/space.csv" --objective throughput --evaluator manual --model saas-map --init 6 \
  --trials 30 --seed 11 --name "Tuning a service by hand" \
  --description "Your own system, measured by hand: six settings of a service (target: today's defaults), throughput maximized. Trials are suggested in batches and their results typed in or imported; trial 12 failed, and the last three are still waiting for their results. Made with resources/examples/make-examples.sh." \
  --out "$lab" --force --quiet
for round in 1 2 3; do
  "$sebo" suggest "$lab" --count 4 --csv "$work/batch.csv" --force > /dev/null
  measure "$work/batch.csv"
  "$sebo" observe "$lab" --csv "$work/batch.csv.filled" --quiet
done
"$sebo" suggest "$lab" --count 1 > /dev/null
"$sebo" observe "$lab" --trial 12 --failed "the load generator crashed halfway" --quiet
"$sebo" suggest "$lab" --count 3 > /dev/null
"$sebo" info "$lab"
