#!/bin/bash
# In a guest of the two-host bed (run-pair.sh), after pair.sh: verbs from host a to host b, measured twice in the
# same boot, 64-byte messages:
#   perftest    ib_write_lat -n 1000, ib_write_bw -D 8 (RC RDMA Write) and ib_send_bw -c UD -D 8: server on b,
#               client on a
#   the project io.mdgate.egress.transport.verbs.VerbsPairBenchmark --role writer on a, --role receiver on b:
#               RESULT name=ring-write-ab (DiSNI), ring-write-native-ab (the project's own RC library) and
#               ud-multicast-ab (rate only: one-way latency would need the hosts' clocks to agree)
# and on a their ratios project / perftest, the rates checked against floors (below), the latencies and the DiSNI /
# native side by side printed as figures. Results: a's perftest.tsv, verbs.tsv, ratios.tsv and report.txt.
# The guests meet through /exchange/bench: a-ready and b-ready (both reached this step), NAME.listening (b's
# perftest server listens), NAME.server.log and NAME.server.rc (b's server output and exit code, for a's
# figures: the UD rate is what b's server received), and abort, left by either guest when its step ends, so that
# the other stops waiting (and stops its benchmark process) at once.
# Environment: MDGATE_PAIR_BENCH_SECONDS (VerbsPairBenchmark --seconds, 8), MDGATE_PAIR_RING_WRITE_FLOOR,
# MDGATE_PAIR_UD_FLOOR (the rate floors below).
set -u
# shellcheck source=deploy/softroce/guest/report.sh
source "$MDGATE_BED/report.sh"
: "${ROLE:?} ${RXE_DEV:?} ${RXE_IPV4:?} ${PEER_IPV4:?} ${RXE_GID_INDEX:?} ${MDGATE_RESULTS:?} ${MDGATE_CLASSPATH:?}"
ex=/exchange/bench
mkdir -p "$ex"
# Globals get names report.sh's check() does not declare local (bash scoping is dynamic).
msg_size=64
tool_limit=180
bench_seconds=${MDGATE_PAIR_BENCH_SECONDS:-8}
perf_seconds=8          # ib_write_bw / ib_send_bw -D: perftest samples the middle, after and before its 2 s margins
bench_main=io.mdgate.egress.transport.verbs.VerbsPairBenchmark
perftest_tsv="$MDGATE_RESULTS/perftest.tsv"
verbs_tsv="$MDGATE_RESULTS/verbs.tsv"
ratios_tsv="$MDGATE_RESULTS/ratios.tsv"
report="$MDGATE_RESULTS/report.txt"
# Floors of project / perftest between the hosts. Four passing boots on 2026-12-04 (docs/BENCHMARKS.md, "Verbs across
# two hosts"; single-threaded TCG, host load 1.5-3.4 with both guests) gave ring-write 0.56-0.85 of ib_write_bw with
# DiSNI and 0.71-0.92 with the project's own library: 0.47 passes the slowest of them (0.564) by a fifth and fails a
# path twice as slow in every one of them (their halves are 0.28-0.46). A fifth boot, with the floor in place, gave
# 0.96 for both: a halving there (0.48) would just pass. The margin below is thin too: a boot on a loaded host can
# fall below it (in one guest the ratio fell to 0.21 at load average 15, docs/BENCHMARKS.md "Verbs vs perftest").
# UD multicast gave 0.16-1.52 of what ib_send_bw -c UD's server received: perftest's own UD rate moved from 763 to
# 12,518 msg/s between boots while the project's stayed at 529-1,973, so no bar both passes today's slowest and fails
# a halving on every boot. 0.1 passes the slowest (0.158) and fails a halving of it; a halving on a boot where
# perftest's UD ran slow would pass.
ring_write_floor=${MDGATE_PAIR_RING_WRITE_FLOOR:-0.47}
ud_floor=${MDGATE_PAIR_UD_FLOOR:-0.1}

# wait_for FILE SECONDS [OR_FILE]: bounded wait for the other guest's file (or OR_FILE, which says the first will
# not come); gives up when the other guest's step ended.
wait_for()
{
    local end=$((SECONDS + $2))
    while ((SECONDS < end)); do
        [[ -e $1 ]] && return 0
        [[ -n ${3:-} && -e $3 ]] && { echo "$3 appeared before $1"; return 1; }
        [[ -e $ex/abort ]] && { echo "the other guest's step ended before $1 appeared"; return 1; }
        sleep 0.2
    done
    echo "no $1 after $2 s"
    return 1
}

