#!/bin/bash
# The Soft-RoCE bed's smoke checks, run inside the guest by the runner (one group per step of steps.list).
# Usage: checks.sh devices|perftest|multicast|java
# Every check can fail: each one runs real verbs, RDMA-CM or JVM work on the guest's rxe0 and looks at what
# came back. Perftest figures go to $MDGATE_RESULTS/report.txt (for people) and perftest.tsv (for tools).
# Servers and clients are two processes in this guest on the same rxe0; the out-of-band TCP channel of
# perftest uses 127.0.0.1, the RDMA traffic rxe0's IPv4 GID. Nothing leaves the guest.
# shellcheck source=deploy/softroce/guest/report.sh
source "$MDGATE_BED/report.sh"

: "${RXE_DEV:?} ${RXE_IPV4:?} ${RXE_GID_INDEX:?} ${MDGATE_RESULTS:?}"
pair_limit=240          # seconds for one server/client pair under TCG
msg_size=64             # the project's tick size

# ---- devices --------------------------------------------------------------------------------------------
device_listed() { ibv_devices | tee /dev/stderr | awk -v d="$RXE_DEV" '$1 == d { found = 1 } END { exit !found }'; }
port_active() { ibv_devinfo -d "$RXE_DEV" | tee /dev/stderr | grep -Eq 'state:[[:space:]]+PORT_ACTIVE'; }
link_active() { rdma link show "$RXE_DEV/1" | tee /dev/stderr | grep -q "state ACTIVE .*netdev $RXE_NETDEV"; }
ipv4_gid()
{
    ibv_devinfo -v -d "$RXE_DEV" >"$MDGATE_RESULTS/devinfo.txt" || return 1
    grep -E "GID\[ *$RXE_GID_INDEX\]:.*::ffff:$RXE_IPV4, RoCE v2" "$MDGATE_RESULTS/devinfo.txt"
}

group_devices()
{
    report_begin softroce.devices
    check ibv_devices_lists_rxe0 device_listed
    check rxe0_port_is_active port_active
    check rdma_link_is_active_on_the_veth link_active
    check rxe0_has_a_roce_v2_ipv4_gid ipv4_gid
    report_end
}

# ---- perftest -------------------------------------------------------------------------------------------
# Waits until a TCP port listens (perftest's out-of-band channel), at most 60 s.
wait_listen()
{
    local port=$1 i
    for ((i = 0; i < 120; i++)); do
        ss -Hltn "sport = :$port" | grep -q . && return 0
        sleep 0.5
    done
    echo "nothing listened on TCP port $port within 60 s"
    return 1
}

# The result row of a perftest log: the line whose first field is the message size.
result_row() { awk -v b="$msg_size" '$1 == b && $2 ~ /^[0-9]+$/ && NF >= 5 { print; exit }' "$1"; }

# perf_pair NAME PORT TOOL ARG... : server and client of one perftest tool on rxe0.
perf_pair()
{
    local name=$1 port=$2 tool=$3 server_pid server_rc client_rc
    shift 3
    local common=(-d "$RXE_DEV" -x "$RXE_GID_INDEX" -F -p "$port" -s "$msg_size" "$@")
    local srv="$MDGATE_RESULTS/$name.server.log" cli="$MDGATE_RESULTS/$name.client.log"
    echo "server: $tool ${common[*]}"
    timeout "$pair_limit" "$tool" "${common[@]}" >"$srv" 2>&1 &
    server_pid=$!
    wait_listen "$port" || { kill "$server_pid"; wait "$server_pid"; cat "$srv"; return 1; }
    echo "client: $tool ${common[*]} 127.0.0.1"
    timeout "$pair_limit" "$tool" "${common[@]}" 127.0.0.1 >"$cli" 2>&1
    client_rc=$?
    wait "$server_pid"
    server_rc=$?
    echo "----- server (exit $server_rc)"; cat "$srv"
    echo "----- client (exit $client_rc)"; cat "$cli"
    ((server_rc == 0 && client_rc == 0)) || { echo "$tool failed: server exit $server_rc, client exit $client_rc"; return 1; }
}

tsv() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$MDGATE_RESULTS/perftest.tsv"; }
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

