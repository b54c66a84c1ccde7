#!/usr/bin/env bash
# The two-host Soft-RoCE bed: boots two guests of the cached image (each run.sh with its own overlay), joined by
# one virtual Ethernet segment (each guest's virtio NIC sends its frames as UDP datagrams to the other's QEMU on
# 127.0.0.1), rdma_rxe on each NIC: host a (10.78.0.1) runs the gateway, host b (10.78.0.2) the consumers of
# deploy/softroce/pair. docs/SOFTROCE.md, "Two hosts".
#
# Usage: deploy/softroce/run-pair.sh --out DIR [run.sh's --lib/--native/--jvm-options/--timeout ...]
#   --out DIR    results: DIR/a and DIR/b (each a run.sh result directory), DIR/exchange, DIR/summary.txt
# Environment: MDGATE_SOFTROCE_MEM (MiB per guest, 2048 here), MDGATE_SOFTROCE_SMP (2), as run.sh.
# Exit codes: 0 both guests passed, 1 otherwise (each guest's own run.sh exit code is printed), 2 bad arguments.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
out=
args=()
while (($# > 0)); do
    case $1 in
        --out) (($# >= 2)) || { echo "run-pair: --out needs a value" >&2; exit 2; }; out=$2; shift 2 ;;
        --payload|--link|--host-env|--exchange) echo "run-pair: $1 is chosen by run-pair.sh itself" >&2; exit 2 ;;
        -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$1"); shift ;;
    esac
done
[[ -n $out ]] || { echo "run-pair: --out DIR is required (new or empty)" >&2; exit 2; }
if [[ -e $out ]]; then
    [[ -d $out && -z $(ls -A "$out") ]] || { echo "run-pair: --out '$out' exists and is not an empty directory" >&2; exit 2; }
fi
mkdir -p "$out/exchange"
out=$(cd "$out" && pwd)

# Two UDP ports on loopback per run, from the PID so that runs of separate worktrees do not meet.
base=$((40000 + ($$ % 10000) * 2))
cat >"$out/a.env" <<ENV
ROLE=gateway
RXE_IPV4=10.78.0.1
PEER_IPV4=10.78.0.2
ENV
cat >"$out/b.env" <<ENV
ROLE=consumers
RXE_IPV4=10.78.0.2
PEER_IPV4=10.78.0.1
ENV

pids=()
cleanup()
{
    local pid
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started=$SECONDS
export MDGATE_SOFTROCE_MEM=${MDGATE_SOFTROCE_MEM:-2048}
for host in a b; do
    if [[ $host == a ]]; then link="$base:$((base + 1)):52:54:00:4d:00:01"; else link="$((base + 1)):$base:52:54:00:4d:00:02"; fi
    MDGATE_SOFTROCE_QUIET=1 "$here/run.sh" --payload "$here/pair" "${args[@]}" --out "$out/$host" \
        --link "$link" --host-env "$out/$host.env" --exchange "$out/exchange" >"$out/$host.log" 2>&1 &
    pids+=($!)
done
rc_a=0
rc_b=0
wait "${pids[0]}" || rc_a=$?
wait "${pids[1]}" || rc_b=$?
pids=()
{
    for host in a b; do
        echo "softroce-pair: --- host $host ($(head -n 1 "$out/$host.env"))"
        sed -n "s/^softroce: /softroce-pair: $host: /p" "$out/$host/summary.txt" 2>/dev/null || true
    done
    # Both guests' totals together; a guest that left no summary counts one failure.
    tests=0 failed=0 skipped=0
    for host in a b; do
        read -r t p f s < <(sed -n 's/^softroce: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' \
            "$out/$host/summary.txt" 2>/dev/null | awk '{ print $1 + $2 + $3, $1, $2, $3 }' | tail -n 1; echo "1 0 1 0")
        tests=$((tests + t)) failed=$((failed + f)) skipped=$((skipped + s))
    done
    echo "softroce-pair: host a exit $rc_a, host b exit $rc_b; both guests ran in $((SECONDS - started)) s"
    echo "softroce-pair: $tests tests run"
    echo "softroce-pair: $((tests - failed - skipped)) passed, $failed failed, $skipped skipped"
} | tee "$out/summary.txt"
if ((rc_a != 0 || rc_b != 0)); then
    echo "softroce-pair: FAILED; see $out/a.log, $out/b.log and their guest directories" >&2
    exit 1
fi
echo "softroce-pair: PASSED"
