#!/bin/bash
# Not yet in steps.list: its first boot (2026-12-04) was refused at start by its own config (idle "spin", now
# "busy-spin"); it goes in once a boot of it passes and make test's time with it is known.
# In a guest of the two-host bed (run-pair.sh), after pair-bench.sh: the appliance's wire-to-consumer latency from
# host a to host b. Host a runs `mdgate run` over verbs, fed over kernel sockets by `mdgate sim --send` from a
# network namespace of its own at MDGATE_PAIR_LATENCY_RATE messages a second (1000) for
# MDGATE_PAIR_LATENCY_SECONDS (30), and answers clock probes (`mdgate clock --serve`); host b measures how far a's
# clock is from its own (`mdgate clock --peer`), runs two `mdgate consume --stats` (ring and stream paths, every
# instrument, live) with that offset added to its clock, and measures the clocks again at the end.
# Latency is one-way: the gateway's receive stamp in each tick (the socket ingress's, the moment the packet was read
# off vgw) against b's clock on entry to the consumer's handler. The two guests' clocks are set from the emulated
# RTC at boot and disagree by up to a second, so without the offset the figures would mean nothing; with it they
# are uncertain by the probes' bound plus what the clocks drifted during the run, both reported.
# Checks that can fail: the clocks are measured within 5 ms (a bound wider than that makes the figures
# meaningless), every tick each consumer delivered was timed (a clock still behind the gateway's, the offset
# ignored, leaves ticks untimed: a negative latency is never recorded), each consumer delivered at least 95% of the
# ticks the gateway published and its p50 is below 1 s (a tenth of a second of a backlog would be a queue, not a
# latency). The figures themselves go to report.txt and latency.tsv.
# The guests meet through /exchange/latency: gateway-up, consumers-started, sim-done, consumers-done, and abort,
# which either guest leaves when its step ends so that the other stops waiting.
set -u
source "$MDGATE_BED/report.sh"
: "${ROLE:?} ${RXE_DEV:?} ${RXE_IPV4:?} ${PEER_IPV4:?} ${MDGATE_RESULTS:?} ${MDGATE_CLASSPATH:?}"
ex=/exchange/latency
mkdir -p "$ex"
work=/tmp/pair-latency
mkdir -p "$work"
# shellcheck disable=SC2206
mdgate=(java $MDGATE_JVM_FLAGS -Djava.library.path="${MDGATE_NATIVE:-}" -Xmx640m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$MDGATE_CLASSPATH" io.mdgate.app.Main)
rate=${MDGATE_PAIR_LATENCY_RATE:-1000}
seconds=${MDGATE_PAIR_LATENCY_SECONDS:-30}
messages=$((rate * seconds))
port=7481
clock_port=7480
report="$MDGATE_RESULTS/report.txt"
tsv="$MDGATE_RESULTS/latency.tsv"
max_bound_ns=5000000

wait_for()
{
    local end=$((SECONDS + $2))
    while ((SECONDS < end)); do
        [[ -e $1 ]] && return 0
        [[ -e $ex/abort ]] && { echo "the other guest's step ended before $1 appeared" >&2; return 1; }
        sleep 0.5
    done
    echo "no $1 after $2 s" >&2
    return 1
}

alive() { local stat; stat=$(ps -o stat= -p "$1" 2>/dev/null); [[ -n $stat && $stat != Z* ]]; }

# stop PID: SIGTERM, then SIGKILL after 30 s; returns the process's exit code.
stop()
{
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 60; i++)); do alive "$pid" || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
}

# ---- host a -------------------------------------------------------------------------------------------------------

