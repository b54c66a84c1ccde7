#!/usr/bin/env bash
# Highest loss-free rate of the DPDK af_xdp ingress and of the kernel-socket ingress, side by side in one run on
# the same veth traffic (issue 3, "Benchmarks"). Root; run by `make bench-ingress`, not part of `make test`.
#
# Two namespaces (exchange, gateway) joined by one veth pair made for this run. For each rate of the ladder, and
# for each ingress in turn (af_xdp first, then socket: af_xdp takes the frames of its queue from the kernel, so the
# two cannot listen at once), `mdgate ingress --json` starts in the gateway namespace, and once it says
# "receiving" on stderr, `mdgate sim --send` sends the same seeded session (one message per packet, both lines)
# from the exchange namespace. A step is loss-free when each line delivered every packet the simulator sent
# (ingress per-line packets = sim per-line packets) and the feed session saw no gap and lost no message.
# The table gives, per step, the offered rate (messages = packets per line per second, exchange time), the rate
# the sender achieved in wall-clock time, and the verdict; then the highest loss-free rate per ingress and the
# ratio af_xdp / socket.
#
# Environment: RATES (default "5000 10000 20000 40000 80000 160000"), STEP_SECONDS (default 3: messages per step =
# rate x seconds), IDLE_MS (ingress idle stop, default 2000), KEEP (a folder to keep every JSON in).
# Namespaces, the veth pair and every process started here are removed on any exit (trap).
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
mdgate="$root/mdgate"
rates=(${RATES:-5000 10000 20000 40000 80000 160000})
step_seconds=${STEP_SECONDS:-3}
idle_ms=${IDLE_MS:-2000}
group_a=233.54.12.111:26477
group_b=233.49.196.111:26477

if [[ $(id -u) -ne 0 ]]; then
    echo "ingress-lossfree: needs root (network namespaces, af_xdp); run it as root" >&2
    exit 2
fi
for tool in ip jq; do
    command -v "$tool" >/dev/null || { echo "ingress-lossfree: '$tool' is missing (apt-get install $tool)" >&2; exit 2; }
done

ex_ns="mdg-bench-$$-ex"
gw_ns="mdg-bench-$$-gw"
ex_if="mdgb$$e"
gw_if="mdgb$$g"
work=$(mktemp -d /tmp/mdgate-ingbench.XXXXXX)
pids=()

