#!/usr/bin/env bash
# Wire-to-consumer latency (issue 12): from the ingress's receive timestamp (the tick's receiveTimestamp) to the
# consumer's handler, every tick in HdrHistogram, nothing trimmed. Root; run by `make bench-latency` and at the end
# of benchmarks/e2e-lossfree.sh (`make bench-end-to-end`), not part of `make test`.
#
# Per offered rate, side by side in one run:
#   run-to-completion  `mdgate demo --map run-to-completion`: ingress, session, journal, egress on one busy-spinning
#                      thread on the last CPU;
#   pipeline           `mdgate demo --map pipeline`: ingress+session busy-spinning on the last CPU, journal+egress
#                      backing off on the first (the earlier demo's shape);
#   floor              HandOffFloor (benchmarks module): 64-byte messages through the gateway's TickLog from a thread
#                      on the last CPU to one on the first, stamped at send, recorded at receive, same idle strategy.
# Each demo step: DPDK af_packet in two network namespaces, no injected loss, one measuring consumer (fast1, ring)
# pinned to the CPUs the gateway does not use, idling by IDLE; the simulator on those CPUs too, or on SIM_CPUS. The
# demo starts under taskset on the CPUs other than the gateway's, so that only the gateway's core thread runs there. A step is loss-free when the demo
# reports no problem (no gap lost, the consumer got every sequence once, in order).
# The table: shape x rate -> samples, p50, p99, p99.9, max (us), loss-free, ratio to the floor's p50 and p99.9 at the
# same rate, the 1-minute load average when the step ended (other work shares the CPUs), and for each demo step the
# share of the time the gateway's core threads and the consumer's thread were runnable that they actually ran
# (/proc/<tid>/schedstat; a busy-spinning thread is always runnable, the rest went to other work). A second table gives
# the per-stage figures of each demo step (and the negative-sample counters). Results go to OUT.
#
# The simulator sleeps between packets (`sim --pacing sleep`, as the demo runs it) and puts WINDOW_US of exchange time
# into a packet: its sends are the costliest work on the consumer's CPU (each datagram goes through the kernel twice,
# once per line), so the window sets how much of that CPU the consumer keeps.
#
# Environment: RATES (default "10000 100000 500000"), STEP_SECONDS (default 10), IDLE (spin|yield|backoff, default
# yield), MAPS (default "run-to-completion pipeline"), WINDOW_US (default 10), SIM_CPUS (the simulator's CPUs, default
# those the gateway does not use), OUT (default docs/bench/e2e-latency).
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
mdgate="$root/mdgate"
rates=(${RATES:-10000 100000 500000})
maps=(${MAPS:-run-to-completion pipeline})
step_seconds=${STEP_SECONDS:-10}
idle=${IDLE:-yield}
window_us=${WINDOW_US:-10}
sim_cpus=${SIM_CPUS:-}
out=${OUT:-$root/docs/bench/e2e-latency}
floor_jar="$root/benchmarks/target/benchmarks.jar"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java

if [[ $(id -u) -ne 0 ]]; then
    echo "e2e-latency: needs root (network namespaces, DPDK af_packet); run it as root" >&2
    exit 2
fi
command -v jq >/dev/null || { echo "e2e-latency: 'jq' is missing (apt-get install jq)" >&2; exit 2; }
case $idle in spin | yield | backoff) ;; *)
    echo "e2e-latency: IDLE must be spin, yield or backoff, was '$idle'" >&2; exit 2 ;;
esac
[[ $window_us =~ ^[0-9]+$ ]] || { echo "e2e-latency: WINDOW_US must be a whole number of microseconds, was '$window_us'" >&2; exit 2; }
[[ -f $floor_jar ]] || { echo "e2e-latency: $floor_jar is missing; build it first (make bench-latency does)" >&2; exit 2; }

