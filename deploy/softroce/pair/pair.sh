#!/bin/bash
# In a guest of the two-host bed (run-pair.sh). ROLE=gateway: `mdgate run` with [egress] transport = "verbs" on
# this guest's rxe0, fed over kernel sockets by `mdgate sim --send` from a network namespace. ROLE=consumers:
# `mdgate consume` over verbs from the other guest, ring and stream paths, each from sequence 1; every gateway
# sequence must arrive exactly once, in order, up to the gateway's last. The guests meet through /exchange:
# gateway-up, consumers-started, sim-started, expected (the gateway's last sequence), consumers-done, and
# abort, which either guest leaves when its step ends so that the other stops waiting at once.
# Mid-stream, host b takes its link down for MDGATE_PAIR_LINK_DOWN_SECONDS (0: no fault) and up again; the
# consumers must still end with every sequence once. Their reconnects are reported.
set -u
source "$MDGATE_BED/report.sh"
source "$MDGATE_PAYLOAD/settings.env" 2>/dev/null || true
ex=/exchange
work=/tmp/pair
mkdir -p "$work"
# shellcheck disable=SC2206
# C1 only and the serial collector: the JVMs start in a minute rather than three under TCG. The native directory
# is on java.library.path: DiSNI (the verbs RC path) loads libdisni with System.loadLibrary.
mdgate=(java $MDGATE_JVM_FLAGS -Djava.library.path="${MDGATE_NATIVE:-}" -Xmx640m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$MDGATE_CLASSPATH" io.mdgate.app.Main)
messages=${MDGATE_PAIR_MESSAGES:-40000}
rate=${MDGATE_PAIR_RATE:-1000}
link_down_seconds=${MDGATE_PAIR_LINK_DOWN_SECONDS:-5}
link_fault=${MDGATE_PAIR_LINK_FAULT:-drop}
port=7471
retransmit_port=7472

# wait_for FILE SECONDS: bounded wait for the other guest's file; gives up when the other guest's step ended.
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

# alive PID: running, not a zombie waiting to be reaped.
alive() { local stat; stat=$(ps -o stat= -p "$1" 2>/dev/null); [[ -n $stat && $stat != Z* ]]; }

gateway_config()
{
    cat <<CONF
[gateway]
name = "pair"
counters_file = "$work/counters"
hlog_dir = "$work/hlog"
ring_bytes = 4194304

[feed]
session = ""
gap_wait_ms = 2
stale_after_ms = 2000
retransmit = "10.79.0.2:$retransmit_port"
# The simulator answers from an emulated CPU, and the gateway reads the answers on one: at 100 ms a round, three runs
# on 2026-12-02 declared 14-63 gaps lost that the simulator had answered (every request answered, the answers read
# after the sixth round), the same at the commit that passed the day before. 400 ms gives six rounds 2.4 s.
retry_interval_ms = 400

[[feed.lines]]
name = "A"
group = "233.54.12.111"
port = 26477

[[feed.lines]]
name = "B"
group = "233.54.12.112"
port = 26477

[[ports]]
name = "p0"
driver = "socket"
interface = "vgw"

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
name = "ring1"
token = "pair-ring-token"

[[egress.consumers]]
name = "stream1"
token = "pair-stream-token"

[[cores]]
cpu = 1
agents = ["ingress:p0:0", "session", "journal", "egress"]
idle = "backoff"

[[cores]]
cpu = 0
agents = ["housekeeping"]
idle = "sleep:1ms"
CONF
}

sim_namespace()
{
    ip netns add sim && ip link add vgw type veth peer name vsim && ip link set vsim netns sim \
        && ip addr add 10.79.0.1/24 dev vgw && ip link set vgw up \
        && ip netns exec sim ip addr add 10.79.0.2/24 dev vsim && ip netns exec sim ip link set vsim up \
        && ip netns exec sim ip link set lo up
}

gateway_pid=
stop_gateway()
{
    [[ -n $gateway_pid ]] || return 0
    kill -TERM "$gateway_pid" 2>/dev/null
    for ((i = 0; i < 60; i++)); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$gateway_pid" 2>/dev/null
    wait "$gateway_pid"
    local rc=$?
    gateway_pid=
    return $rc
}

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

session_is_sent()
{
    touch "$ex/sim-started"
    ip netns exec sim "${mdgate[@]}" sim --messages "$messages" --rate "$rate" --seed 11 --send vsim \
        --group-a 233.54.12.111:26477 --group-b 233.54.12.112:26477 --pacing sleep \
        --serve-retransmits "$retransmit_port" --retransmit-address 10.79.0.2 --linger-ms 5000 \
        >"$MDGATE_RESULTS/sim.out" 2>&1 \
        || { cat "$MDGATE_RESULTS/sim.out"; return 1; }
    sleep 3
    local json last
    json=$("${mdgate[@]}" stat --config "$work/gateway.toml" --once --json) || { echo "$json"; return 1; }
    last=$(grep -o '"egress.last_sequence":[0-9]*' <<<"$json" | cut -d: -f2)
    [[ $last =~ ^[0-9]+$ && $last -gt 0 ]] || { echo "no egress.last_sequence in: $json"; return 1; }
    local lost
    lost=$(grep -o '"feed.messages.lost":[0-9]*' <<<"$json" | cut -d: -f2)
    [[ $lost == 0 ]] || { echo "the gateway lost $lost exchange messages (the simulator serves re-requests): $json"; return 1; }
    echo "$last" >"$ex/expected.tmp" && mv "$ex/expected.tmp" "$ex/expected"
    echo "gateway published up to sequence $last" | tee -a "$MDGATE_RESULTS/report.txt"
}

gateway_stops_cleanly()
{
    wait_for "$ex/consumers-done" 300
    local waited=$?
    # What the egress saw of the consumers' connections, for the report whichever way the run went.
    "${mdgate[@]}" stat --config "$work/gateway.toml" --once --json >"$MDGATE_RESULTS/counters-at-end.json" 2>&1
    grep -o '"egress\.\(consumers\|connections_[a-z_]*\|timed_out\|rejected\|sessions_disconnected\|consumer\.[a-z0-9]*\.[a-z_]*\)":[-0-9]*' \
        "$MDGATE_RESULTS/counters-at-end.json" | paste -sd' ' | tee -a "$MDGATE_RESULTS/report.txt"
    stop_gateway || { cat "$MDGATE_RESULTS/gateway.err"; return 1; }
    grep "mdgate run:" "$MDGATE_RESULTS/gateway.out" | tee -a "$MDGATE_RESULTS/report.txt"
    return $waited
}

role_gateway()
{
    trap 'stop_gateway; ip netns del sim 2>/dev/null; touch "$ex/abort"' EXIT
    report_begin softroce.pair.gateway
    check sim_namespace_is_set_up sim_namespace
    check mdgate_run_starts_over_verbs gateway_runs
    check the_simulated_session_is_published session_is_sent
    check the_gateway_stops_cleanly_after_the_consumers gateway_stops_cleanly
    report_end
}

consumer_pids=()
start_consumer()
{
    local name=$1 token=$2 path=$3
    "${mdgate[@]}" consume --transport verbs --rdma-device "$RXE_DEV" --rdma-address "$PEER_IPV4:$port" \
        --consumer "$name" --token "$token" --all --path "$path" --resume-from 1 \
        --connect-timeout-ms 120000 >"$work/$name.jsonl" 2>"$MDGATE_RESULTS/$name.err" &
    consumer_pids+=($!)
}

consumers_start()
{
    wait_for "$ex/gateway-up" 300 || return 1
    start_consumer ring1 pair-ring-token ring
    start_consumer stream1 pair-stream-token stream
    sleep 15
    for pid in "${consumer_pids[@]}"; do alive "$pid" || { cat "$MDGATE_RESULTS"/*.err; return 1; }; done
    touch "$ex/consumers-started"
}

# The fault, MDGATE_PAIR_LINK_FAULT: "drop" (default) drops every frame in and out of the NIC with tc filters, as a
# cable pulled between the hosts would, leaving the interface and rxe0 as they are; "down" takes the interface down
# and up, which also takes rxe0's port down (its GIDs go and come back).
link_cut()
{
    if [[ $link_fault == down ]]; then
        ip link set "$RXE_NETDEV" down
        return
    fi
    tc qdisc add dev "$RXE_NETDEV" clsact &&
        tc filter add dev "$RXE_NETDEV" ingress matchall action drop &&
        tc filter add dev "$RXE_NETDEV" egress matchall action drop
}

link_mend()
{
    if [[ $link_fault == down ]]; then
        ip link set "$RXE_NETDEV" up
        return
    fi
    tc qdisc del dev "$RXE_NETDEV" clsact
}

# The link of this guest goes down once the ring consumer has ticks, and up again; rxe0 must come back ACTIVE.
link_goes_down_and_up()
{
    wait_for "$ex/sim-started" 300 || return 1
    local i end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        [[ $(last_seen ring1) -gt 0 ]] 2>/dev/null && break
        alive "${consumer_pids[0]}" || { cat "$MDGATE_RESULTS/ring1.err"; return 1; }
        sleep 0.5
    done
    echo "link cut ($link_fault) at ring1 sequence $(last_seen ring1), stream1 $(last_seen stream1)"
    link_cut || return 1
    sleep "$link_down_seconds"
    link_mend || return 1
    for ((i = 0; i < 60; i++)); do
        [[ $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/state") == *ACTIVE* ]] && break
        sleep 0.5
    done
    echo "link mended ($link_fault) after $link_down_seconds s at ring1 sequence $(last_seen ring1), stream1 $(last_seen stream1);" \
        "$RXE_DEV port $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/state")" | tee -a "$MDGATE_RESULTS/report.txt"
    [[ $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/state") == *ACTIVE* ]]
}

last_seen() { tail -n 1 "$work/$1.jsonl" 2>/dev/null | grep -o '"gatewaySequence": *[0-9]*' | grep -o '[0-9]*$'; }

consumers_catch_up()
{
    wait_for "$ex/expected" 300 || return 1
    local expected i name ok
    expected=$(<"$ex/expected")
    local end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        ok=1
        for name in ring1 stream1; do
            [[ $(last_seen $name) -ge $expected ]] 2>/dev/null || ok=0
        done
        ((ok)) && break
        sleep 0.5
    done
    # SIGTERM, not SIGINT: a background job of a non-interactive shell starts with SIGINT ignored, so the JVM never
    # sees it. A consumer that has not ended 30 s later is killed.
    for pid in "${consumer_pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for pid in "${consumer_pids[@]}"; do
        for ((i = 0; i < 60; i++)); do alive "$pid" || break; sleep 0.5; done
        alive "$pid" && { echo "consumer $pid did not end on SIGTERM within 30 s: killed"; kill -KILL "$pid"; }
        wait "$pid"
    done
    consumer_pids=()
    for name in ring1 stream1; do echo "$name: $(tail -n 1 "$MDGATE_RESULTS/$name.err")"; done | tee -a "$MDGATE_RESULTS/report.txt"
    ((ok)) || { echo "not every consumer reached sequence $expected"; return 1; }
}

# every_sequence_once NAME: sequences 1..expected, each once, in order.
every_sequence_once()
{
    local expected summary
    expected=$(<"$ex/expected")
    summary=$(grep -o '"gatewaySequence": *[0-9]*' "$work/$1.jsonl" | grep -o '[0-9]*$' | awk -v want="$expected" '
        $1 != prev + 1 { bad++; if (bad <= 5) printf "after %d came %d\n", prev, $1 }
        { prev = $1; n++ }
        END { printf "%d ticks, last sequence %d of %d, %d breaks\n", n, prev, want, bad;
              exit !(bad == 0 && prev == want && n == want) }') || { echo "$summary"; return 1; }
    echo "$1: $summary" | tee -a "$MDGATE_RESULTS/report.txt"
}

role_consumers()
{
    trap 'for pid in "${consumer_pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done; touch "$ex/consumers-done" "$ex/abort"' EXIT
    report_begin softroce.pair.consumers
    check consumers_connect_over_verbs_from_the_other_host consumers_start
    if ((link_down_seconds > 0)); then
        check the_link_goes_down_mid_stream_and_comes_back link_goes_down_and_up
    else
        skip the_link_goes_down_mid_stream_and_comes_back "MDGATE_PAIR_LINK_DOWN_SECONDS=0"
    fi
    check every_consumer_reaches_the_gateways_last_sequence consumers_catch_up
    check ring_path_gets_every_sequence_once every_sequence_once ring1
    check stream_path_gets_every_sequence_once every_sequence_once stream1
    touch "$ex/consumers-done"
    report_end
}

case ${ROLE:-} in
    gateway) role_gateway ;;
    consumers) role_consumers ;;
    *) echo "pair.sh: ROLE must be gateway or consumers (set by run-pair.sh in bed/host.env), got '${ROLE:-}'" >&2; exit 2 ;;
esac