# wait_pid PID: waits for a process of this step; once the other guest's step has ended it gives the process
# GRACE seconds to end on its own (its peer is gone or done), then kills it. Returns the process's exit code.
wait_pid()
{
    local pid=$1 grace=${2:-20} abort_at=
    while kill -0 "$pid" 2>/dev/null && [[ $(ps -o stat= -p "$pid") != Z* ]]; do
        if [[ -z $abort_at && -e $ex/abort ]]; then
            abort_at=$SECONDS
        elif [[ -n $abort_at ]] && ((SECONDS - abort_at >= grace)); then
            echo "the other guest's step ended $grace s ago: stopping process $pid"
            kill -TERM "$pid" 2>/dev/null
            sleep 2
            kill -KILL "$pid" 2>/dev/null
            break
        fi
        sleep 0.2
    done
    wait "$pid"
}

# Background processes of this step, stopped by PID when it ends whichever way.
children=()
stop_children() { local pid; for pid in "${children[@]}"; do kill -KILL "$pid" 2>/dev/null; done; }

# publish NAME CONTENT: a file for the other guest, whole or not at all.
publish() { printf '%s\n' "$2" >"$ex/$1.tmp" && mv "$ex/$1.tmp" "$ex/$1"; }

both_hosts_ready()
{
    local me other
    if [[ $ROLE == gateway ]]; then me=a other=b; else me=b other=a; fi
    publish "$me-ready" "$(date -u +%T)"
    wait_for "$ex/$other-ready" 300 && echo "host $other is ready ($(<"$ex/$other-ready") UTC)"
}

# ---- perftest -------------------------------------------------------------------------------------------
# The result row of a perftest log: the line whose first field is the message size.
result_row() { awk -v b="$msg_size" '$1 == b && $2 ~ /^[0-9]+$/ && NF >= 5 { print; exit }' "$1"; }
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }
tsv() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$perftest_tsv"; }

# perf_server NAME PORT TOOL ARG...: host b's half, up to its exit; its log and exit code go to /exchange.
perf_server()
{
    local name=$1 port=$2 tool=$3 pid rc i log="$MDGATE_RESULTS/$1.server.log"
    shift 3
    timeout "$tool_limit" "$tool" -d "$RXE_DEV" -x "$RXE_GID_INDEX" -F -p "$port" -s "$msg_size" "$@" >"$log" 2>&1 &
    pid=$!
    children+=("$pid")
    for ((i = 0; i < 300; i++)); do
        ss -Hltn "sport = :$port" | grep -q . && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    ss -Hltn "sport = :$port" | grep -q . && publish "$name.listening" "$port"
    wait_pid "$pid" 5
    rc=$?
    cp "$log" "$ex/$name.server.log"
    publish "$name.server.rc" "$rc"
    echo "----- $tool server (exit $rc)"; cat "$log"
    ((rc == 0))
}

# perf_client NAME PORT TOOL ARG...: host a's half against b's server; then b's log beside a's.
perf_client()
{
    local name=$1 port=$2 tool=$3 rc server_rc log="$MDGATE_RESULTS/$1.client.log"
    shift 3
    wait_for "$ex/$name.listening" "$tool_limit" "$ex/$name.server.rc" || { cat "$ex/$name.server.log" 2>/dev/null; return 1; }
    echo "client: $tool -d $RXE_DEV -x $RXE_GID_INDEX -F -p $port -s $msg_size $* $PEER_IPV4"
    timeout "$tool_limit" "$tool" -d "$RXE_DEV" -x "$RXE_GID_INDEX" -F -p "$port" -s "$msg_size" "$@" "$PEER_IPV4" \
        >"$log" 2>&1
    rc=$?
    wait_for "$ex/$name.server.rc" 60 || return 1
    server_rc=$(<"$ex/$name.server.rc")
    cp "$ex/$name.server.log" "$MDGATE_RESULTS/$name.server.log"
    echo "----- client (exit $rc)"; cat "$log"
    echo "----- server on $PEER_IPV4 (exit $server_rc)"; cat "$MDGATE_RESULTS/$name.server.log"
    ((rc == 0 && server_rc == 0)) || { echo "$tool failed: client exit $rc, server exit $server_rc"; return 1; }
}

