#!/bin/bash
# In a guest of the two-host bed (run-pair.sh). ROLE=gateway: `mdgate run` with [egress] transport = "verbs" on
# this guest's rxe0, fed over kernel sockets by `mdgate sim --send` from a network namespace. ROLE=consumers:
# `mdgate consume` over verbs from the other guest, ring and stream paths, each from sequence 1; every gateway
# sequence must arrive exactly once, in order, up to the gateway's last. The guests meet through /exchange:
# gateway-up, consumers-started, sim-started, kill-gateway, gateway-killed, gateway-back, expected (the gateway's
# last sequence), consumers-done, and abort, which either guest leaves when its step ends (or gives up) so that the
# other stops waiting at once.
# Three faults mid-stream, one after another (docs/SOFTROCE.md, "Two hosts"): host b takes its link down for
# MDGATE_PAIR_LINK_DOWN_SECONDS (0: no fault) and up again; host b kills the ring consumer (SIGKILL) and starts it
# again with --resume-from after the last whole line it printed; host a kills `mdgate run` (SIGKILL) and starts it
# again on the same journal while the simulator goes on and then lingers serving re-requests. Every consumer must
# still end with every sequence once, the ring consumer's outputs before and after its kill together; both must
# have reconnected to the restarted gateway on their own, and the gateway must have lost no exchange message.
# MDGATE_PAIR_KILLS=0 leaves out the two kills.
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
# 80,000 messages at 600 a second: the session lasts about two minutes, so that the gateway is killed while it is
# still being sent (after the link fault and the ring consumer's restart, about 80 s into it under TCG).
messages=${MDGATE_PAIR_MESSAGES:-80000}
rate=${MDGATE_PAIR_RATE:-600}
link_down_seconds=${MDGATE_PAIR_LINK_DOWN_SECONDS:-5}
link_fault=${MDGATE_PAIR_LINK_FAULT:-drop}
kills=${MDGATE_PAIR_KILLS:-1}
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

# give_up: a step this guest cannot go on without failed; the other guest stops waiting at once, as at the end.
give_up() { touch "$ex/abort"; }

# wait_until SECONDS WHAT COMMAND...: bounded wait for a state of this guest (COMMAND succeeds); gives up when the
# other guest's step ended.
wait_until()
{
    local limit=$1 what=$2
    local end=$((SECONDS + limit))
    shift 2
    while ((SECONDS < end)); do
        "$@" && return 0
        [[ -e $ex/abort ]] && { echo "the other guest's step ended while waiting for $what" >&2; return 1; }
        sleep 0.5
    done
    "$@" && return 0
    echo "not $what after $limit s" >&2
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
# Which run of `mdgate run` this is: 1, then 2 after the kill; its output goes to gateway.out/err, gateway-2.out/err.
gateway_run=0
gateway_err() { echo "$MDGATE_RESULTS/gateway$( ((gateway_run > 1)) && echo "-$gateway_run").err"; }
gateway_out() { echo "$MDGATE_RESULTS/gateway$( ((gateway_run > 1)) && echo "-$gateway_run").out"; }

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

# start_gateway: `mdgate run` on the one configuration and journal, until it says it is running (300 s at most).
start_gateway()
{
    gateway_run=$((gateway_run + 1))
    local err
    err=$(gateway_err)
    "${mdgate[@]}" run --config "$work/gateway.toml" --no-pin >"$(gateway_out)" 2>"$err" &
    gateway_pid=$!
    local end=$((SECONDS + 300))
    while ((SECONDS < end)); do
        grep -q "running on" "$err" && break
        alive "$gateway_pid" || { cat "$err"; return 1; }
        sleep 1
    done
    grep "running on" "$err" || { cat "$err"; return 1; }
}

# The gateway's registered rings go on 2 MiB pages ([egress] hugepages = "auto", the default) when the host has
# free ones: this guest reserves them before the first start (the killed gateway's come back with its process).
hugepages_before=
reserve_hugepages()
{
    hugepages_before=$(cat /proc/sys/vm/nr_hugepages)
    echo "${MDGATE_PAIR_HUGEPAGES:-160}" >/proc/sys/vm/nr_hugepages
    free_hugepages_before_gateway=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages)
}
free_hugepages_before_gateway=0