work=$(mktemp -d /tmp/mdgate-e2e-latency.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cpus=$(nproc)
first_cpu=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
last_cpu=$(awk -F'[-,]' '{print $NF}' /sys/devices/system/cpu/online)
# Every thread of the demo's processes starts on the CPUs other than the gateway's; only the gateway's spinning core
# thread pins itself to the last CPU. This stands in for booting with isolcpus= (which this host cannot): the JVMs' own
# threads (compilers, GC), the consumers' and the simulator's would otherwise be balanced onto the gateway's CPU.
other_cpus=$(seq -s, "$first_cpu" $((last_cpu - 1)))

"$mdgate" --help >/dev/null   # build once, outside the timed steps
{
    echo "date: $(date -u +%FT%TZ)"
    echo "host: $(uname -srm), $cpus CPUs (online $(cat /sys/devices/system/cpu/online))"
    grep -m1 'model name' /proc/cpuinfo || true
    "$java" -version 2>&1 | head -1
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "steps: ${rates[*]} msg/s x (${maps[*]} floor), $step_seconds s each, no injected loss, consumer idle $idle, packet window $window_us us"
    echo "gateway CPU $last_cpu; consumer (and the floor's receiver) CPU(s) other than $last_cpu; simulator CPU(s) ${sim_cpus:-other than $last_cpu}"
    echo "command: RATES=\"${rates[*]}\" STEP_SECONDS=$step_seconds IDLE=$idle WINDOW_US=$window_us${sim_cpus:+ SIM_CPUS=$sim_cpus} benchmarks/e2e-latency.sh"
} | tee "$out/machine.txt"

# Every second while a demo step runs: the run and run-queue wait times (ns, /proc/<tid>/schedstat) of the gateway's
# core threads and of the measuring consumer's thread; thread_share turns them into the share of the time each thread
# was runnable that it spent on a CPU (a busy-spinning thread is always runnable: the rest is other work's).
sample_threads()
{
    local dir=$1 demo=$2 gateway t name
    while kill -0 "$demo" 2>/dev/null; do
        gateway=${dir:+$(pgrep -f -- "--config $dir/gateway.toml" | head -1 || true)}
        for t in ${gateway:+/proc/$gateway/task/*} /proc/$demo/task/*; do
            name=$(cat "$t/comm" 2>/dev/null | tr ' ' '_')
            [[ -n $name ]] || continue
            case $name in core-* | demo-consumer-* | floor-*) echo "$name $(cat "$t/schedstat" 2>/dev/null)" ;; esac
        done
        sleep 1
    done
}

thread_share()
{
    awk '{ if (!($1 in r0)) { r0[$1] = $2; w0[$1] = $3 } r1[$1] = $2; w1[$1] = $3 }
        END { for (n in r0) { run = r1[n] - r0[n]; wait = w1[n] - w0[n];
              if (run + wait > 0) printf "%s%s %.0f%%", sep, n, 100 * run / (run + wait); sep = ", " } }' "$1"
}

us() { jq -r "$1 // 0 | . / 100 | floor / 10" "$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }

table="$out/results.md"
stages="$out/stages.md"
{
    echo "| shape | offered msg/s | achieved msg/s | samples | p50 us | p99 us | p99.9 us | max us | loss-free | p50 / floor | p99.9 / floor | load 1 min | on-CPU share of runnable time |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"
} >"$table"
{
    echo "| shape | offered msg/s | stage | samples | p50 us | p99 us | p99.9 us | max us | negative |"
    echo "|---|---:|---|---:|---:|---:|---:|---:|---:|"
} >"$stages"

for rate in "${rates[@]}"; do
    floor_json="$out/floor-$rate.json"
    # the floor first, so that each demo row can be divided by the floor of its own rate in this run
    "$java" $(cat "$root/gateway-app/target/jvm.options") -cp "$floor_jar" io.mdgate.bench.floor.HandOffFloor \
        "$rate" "$step_seconds" "$last_cpu" "$first_cpu" "$idle" >"$floor_json" 2>"$work/floor-$rate.err" &
    floor_pid=$!
    sample_threads "" "$floor_pid" >"$work/floor-$rate.sched" &
    sampler_pid=$!
    wait "$floor_pid" || {
        echo "e2e-latency: the floor at $rate msg/s failed:" >&2; cat "$work/floor-$rate.err" >&2; exit 1; }
    wait "$sampler_pid"
    floor_load=$(cut -d' ' -f1 /proc/loadavg)
    f50=$(jq -r '.latencyNanos.p50' "$floor_json")
    f999=$(jq -r '.latencyNanos["p99.9"]' "$floor_json")
    floor_ok=$([[ $(jq -r '.received == .sent and .error == null' "$floor_json") == true ]] && echo yes || echo no)
    floor_row="| floor (TickLog, 2 threads) | $rate | $(jq -r .achievedRate "$floor_json") | $(jq -r .latencyNanos.samples "$floor_json") | $(us .latencyNanos.p50 "$floor_json") | $(us .latencyNanos.p99 "$floor_json") | $(us '.latencyNanos["p99.9"]' "$floor_json") | $(us .latencyNanos.max "$floor_json") | $floor_ok | 1.0 | 1.0 | $floor_load | $(thread_share "$work/floor-$rate.sched") |"
    for map in "${maps[@]}"; do
        dir="$work/$map-$rate"
        json="$out/$map-$rate.json"
        set +e
        taskset -c "$other_cpus" "$mdgate" demo --json --no-dashboard --loss 0 --duration "$step_seconds" --rate "$rate" --map "$map" \
            --consumers 1 --consumer-idle "$idle" --packet-window-us "$window_us" ${sim_cpus:+--sim-cpus "$sim_cpus"} --dir "$dir" >"$json" 2>"$work/$map-$rate.err" &
        demo_pid=$!
        sample_threads "$dir" "$demo_pid" >"$work/$map-$rate.sched" &
        sampler_pid=$!
        wait "$demo_pid"
        rc=$?
        wait "$sampler_pid"
        set -e
        cpu_share=$(thread_share "$work/$map-$rate.sched")
        load=$(cut -d' ' -f1 /proc/loadavg)
        if [[ ! -s $json ]]; then
            echo "e2e-latency: $map at $rate msg/s printed no summary (exit $rc):" >&2
            tail -20 "$work/$map-$rate.err" >&2
            echo "| $map | $rate | - | - | - | - | - | - | FAILED | - | - | $load | - |" | tee -a "$table"
            continue
        fi
        jq -c 'del(.journal)' "$json" >"$json.tmp" && mv "$json.tmp" "$json"
        e2e='.latencyNanos.ingress_to_consumer'
        p50=$(jq -r "$e2e.p50 // 0" "$json")
        p999=$(jq -r "$e2e[\"p99.9\"] // 0" "$json")
        ok=$([[ $(jq -r .ok "$json") == true ]] && echo yes || echo "no: $(jq -r '.problems | join("; ")' "$json" | cut -c1-80)")
        echo "| $map | $rate | $(jq -r '.simulator.achievedRate // "-"' "$json") | $(jq -r "$e2e.samples // 0" "$json") | $(us "$e2e.p50" "$json") | $(us "$e2e.p99" "$json") | $(us "$e2e[\"p99.9\"]" "$json") | $(us "$e2e.max" "$json") | $ok | $(ratio "$p50" "$f50") | $(ratio "$p999" "$f999") | $load | $cpu_share |" | tee -a "$table"
        for stage in ingress_to_session ingress_to_journal ingress_to_egress ingress_to_consumer; do
            s=".latencyNanos.$stage"
            echo "| $map | $rate | $stage | $(jq -r "$s.samples // 0" "$json") | $(us "$s.p50" "$json") | $(us "$s.p99" "$json") | $(us "$s[\"p99.9\"]" "$json") | $(us "$s.max" "$json") | $(jq -r "$s.negative // \"-\"" "$json") |" >>"$stages"
        done
    done
    echo "$floor_row" | tee -a "$table"
done

{
    echo
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$table" >>"$out/machine.txt"
echo
cat "$stages"
echo "e2e-latency: results in $out (results.md, stages.md, machine.txt, one JSON per step)"
