#!/usr/bin/env bash
# End-to-end benchmark (issue 7): the highest message rate the whole chain sustains without loss on this host, and
# the latency from ingress receive to consumer delivery, at each offered rate of a ladder (1M msg/s among them by
# default). Root; run by `make bench-end-to-end`, not part of `make test`.
#
# Each step is one `mdgate demo --json` run with no injected loss: the simulator sends both lines from one network
# namespace, the gateway (DPDK af_packet, journal, shm egress) receives them in another, four consumers (one
# stalling now and then) check that every gateway sequence reaches them exactly once. A step is loss-free when the
# demo reports no problem: no gap declared lost, every consumer complete and in order. Packets the kernel or the
# ingress dropped but the other line or a re-request filled do not count as loss; the table shows them as gaps.
# Per step the table gives the offered rate, the rate the simulator achieved in wall-clock time, the gaps, and the
# ingress -> consumer latency percentiles of the fast consumers; the summary names the highest loss-free rate
# below the first lossy one. Results (table, JSON of every step, latency plots of the 1M step and of the highest
# loss-free step) go to OUT (default docs/bench/e2e).
#
# Then it runs benchmarks/e2e-latency.sh (wire-to-consumer latency: run-to-completion, pipeline and the two-thread
# floor side by side) with LATENCY_RATES, LATENCY_SECONDS and LATENCY_IDLE as its RATES, STEP_SECONDS and IDLE.
#
# Environment: RATES (default "100000 250000 500000 1000000"), STEP_SECONDS (default 20), OUT, LATENCY_RATES,
# LATENCY_SECONDS, LATENCY_IDLE.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
mdgate="$root/mdgate"
rates=(${RATES:-100000 250000 500000 1000000})
step_seconds=${STEP_SECONDS:-20}
out=${OUT:-$root/docs/bench/e2e}

if [[ $(id -u) -ne 0 ]]; then
    echo "e2e-lossfree: needs root (network namespaces, DPDK af_packet); run it as root" >&2
    exit 2
fi
command -v jq >/dev/null || { echo "e2e-lossfree: 'jq' is missing (apt-get install jq)" >&2; exit 2; }

work=$(mktemp -d /tmp/mdgate-e2e.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

"$mdgate" --help >/dev/null   # build once, outside the timed steps
{
    echo "date: $(date -u +%FT%TZ)"
    echo "host: $(uname -srm), $(nproc) CPUs"
    grep -m1 'model name' /proc/cpuinfo || true
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "steps: ${rates[*]} msg/s, $step_seconds s each, no injected loss"
} | tee "$out/machine.txt"

table="$out/results.md"
{
    echo "| offered msg/s | achieved msg/s | published | gaps opened / filled / lost | verdict | ingress->consumer p50 / p99 / p99.9 / max (us) |"
    echo "|---:|---:|---:|---|---|---|"
} >"$table"

best=0
failed=0
for rate in "${rates[@]}"; do
    dir="$work/$rate"
    json="$out/step-$rate.json"
    set +e
    "$mdgate" demo --json --no-dashboard --loss 0 --duration "$step_seconds" --rate "$rate" --dir "$dir" >"$json" \
        2>"$work/$rate.err"
    rc=$?
    set -e
    if [[ -s $json ]]; then
        # the step's directory is temporary: keep the summary, not its path
        jq -c 'del(.journal)' "$json" >"$json.tmp" && mv "$json.tmp" "$json"
    fi
    if [[ ! -s $json ]]; then
        echo "e2e-lossfree: step $rate printed no summary (exit $rc):" >&2
        tail -20 "$work/$rate.err" >&2
        verdict=FAILED
        failed=1
        echo "| $rate | - | - | - | $verdict | - |" >>"$table"
        continue
    fi
    read -r published opened filled lost ok <<<"$(jq -r '"\(.messagesPublished) \(.gaps.opened) \(.gaps.filled) \(.gaps.lost) \(.ok)"' "$json")"
    latency=$(jq -r '.latencyNanos.ingress_to_consumer // {} | [.p50, .p99, .["p99.9"], .max] | map(((. // 0) / 100 | floor) / 10) | map(tostring) | join(" / ")' "$json")
    simrate=$(jq -r '.simulator.achievedRate // "-"' "$json")
    if [[ $ok == true ]]; then
        verdict=loss-free
        if ((failed == 0)); then best=$rate; fi
    else
        verdict="LOSS: $(jq -r '.problems | join("; ")' "$json" | cut -c1-120)"
        failed=1
    fi
    echo "| $rate | $simrate | $published | $opened / $filled / $lost | $verdict | $latency |" | tee -a "$table"
    if [[ $rate == 1000000 || $verdict == loss-free ]]; then
        "$mdgate" report --out "$out/plots-$rate" --title "mdgate end to end at $rate msg/s" "$dir/hlog" >/dev/null || true
    fi
done

echo | tee -a "$table"
echo "highest loss-free rate: $best msg/s (of ${rates[*]})" | tee -a "$table"
echo "e2e-lossfree: results in $out"

echo "e2e-lossfree: wire-to-consumer latency next (benchmarks/e2e-latency.sh)"
RATES="${LATENCY_RATES:-10000 100000 500000}" STEP_SECONDS="${LATENCY_SECONDS:-10}" IDLE="${LATENCY_IDLE:-yield}" \
    OUT= "$root/benchmarks/e2e-latency.sh"