# perf NAME PORT TOOL ARG...: this host's half.
perf() { if [[ $ROLE == gateway ]]; then perf_client "$@"; else perf_server "$@"; fi; }

write_lat_row()
{
    local row bytes iters t_typ t_avg p99 p999
    row=$(result_row "$MDGATE_RESULTS/write_lat.client.log")
    [[ -n $row ]] || { echo "no result row for $msg_size bytes in ib_write_lat's output"; return 1; }
    # bytes iterations t_min t_max t_typical t_avg t_stdev p99 p99.9 (microseconds)
    read -r bytes iters _ _ t_typ t_avg _ p99 p999 <<<"$row"
    [[ $iters == 1000 ]] || { echo "ran $iters iterations, asked for 1000"; return 1; }
    positive "$t_typ" || { echo "typical latency '$t_typ' is not a positive number"; return 1; }
    tsv ib_write_lat "$bytes" "$iters" t_typical_us "$t_typ"
    tsv ib_write_lat "$bytes" "$iters" p99_us "$p99"
    tsv ib_write_lat "$bytes" "$iters" p99.9_us "$p999"
    printf 'ib_write_lat a->b  RC RDMA Write 64 B x 1000: typical %s us, average %s us, p99 %s us, p99.9 %s us\n' \
        "$t_typ" "$t_avg" "$p99" "$p999" | tee -a "$report"
}

# bw_row NAME TEST SIDE LABEL: one bandwidth row of a duration run (bytes iterations peak_MBps average_MBps Mpps).
bw_row()
{
    local name=$1 test=$2 side=$3 label=$4 row bytes iters average mpps rate
    row=$(result_row "$MDGATE_RESULTS/$name.$side.log")
    [[ -n $row ]] || { echo "no result row for $msg_size bytes in the $side's output"; return 1; }
    read -r bytes iters _ average mpps <<<"$row"
    positive "$iters" || { echo "$side counted '$iters' iterations"; return 1; }
    positive "$mpps" || { echo "$side message rate '$mpps' is not a positive number"; return 1; }
    rate=$(awk -v m="$mpps" 'BEGIN { printf "%.0f", m * 1000000 }')
    tsv "$test" "$bytes" "$iters" "${side}_msgs_per_s" "$rate"
    printf '%-11s a->b  %-13s 64 B, -D %d: %s msg/s, %s MB/s average (%s, %s messages)\n' "$test" "$label" \
        "$perf_seconds" "$rate" "$average" "$side" "$iters" | tee -a "$report"
}

write_lat() { perf write_lat 18621 ib_write_lat -n 1000 && { [[ $ROLE != gateway ]] || write_lat_row; }; }
# The rates run for a duration (-D) rather than a count (checks.sh's -n 5000): across the hosts b drops UD datagrams
# whenever it falls behind a, and a server waiting for a count that never arrives gave up after 121 s (exit 17, no
# figure). A window counts what arrived in it, as VerbsPairBenchmark does; ib_write_bw runs the same window.
write_bw()
{
    perf write_bw 18622 ib_write_bw -D "$perf_seconds" || return 1
    [[ $ROLE != gateway ]] || bw_row write_bw ib_write_bw client "RC RDMA Write"
}

# A run whose server still reports no rate gets one more attempt, decided on both hosts from the same server log.
send_bw_ud()
{
    local attempt row mpps log="$MDGATE_RESULTS/send_bw_ud.server.log"
    for attempt in 1 2; do
        perf "send_bw_ud$attempt" $((18622 + attempt)) ib_send_bw -c UD -D "$perf_seconds" || return 1
        cp "$MDGATE_RESULTS/send_bw_ud$attempt.server.log" "$log"
        [[ $ROLE == gateway ]] && cp "$MDGATE_RESULTS/send_bw_ud$attempt.client.log" "$MDGATE_RESULTS/send_bw_ud.client.log"
        row=$(result_row "$log")
        read -r _ _ _ _ mpps <<<"$row"
        positive "${mpps:-0}" && break
        ((attempt == 1)) && echo "attempt 1: b's server received no datagram rate; once more" | tee -a "$report"
    done
    [[ $ROLE != gateway ]] && return 0
    bw_row send_bw_ud ib_send_bw client "UD send" && bw_row send_bw_ud ib_send_bw server "UD send"
}