write_lat()
{
    local iterations=1000 row
    perf_pair write_lat 18601 ib_write_lat -n "$iterations" || return 1
    row=$(result_row "$MDGATE_RESULTS/write_lat.client.log")
    [[ -n $row ]] || { echo "no result row for $msg_size bytes in the client's output"; return 1; }
    # bytes iterations t_min t_max t_typical t_avg t_stdev p99 p99.9 (microseconds)
    read -r bytes iters t_min t_max t_typ t_avg _ p99 p999 <<<"$row"
    [[ $iters == "$iterations" ]] || { echo "ran $iters iterations, asked for $iterations"; return 1; }
    positive "$t_typ" || { echo "typical latency '$t_typ' is not a positive number"; return 1; }
    tsv ib_write_lat "$bytes" "$iters" t_typical_us "$t_typ"
    tsv ib_write_lat "$bytes" "$iters" t_avg_us "$t_avg"
    tsv ib_write_lat "$bytes" "$iters" p99_us "$p99"
    tsv ib_write_lat "$bytes" "$iters" p99.9_us "$p999"
    printf 'ib_write_lat  RC RDMA Write %3d B x %5d: typical %s us, average %s us, p99 %s us, p99.9 %s us (min %s, max %s)\n' \
        "$bytes" "$iters" "$t_typ" "$t_avg" "$p99" "$p999" "$t_min" "$t_max" >>"$MDGATE_RESULTS/report.txt"
}

# bw_result NAME TEST SIDE LABEL: one bandwidth row (bytes iterations peak_MBps average_MBps Mpps).
bw_result()
{
    local name=$1 test=$2 side=$3 label=$4 iterations=$5 row rate
    row=$(result_row "$MDGATE_RESULTS/$name.$side.log")
    [[ -n $row ]] || { echo "no result row for $msg_size bytes in the $side's output"; return 1; }
    read -r bytes iters _ average mpps <<<"$row"
    [[ $iters == "$iterations" ]] || { echo "$side ran $iters iterations, asked for $iterations"; return 1; }
    positive "$mpps" || { echo "$side message rate '$mpps' is not a positive number"; return 1; }
    rate=$(awk -v m="$mpps" 'BEGIN { printf "%.0f", m * 1000000 }')
    tsv "$test" "$bytes" "$iters" "${side}_msgs_per_s" "$rate"
    tsv "$test" "$bytes" "$iters" "${side}_MB_per_s" "$average"
    printf '%-13s %-14s %3d B x %5d: %s msg/s, %s MB/s average (%s)\n' \
        "$test" "$label" "$bytes" "$iters" "$rate" "$average" "$side" >>"$MDGATE_RESULTS/report.txt"
}

write_bw()
{
    local iterations=5000
    perf_pair write_bw 18602 ib_write_bw -n "$iterations" || return 1
    bw_result write_bw ib_write_bw client "RC RDMA Write" "$iterations"
}

# UD is unreliable: when the guest's vCPUs are starved, a datagram can be dropped, and ib_send_bw's server
# then reports a rate of 0 for the whole run. One more attempt (on another port, the first one's TCP socket
# may linger) tells a lost datagram from a broken path; both attempts stay in the logs.
ud_server_rate_positive()
{
    local row mpps
    row=$(result_row "$MDGATE_RESULTS/send_bw_ud.server.log")
    read -r _ _ _ _ mpps <<<"$row"
    positive "${mpps:-0}"
}

send_bw_ud()
{
    local iterations=5000 attempt
    for attempt in 1 2; do
        perf_pair send_bw_ud $((18602 + attempt)) ib_send_bw -c UD -n "$iterations" || return 1
        ud_server_rate_positive && break
        cp "$MDGATE_RESULTS/send_bw_ud.server.log" "$MDGATE_RESULTS/send_bw_ud.server.attempt$attempt.log"
        cp "$MDGATE_RESULTS/send_bw_ud.client.log" "$MDGATE_RESULTS/send_bw_ud.client.attempt$attempt.log"
        if ((attempt == 1)); then
            echo "attempt 1: the server reported no receive rate (UD datagrams can be lost when the vCPUs starve); running the pair once more"
            echo "ib_send_bw -c UD: attempt 1 gave a server rate of 0, figures from attempt 2" >>"$MDGATE_RESULTS/report.txt"
        fi
    done
    bw_result send_bw_ud "ib_send_bw" client "UD send" "$iterations" \
        && bw_result send_bw_ud "ib_send_bw" server "UD send" "$iterations"
}

group_perftest()
{
    report_begin softroce.perftest
    printf 'test\tbytes\titerations\tmetric\tvalue\n' >"$MDGATE_RESULTS/perftest.tsv"
    : >"$MDGATE_RESULTS/report.txt"
    check ib_write_lat_64_bytes_over_rc write_lat
    check ib_write_bw_64_bytes_over_rc write_bw
    check ib_send_bw_64_bytes_over_ud send_bw_ud
    echo "(QEMU TCG emulation: absolute figures mean little, compare ratios on the same run)" >>"$MDGATE_RESULTS/report.txt"
    cat "$MDGATE_RESULTS/report.txt"
    report_end
}