gateway_runs()
{
    gateway_config >"$work/gateway.toml"
    reserve_hugepages
    start_gateway || { give_up; return 1; }
    touch "$ex/gateway-up"
}

# The gateway's rings are on hugepages: it took some of the free ones and counted no region on regular pages.
gateway_rings_are_on_hugepages()
{
    local free taken json fallbacks
    free=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages)
    taken=$((free_hugepages_before_gateway - free))
    json=$("${mdgate[@]}" stat --config "$work/gateway.toml" --once --json) || { echo "$json"; return 1; }
    fallbacks=$(grep -o '"egress.hugepage_fallbacks":[0-9]*' <<<"$json" | head -n 1 | cut -d: -f2)
    echo "the gateway took $taken of $free_hugepages_before_gateway free 2 MiB pages; egress.hugepage_fallbacks $fallbacks" |
        tee -a "$MDGATE_RESULTS/report.txt"
    ((taken > 0)) && [[ $fallbacks == 0 ]]
}

# The simulator runs in the background: with the kills it lingers (up to MDGATE_PAIR_LINGER_SECONDS) serving
# re-requests until the restarted gateway has the whole session, and is then stopped with SIGTERM, which ends the
# linger and still prints its summary.
sim_pid=
linger_ms=$(( ${MDGATE_PAIR_LINGER_SECONDS:-600} * 1000 ))
sim_starts()
{
    ((kills)) || linger_ms=5000
    touch "$ex/sim-started"
    ip netns exec sim "${mdgate[@]}" sim --messages "$messages" --rate "$rate" --seed 11 --send vsim \
        --group-a 233.54.12.111:26477 --group-b 233.54.12.112:26477 --pacing sleep \
        --serve-retransmits "$retransmit_port" --retransmit-address 10.79.0.2 --linger-ms "$linger_ms" \
        >"$MDGATE_RESULTS/sim.out" 2>&1 &
    sim_pid=$!
    sleep 2
    alive "$sim_pid" || { wait "$sim_pid"; cat "$MDGATE_RESULTS/sim.out"; give_up; return 1; }
}

# Once host b asks (its ring consumer killed and back), `mdgate run` is killed with SIGKILL mid-stream, as a crash
# would end it, and started again on the same configuration and journal; the simulator meanwhile goes on. The
# restarted gateway must say it resumes from the journal at an exchange sequence inside the session (the kill came
# before the last message, so the rest has to come from the feed and its re-requests) and a gateway sequence past 1.
gateway_is_killed_and_restarts()
{
    wait_for "$ex/kill-gateway" 600 || { give_up; return 1; }
    alive "$gateway_pid" || { echo "mdgate run had already ended"; cat "$(gateway_err)"; give_up; return 1; }
    local seen_end=no
    grep -q "end of session after sequence" "$(gateway_err)" && seen_end=yes
    kill -KILL "$gateway_pid"
    wait "$gateway_pid"
    local rc=$? killed_at=$SECONDS
    gateway_pid=
    touch "$ex/gateway-killed"
    ((rc == 137)) || { echo "mdgate run ended with exit code $rc, not by the SIGKILL (137)"; give_up; return 1; }
    start_gateway || { give_up; return 1; }
    touch "$ex/gateway-back"
    local resume next_exchange next_gateway
    resume=$(grep -m 1 "mdgate run: resuming session" "$(gateway_err)")
    echo "gateway killed (SIGKILL; it had seen the session's end: $seen_end), running again after $((SECONDS - killed_at)) s; $resume" |
        sed 's/; books and egress records rebuilt from/, rebuilt from/' | tee -a "$MDGATE_RESULTS/report.txt"
    next_exchange=$(sed -n 's/.* at exchange sequence \([0-9]*\) and gateway sequence \([0-9]*\);.*/\1/p' <<<"$resume")
    next_gateway=$(sed -n 's/.* at exchange sequence \([0-9]*\) and gateway sequence \([0-9]*\);.*/\2/p' <<<"$resume")
    [[ $next_exchange =~ ^[0-9]+$ && $next_gateway =~ ^[0-9]+$ ]] ||
        { echo "the restarted gateway did not say it resumes from its journal:"; cat "$(gateway_err)"; return 1; }
    ((next_gateway > 1)) || { echo "the restarted gateway resumes at gateway sequence $next_gateway: the journal was empty"; return 1; }
    ((next_exchange <= messages)) ||
        { echo "the gateway had every exchange message ($next_exchange > $messages) before it was killed: nothing left to re-request"; return 1; }
}

