#!/bin/bash
# Guest step (also runs on the host over saved results): the project's verbs figures against perftest's
# from the same guest run, 64-byte messages, as ratios project / perftest:
#   ring-write msgs/s      / ib_write_bw messages/s (client)          above 1: the project is faster
#   ring-write p50 / p99 / p99.9 latency / ib_write_lat typical / p99 / p99.9   below 1: the project is faster
#   ud-multicast msgs/s    / ib_send_bw -c UD messages/s received (server)
# perftest prints its latencies as half a round trip (ib_write_lat ping-pongs); what VerbsBenchmark measures
# is in docs/BENCHMARKS.md. Only ratios of one run mean anything under QEMU TCG.
# Usage: ratios.sh [PERFTEST_TSV VERBS_TSV]   (default: the perftest and verbs-bench steps' results)
# Writes ratios.tsv and report.txt to $MDGATE_RESULTS (or the current directory); a ratio whose figures are
# missing fails its check and the step.
#
# Bars: the two rates are checks against a floor, so a transport that got several times slower fails. Under
# single-threaded TCG (what `make test` boots) the emulation itself moves them between quiet runs: ring-write
# 0.57-1.15 of ib_write_bw, UD multicast 0.21-1.07 of ib_send_bw -c UD (docs/SOFTROCE.md). A floor that the slowest
# of those runs clears is 0.35 and 0.1: it fails a ring-write path 3 times slower than today's typical run and a UD
# path 5 to 10 times slower, not one 2 times slower; a tighter bar would fail today's code on an unlucky boot. The
# latency ratios are figures, not checks: under single-threaded TCG perftest's own latency is milliseconds of
# emulation (ratios of 0.005-0.04), so no bar on them could fail for a slower transport; they are printed and kept
# in ratios.tsv for a quiet multi-threaded run (MDGATE_SOFTROCE_TCG_THREAD=multi) to read.
ring_write_rate_floor=${MDGATE_RING_WRITE_RATE_FLOOR:-0.35}
ud_multicast_rate_floor=${MDGATE_UD_MULTICAST_RATE_FLOOR:-0.1}
if [[ -n ${MDGATE_BED:-} ]]; then
    # shellcheck source=deploy/softroce/guest/report.sh
    source "$MDGATE_BED/report.sh"
else
    source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../guest/report.sh"
fi
MDGATE_RESULTS=${MDGATE_RESULTS:-$PWD}
results_root=$(dirname "$MDGATE_RESULTS")
perftest_tsv=${1:-$results_root/perftest/perftest.tsv}
verbs_tsv=${2:-$results_root/verbs-bench/verbs.tsv}
out_tsv="$MDGATE_RESULTS/ratios.tsv"

# perftest.tsv: test bytes iterations metric value; verbs.tsv: name size metric value
perftest_value() { awk -F'\t' -v t="$1" -v m="$2" '$1 == t && $2 == "64" && $4 == m { print $5; exit }' "$perftest_tsv" 2>/dev/null; }
verbs_value() { awk -F'\t' -v n="$1" -v m="$2" '$1 == n && $2 == "64" && $3 == m { print $4; exit }' "$verbs_tsv" 2>/dev/null; }
number() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0) }'; }

# ratio LABEL PROJECT_NAME PROJECT_METRIC PERFTEST_TEST PERFTEST_METRIC PERFTEST_SCALE UNIT BETTER [FLOOR]
#   PERFTEST_SCALE turns perftest's figure into the project's unit (1000 for microseconds -> nanoseconds).
#   FLOOR (rates): the ratio below which the check fails.
ratio()
{
    local label=$1 name=$2 metric=$3 test=$4 pmetric=$5 scale=$6 unit=$7 better=$8 floor=${9:-} project perftest value
    project=$(verbs_value "$name" "$metric")
    perftest=$(perftest_value "$test" "$pmetric")
    number "$project" || { echo "no project figure $name $metric in $verbs_tsv (got '$project')"; return 1; }
    number "$perftest" || { echo "no perftest figure $test $pmetric in $perftest_tsv (got '$perftest')"; return 1; }
    perftest=$(awk -v p="$perftest" -v s="$scale" 'BEGIN { printf "%.0f", p * s }')
    value=$(awk -v a="$project" -v b="$perftest" 'BEGIN { printf "%.3f", a / b }')
    printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$project" "$perftest" "$unit" "$value" >>"$out_tsv"
    printf 'ratio %-24s %7s  (project %s %s, perftest %s %s %s; %s is better)\n' \
        "$label" "$value" "$project" "$unit" "$test" "$perftest" "$unit" "$better" | tee -a "$MDGATE_RESULTS/report.txt"
    if [[ -n $floor ]] && ! awk -v v="$value" -v f="$floor" 'BEGIN { exit !(v + 0 >= f + 0) }'; then
        echo "ratio $label $value is below its floor $floor: the project's figure fell to less than $floor of perftest's"
        return 1
    fi
    return 0
}

