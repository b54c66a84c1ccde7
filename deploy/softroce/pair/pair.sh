#!/bin/bash
# In a guest of the two-host bed (run-pair.sh). ROLE=gateway: `mdgate run` with [egress] transport = "verbs" on
# this guest's rxe0, fed over kernel sockets by `mdgate sim --send` from a network namespace. ROLE=consumers:
# `mdgate consume` over verbs from the other guest, ring and stream paths, each from sequence 1; every gateway
# sequence must arrive exactly once, in order, up to the gateway's last. The guests meet through /exchange:
# gateway-up, consumers-started, sim-started, consumer-restarted, gateway-killed, gateway-restarted, expected (the
# gateway's last sequence), consumers-done, and abort, which either guest leaves when its step ends so that the
# other stops waiting at once.
# Mid-stream, one after another (each waits for the one before, through /exchange): host b cuts its link for
# MDGATE_PAIR_LINK_DOWN_SECONDS (0: no cut) and mends it; host b kills the ring consumer with SIGKILL and starts it
# again from the sequence after the last line it printed (MDGATE_PAIR_CONSUMER_KILL=0: not); host a kills
# `mdgate run` with SIGKILL and starts it again on the same journal (MDGATE_PAIR_GATEWAY_KILL=0: not). The
# consumers must still end with every sequence once, across both runs of the killed one. Heartbeat timeouts and
# reconnects are counted in the report.
set -u
source "$MDGATE_BED/report.sh"
source "$MDGATE_PAYLOAD/settings.env" 2>/dev/null || true
ex=/exchange
work=/tmp/pair
mkdir -p "$work"
# shellcheck disable=SC2206
# C1 only and the serial collector: the JVMs start in a minute rather than three under TCG.
# The jars are read from the guest's memory, not through the 9p share: a JVM loading its classes over 9p (no cache,
# a round trip to the host per read) starts much more slowly, and this bed starts seven of them.
mkdir -p "$work/lib" && cp "$MDGATE_LIB"/*.jar "$work/lib/"
mdgate=(java $MDGATE_JVM_FLAGS -Xmx640m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$work/lib/*" io.mdgate.app.Main)
messages=${MDGATE_PAIR_MESSAGES:-70000}
rate=${MDGATE_PAIR_RATE:-1000}
link_down_seconds=${MDGATE_PAIR_LINK_DOWN_SECONDS:-5}
link_fault=${MDGATE_PAIR_LINK_FAULT:-drop}
consumer_kill=${MDGATE_PAIR_CONSUMER_KILL:-1}
gateway_kill=${MDGATE_PAIR_GATEWAY_KILL:-1}
# How far the ring consumer gets after the link fault before it is killed.
kill_after_ticks=${MDGATE_PAIR_KILL_AFTER_TICKS:-2000}
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
# The simulator answers from an emulated CPU, tens of milliseconds late at times: the default 2 ms gives up on it.
retry_interval_ms = 100

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
monitor_pid=
gateway_run=0
stop_gateway()
{
    stop_monitor
    [[ -n $gateway_pid ]] || return 0
    kill -TERM "$gateway_pid" 2>/dev/null
    for ((i = 0; i < 60; i++)); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$gateway_pid" 2>/dev/null
    wait "$gateway_pid"
    local rc=$?
    gateway_pid=
    return $rc
}

stop_monitor()
{
    [[ -n $monitor_pid ]] || return 0
    kill -TERM "$monitor_pid" 2>/dev/null
    wait "$monitor_pid" 2>/dev/null
    monitor_pid=
}

# counter LABEL: its value in the newest complete line of this gateway run's `mdgate stat --json` monitor.
counter()
{
    tail -n 3 "$work/stat.$gateway_run.jsonl" 2>/dev/null | grep '}$' | tail -n 1 | grep -o "\"$1\":-\?[0-9]\+" | head -n 1 | cut -d: -f2
}

# gateway_runs: starts `mdgate run` (again, on the same configuration and journal, when it ran before), waits until
# it says it is running, and starts `mdgate stat --json` beside it, a line a second, for counter.
gateway_runs()
{
    gateway_run=$((gateway_run + 1))
    [[ -f $work/gateway.toml ]] || gateway_config >"$work/gateway.toml"
    local err="$MDGATE_RESULTS/gateway.$gateway_run.err" started=$SECONDS
    "${mdgate[@]}" run --config "$work/gateway.toml" --no-pin >"$MDGATE_RESULTS/gateway.$gateway_run.out" 2>"$err" &
    gateway_pid=$!
    local end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        grep -q "running on" "$err" && break
        alive "$gateway_pid" || { cat "$err"; return 1; }
        sleep 1
    done
    grep "running on" "$err" || { cat "$err"; return 1; }
    echo "gateway run $gateway_run up after $((SECONDS - started)) s" | tee -a "$MDGATE_RESULTS/report.txt"
    "${mdgate[@]}" stat --config "$work/gateway.toml" --json --interval-ms 1000 --filter feed. --filter egress. \
        >"$work/stat.$gateway_run.jsonl" 2>"$MDGATE_RESULTS/stat.$gateway_run.err" &
    monitor_pid=$!
    touch "$ex/gateway-up"
}

# The simulator runs in the background, lingering (serving re-requests, repeating its end of session) until this
# guest stops it: a gateway killed mid-stream learns of the rest of the session only from it.
sim_pid=
sim_starts()
{
    ip netns exec sim "${mdgate[@]}" sim --messages "$messages" --rate "$rate" --seed 11 --send vsim \
        --group-a 233.54.12.111:26477 --group-b 233.54.12.112:26477 --pacing sleep \
        --serve-retransmits "$retransmit_port" --retransmit-address 10.79.0.2 --linger-ms 900000 \
        >"$MDGATE_RESULTS/sim.out" 2>&1 &
    sim_pid=$!
    touch "$ex/sim-started"
}

stop_sim()
{
    [[ -n $sim_pid ]] || return 0
    kill -TERM "$sim_pid" 2>/dev/null
    wait "$sim_pid" 2>/dev/null
    sim_pid=
}

# Egress counters of this gateway run, for the report: connections, heartbeat timeouts, each consumer's state.
egress_counters()
{
    tail -n 3 "$work/stat.$gateway_run.jsonl" 2>/dev/null | grep '}$' | tail -n 1 |
        grep -o '"egress\.\(consumers\|connections_[a-z_]*\|consumers_welcomed\|timed_out\|hello_timeouts\|rejected\|sessions_disconnected\|recovery_requests\|recovered_ticks\|consumer\.[a-z0-9]*\.[a-z_]*\)":-\?[0-9]\+' |
        paste -sd' '
}

# Once the ring consumer has come back from its kill, mid-stream: SIGKILL, as a crash would, and the same
# configuration and journal again. Fails when the session had ended before the kill (it would prove nothing).
gateway_killed_and_restarted()
{
    if [[ $consumer_kill == 1 ]]; then
        wait_for "$ex/consumer-restarted" 400 || return 1
    else
        wait_for "$ex/consumers-started" 300 || return 1
        sleep 5
    fi
    local next last
    next=$(counter feed.next_sequence)
    last=$(counter egress.last_sequence)
    alive "$sim_pid" || { echo "the simulator ended early:"; cat "$MDGATE_RESULTS/sim.out"; return 1; }
    [[ $next =~ ^[0-9]+$ ]] || { echo "no feed.next_sequence from mdgate stat"; tail -n 2 "$work/stat.$gateway_run.jsonl"; return 1; }
    ((next <= messages)) || { echo "the session had ended (exchange message $next of $messages) before the" \
        "gateway was killed: a longer session is needed on this host (MDGATE_PAIR_MESSAGES)"; return 1; }
    echo "gateway run $gateway_run before the kill: $(egress_counters)" | tee -a "$MDGATE_RESULTS/report.txt"
    kill -KILL "$gateway_pid"
    wait "$gateway_pid" 2>/dev/null
    gateway_pid=
    stop_monitor
    touch "$ex/gateway-killed"
    echo "gateway run $gateway_run killed (SIGKILL) at exchange message $next of $messages, egress sequence $last" |
        tee -a "$MDGATE_RESULTS/report.txt"
    gateway_runs || return 1
    touch "$ex/gateway-restarted"
}

# Every exchange message in the journal (feed.next_sequence past the last), none lost, the gateway idle: then the
# simulator is stopped and the gateway's last sequence is what the consumers must reach.
session_is_sent()
{
    local end=$((SECONDS + 400)) next idle=0 last previous=
    while ((SECONDS < end)); do
        alive "$sim_pid" || { echo "the simulator ended before the gateway had the session:"; cat "$MDGATE_RESULTS/sim.out"; return 1; }
        alive "$gateway_pid" || { echo "mdgate run ended:"; cat "$MDGATE_RESULTS/gateway.$gateway_run.err"; return 1; }
        next=$(counter feed.next_sequence)
        last=$(counter egress.last_sequence)
        if [[ $next =~ ^[0-9]+$ && $next -gt $messages && -n $last && $last == "$previous" ]]; then
            ((++idle >= 3)) && break
        else
            idle=0
        fi
        previous=$last
        sleep 1
    done
    ((idle >= 3)) || { echo "the gateway did not journal all $messages exchange messages within 400 s (next $next)";
        tail -n 1 "$work/stat.$gateway_run.jsonl"; return 1; }
    stop_sim
    grep -v '^$' "$MDGATE_RESULTS/sim.out" | tail -n 3
    [[ $last =~ ^[0-9]+$ && $last -gt 0 ]] || { echo "no egress.last_sequence"; return 1; }
    local lost
    lost=$(counter feed.messages.lost)
    [[ $lost == 0 ]] || { echo "the gateway lost $lost exchange messages (the simulator serves re-requests)"; return 1; }
    echo "$last" >"$ex/expected.tmp" && mv "$ex/expected.tmp" "$ex/expected"
    echo "gateway published up to sequence $last (exchange messages 1..$((next - 1)) journaled)" | tee -a "$MDGATE_RESULTS/report.txt"
}

gateway_stops_cleanly()
{
    wait_for "$ex/consumers-done" 300
    local waited=$?
    # What the egress saw of the consumers' connections, for the report whichever way the run went.
    sleep 2
    echo "gateway run $gateway_run at the end: $(egress_counters)" | tee -a "$MDGATE_RESULTS/report.txt"
    rdma_counters >"$MDGATE_RESULTS/rdma-counters-at-end.txt" 2>&1
    stop_gateway || { cat "$MDGATE_RESULTS/gateway.$gateway_run.err"; return 1; }
    grep "mdgate run:" "$MDGATE_RESULTS/gateway.$gateway_run.out" | tee -a "$MDGATE_RESULTS/report.txt"
    return $waited
}

role_gateway()
{
    trap 'stop_sim; stop_gateway; ip netns del sim 2>/dev/null; touch "$ex/abort"' EXIT
    report_begin softroce.pair.gateway
    check sim_namespace_is_set_up sim_namespace
    check mdgate_run_starts_over_verbs gateway_runs
    sim_starts
    if [[ $gateway_kill == 1 ]]; then
        check the_gateway_is_killed_mid_stream_and_restarted_on_its_journal gateway_killed_and_restarted
    else
        skip the_gateway_is_killed_mid_stream_and_restarted_on_its_journal "MDGATE_PAIR_GATEWAY_KILL=$gateway_kill"
    fi
    check the_simulated_session_is_published session_is_sent
    check the_gateway_stops_cleanly_after_the_consumers gateway_stops_cleanly
    report_end
}

# Each consumer's runs: NAME.N.jsonl (ticks), NAME.N.err (what it said); runs[NAME] is the current N.
declare -A consumer_pid=() runs=() tokens=([ring1]=pair-ring-token [stream1]=pair-stream-token) paths=([ring1]=ring [stream1]=stream)
consumer_names=(ring1 stream1)

# start_consumer NAME FROM: a new run of consumer NAME from gateway sequence FROM.
start_consumer()
{
    local name=$1 from=$2 n
    n=$((${runs[$name]:-0} + 1))
    runs[$name]=$n
    "${mdgate[@]}" consume --transport verbs --rdma-device "$RXE_DEV" --rdma-address "$PEER_IPV4:$port" \
        --consumer "$name" --token "${tokens[$name]}" --all --path "${paths[$name]}" --resume-from "$from" \
        --connect-timeout-ms 300000 >"$work/$name.$n.jsonl" 2>"$MDGATE_RESULTS/$name.$n.err" &
    consumer_pid[$name]=$!
}

consumers_start()
{
    wait_for "$ex/gateway-up" 300 || return 1
    local name
    for name in "${consumer_names[@]}"; do start_consumer "$name" 1; done
    sleep 15
    for name in "${consumer_names[@]}"; do
        alive "${consumer_pid[$name]}" || { cat "$MDGATE_RESULTS"/*.err; return 1; }
    done
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
        alive "${consumer_pid[ring1]}" || { cat "$MDGATE_RESULTS/ring1.1.err"; return 1; }
        sleep 0.5
    done
    echo "link cut ($link_fault) at ring1 sequence $(last_seen ring1), stream1 $(last_seen stream1)"
    link_state >"$MDGATE_RESULTS/link-before.txt" 2>&1
    link_cut || return 1
    sleep "$link_down_seconds"
    link_mend || return 1
    for ((i = 0; i < 60; i++)); do
        [[ $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/state") == *ACTIVE* ]] && break
        sleep 0.5
    done
    link_state >"$MDGATE_RESULTS/link-after.txt" 2>&1
    (sleep 20; link_state >"$MDGATE_RESULTS/link-after-20s.txt" 2>&1) &
    echo "link mended ($link_fault) after $link_down_seconds s at ring1 sequence $(last_seen ring1), stream1 $(last_seen stream1);" \
        "$RXE_DEV port $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/state")" | tee -a "$MDGATE_RESULTS/report.txt"
    [[ $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/state") == *ACTIVE* ]]
}

# What the interface, its routes, neighbours and rxe0's GID table look like (for the fault's record).
link_state()
{
    ip -d addr show dev "$RXE_NETDEV"; ip route; ip neigh; rdma link; rdma res show qp 2>/dev/null | head -20
    local g d
    for g in /sys/class/infiniband/$RXE_DEV/ports/1/gids/*; do
        [[ $(<"$g") == 0000:0000:0000:0000:0000:0000:0000:0000 ]] && continue
        d=${g##*/}
        echo "gid $d $(<"$g") $(cat "/sys/class/infiniband/$RXE_DEV/ports/1/gid_attrs/types/$d" 2>&1)" \
            "$(cat "/sys/class/infiniband/$RXE_DEV/ports/1/gid_attrs/ndevs/$d" 2>&1)"
    done
    rdma_counters
}