# counter NAME FILE: one counter's value from `mdgate stat --json` output.
counter() { grep -o "\"$1\":[-0-9][0-9]*" "$2" | head -n 1 | cut -d: -f2; }

# The session is whole at the (restarted) gateway: it said the session ended after the simulator's last message,
# lost no exchange message in either run (the killed run's counters are the previous run's file, `--run previous`),
# and published ticks; the simulator is then stopped and must exit 0 with its summary.
session_is_sent()
{
    local err ok=1
    err=$(gateway_err)
    wait_until 400 "the gateway's end of session after sequence $messages" \
        grep -q "feed: end of session after sequence $messages\$" "$err" || ok=0
    if ((kills)); then
        kill -TERM "$sim_pid" 2>/dev/null
    fi
    local i
    for ((i = 0; i < 120; i++)); do alive "$sim_pid" || break; sleep 0.5; done
    alive "$sim_pid" && { echo "the simulator did not end within 60 s of its SIGTERM: killed"; kill -KILL "$sim_pid"; ok=0; }
    wait "$sim_pid"
    local rc=$?
    sim_pid=
    ((rc == 0)) || { echo "the simulator exited $rc"; ok=0; }
    grep -i "re-requests on" "$MDGATE_RESULTS/sim.out" | sed 's/^ */simulator: /' | tee -a "$MDGATE_RESULTS/report.txt"
    ((ok)) || { cat "$MDGATE_RESULTS/sim.out" "$err"; return 1; }
    sleep 3
    "${mdgate[@]}" stat --config "$work/gateway.toml" --once --json >"$MDGATE_RESULTS/counters-at-session-end.json" 2>&1 &
    local stat_now=$!
    if ((gateway_run > 1)); then
        "${mdgate[@]}" stat --config "$work/gateway.toml" --run previous --once --json \
            >"$MDGATE_RESULTS/counters-of-the-killed-run.json" 2>&1 &
    fi
    local stat_before=$!
    wait "$stat_now" || { cat "$MDGATE_RESULTS/counters-at-session-end.json"; ok=0; }
    if ((gateway_run > 1)); then
        wait "$stat_before" || { cat "$MDGATE_RESULTS/counters-of-the-killed-run.json"; ok=0; }
    fi
    ((ok)) || return 1
    local last lost
    last=$(counter egress.last_sequence "$MDGATE_RESULTS/counters-at-session-end.json")
    [[ $last =~ ^[0-9]+$ && $last -gt 0 ]] ||
        { echo "no egress.last_sequence in: $(cat "$MDGATE_RESULTS/counters-at-session-end.json")"; return 1; }
    lost=$(counter feed.messages.lost "$MDGATE_RESULTS/counters-at-session-end.json")
    [[ $lost == 0 ]] || { echo "the gateway lost ${lost:-?} exchange messages (the simulator serves re-requests)"; ok=0; }
    if ((gateway_run > 1)); then
        local lost_before
        lost_before=$(counter feed.messages.lost "$MDGATE_RESULTS/counters-of-the-killed-run.json")
        [[ $lost_before == 0 ]] || { echo "the killed gateway had lost ${lost_before:-?} exchange messages"; ok=0; }
        echo "feed.messages.lost: ${lost_before:-?} in the killed run, ${lost:-?} in the restarted one;" \
            "the restarted one's gaps: $(grep -o '"feed\.gaps\.\(opened\|filled_by_rerequest\|lost\)":[0-9][0-9]*' "$MDGATE_RESULTS/counters-at-session-end.json" | paste -sd' ')" |
            tee -a "$MDGATE_RESULTS/report.txt"
    fi
    ((ok)) || return 1
    echo "$last" >"$ex/expected.tmp" && mv "$ex/expected.tmp" "$ex/expected"
    echo "gateway published up to sequence $last" | tee -a "$MDGATE_RESULTS/report.txt"
}