# ---- RDMA-CM multicast ----------------------------------------------------------------------------------
mckey_group()
{
    local group=239.77.0.1 count=20 receiver_pid receiver_rc sender_rc i
    local rcv="$MDGATE_RESULTS/mckey.receiver.log" snd="$MDGATE_RESULTS/mckey.sender.log"
    echo "receiver: mckey -m $group -b $RXE_IPV4 -C $count -S $msg_size"
    timeout "$pair_limit" stdbuf -oL -eL mckey -m "$group" -b "$RXE_IPV4" -C "$count" -S "$msg_size" >"$rcv" 2>&1 &
    receiver_pid=$!
    for ((i = 0; i < 120; i++)); do
        grep -q 'receiving data transfers' "$rcv" && break
        kill -0 "$receiver_pid" 2>/dev/null || break
        sleep 0.5
    done
    grep -q 'receiving data transfers' "$rcv" || { echo "the receiver never joined:"; cat "$rcv"; kill "$receiver_pid" 2>/dev/null; return 1; }
    echo "sender: mckey -m $group -b $RXE_IPV4 -s -C $count -S $msg_size"
    timeout "$pair_limit" stdbuf -oL -eL mckey -m "$group" -b "$RXE_IPV4" -s -C "$count" -S "$msg_size" >"$snd" 2>&1
    sender_rc=$?
    wait "$receiver_pid"
    receiver_rc=$?
    echo "----- receiver (exit $receiver_rc)"; cat "$rcv"
    echo "----- sender (exit $sender_rc)"; cat "$snd"
    ((receiver_rc == 0 && sender_rc == 0)) || return 1
    grep -q 'data transfers complete' "$rcv" || { echo "the receiver did not complete its $count messages"; return 1; }
    echo "mckey: $count messages of $msg_size bytes to $group received over UD multicast joined through RDMA-CM" \
        >>"$MDGATE_RESULTS/report.txt"
}

group_multicast()
{
    report_begin softroce.multicast
    : >"$MDGATE_RESULTS/report.txt"
    if command -v mckey >/dev/null; then
        check rdma_cm_ipv4_multicast_reaches_a_second_process mckey_group
    else
        skip rdma_cm_ipv4_multicast_reaches_a_second_process "mckey (rdmacm-utils) is not installed in the guest"
    fi
    report_end
}

# ---- the JRE --------------------------------------------------------------------------------------------
java_17_runs()
{
    local started version
    started=$(date +%s.%N)
    version=$(java -version 2>&1) || { echo "$version"; return 1; }
    echo "$version"
    grep -q 'version "17' <<<"$version" || { echo "expected Java 17"; return 1; }
    printf 'java -version: %s s (%s)\n' "$(report_elapsed "$started")" "$(head -n 1 <<<"$version")" >>"$MDGATE_RESULTS/report.txt"
}

project_jars_run()
{
    local messages=20000 started json flags
    read -ra flags <<<"$MDGATE_JVM_FLAGS"
    local java_cmd=(java "${flags[@]}" -cp "$MDGATE_CLASSPATH" io.mdgate.app.Main)
    started=$(date +%s.%N)
    "${java_cmd[@]}" sim --messages "$messages" --seed 7 --pcap /tmp/smoke.pcap || return 1
    printf 'mdgate sim, %d messages to a pcap: %s s\n' "$messages" "$(report_elapsed "$started")" >>"$MDGATE_RESULTS/report.txt"
    started=$(date +%s.%N)
    json=$("${java_cmd[@]}" decode --json /tmp/smoke.pcap) || { echo "$json"; return 1; }
    printf 'mdgate decode of that pcap: %s s\n' "$(report_elapsed "$started")" >>"$MDGATE_RESULTS/report.txt"
    echo "$json"
    grep -Eq "\"messages\": ?$messages," <<<"$json" || { echo "decode did not read back the $messages simulated messages"; return 1; }
    if ! grep -Eq '"malformed": ?0,' <<<"$json" || ! grep -Eq '"gaps": ?0,' <<<"$json"; then
        echo "decode saw malformed messages or gaps"
        return 1
    fi
}

group_java()
{
    report_begin softroce.java
    : >"$MDGATE_RESULTS/report.txt"
    check java_17_runs_in_the_guest java_17_runs
    if compgen -G "$MDGATE_LIB/gateway-app*.jar" >/dev/null; then
        check project_jars_simulate_and_decode_a_session project_jars_run
    else
        skip project_jars_simulate_and_decode_a_session "no gateway-app jar in the payload's lib (run.sh --lib)"
    fi
    report_end
}

case ${1:-} in
    devices|perftest|multicast|java) "group_$1" ;;
    *) echo "usage: checks.sh devices|perftest|multicast|java" >&2; exit 2 ;;
esac
