#!/bin/bash
# Guest side of the Soft-RoCE bed, started by the image's init once the shares are mounted:
#   /mdgate   (read-only)  bed/ (this runner, report.sh), payload/ (steps.list and its files), lib/ (jars),
#                          native/ (shared libraries), jvm.options (optional, one line of JVM flags)
#   /results  (writable)   what the host gets back; the host's <out>/guest directory
# It sets Soft-RoCE up (rdma_rxe on a veth pair, device rxe0), runs every step of payload/steps.list with
# its own time limit, records each step's exit code, and writes /results/guest-status last: the host takes
# a missing status file as a crashed guest. All RDMA and IP traffic stays inside the guest (no NIC).
# On the two-host bed (run-pair.sh) bed/host.env names the guest (ROLE, RXE_IPV4, PEER_IPV4): rdma_rxe then
# sits on the guest's NIC, eth0, whose frames reach only the other guest, and /exchange is a share of both.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C LC_ALL=C
umask 022

results=/results
bed=/mdgate/bed
payload=/mdgate/payload
rxe_dev=rxe0
rxe_netdev=veth0
rxe_peer=veth1
rxe_ipv4=10.77.0.1
pair=0
if [[ -f $bed/host.env ]]; then
    # shellcheck source=/dev/null
    source "$bed/host.env"
    pair=1
    rxe_netdev=eth0
    rxe_peer=
    rxe_ipv4=$RXE_IPV4
fi

uptime_s() { local u _; read -r u _ </proc/uptime; echo "$u"; }
say() { echo "softroce-guest [$(uptime_s) s] $*"; }

finish()
{
    local status=$1 detail=$2
    dmesg >"$results/bed/dmesg-end.txt" 2>/dev/null
    [[ $status == passed ]] && rm -f "$results/bed/dmesg-end.txt"
    echo "$status $detail" >"$results/guest-status"
    sync
    say "GUEST STATUS: $status $detail"
    exit 0
}

mkdir -p "$results/bed"
echo "softroce${ROLE:+-$ROLE}" >/proc/sys/kernel/hostname
say "runner started; kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) " MiB" }' /proc/meminfo)"

# ---- Soft-RoCE ------------------------------------------------------------------------------------------
setup_rxe()
{
    ulimit -l unlimited || return 1
    ip link set lo up || return 1
    modprobe -a ib_uverbs rdma_ucm rdma_rxe veth || { say "modprobe of the RDMA modules failed"; return 1; }
    if ((pair)); then
        modprobe -a virtio_net 9p 9pnet_virtio || return 1
        mkdir -p /exchange && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 exchange /exchange || return 1
        for ((try = 0; try < 40; try++)); do [[ -e /sys/class/net/$rxe_netdev ]] && break; sleep 0.25; done
        ip addr add "$rxe_ipv4/24" dev "$rxe_netdev" || return 1
        ip link set "$rxe_netdev" up || return 1
    else
        ip link add "$rxe_netdev" type veth peer name "$rxe_peer" || return 1
        ip addr add "$rxe_ipv4/24" dev "$rxe_netdev" || return 1
        ip link set "$rxe_netdev" up && ip link set "$rxe_peer" up || return 1
    fi
    rdma link add "$rxe_dev" type rxe netdev "$rxe_netdev" || { say "rdma link add failed"; return 1; }

    local port=/sys/class/infiniband/$rxe_dev/ports/1 i gid want
    # The RoCE v2 GID of the veth's IPv4 address is ::ffff:a.b.c.d, written as 0000:...:ffff:aabb:ccdd.
    want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${rxe_ipv4//./ })
    for ((try = 0; try < 120; try++)); do
        if [[ $(cat "$port/state" 2>/dev/null) == *ACTIVE* ]]; then
            for i in "$port"/gids/*; do
                gid=$(cat "$i" 2>/dev/null) || continue
                if [[ $gid == "$want" ]]; then
                    export RXE_GID_INDEX=${i##*/}
                    return 0
                fi
            done
        fi
        sleep 0.5
    done
    say "port 1 of $rxe_dev did not become ACTIVE with an IPv4 GID within 60 s (state: $(cat "$port/state" 2>/dev/null))"
    return 1
}

started=$(uptime_s)
if ! setup_rxe >"$results/bed/setup.log" 2>&1; then
    cat "$results/bed/setup.log"
    dmesg >"$results/bed/dmesg-setup.txt"
    finish failed "soft-roce-setup"
fi
{
    echo "rxe set up in $(awk -v a="$started" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }') s"
    rdma link show
    ibv_devinfo -d "$rxe_dev"
    echo "IPv4 GID index: $RXE_GID_INDEX"
} >>"$results/bed/setup.log" 2>&1
say "Soft-RoCE ready: $(rdma link show | grep "$rxe_dev"), IPv4 GID index $RXE_GID_INDEX"

# ---- what every step sees -------------------------------------------------------------------------------
export MDGATE_GUEST=1
export MDGATE_BED=$bed MDGATE_PAYLOAD=$payload MDGATE_LIB=/mdgate/lib MDGATE_NATIVE=/mdgate/native
export MDGATE_CLASSPATH="/mdgate/lib/*"
export MDGATE_JVM_FLAGS=""
[[ -f /mdgate/jvm.options ]] && MDGATE_JVM_FLAGS=$(tr '\n' ' ' </mdgate/jvm.options)
export LD_LIBRARY_PATH=/mdgate/native
export RXE_DEV=$rxe_dev RXE_NETDEV=$rxe_netdev RXE_PEER_NETDEV=$rxe_peer RXE_IPV4=$rxe_ipv4 RXE_GID_INDEX
export ROLE PEER_IPV4
JAVA_HOME=$(dirname "$(dirname "$(readlink -f /usr/bin/java)")")
export JAVA_HOME

# ---- the steps ------------------------------------------------------------------------------------------
printf 'step\texit\tseconds\n' >"$results/steps.tsv"
failed=0
total=0
while read -r name limit command; do
    [[ -z $name || $name == \#* ]] && continue
    total=$((total + 1))
    dir="$results/$name"
    mkdir -p "$dir"
    say "STEP $name START (limit $limit s): $command"
    step_started=$(uptime_s)
    (
        cd "$payload" || exit 1
        MDGATE_RESULTS=$dir MDGATE_STEP=$name timeout -k 10 "$limit" bash -c "$command" </dev/null 2>&1 \
            | tee "$dir/output.log"
        exit "${PIPESTATUS[0]}"
    )
    rc=$?
    seconds=$(awk -v a="$step_started" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }')
    printf '%s\t%s\t%s\n' "$name" "$rc" "$seconds" >>"$results/steps.tsv"
    if ((rc != 0)); then
        failed=$((failed + 1))
        dmesg >"$dir/dmesg.txt"
        ((rc == 124 || rc == 137)) && say "STEP $name hit its limit of $limit s"
    fi
    say "STEP $name END: exit $rc after $seconds s"
done < <(sed 's/\r$//' "$payload/steps.list")

if ((failed > 0)); then
    finish failed "$failed of $total steps"
fi
finish passed "$total steps"