gateway_stops_cleanly()
{
    wait_for "$ex/consumers-done" 300
    local waited=$?
    # What the egress saw of the consumers' connections, for the report whichever way the run went.
    "${mdgate[@]}" stat --config "$work/gateway.toml" --once --json >"$MDGATE_RESULTS/counters-at-end.json" 2>&1
    grep -o '"egress\.\(consumers[a-z_]*\|connections_[a-z_]*\|timed_out\|rejected\|sessions_disconnected\|recovered_ticks\|consumer\.[a-z0-9]*\.[a-z_]*\)":[-0-9][0-9]*' \
        "$MDGATE_RESULTS/counters-at-end.json" | paste -sd' ' | tee -a "$MDGATE_RESULTS/report.txt"
    stop_gateway || { cat "$(gateway_err)"; return 1; }
    local run
    for run in "$MDGATE_RESULTS"/gateway.out "$MDGATE_RESULTS"/gateway-[0-9]*.out; do
        [[ -e $run ]] && grep "mdgate run:" "$run" | sed "s/^/$(basename "$run" .out): /"
    done | tee -a "$MDGATE_RESULTS/report.txt"
    return $waited
}

# The restarted gateway welcomed both consumers back: its log names each consumer it connected, the ring consumer
# restarted on host b and the stream one that reconnected by itself; a consumer that never came back is not named.
restarted_gateway_welcomed_both()
{
    local name times ok=1 err
    err=$(gateway_err)
    ((gateway_run > 1)) || { echo "the gateway was not restarted"; return 1; }
    for name in ring1 stream1; do
        times=$(grep -c "egress: consumer '$name' connected from" "$err")
        echo "the restarted gateway connected $name ${times:-0} time(s)" | tee -a "$MDGATE_RESULTS/report.txt"
        ((times >= 1)) || ok=0
    done
    echo "egress.consumers_welcomed $(counter egress.consumers_welcomed "$MDGATE_RESULTS/counters-at-end.json") in the restarted run" |
        tee -a "$MDGATE_RESULTS/report.txt"
    ((ok))
}

role_gateway()
{
    trap 'stop_gateway; [[ -n $sim_pid ]] && kill -KILL "$sim_pid" 2>/dev/null; ip netns del sim 2>/dev/null; [[ -n $hugepages_before ]] && echo "$hugepages_before" >/proc/sys/vm/nr_hugepages; touch "$ex/abort"' EXIT
    report_begin softroce.pair.gateway
    check sim_namespace_is_set_up sim_namespace
    check mdgate_run_starts_over_verbs gateway_runs
    check the_gateways_registered_rings_are_on_hugepages gateway_rings_are_on_hugepages
    check the_simulator_starts sim_starts
    if ((kills)); then
        check the_gateway_is_killed_mid_stream_and_resumes_from_its_journal gateway_is_killed_and_restarts
    else
        skip the_gateway_is_killed_mid_stream_and_resumes_from_its_journal "MDGATE_PAIR_KILLS=0"
    fi
    check the_simulated_session_is_published session_is_sent || give_up
    check the_gateway_stops_cleanly_after_the_consumers gateway_stops_cleanly
    if ((kills)); then
        check the_restarted_gateway_welcomed_both_consumers_back restarted_gateway_welcomed_both
    else
        skip the_restarted_gateway_welcomed_both_consumers_back "MDGATE_PAIR_KILLS=0"
    fi
    report_end
}

