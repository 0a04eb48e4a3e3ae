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
# web-service.sebo.json   two objectives and a limit: throughput up, p99 latency down, memory at
#                         most 2 GB; a choice among compressions and a limit on the threads
# mixed-space.sebo.json   a finished run on the mixed problem: fractions that share a budget
#                         (a linear constraint), an integer, two choices, a fixed parameter
# noisy-lab.sebo.json     noisy measurements: a finished run on Hartmann6 with noise, whose
#                         recommended configurations were measured twice more (replicates)
#
# The model is saas-map (seconds per trial) rather than the paper's SAAS sampled with NUTS
# (minutes per trial); the descriptions say so. Everything is seeded: the same engine makes the
# same files.
set -euo pipefail
sebo=$(realpath "${1:?usage: make-examples.sh path/to/sebo}")
cd "$(dirname "$0")"

"$sebo" run --problem sourcing --strategy sebo-l0 --model saas-map --init 8 --trials 40 --seed 2 \
  --name "Recommender sourcing, 25 sources" \
  --description "A recommender takes items from 25 sources: how many from each (0 to 50; today none) gives the best recommendations? A finished run of 40 trials (8 random, 32 guided by the model) on the simulation of the SEBO paper. The frontier shows how much quality each extra source buys, so you can stop at the few that matter. Made with resources/examples/make-examples.sh." \
  --out sourcing-25.sebo.json --force --quiet

"$sebo" run --problem hartmann6 --strategy sebo-l0 --model saas-map --init 8 --trials 60 --seed 7 \
  --name "Hartmann6 in 50 dimensions" \
  --description "A test function with a known answer, hidden among 50 settings of which only 6 (x0 to x5) matter; lower is better, and today every setting is 0. A finished run of 60 trials: the frontier shows how close a handful of changes gets to the best value, and the activation chart finds the 6 settings that matter. Made with resources/examples/make-examples.sh." \
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
  --description "Your own system, measured by hand: six settings of a service, starting from today's defaults, to get more throughput. The tool suggests settings in batches; their results were typed in or imported from a spreadsheet. Trial 12 failed, and the last three are still waiting for their results. Made with resources/examples/make-examples.sh." \
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

# Two objectives and a limit, measured by hand (issue 32: every view shows every objective). The
# "measurements" are a made-up service: throughput peaks near 1 GB of cache and 12 workers, lz4
# helps, zstd costs latency; memory grows with the cache and the threads.
cat > "$work/web.csv" <<'CSV'
name,kind,lower,upper,log,values,target
cache_mb,integer,64,4096,true,,256
workers,integer,1,32,,,8
io_threads,integer,1,16,,,4
compression,choice,,,,none|lz4|zstd,none
keepalive_s,continuous,0,60,,,5
CSV
measure_web() {
  awk -F, 'NR == 1 { print; next }
    { l = log($2) / log(2) - 10; w = $3 - 12; if (w < 0) w = -w
      c = ($5 == "lz4") ? 1 : (($5 == "zstd") ? 2 : 0)
      tp = 900 + 350 * exp(-l * l / 3) + 25 * (12 - w) + (c == 1 ? 120 : (c == 2 ? 60 : 0)) + 2 * $6 - 3 * $4
      p99 = 60 + 8 * w + (c == 2 ? 25 : 0) + 40 / (1 + $6) + 2 * $4
      mem = 200 + 0.45 * $2 + 24 * ($3 + $4)
      printf "%s,%s,%s,%s,%s,%s,%.1f,%.2f,%.0f\n", $1, $2, $3, $4, $5, $6, tp, p99, mem }' "$1" > "$1.filled"
}
web=web-service.sebo.json
"$sebo" new --space "$work/web.csv" --objective throughput --objective p99_ms:min --metric memory_mb \
  --constraint "memory_mb<=2048" --parameter-constraint "workers + io_threads <= 32" --evaluator manual \
  --model saas-map --init 6 --trials 40 --seed 5 --name "Web service: throughput and latency under a memory limit" \
  --description "Tune a web service for more requests per second and a shorter 99th-percentile latency while it stays under 2 GB of memory. Five settings, one of them a choice of compression, and at most 32 threads in all. Results were typed in by hand, batch after batch; the frontier shows what each number of changed settings buys on both goals. Made with resources/examples/make-examples.sh." \
  --out "$web" --force --quiet
for round in 1 2 3 4 5; do
  "$sebo" suggest "$web" --count 4 --csv "$work/web-batch.csv" --force > /dev/null
  measure_web "$work/web-batch.csv"
  "$sebo" observe "$web" --csv "$work/web-batch.csv.filled" --quiet
done
"$sebo" info "$web"

# A mixed space (fractions sharing a budget, an integer, choices, a fixed parameter).
"$sebo" run --problem mixed --strategy sebo-l0 --model saas-map --init 8 --trials 40 --seed 3 \
  --name "Mixed settings: shares of a budget, a thread count and two choices" \
  --description "A made-up system with every kind of setting: three fractions that must add up to at most 1, a thread count, a codec and a compression level to pick from, one setting held fixed and 13 that do not matter. The best result needs 4 changes; the frontier shows what 1, 2 and 3 changes already give. Finished run, 8 random + 32 guided trials. Made with resources/examples/make-examples.sh." \
  --out mixed-space.sebo.json --force --quiet

# Noisy measurements with replicates (issue 30): every value has random noise added, so the best
# measured value is partly luck; the recommended configurations were measured twice more. The
# model is the default SAAS sampled with NUTS: with saas-map this seed stalls near the status quo
# (docs/method.md §13: the MAP models are the weak ones under noise).
"$sebo" run --problem hartmann6 --dim 12 --noise 0.1 --strategy sebo-l0 --init 8 --trials 36 --seed 4 \
  --name "Noisy measurements: which result is real?" \
  --description "Every measurement here has random noise, as a benchmark run or a lab assay does: the luckiest value is not the best configuration. The model's estimates (with 95 % intervals) say what is likely real, and the recommended configurations were measured twice more to confirm them. 12 settings, 6 of which matter. Made with resources/examples/make-examples.sh." \
  --out noisy-lab.sebo.json --force --quiet
"$sebo" confirm noisy-lab.sebo.json --frontier --repeats 2 --quiet
"$sebo" info noisy-lab.sebo.json