gateway_config()
{
    cat <<CONF
[gateway]
name = "latency"
counters_file = "$work/counters"
hlog_dir = "$work/hlog"
ring_bytes = 4194304

[feed]
session = ""
gap_wait_ms = 2
stale_after_ms = 2000

[[feed.lines]]
name = "A"
group = "233.54.12.121"
port = 26478

[[feed.lines]]
name = "B"
group = "233.54.12.122"
port = 26478

[[ports]]
name = "p0"
driver = "socket"
interface = "vlgw"

[book]
max_orders = 65536
max_levels = 16384
reference_window = 65536

[journal]
enabled = true
dir = "$work/journal"

[egress]
transport = "verbs"
rdma_device = "$RXE_DEV"
rdma_address = "$RXE_IPV4:$port"

[[egress.consumers]]
name = "lat-ring"
token = "lat-ring-token"

[[egress.consumers]]
name = "lat-stream"
token = "lat-stream-token"

[[cores]]
cpu = 1
agents = ["ingress:p0:0", "session", "journal", "egress"]
idle = "busy-spin"

[[cores]]
cpu = 0
agents = ["housekeeping"]
idle = "sleep:1ms"
CONF
}

sim_namespace()
{
    ip netns add latsim && ip link add vlgw type veth peer name vlsim && ip link set vlsim netns latsim \
        && ip addr add 10.81.0.1/24 dev vlgw && ip link set vlgw up \
        && ip netns exec latsim ip addr add 10.81.0.2/24 dev vlsim && ip netns exec latsim ip link set vlsim up \
        && ip netns exec latsim ip link set lo up
}

clock_pid=
clock_serves()
{
    "${mdgate[@]}" clock --serve "$RXE_IPV4:$clock_port" >"$MDGATE_RESULTS/clock.out" 2>"$MDGATE_RESULTS/clock.err" &
    clock_pid=$!
    local end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        grep -q "answering clock probes" "$MDGATE_RESULTS/clock.err" && { cat "$MDGATE_RESULTS/clock.err"; return 0; }
        alive "$clock_pid" || { cat "$MDGATE_RESULTS/clock.err"; return 1; }
        sleep 0.5
    done
    cat "$MDGATE_RESULTS/clock.err"
    return 1
}

gateway_pid=
gateway_runs()
{
    gateway_config >"$work/gateway.toml"
    "${mdgate[@]}" run --config "$work/gateway.toml" --no-pin >"$MDGATE_RESULTS/gateway.out" 2>"$MDGATE_RESULTS/gateway.err" &
    gateway_pid=$!
    local end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        grep -q "running on" "$MDGATE_RESULTS/gateway.err" && break
        alive "$gateway_pid" || { cat "$MDGATE_RESULTS/gateway.err"; return 1; }
        sleep 1
    done
    grep "running on" "$MDGATE_RESULTS/gateway.err" || { cat "$MDGATE_RESULTS/gateway.err"; return 1; }
    touch "$ex/gateway-up"
}

# Both consumers connected (the gateway names each) before the session starts, so that they time all of it.
consumers_connect()
{
    wait_for "$ex/consumers-started" 400 || return 1
    local end=$((SECONDS + 300)) name ok
    while ((SECONDS < end)); do
        ok=1
        for name in lat-ring lat-stream; do
            grep -q "egress: consumer '$name' connected from" "$MDGATE_RESULTS/gateway.err" || ok=0
        done
        ((ok)) && { grep "connected from" "$MDGATE_RESULTS/gateway.err"; return 0; }
        alive "$gateway_pid" || { cat "$MDGATE_RESULTS/gateway.err"; return 1; }
        [[ -e $ex/abort ]] && { echo "host b gave up"; return 1; }
        sleep 1
    done
    echo "not both consumers connected after 300 s:"
    grep "consumer" "$MDGATE_RESULTS/gateway.err"
    return 1
}

sim_sends()
{
    ip netns exec latsim "${mdgate[@]}" sim --messages "$messages" --rate "$rate" --seed 5 --send vlsim \
        --group-a 233.54.12.121:26478 --group-b 233.54.12.122:26478 --pacing sleep --linger-ms 0 \
        >"$MDGATE_RESULTS/sim.out" 2>&1
    local rc=$?
    tail -n 3 "$MDGATE_RESULTS/sim.out"
    # The gateway's last sequence: what each consumer must (almost) have delivered.
    sleep 3
    "${mdgate[@]}" stat --config "$work/gateway.toml" --once --json >"$work/counters.json" 2>&1
    grep -o '"egress.last_sequence":[0-9]*' "$work/counters.json" | cut -d: -f2 >"$ex/published"
    echo "the gateway published $(cat "$ex/published") ticks"
    touch "$ex/sim-done"
    return $rc
}