# ---- VerbsPairBenchmark ---------------------------------------------------------------------------------
pair_benchmark()
{
    local flags role=receiver started rc log="$MDGATE_RESULTS/verbs-pair-benchmark.log"
    [[ $ROLE == gateway ]] && role=writer
    read -ra flags <<<"${MDGATE_JVM_FLAGS:-}"
    started=$(date +%s.%N)
    echo "java ... $bench_main --role $role --device $RXE_DEV --address $RXE_IPV4 --peer $PEER_IPV4 --seconds $bench_seconds"
    java "${flags[@]}" -Djava.library.path="${MDGATE_NATIVE:-}" -Djava.io.tmpdir=/tmp \
        -XX:ErrorFile="$MDGATE_RESULTS/hs_err_pid%p.log" -cp "$MDGATE_CLASSPATH" "$bench_main" --role "$role" \
        --device "$RXE_DEV" --address "$RXE_IPV4" --peer "$PEER_IPV4" --seconds "$bench_seconds" >"$log" 2>&1 &
    children+=($!)
    wait_pid $! 5
    rc=$?
    cat "$log"
    echo "VerbsPairBenchmark --role $role exit $rc after $(report_elapsed "$started") s" | tee -a "$report"
    grep -E '^(FAILED|INFO)' "$log" >>"$report"
    ((rc == 0)) || return 1
    printf 'name\tsize\tmetric\tvalue\n' >"$verbs_tsv"
    # RESULT name=X size=N key=value... -> "X<TAB>N<TAB>key<TAB>value" rows
    awk '$1 == "RESULT" {
            name = ""; size = ""; n = 0
            for (i = 2; i <= NF; i++) {
                split($i, kv, "=")
                if (kv[1] == "name") name = kv[2]; else if (kv[1] == "size") size = kv[2]; else { k[++n] = kv[1]; v[n] = kv[2] }
            }
            for (i = 1; i <= n; i++) printf "%s\t%s\t%s\t%s\n", name, size, k[i], v[i]
        }' "$log" >>"$verbs_tsv"
}

# ---- ratios (host a) ------------------------------------------------------------------------------------
perftest_value() { awk -F'\t' -v t="$1" -v m="$2" '$1 == t && $2 == "64" && $4 == m { print $5; exit }' "$perftest_tsv" 2>/dev/null; }
verbs_value() { awk -F'\t' -v n="$1" -v m="$2" '$1 == n && $2 == "64" && $3 == m { print $4; exit }' "$verbs_tsv" 2>/dev/null; }
number() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0) }'; }

# has_figures NAME METRIC...: each a positive number on the RESULT line NAME.
has_figures()
{
    local name=$1 metric value
    shift
    for metric in "$@"; do
        value=$(verbs_value "$name" "$metric")
        number "$value" || { echo "RESULT name=$name has no positive $metric (got '$value')"; return 1; }
    done
    printf 'VerbsPairBenchmark %-20s 64 B: %s\n' "$name" \
        "$(awk -F'\t' -v n="$name" '$1 == n { printf "%s%s=%s", sep, $3, $4; sep = " " }' "$verbs_tsv")" | tee -a "$report"
}

# ratio LABEL NAME METRIC PERFTEST_TEST PERFTEST_METRIC SCALE [FLOOR]: project / perftest (SCALE turns perftest's
# unit into the project's: 1000 for us -> ns); below FLOOR the check fails.
ratio()
{
    local label=$1 name=$2 metric=$3 test=$4 pmetric=$5 scale=$6 floor=${7:-} project perftest value
    project=$(verbs_value "$name" "$metric")
    perftest=$(perftest_value "$test" "$pmetric")
    number "$project" || { echo "no project figure $name $metric (got '$project')"; return 1; }
    number "$perftest" || { echo "no perftest figure $test $pmetric (got '$perftest')"; return 1; }
    perftest=$(awk -v p="$perftest" -v s="$scale" 'BEGIN { printf "%.0f", p * s }')
    value=$(awk -v a="$project" -v b="$perftest" 'BEGIN { printf "%.3f", a / b }')
    printf '%s\t%s\t%s\t%s\n' "$label" "$project" "$perftest" "$value" >>"$ratios_tsv"
    printf 'ratio %-30s %7s  (project %s, %s %s)%s\n' "$label" "$value" "$project" "$test" "$perftest" \
        "${floor:+; floor $floor}" | tee -a "$report"
    [[ -z $floor ]] || awk -v v="$value" -v f="$floor" 'BEGIN { exit !(v + 0 >= f + 0) }' \
        || { echo "ratio $label $value is below its floor $floor"; return 1; }
}