cleanup()
{
    local rc=$?
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    ip netns del "$ex_ns" 2>/dev/null || true
    ip netns del "$gw_ns" 2>/dev/null || true
    ip link del "$ex_if" 2>/dev/null || true
    if [[ -n ${KEEP:-} ]]; then
        mkdir -p "$KEEP" && cp "$work"/* "$KEEP"/ 2>/dev/null || true
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Build once here (the launcher would otherwise do it inside a namespace, in the first timed step).
"$mdgate" --help >/dev/null

ip netns add "$ex_ns"
ip netns add "$gw_ns"
ip link add "$ex_if" type veth peer name "$gw_if"
ip link set "$ex_if" netns "$ex_ns"
ip link set "$gw_if" netns "$gw_ns"
ip -n "$ex_ns" addr add 10.98.0.1/24 dev "$ex_if"
ip -n "$gw_ns" addr add 10.98.0.2/24 dev "$gw_if"
ip -n "$ex_ns" link set lo up
ip -n "$gw_ns" link set lo up
ip -n "$ex_ns" link set "$ex_if" up
ip -n "$gw_ns" link set "$gw_if" up
ip -n "$ex_ns" route add 224.0.0.0/4 dev "$ex_if"

# One step: ingress KIND at RATE; writes "sent_a sent_b recv_a recv_b gaps lost achieved_rate" to $work/result.
# Runs in the script's own shell (not a subshell) so that the trap knows the ingress PID.
step()
{
    local kind=$1 rate=$2
    local out="$work/$kind-$rate.ingress.json" err="$work/$kind-$rate.ingress.err" sim="$work/$kind-$rate.sim.json"
    local args
    if [[ $kind == af_xdp ]]; then
        args=(--vdev "net_af_xdp0,iface=$gw_if,start_queue=0,queue_count=1,busy_budget=0")
    else
        args=(--ingress socket --interface "$gw_if")
    fi
    ip netns exec "$gw_ns" "$mdgate" ingress "${args[@]}" --lines "A=$group_a,B=$group_b" \
        --idle-ms "$idle_ms" --max-seconds $((step_seconds * 10 + 60)) --json >"$out" 2>"$err" &
    local ingress_pid=$!
    pids+=("$ingress_pid")
    local waited=0
    until grep -q "mdgate ingress: receiving" "$err" 2>/dev/null; do
        if ! kill -0 "$ingress_pid" 2>/dev/null || ((waited >= 600)); then
            echo "ingress-lossfree: $kind ingress did not start; its stderr:" >&2
            cat "$err" >&2
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    ip netns exec "$ex_ns" "$mdgate" sim --send "$ex_if" --messages $((rate * step_seconds)) --rate "$rate" \
        --messages-per-packet 1 --seed 17 --instruments 50 --group-a "$group_a" --group-b "$group_b" \
        --max-idle-ms 5 --linger-ms 0 --json >"$sim" 2>"$work/$kind-$rate.sim.err" || {
        echo "ingress-lossfree: sim failed:" >&2; cat "$work/$kind-$rate.sim.err" >&2; return 1; }
    wait "$ingress_pid" || { echo "ingress-lossfree: $kind ingress failed:" >&2; cat "$err" >&2; return 1; }
    if [[ ! -s $out ]]; then
        echo "ingress-lossfree: $kind ingress printed no summary; its stderr:" >&2
        cat "$err" >&2
        return 1
    fi
    local sent recv
    sent=$(jq -r '"\(.packets.A) \(.packets.B) \(if .elapsedMillis > 0 then (.packets.A * 1000 / .elapsedMillis | floor) else 0 end)"' "$sim")
    recv=$(jq -r '"\(.ingress.lines.A.packets) \(.ingress.lines.B.packets) \(.gaps) \(.feed.messagesLost)"' "$out")
    local sa sb achieved ra rb gaps lost
    read -r sa sb achieved <<<"$sent"
    read -r ra rb gaps lost <<<"$recv"
    echo "$sa $sb $ra $rb $gaps $lost $achieved" >"$work/result"
}

declare -A best=([af_xdp]=0 [socket]=0)
declare -A failed=([af_xdp]=0 [socket]=0)
echo "host: $(uname -srm), $(nproc) CPUs; $(uptime | sed 's/^ *//')"
printf '%-7s %9s %12s %19s %19s %5s %5s  %s\n' ingress offered/s achieved/s "sent A/B" "received A/B" gaps lost verdict
for rate in "${rates[@]}"; do
    for kind in af_xdp socket; do
        step "$kind" "$rate"
        read -r sa sb ra rb gaps lost achieved <"$work/result"
        verdict=LOSS
        if [[ $ra == "$sa" && $rb == "$sb" && $gaps == 0 && $lost == 0 ]]; then
            verdict=loss-free
            # The highest loss-free rate below the first lossy one: a lucky step above a lossy one does not count.
            if [[ ${failed[$kind]} == 0 ]]; then
                best[$kind]=$rate
            fi
        else
            failed[$kind]=1
        fi
        printf '%-7s %9d %12d %19s %19s %5s %5s  %s\n' "$kind" "$rate" "$achieved" "$sa/$sb" "$ra/$rb" "$gaps" "$lost" \
            "$verdict"
    done
done

echo
echo "| ingress | highest loss-free rate (packets/s per line, both lines) |"
echo "|---|---:|"
echo "| DPDK net_af_xdp | ${best[af_xdp]} |"
echo "| kernel socket | ${best[socket]} |"
if [[ ${best[socket]} -gt 0 ]]; then
    echo "| ratio af_xdp / socket | $(awk -v a="${best[af_xdp]}" -v s="${best[socket]}" 'BEGIN { printf "%.2f", a / s }') |"
else
    echo "| ratio af_xdp / socket | n/a (socket lost packets at every rate) |"
fi
if [[ ${failed[af_xdp]} == 0 || ${failed[socket]} == 0 ]]; then
    echo "note: an ingress lossless at the top of the ladder has a limit above it; extend RATES to find it"
fi
echo "uptime after: $(uptime | sed 's/^ *//')"