gateway_stops()
{
    wait_for "$ex/consumers-done" 300
    stop "$gateway_pid"
    local rc=$?
    gateway_pid=
    stop "$clock_pid" >/dev/null
    clock_pid=
    tail -n 2 "$MDGATE_RESULTS/clock.err"
    return $rc
}

role_gateway()
{
    trap '[[ -n $gateway_pid ]] && kill -KILL "$gateway_pid" 2>/dev/null; [[ -n $clock_pid ]] && kill -KILL "$clock_pid" 2>/dev/null; ip netns del latsim 2>/dev/null; touch "$ex/abort"' EXIT
    report_begin softroce.pair.latency.gateway
    check latency_bed_namespace_is_set_up sim_namespace
    check the_gateway_host_answers_clock_probes clock_serves
    check mdgate_run_starts_over_verbs_for_latency gateway_runs || { touch "$ex/abort"; report_end; return; }
    check both_latency_consumers_connect_from_the_other_host consumers_connect
    check the_simulator_sends_the_latency_session sim_sends
    check the_latency_gateway_stops_cleanly gateway_stops
    report_end
}

# ---- host b -------------------------------------------------------------------------------------------------------

# clock_offset WHEN: `mdgate clock --peer` against host a, its JSON kept as clock-WHEN.json.
clock_offset()
{
    local when=$1
    "${mdgate[@]}" clock --peer "$PEER_IPV4:$clock_port" --probes 300 --interval-ms 1 --json \
        >"$MDGATE_RESULTS/clock-$when.json" 2>"$MDGATE_RESULTS/clock-$when.err" || { cat "$MDGATE_RESULTS/clock-$when.err"; return 1; }
    local offset bound
    offset=$(json_field offset_ns "$MDGATE_RESULTS/clock-$when.json")
    bound=$(json_field bound_ns "$MDGATE_RESULTS/clock-$when.json")
    echo "clock of host a $when: $(awk -v o="$offset" -v b="$bound" 'BEGIN { printf "%+.1f us from host b'"'"'s, within +/- %.1f us", o / 1e3, b / 1e3 }')" \
        "($(json_field answered "$MDGATE_RESULTS/clock-$when.json") of 300 answered, best round trip" \
        "$(json_field best_round_trip_ns "$MDGATE_RESULTS/clock-$when.json") ns)" | tee -a "$report"
    ((bound <= max_bound_ns)) || { echo "a bound of $bound ns is wider than $max_bound_ns ns: the figures would mean nothing"; return 1; }
}

json_field() { grep -o "\"$1\":-\?[0-9]*" "$2" | head -n 1 | cut -d: -f2; }

clock_before() { wait_for "$ex/gateway-up" 600 || return 1; clock_offset before; }

declare -A consumer_pid
consumers_run()
{
    local offset path name
    offset=$(json_field offset_ns "$MDGATE_RESULTS/clock-before.json")
    [[ -n $offset ]] || { echo "no clock offset measured"; return 1; }
    for path in ring stream; do
        name=lat-$path
        "${mdgate[@]}" consume --transport verbs --rdma-device "$RXE_DEV" --rdma-address "$PEER_IPV4:$port" \
            --consumer "$name" --token "$name-token" --all --path "$path" --idle yield --stats \
            --stats-interval-ms 10000 --clock-offset-ns "$offset" --connect-timeout-ms 120000 \
            >"$MDGATE_RESULTS/$name.out" 2>"$MDGATE_RESULTS/$name.err" &
        consumer_pid[$name]=$!
    done
    touch "$ex/consumers-started"
    wait_for "$ex/sim-done" $((seconds + 600)) || return 1
    sleep 3
    local rc=0
    for name in lat-ring lat-stream; do
        alive "${consumer_pid[$name]}" || { echo "$name ended early:"; cat "$MDGATE_RESULTS/$name.err"; rc=1; }
        stop "${consumer_pid[$name]}" || rc=1
        consumer_pid[$name]=
        echo "$name: $(tail -n 1 "$MDGATE_RESULTS/$name.out")"
    done
    return $rc
}