# The connection manager's messages sent and received, and rxe0's packet counters, non-zero ones only.
rdma_counters()
{
    local f
    for f in /sys/class/infiniband_cm/$RXE_DEV/1/*/* /sys/class/infiniband/$RXE_DEV/ports/1/hw_counters/*; do
        [[ -f $f && $(<"$f") != 0 ]] && echo "${f#/sys/class/} $(<"$f")"
    done
}

# last_seen NAME: the gateway sequence of the last tick consumer NAME printed, in its latest run that printed one.
last_seen()
{
    local n seq
    for ((n = ${runs[$1]:-0}; n >= 1; n--)); do
        seq=$(tail -n 1 "$work/$1.$n.jsonl" 2>/dev/null | grep -o '"gatewaySequence": [0-9]*' | grep -o '[0-9]*$')
        [[ -n $seq ]] && { echo "$seq"; return 0; }
    done
    echo 0
}

# SIGKILL, as a crash would; then the run's last partly written line is cut (a consumer keeps what it wrote whole,
# as SequenceConsumer does) and a new run resumes from the sequence after it, recovered from the gateway's journal.
consumer_killed_and_restarted()
{
    local name=ring1 from now killed_at first started end n
    from=$(last_seen $name)
    end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        now=$(last_seen $name)
        ((now >= from + kill_after_ticks)) && break
        alive "${consumer_pid[$name]}" || { cat "$MDGATE_RESULTS/$name.${runs[$name]}.err"; return 1; }
        sleep 0.2
    done
    ((now >= from + kill_after_ticks)) || { echo "$name did not get $kill_after_ticks ticks past $from within 300 s"; return 1; }
    n=${runs[$name]}
    kill -KILL "${consumer_pid[$name]}"
    wait "${consumer_pid[$name]}" 2>/dev/null
    local file="$work/$name.$n.jsonl"
    if [[ -s $file && $(tail -c 1 "$file" | od -An -c) != *'\n'* ]]; then
        echo "$name run $n: its last line was cut by the kill: $(tail -n 1 "$file" | head -c 80)..."
        sed -i '$d' "$file"
    fi
    killed_at=$(last_seen $name)
    echo "$name run $n killed (SIGKILL) after sequence $killed_at; run $((n + 1)) resumes from $((killed_at + 1))" |
        tee -a "$MDGATE_RESULTS/report.txt"
    started=$SECONDS
    start_consumer $name $((killed_at + 1))
    file="$work/$name.$((n + 1)).jsonl"
    end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        [[ -n $(head -n 1 "$file" 2>/dev/null | grep '}$') ]] && break
        alive "${consumer_pid[$name]}" || { cat "$MDGATE_RESULTS/$name.$((n + 1)).err"; return 1; }
        sleep 0.5
    done
    first=$(head -n 1 "$file" | grep -o '"gatewaySequence": [0-9]*' | grep -o '[0-9]*$')
    [[ -n $first ]] || { echo "$name run $((n + 1)) printed no tick within 300 s"; return 1; }
    touch "$ex/consumer-restarted"
    echo "$name run $((n + 1)) printed its first tick, sequence $first, $((SECONDS - started)) s after it was started" |
        tee -a "$MDGATE_RESULTS/report.txt"
    ((first == killed_at + 1)) || { echo "it should have been $((killed_at + 1))"; return 1; }
}

# lost_connections NAME: how many times the current run of NAME said it lost its connection.
lost_connections() { grep -c "lost its connection" "$MDGATE_RESULTS/$1.${runs[$1]}.err" 2>/dev/null; }

# While host a kills and restarts the gateway: each consumer must notice (say it lost its connection) and get
# sequences past the one it had at the kill from the restarted gateway.
consumers_come_back_after_the_gateway_restart()
{
    wait_for "$ex/gateway-killed" 500 || return 1
    local name end ok killed=$SECONDS
    declare -A lost_before=() seq_before=()
    for name in "${consumer_names[@]}"; do
        lost_before[$name]=$(lost_connections $name)
        seq_before[$name]=$(last_seen $name)
    done
    wait_for "$ex/gateway-restarted" 400 || return 1
    echo "gateway restarted $((SECONDS - killed)) s after the kill"
    end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        ok=1
        for name in "${consumer_names[@]}"; do
            (($(lost_connections $name) > lost_before[$name] && $(last_seen $name) > seq_before[$name])) || ok=0
            alive "${consumer_pid[$name]}" || { echo "$name ended:"; cat "$MDGATE_RESULTS/$name.${runs[$name]}.err"; return 1; }
        done
        ((ok)) && break
        sleep 0.5
    done
    for name in "${consumer_names[@]}"; do
        echo "$name: at sequence ${seq_before[$name]} when the gateway was killed, $(last_seen $name) $((SECONDS - killed)) s later;"             "$(grep "lost its connection" "$MDGATE_RESULTS/$name.${runs[$name]}.err" | tail -n +$((lost_before[$name] + 1)) | head -n 1 | sed 's/^mdgate consume: //')"
    done | tee -a "$MDGATE_RESULTS/report.txt"
    ((ok)) || { echo "not every consumer lost its connection and came back with new sequences within 300 s"; return 1; }
}

consumers_catch_up()
{
    wait_for "$ex/expected" 600 || return 1
    local expected i name ok pid
    expected=$(<"$ex/expected")
    local end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        ok=1
        for name in "${consumer_names[@]}"; do
            [[ $(last_seen $name) -ge $expected ]] 2>/dev/null || ok=0
        done
        ((ok)) && break
        sleep 0.5
    done
    # SIGTERM, not SIGINT: a background job of a non-interactive shell starts with SIGINT ignored, so the JVM never
    # sees it. A consumer that has not ended 30 s later is killed.
    for name in "${consumer_names[@]}"; do kill -TERM "${consumer_pid[$name]}" 2>/dev/null; done
    for name in "${consumer_names[@]}"; do
        pid=${consumer_pid[$name]}
        for ((i = 0; i < 60; i++)); do alive "$pid" || break; sleep 0.5; done
        alive "$pid" && { echo "consumer $name ($pid) did not end on SIGTERM within 30 s: killed"; kill -KILL "$pid"; }
        wait "$pid"
    done
    consumer_pid=()
    for name in "${consumer_names[@]}"; do
        for ((i = 1; i <= runs[$name]; i++)); do
            echo "$name run $i: $(grep "mdgate consume: delivered" "$MDGATE_RESULTS/$name.$i.err" || echo "(killed: no summary)")"
        done
        echo "$name: heartbeat timeouts $(cat "$MDGATE_RESULTS/$name".*.err | grep -c "no heartbeat from the publisher")," \
            "connections closed by the publisher or its device $(cat "$MDGATE_RESULTS/$name".*.err | grep -c "lost its connection: the publisher")," \
            "connections lost in all $(cat "$MDGATE_RESULTS/$name".*.err | grep -c "lost its connection")"
    done | tee -a "$MDGATE_RESULTS/report.txt"
    ((ok)) || { echo "not every consumer reached sequence $expected"; return 1; }
}

# every_sequence_once NAME: the ticks of all of NAME's runs, in run order, are sequences 1..expected, each once, in
# order (sequences.sh).
every_sequence_once()
{
    local expected summary n files=()
    expected=$(<"$ex/expected")
    for ((n = 1; n <= ${runs[$1]:-0}; n++)); do files+=("$work/$1.$n.jsonl"); done
    summary=$("$MDGATE_PAYLOAD/sequences.sh" "$expected" "${files[@]}") || { echo "$summary"; return 1; }
    echo "$1: $summary" | tee -a "$MDGATE_RESULTS/report.txt"
}

role_consumers()
{
    trap 'for pid in "${consumer_pid[@]}"; do kill -KILL "$pid" 2>/dev/null; done; touch "$ex/consumers-done" "$ex/abort"' EXIT
    report_begin softroce.pair.consumers
    check consumers_connect_over_verbs_from_the_other_host consumers_start
    if ((link_down_seconds > 0)); then
        check the_link_goes_down_mid_stream_and_comes_back link_goes_down_and_up
    else
        skip the_link_goes_down_mid_stream_and_comes_back "MDGATE_PAIR_LINK_DOWN_SECONDS=0"
    fi
    if [[ $consumer_kill == 1 ]]; then
        check the_ring_consumer_killed_mid_stream_resumes_where_it_was consumer_killed_and_restarted
    else
        skip the_ring_consumer_killed_mid_stream_resumes_where_it_was "MDGATE_PAIR_CONSUMER_KILL=$consumer_kill"
    fi
    if [[ $gateway_kill == 1 ]]; then
        check the_consumers_come_back_after_the_gateway_restart consumers_come_back_after_the_gateway_restart
    else
        skip the_consumers_come_back_after_the_gateway_restart "MDGATE_PAIR_GATEWAY_KILL=$gateway_kill"
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
