#!/bin/bash
# Guest step: the project's verbs benchmark on rxe0, io.mdgate.egress.transport.verbs.VerbsBenchmark from the
# project's jars, run as `VerbsBenchmark --device $RXE_DEV --seconds N`. It prints one line per measurement:
#   RESULT name=ring-write size=64 msgs_per_s=... p50_ns=... p99_ns=... p999_ns=...
#   RESULT name=ring-write-native size=64 ...   RESULT name=ring-write-spread[-huge] size=64 ...
#   RESULT name=ud-multicast size=64 msgs_per_s=...
# (ring-write: RDMA Writes of 64-byte ticks into a peer's ring over RC through DiSNI, the product's default;
# ring-write-native: the same through the project's own library; the spread pair: a 64 MiB ring on regular and
# on 2 MiB pages (--hugepages); ud-multicast: UD sends of 64-byte messages to the group, received by a second QP). The figures go to $MDGATE_RESULTS/verbs.tsv (for
# ratios.sh) and report.txt. No class, no run or a missing figure fails the step: there are no stand-in
# numbers.
# shellcheck source=deploy/softroce/guest/report.sh
source "$MDGATE_BED/report.sh"
: "${MDGATE_RESULTS:?} ${MDGATE_LIB:?} ${RXE_DEV:?}"
[[ -f settings.env ]] && source ./settings.env
# Globals get names report.sh's check() does not declare local (name, started, rc, seconds, log): bash scoping
# is dynamic, and a function run by check would see check's variable instead.
bench_seconds=${VERBS_BENCH_SECONDS:-10}
main_class=io.mdgate.egress.transport.verbs.VerbsBenchmark
class_entry=${main_class//.//}.class
tsv="$MDGATE_RESULTS/verbs.tsv"
bench_log="$MDGATE_RESULTS/verbs-benchmark.log"

# A jar's central directory stores entry names uncompressed, so grep finds the class without a jar tool.
class_present()
{
    local jar
    for jar in "$MDGATE_LIB"/*.jar; do
        if grep -qaF "$class_entry" "$jar"; then
            echo "$main_class is in ${jar##*/}"
            return 0
        fi
    done
    echo "$main_class is not in any of the project's jars ($MDGATE_LIB): the verbs transport's benchmark is"
    echo "missing, so there are no project figures and no ratios against perftest"
    return 1
}

run_benchmark()
{
    local flags started
    read -ra flags <<<"${MDGATE_JVM_FLAGS:-}"
    started=$(date +%s.%N)
    echo "java ... -cp \"$MDGATE_CLASSPATH\" $main_class --device $RXE_DEV --seconds $bench_seconds ${huge_flag[*]}"
    # A fatal error report lands with the results, not in the guest's /tmp that vanishes with the guest.
    java "${flags[@]}" -Djava.library.path="${MDGATE_NATIVE:-}" -Djava.io.tmpdir=/tmp \
        -XX:ErrorFile="$MDGATE_RESULTS/hs_err_pid%p.log" -cp "$MDGATE_CLASSPATH" \
        "$main_class" --device "$RXE_DEV" --seconds "$bench_seconds" "${huge_flag[@]}" 2>&1 | tee "$bench_log"
    local rc=${PIPESTATUS[0]} err
    echo "VerbsBenchmark exit $rc after $(report_elapsed "$started") s"
    for err in "$MDGATE_RESULTS"/hs_err_pid*.log; do
        [[ -f $err ]] && { echo "fatal error report ${err##*/}:"; grep -E '^(# |siginfo|Current thread|Stack:|[jJCV] )' "$err" | head -n 30; }
    done
    ((rc == 0)) || return 1
    # RESULT name=X size=N key=value... -> "X<TAB>N<TAB>key<TAB>value" rows
    printf 'name\tsize\tmetric\tvalue\n' >"$tsv"
    awk '$1 == "RESULT" {
            name = ""; size = ""; n = 0
            for (i = 2; i <= NF; i++) {
                split($i, kv, "=")
                if (kv[1] == "name") name = kv[2]
                else if (kv[1] == "size") size = kv[2]
                else { keys[++n] = kv[1]; values[n] = kv[2] }
            }
            for (i = 1; i <= n; i++) printf "%s\t%s\t%s\t%s\n", name, size, keys[i], values[i]
        }' "$bench_log" >>"$tsv"
    cat "$tsv"
}

# has_figures NAME METRIC... : every METRIC of the RESULT line NAME, size 64, a positive number.
has_figures()
{
    local name=$1 metric value line
    shift
    [[ -f $tsv ]] || { echo "no figures: the benchmark did not run"; return 1; }
    line="RESULT name=$name size=64"
    for metric in "$@"; do
        value=$(awk -F'\t' -v n="$name" -v m="$metric" '$1 == n && $2 == "64" && $3 == m { print $4; exit }' "$tsv")
        if ! awk -v v="$value" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0) }'; then
            echo "RESULT name=$name size=64 has no positive $metric (got '$value')"
            return 1
        fi
        line+=" $metric=$value"
    done
    echo "$line"
    # The report shows every figure of the line (e.g. ud-multicast's latencies), not only the required ones.
    printf 'VerbsBenchmark %-12s 64 B: %s\n' "$name" \
        "$(awk -F'\t' -v n="$name" '$1 == n && $2 == "64" { printf "%s%s=%s", sep, $3, $4; sep = " " }' "$tsv")" \
        >>"$MDGATE_RESULTS/report.txt"
}

# The 64 MiB hugepage ring needs 32 free 2 MiB pages (and its regular twin none): reserved for the run, given back
# after it. Without them the benchmark leaves the spread measurements out rather than run them on regular pages.
hugepages_before=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
huge_flag=()
if echo $((hugepages_before + 40)) >/proc/sys/vm/nr_hugepages 2>/dev/null &&
    (($(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages) >= 33)); then
    huge_flag=(--hugepages)
fi
trap 'echo "$hugepages_before" >/proc/sys/vm/nr_hugepages 2>/dev/null' EXIT

report_begin softroce.verbs-bench
: >"$MDGATE_RESULTS/report.txt"
if check verbs_benchmark_class_is_in_the_project_jars class_present; then
    check verbs_benchmark_runs_on_rxe0 run_benchmark
    check ring_write_64_bytes_has_rate_and_latency has_figures ring-write msgs_per_s p50_ns p99_ns p999_ns
    check ring_write_native_64_bytes_has_rate_and_latency has_figures ring-write-native msgs_per_s p50_ns p99_ns p999_ns
    check the_guest_reserved_33_free_hugepages_for_the_comparison test "${#huge_flag[@]}" -gt 0
    if ((${#huge_flag[@]} > 0)); then
        check ring_write_spread_has_rate_and_latency has_figures ring-write-spread msgs_per_s p50_ns p99_ns p999_ns
        check ring_write_spread_on_hugepages_has_rate_and_latency has_figures ring-write-spread-huge msgs_per_s p50_ns p99_ns p999_ns
    fi
    check ud_multicast_64_bytes_has_rate has_figures ud-multicast msgs_per_s
else
    echo "verbs-bench: FAILED: $main_class is absent from the project's jars (the verbs transport delivers it)"
    echo "VerbsBenchmark: FAILED, $main_class is not in the project's jars" >>"$MDGATE_RESULTS/report.txt"
fi
report_end