# side LABEL NAME_A NAME_B METRIC UNIT: two of the project's own figures of the same run side by side, A / B
# (DiSNI's RC path over the project's own library; hugepage-backed over regular registered memory). A figure, not a
# check: whichever is faster, both stay checked against perftest above.
side()
{
    local label=$1 a=$2 b=$3 metric=$4 unit=$5 va vb value
    va=$(verbs_value "$a" "$metric")
    vb=$(verbs_value "$b" "$metric")
    number "$va" && number "$vb" || { echo "side by side $label: no figures ($a '$va', $b '$vb')"; return 1; }
    value=$(awk -v x="$va" -v y="$vb" 'BEGIN { printf "%.2f", x / y }')
    printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$va" "$vb" "$unit" "$value" >>"$out_tsv"
    printf '%-34s %12s / %12s %-6s = %s\n' "$label" "$va" "$vb" "$unit" "$value" | tee -a "$MDGATE_RESULTS/report.txt"
}

mkdir -p "$MDGATE_RESULTS"
printf 'ratio\tproject\tperftest\tunit\tproject_over_perftest\n' >"$out_tsv"
: >"$MDGATE_RESULTS/report.txt"
echo "project / perftest, 64-byte messages, same guest run ($verbs_tsv vs $perftest_tsv)"
report_begin softroce.ratios
check ring_write_rate_at_least_${ring_write_rate_floor}_of_ib_write_bw ratio ring-write-msgs_per_s ring-write msgs_per_s ib_write_bw client_msgs_per_s 1 msg/s higher "$ring_write_rate_floor"
check ring_write_native_rate_at_least_${ring_write_rate_floor}_of_ib_write_bw ratio ring-write-native-msgs_per_s ring-write-native msgs_per_s ib_write_bw client_msgs_per_s 1 msg/s higher "$ring_write_rate_floor"
check ud_multicast_rate_at_least_${ud_multicast_rate_floor}_of_ib_send_bw_ud ratio ud-multicast-msgs_per_s ud-multicast msgs_per_s ib_send_bw server_msgs_per_s 1 msg/s higher "$ud_multicast_rate_floor"
# Figures, not checks (see the top of this file); a missing figure still fails the rate checks above.
ratio ring-write-p50 ring-write p50_ns ib_write_lat t_typical_us 1000 ns lower || true
ratio ring-write-p99 ring-write p99_ns ib_write_lat p99_us 1000 ns lower || true
ratio ring-write-p99.9 ring-write p999_ns ib_write_lat p99.9_us 1000 ns lower || true
echo "the RC path, DiSNI / the project's own library (rate: above 1 DiSNI is faster; latency: below 1)"
for metric in msgs_per_s p50_ns p99_ns p999_ns; do
    side "ring-write-disni-over-native-$metric" ring-write ring-write-native "$metric" "${metric#*_}" || true
done
if [[ -n $(verbs_value ring-write-spread-huge msgs_per_s) ]]; then
    echo "64 MiB ring, 2 MiB pages / regular pages"
    for metric in msgs_per_s p50_ns p99_ns p999_ns; do
        side "ring-write-spread-huge-over-regular-$metric" ring-write-spread-huge ring-write-spread "$metric" "${metric#*_}" || true
    done
fi
report_end
rc=$?
cat "$MDGATE_RESULTS/report.txt"
exit "$rc"