clock_after() { clock_offset after; }

# total_field LINE NAME: a number of the consumer's `total:` line.
total_field()
{
    case $2 in
        delivered) sed -n 's/.*| delivered \([0-9]*\) .*/\1/p' <<<"$1" ;;
        timed) sed -n 's/.*(\([0-9]*\) timed)$/\1/p' <<<"$1" ;;
        *) sed -n "s/.* $2 \\([0-9.]*\\) .*/\\1/p" <<<"$1" ;;
    esac
}

latencies_report()
{
    local published before after drift bound name total delivered timed p50 p99 p999 max ok=1
    published=$(cat "$ex/published" 2>/dev/null)
    [[ $published =~ ^[0-9]+$ ]] || { echo "the gateway's last sequence is unknown"; return 1; }
    before=$(json_field offset_ns "$MDGATE_RESULTS/clock-before.json")
    after=$(json_field offset_ns "$MDGATE_RESULTS/clock-after.json")
    bound=$(( $(json_field bound_ns "$MDGATE_RESULTS/clock-before.json") ))
    drift=$((after - before))
    printf 'path\tdelivered\tpublished\tp50_us\tp99_us\tp99.9_us\tmax_us\tclock_bound_us\tclock_drift_us\n' >"$tsv"
    for name in lat-ring lat-stream; do
        total=$(grep '^total: ' "$MDGATE_RESULTS/$name.out" | tail -n 1)
        [[ -n $total ]] || { echo "$name printed no total line"; ok=0; continue; }
        delivered=$(total_field "$total" delivered)
        timed=$(total_field "$total" timed)
        p50=$(total_field "$total" p50)
        p99=$(total_field "$total" p99)
        p999=$(total_field "$total" p99.9)
        max=$(total_field "$total" max)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%.1f\n' "${name#lat-}" "$delivered" "$published" "$p50" "$p99" "$p999" \
            "$max" "$(awk -v b="$bound" 'BEGIN { print b / 1e3 }')" "$(awk -v d="$drift" 'BEGIN { print d / 1e3 }')" >>"$tsv"
        echo "wire to consumer, host a to host b, ${name#lat-} path at $rate msg/s: p50 $p50 us, p99 $p99 us," \
            "p99.9 $p999 us, max $max us ($timed of $delivered delivered ticks timed; $published published)" | tee -a "$report"
        ((timed == delivered)) || { echo "  $((delivered - timed)) delivered ticks were not timed: the clocks disagree"; ok=0; }
        ((delivered * 100 >= published * 95)) || { echo "  delivered $delivered of $published"; ok=0; }
        awk -v p="$p50" 'BEGIN { exit !(p < 1000000) }' || { echo "  p50 $p50 us is a backlog"; ok=0; }
    done
    echo "the figures are uncertain by the clock bound (+/- $(awk -v b="$bound" 'BEGIN { printf "%.1f", b / 1e3 }') us) and the" \
        "clocks' drift during the run ($(awk -v d="$drift" 'BEGIN { printf "%+.1f", d / 1e3 }') us)" | tee -a "$report"
    ((ok))
}

role_consumers()
{
    trap 'for pid in "${consumer_pid[@]}"; do [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; done; touch "$ex/consumers-done" "$ex/abort"' EXIT
    report_begin softroce.pair.latency.consumers
    check the_gateway_hosts_clock_is_measured_before clock_before || touch "$ex/abort"
    check the_latency_consumers_time_the_session_on_both_paths consumers_run
    touch "$ex/consumers-done"
    check the_gateway_hosts_clock_is_measured_after clock_after
    check every_delivered_tick_is_timed_within_the_clocks_bound latencies_report
    report_end
}

case $ROLE in
    gateway) role_gateway ;;
    consumers) role_consumers ;;
    *) echo "pair-latency.sh: ROLE must be gateway or consumers, got '$ROLE'" >&2; exit 2 ;;
esac