# side METRIC: DiSNI's figure over the project's own library's, same run (a figure, not a check).
side()
{
    local va vb
    va=$(verbs_value ring-write-ab "$1")
    vb=$(verbs_value ring-write-native-ab "$1")
    number "$va" && number "$vb" || { echo "DiSNI / native $1: no figures ('$va', '$vb')"; return 1; }
    printf 'ring-write-ab-disni-over-native-%s\t%s\t%s\t%s\n' "$1" "$va" "$vb" \
        "$(awk -v x="$va" -v y="$vb" 'BEGIN { printf "%.2f", x / y }')" >>"$ratios_tsv"
    printf 'DiSNI / native a->b %-10s %12s / %12s = %s\n' "$1" "$va" "$vb" \
        "$(awk -v x="$va" -v y="$vb" 'BEGIN { printf "%.2f", x / y }')" | tee -a "$report"
}

figures()
{
    local name metric
    for name in ring-write-ab ring-write-native-ab; do
        ratio "$name-p50" "$name" p50_ns ib_write_lat t_typical_us 1000 || true
        ratio "$name-p99" "$name" p99_ns ib_write_lat p99_us 1000 || true
        ratio "$name-p99.9" "$name" p999_ns ib_write_lat p99.9_us 1000 || true
    done
    echo "the RC path a->b, DiSNI / the project's own library (rate: above 1 DiSNI is faster; latency: below 1)" | tee -a "$report"
    for metric in msgs_per_s p50_ns p99_ns p999_ns; do side "$metric" || true; done
}

role_a()
{
    trap 'stop_children; touch "$ex/abort"' EXIT
    report_begin softroce.pair.bench.a
    : >"$report"
    printf 'test\tbytes\titerations\tmetric\tvalue\n' >"$perftest_tsv"
    printf 'ratio\tproject\tperftest\tproject_over_perftest\n' >"$ratios_tsv"
    check host_b_reaches_the_benchmark both_hosts_ready || { report_end; return 1; }
    check ib_write_lat_64_bytes_a_to_b write_lat
    check ib_write_bw_64_bytes_a_to_b write_bw
    check ib_send_bw_ud_64_bytes_a_to_b send_bw_ud
    check verbs_pair_benchmark_writes_from_a_to_b pair_benchmark
    check ring_write_ab_has_rate_and_latency has_figures ring-write-ab msgs_per_s p50_ns p99_ns p999_ns
    check ring_write_native_ab_has_rate_and_latency has_figures ring-write-native-ab msgs_per_s p50_ns p99_ns p999_ns
    check ud_multicast_ab_has_rate has_figures ud-multicast-ab msgs_per_s
    check "ring_write_ab_rate_at_least_${ring_write_floor}_of_ib_write_bw" \
        ratio ring-write-ab-msgs_per_s ring-write-ab msgs_per_s ib_write_bw client_msgs_per_s 1 "$ring_write_floor"
    check "ring_write_native_ab_rate_at_least_${ring_write_floor}_of_ib_write_bw" \
        ratio ring-write-native-ab-msgs_per_s ring-write-native-ab msgs_per_s ib_write_bw client_msgs_per_s 1 "$ring_write_floor"
    check "ud_multicast_ab_rate_at_least_${ud_floor}_of_ib_send_bw_ud" \
        ratio ud-multicast-ab-msgs_per_s ud-multicast-ab msgs_per_s ib_send_bw server_msgs_per_s 1 "$ud_floor"
    figures >/dev/null
    echo "(QEMU TCG emulation: absolute figures mean little, compare ratios of the same run)" >>"$report"
    cat "$report"
    report_end
}

role_b()
{
    trap 'stop_children; touch "$ex/abort"' EXIT
    report_begin softroce.pair.bench.b
    : >"$report"
    check host_a_reaches_the_benchmark both_hosts_ready || { report_end; return 1; }
    check ib_write_lat_server_on_b write_lat
    check ib_write_bw_server_on_b write_bw
    check ib_send_bw_ud_server_on_b send_bw_ud
    check verbs_pair_benchmark_receives_on_b pair_benchmark
    report_end
}

case $ROLE in
    gateway) role_a ;;
    consumers) role_b ;;
    *) echo "pair-bench.sh: ROLE must be gateway or consumers, got '$ROLE'" >&2; exit 2 ;;
esac