# Each consumer by name: its process, and the files of its current process (the ring consumer's second process,
# after its kill, writes ring1-2.jsonl and ring1-2.err).
declare -A consumer_pid consumer_out consumer_err
consumer_names=(ring1 stream1)
consumer_pids() { local name; for name in "${consumer_names[@]}"; do [[ -n ${consumer_pid[$name]:-} ]] && echo "${consumer_pid[$name]}"; done; }

# start_consumer NAME TOKEN PATH FIRST [PART]: `mdgate consume` from gateway sequence FIRST.
start_consumer()
{
    local name=$1 token=$2 path=$3 first=$4 part=${5:-}
    consumer_out[$name]=$work/$name$part.jsonl
    consumer_err[$name]=$MDGATE_RESULTS/$name$part.err
    "${mdgate[@]}" consume --transport verbs --rdma-device "$RXE_DEV" --rdma-address "$PEER_IPV4:$port" \
        --consumer "$name" --token "$token" --all --path "$path" --resume-from "$first" \
        --connect-timeout-ms 120000 >"${consumer_out[$name]}" 2>"${consumer_err[$name]}" &
    consumer_pid[$name]=$!
}

consumers_start()
{
    wait_for "$ex/gateway-up" 300 || return 1
    start_consumer ring1 pair-ring-token ring 1
    start_consumer stream1 pair-stream-token stream 1
    sleep 15
    local pid
    for pid in $(consumer_pids); do alive "$pid" || { cat "$MDGATE_RESULTS"/*.err; return 1; }; done
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
        alive "${consumer_pid[ring1]}" || { cat "${consumer_err[ring1]}"; return 1; }
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


# whole_lines FILE: FILE up to its last newline. A process killed while writing may leave a partial last line: it
# is not a tick, and the consumer did not deliver it whole.
whole_lines()
{
    local size whole
    size=$(stat -c %s "$1" 2>/dev/null) || return 0
    ((size > 0)) || return 0
    if [[ $(tail -c 1 "$1" | od -An -c | tr -d ' ') == '\n' ]]; then
        cat "$1"
    else
        whole=$(( $(head -c "$size" "$1" | grep -c '') - 1 ))
        head -n "$whole" "$1"
    fi
}

sequences() { grep -o '"gatewaySequence": *[0-9]*' | grep -o '[0-9]*$'; }

# last_seen NAME: the last gateway sequence its current process printed on a whole line (empty before any).
last_seen() { whole_tail "${consumer_out[$1]}" | sequences | tail -n 1; }

# whole_tail FILE: the last whole lines of FILE, cheaply (from its last 64 KiB, taken once: it may be growing).
whole_tail()
{
    tail -c 65536 "$1" >"$work/tail" 2>/dev/null || return 0
    whole_lines "$work/tail"
}

# losses NAME: the lost connections its current process has said so far.
losses() { grep -c "lost its connection" "${consumer_err[$1]}" 2>/dev/null; }

# Once the ring consumer delivers again after the link fault (or after its first ticks without it), it is killed
# with SIGKILL, as a crashed host process ends, and started again with --resume-from the sequence after the last
# whole line it printed. The new process must go on from exactly there (checked with the rest in
# ring_path_gets_every_sequence_once, over both processes' lines) before host a is asked to kill the gateway.
ring_consumer_is_killed_and_resumes()
{
    local from end
    from=$(last_seen ring1)
    from=${from:-0}
    wait_until 120 "ring1 delivering 500 ticks past sequence $from" \
        eval '[[ $(last_seen ring1) -ge $((from + 500)) ]] 2>/dev/null' || { cat "${consumer_err[ring1]}"; return 1; }
    local stream_at
    stream_at=$(last_seen stream1)
    kill -KILL "${consumer_pid[ring1]}"
    wait "${consumer_pid[ring1]}"
    local rc=$? size whole_size last
    ((rc == 137)) || { echo "ring1 ended with exit code $rc, not by the SIGKILL (137)"; return 1; }
    size=$(stat -c %s "${consumer_out[ring1]}")
    whole_lines "${consumer_out[ring1]}" >"$work/ring1-before-kill.jsonl"
    whole_size=$(stat -c %s "$work/ring1-before-kill.jsonl")
    last=$(tail -n 1 "$work/ring1-before-kill.jsonl" | sequences)
    [[ $last =~ ^[0-9]+$ ]] || { echo "no whole tick line in ring1's output before the kill"; return 1; }
    local killed_at=$SECONDS
    start_consumer ring1 pair-ring-token ring $((last + 1)) -2
    wait_until 300 "ring1's second process delivering" eval '[[ -n $(last_seen ring1) ]]' ||
        { cat "${consumer_err[ring1]}"; return 1; }
    local first
    first=$(whole_lines "${consumer_out[ring1]}" | head -n 1 | sequences)
    echo "ring1 killed (SIGKILL) at sequence $last, $((size - whole_size)) bytes of a partial line after it" \
        "(stream1 at $stream_at); started again with --resume-from $((last + 1)), delivering from" \
        "sequence $first after $((SECONDS - killed_at)) s" | tee -a "$MDGATE_RESULTS/report.txt"
    ((first == last + 1)) || { echo "ring1's second process began at $first, not at $((last + 1))"; return 1; }
}

# Host a kills the gateway (SIGKILL) and starts it again. Each consumer must say it lost its connection, and deliver
# again once the gateway is back: the lines after the loss can only come from the restarted gateway, so each
# consumer reconnected on its own (the SDK's back-off) and went on from where it was.
consumers_reconnect_to_the_restarted_gateway()
{
    local name ok=1
    declare -A lost_before seen_at_loss
    for name in "${consumer_names[@]}"; do lost_before[$name]=$(losses "$name"); done
    touch "$ex/kill-gateway"
    wait_for "$ex/gateway-killed" 120 || return 1
    local killed_at=$SECONDS
    echo "gateway killed at ring1 sequence $(last_seen ring1), stream1 $(last_seen stream1)"
    for name in "${consumer_names[@]}"; do
        if wait_until 60 "$name saying it lost its connection" eval '(( $(losses '"$name"') > ${lost_before['"$name"']} ))'; then
            sleep 1 # lines of ticks it delivered before the loss may be written just after it is said
            seen_at_loss[$name]=$(last_seen "$name")
            echo "$name lost its connection after $((SECONDS - killed_at)) s at sequence ${seen_at_loss[$name]}:" \
                "$(grep "lost its connection" "${consumer_err[$name]}" | tail -n 1)"
        else
            ok=0
        fi
    done
    ((ok)) || return 1
    wait_for "$ex/gateway-back" 400 || return 1
    local back_at=$SECONDS
    for name in "${consumer_names[@]}"; do
        if wait_until 300 "$name delivering again after sequence ${seen_at_loss[$name]}" \
            eval '[[ $(last_seen '"$name"') -gt ${seen_at_loss['"$name"']} ]] 2>/dev/null'; then
            echo "$name: delivering again $((SECONDS - back_at)) s after the gateway was back (at $(last_seen "$name"))"
        else
            grep -i "reconnect\|lost" "${consumer_err[$name]}" | tail -n 5
            ok=0
        fi
    done
    echo "gateway killed, back after $((back_at - killed_at)) s; ring1 lost it at ${seen_at_loss[ring1]}, stream1 at" \
        "${seen_at_loss[stream1]}; both delivering again" | tee -a "$MDGATE_RESULTS/report.txt"
    ((ok))
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
    for pid in $(consumer_pids); do kill -TERM "$pid" 2>/dev/null; done
    for pid in $(consumer_pids); do
        for ((i = 0; i < 60; i++)); do alive "$pid" || break; sleep 0.5; done
        alive "$pid" && { echo "consumer $pid did not end on SIGTERM within 30 s: killed"; kill -KILL "$pid"; }
        wait "$pid"
    done
    for name in "${consumer_names[@]}"; do consumer_pid[$name]=; done
    for name in "${consumer_names[@]}"; do echo "$name: $(tail -n 1 "${consumer_err[$name]}")"; done | tee -a "$MDGATE_RESULTS/report.txt"
    ((ok)) || { echo "not every consumer reached sequence $expected"; return 1; }
}

# What each consumer said at its end: a consumer that lived through the gateway's restart must count at least one
# reconnect (its connects less one); the lost connections it said are reported beside.
consumers_report_their_reconnects()
{
    local name said lost ok=1
    for name in "${consumer_names[@]}"; do
        said=$(tail -n 1 "${consumer_err[$name]}" | sed -n 's/.*, reconnects \([0-9]*\).*/\1/p')
        lost=$(losses "$name")
        echo "$name: reconnects ${said:-not said}, lost connections said ${lost:-0}" | tee -a "$MDGATE_RESULTS/report.txt"
        [[ $said =~ ^[0-9]+$ ]] || { echo "$name did not say its reconnects at its end"; ok=0; continue; }
        ((said >= 1)) || { echo "$name never reconnected"; ok=0; }
    done
    ((ok))
}

# every_sequence_once NAME: sequences 1..expected, each once, in order, over the whole lines of every process of it.
every_sequence_once()
{
    local expected summary files
    expected=$(<"$ex/expected")
    files=("$work/$1.jsonl")
    [[ -e $work/$1-2.jsonl ]] && files=("$work/$1-before-kill.jsonl" "$work/$1-2.jsonl")
    summary=$(for f in "${files[@]}"; do whole_lines "$f"; done | sequences | awk -v want="$expected" '
        $1 != prev + 1 { bad++; if (bad <= 5) printf "after %d came %d\n", prev, $1 }
        { prev = $1; n++ }
        END { printf "%d ticks, last sequence %d of %d, %d breaks\n", n, prev, want, bad;
              exit !(bad == 0 && prev == want && n == want) }') || { echo "$summary"; return 1; }
    echo "$1: $summary$( ((${#files[@]} > 1)) && echo " (both processes' lines)")" | tee -a "$MDGATE_RESULTS/report.txt"
}

role_consumers()
{
    trap 'for pid in $(consumer_pids); do kill -KILL "$pid" 2>/dev/null; done; touch "$ex/consumers-done" "$ex/abort"' EXIT
    report_begin softroce.pair.consumers
    check consumers_connect_over_verbs_from_the_other_host consumers_start || give_up
    if ((link_down_seconds > 0)); then
        check the_link_goes_down_mid_stream_and_comes_back link_goes_down_and_up
    else
        skip the_link_goes_down_mid_stream_and_comes_back "MDGATE_PAIR_LINK_DOWN_SECONDS=0"
    fi
    if ((kills)); then
        check the_ring_consumer_is_killed_and_resumes_where_it_left_off ring_consumer_is_killed_and_resumes
        check the_consumers_reconnect_to_the_restarted_gateway consumers_reconnect_to_the_restarted_gateway
    else
        skip the_ring_consumer_is_killed_and_resumes_where_it_left_off "MDGATE_PAIR_KILLS=0"
        skip the_consumers_reconnect_to_the_restarted_gateway "MDGATE_PAIR_KILLS=0"
    fi
    check every_consumer_reaches_the_gateways_last_sequence consumers_catch_up
    if ((kills)); then
        check the_consumers_report_their_reconnects consumers_report_their_reconnects
    else
        skip the_consumers_report_their_reconnects "MDGATE_PAIR_KILLS=0"
    fi
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
