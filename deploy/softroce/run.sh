#!/usr/bin/env bash
# Boots the cached Soft-RoCE guest (build-image.sh) under QEMU TCG, runs a payload's steps inside it and
# brings the results back. docs/SOFTROCE.md describes the bed and the payload contract.
#
# Usage: deploy/softroce/run.sh --payload DIR [--lib PATH]... [--native PATH]... [--jvm-options FILE]
#                               [--out DIR] [--timeout SECONDS]
#   --payload DIR       holds steps.list ("NAME LIMIT_SECONDS COMMAND" per line) and whatever the steps use
#   --lib PATH          a jar, or a directory whose *.jar files go in (the guest's /mdgate/lib); repeatable
#   --native PATH       a shared library, or a directory whose *.so* files go in (/mdgate/native); repeatable
#   --jvm-options FILE  one line of JVM flags, handed to the steps as $MDGATE_JVM_FLAGS
#   --out DIR           where results go (new or empty; default target/softroce/<UTC time>, linked as latest)
#   --timeout SECONDS   hard limit for the whole guest run, boot included (default 1500)
#   --link LOCAL:REMOTE:MAC  two-host bed (run-pair.sh): a virtio NIC with this MAC whose Ethernet frames travel
#                       as UDP datagrams from 127.0.0.1:LOCAL to 127.0.0.1:REMOTE (the other guest's LOCAL)
#   --host-env FILE     two-host bed: the guest's identity (ROLE, RXE_IPV4, PEER_IPV4), the runner's bed/host.env
#   --exchange DIR      two-host bed: a writable directory both guests mount at /exchange to hand each other files
# Environment: MDGATE_SOFTROCE_CACHE (image cache, as for build-image.sh), MDGATE_SOFTROCE_TIMEOUT,
#   MDGATE_SOFTROCE_SMP (2), MDGATE_SOFTROCE_MEM (MiB, 4096), MDGATE_SOFTROCE_TCG_THREAD (single: every vCPU
#   on one host thread, the default, as guest JVMs die now and then under multi; multi: a host thread per
#   vCPU, docs/SOFTROCE.md says when to use it), MDGATE_SOFTROCE_CPU (QEMU -cpu, max), MDGATE_SOFTROCE_QUIET=1
#   (do not stream the guest console; it is still in <out>/console.log), MDGATE_SOFTROCE_KEEP=1 (keep the
#   temporary directory).
# Exit codes: 0 every test passed, 1 a test or step failed, 2 bad arguments or missing image,
#   3 the hard time limit was hit, 4 the guest ended without reporting a status (crash, panic, bad image).
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
cache=${MDGATE_SOFTROCE_CACHE:-/var/cache/mdgate/softroce}
image="$cache/image"
limit=${MDGATE_SOFTROCE_TIMEOUT:-1500}
smp=${MDGATE_SOFTROCE_SMP:-2}
mem=${MDGATE_SOFTROCE_MEM:-4096}
tcg_thread=${MDGATE_SOFTROCE_TCG_THREAD:-single}
cpu_model=${MDGATE_SOFTROCE_CPU:-max}

say() { echo "softroce: $*"; }
usage_error()
{
    echo "softroce: $*" >&2
    echo "usage: deploy/softroce/run.sh --payload DIR [--lib PATH]... [--native PATH]... [--jvm-options FILE] [--out DIR] [--timeout SECONDS]" >&2
    exit 2
}

payload=
out=
jvm_options=
link=
host_env=
exchange=
libs=()
natives=()
while (($# > 0)); do
    case $1 in
        --payload|--lib|--native|--jvm-options|--out|--timeout|--link|--host-env|--exchange)
            (($# >= 2)) || usage_error "$1 needs a value"
            case $1 in
                --payload) payload=$2 ;;
                --lib) libs+=("$2") ;;
                --native) natives+=("$2") ;;
                --jvm-options) jvm_options=$2 ;;
                --out) out=$2 ;;
                --timeout) limit=$2 ;;
                --link) link=$2 ;;
                --host-env) host_env=$2 ;;
                --exchange) exchange=$2 ;;
            esac
            shift 2 ;;
        -h|--help) sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
done

# ---- refuse bad input up front --------------------------------------------------------------------------
[[ -n $payload ]] || usage_error "--payload DIR is required (deploy/softroce/smoke is the bed's own smoke test)"
[[ -d $payload && -f $payload/steps.list ]] || usage_error "payload '$payload' is not a directory holding steps.list"
[[ $limit =~ ^[1-9][0-9]*$ && $limit -ge 60 ]] || usage_error "--timeout must be a whole number of seconds, at least 60 (got '$limit')"
[[ $smp =~ ^[1-9][0-9]*$ ]] || usage_error "MDGATE_SOFTROCE_SMP must be a positive number (got '$smp')"
[[ $mem =~ ^[1-9][0-9]*$ && $mem -ge 1024 ]] || usage_error "MDGATE_SOFTROCE_MEM must be at least 1024 MiB (got '$mem')"
[[ $tcg_thread == multi || $tcg_thread == single ]] || usage_error "MDGATE_SOFTROCE_TCG_THREAD must be multi or single (got '$tcg_thread')"
line_no=0
while IFS= read -r line; do
    line_no=$((line_no + 1))
    line=${line%$'\r'}
    [[ -z ${line//[[:space:]]/} || $line =~ ^[[:space:]]*# ]] && continue
    [[ $line =~ ^[A-Za-z0-9._-]+[[:space:]]+[0-9]+[[:space:]]+[^[:space:]] ]] \
        || usage_error "$payload/steps.list line $line_no: expected 'NAME LIMIT_SECONDS COMMAND' (NAME of letters, digits, . _ -), got: $line"
    read -r step_name _ <<<"$line"
    [[ $step_name != bed ]] || usage_error "$payload/steps.list line $line_no: the step name 'bed' is reserved for the bed's own files"
done <"$payload/steps.list"
((line_no > 0)) || usage_error "$payload/steps.list is empty"
for p in "${libs[@]}" "${natives[@]}"; do
    [[ -e $p ]] || usage_error "'$p' does not exist"
done
[[ -z $jvm_options || -f $jvm_options ]] || usage_error "--jvm-options '$jvm_options' is not a file"
nic=(-nic none)
if [[ -n $link ]]; then
    [[ $link =~ ^([0-9]{4,5}):([0-9]{4,5}):(([0-9a-f]{2}:){5}[0-9a-f]{2})$ ]] \
        || usage_error "--link must be LOCAL_PORT:REMOTE_PORT:MAC, e.g. 47001:47002:52:54:00:4d:00:01 (got '$link')"
    nic=(-netdev "socket,id=link0,udp=127.0.0.1:${BASH_REMATCH[2]},localaddr=127.0.0.1:${BASH_REMATCH[1]}"
        -device "virtio-net-pci,netdev=link0,mac=${BASH_REMATCH[3]}")
fi
[[ -z $host_env || -f $host_env ]] || usage_error "--host-env '$host_env' is not a file"
[[ -z $exchange || -d $exchange ]] || usage_error "--exchange '$exchange' is not a directory"
virtfs_exchange=()
[[ -n $exchange ]] && virtfs_exchange=(-virtfs "local,path=$(cd "$exchange" && pwd),mount_tag=exchange,security_model=none")
for tool in qemu-system-x86_64 qemu-img flock; do
    command -v "$tool" >/dev/null || usage_error "'$tool' is missing; run deploy/setup.sh"
done
if ! "$here/build-image.sh" --check >/dev/null; then
    usage_error "the guest image in $image is missing or older than its inputs; run deploy/softroce/build-image.sh (as root)"
fi

if [[ -z $out ]]; then
    out="target/softroce/$(date -u +%Y%m%d-%H%M%S)"
    link_latest=1
else
    link_latest=0
fi
if [[ -e $out ]]; then
    [[ -d $out && -z $(ls -A "$out") ]] || usage_error "--out '$out' exists and is not an empty directory"
fi
mkdir -p "$out/guest"
out=$(cd "$out" && pwd)
if ((link_latest)); then
    ln -sfn "$(basename "$out")" "$(dirname "$out")/latest"
fi

# ---- stage the read-only share --------------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdgate-softroce.XXXXXX")
qemu_pid=
tail_pid=
cleanup()
{
    local rc=$?
    if [[ -n $qemu_pid ]] && kill -0 "$qemu_pid" 2>/dev/null; then
        echo "softroce: stopping the guest (QEMU pid $qemu_pid) on exit code $rc" >&2
        kill -KILL "$qemu_pid" 2>/dev/null || true
        wait "$qemu_pid" 2>/dev/null || true
    fi
    if [[ -n $tail_pid ]]; then
        kill "$tail_pid" 2>/dev/null || true
        wait "$tail_pid" 2>/dev/null || true
    fi
    if [[ ${MDGATE_SOFTROCE_KEEP:-0} == 1 ]]; then
        echo "softroce: kept the temporary directory $tmp (MDGATE_SOFTROCE_KEEP=1)" >&2
    else
        rm -rf "$tmp"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

share="$tmp/share"
mkdir -p "$share/bed" "$share/payload" "$share/lib" "$share/native"
install -m 0755 "$here/guest/runner.sh" "$share/bed/runner.sh"
install -m 0644 "$here/guest/report.sh" "$share/bed/report.sh"
cp -RL "$payload/." "$share/payload/"
for p in "${libs[@]}"; do
    if [[ -d $p ]]; then
        find -L "$p" -maxdepth 1 -type f -name '*.jar' -exec cp -L {} "$share/lib/" \;
    else
        cp -L "$p" "$share/lib/"
    fi
done
for p in "${natives[@]}"; do
    if [[ -d $p ]]; then
        find -L "$p" -maxdepth 1 -type f -name '*.so*' -exec cp -L {} "$share/native/" \;
    else
        cp -L "$p" "$share/native/"
    fi
done
[[ -n $jvm_options ]] && cp "$jvm_options" "$share/jvm.options"
[[ -n $host_env ]] && cp "$host_env" "$share/bed/host.env"
cp "$payload/steps.list" "$out/steps.list"
say "payload $(cd "$payload" && pwd): $(grep -cvE '^[[:space:]]*(#|$)' "$payload/steps.list") steps," \
    "$(find "$share/lib" -type f | wc -l) jars, $(find "$share/native" -type f | wc -l) native libraries"

# ---- boot -----------------------------------------------------------------------------------------------
# A shared lock keeps build-image.sh from replacing the image while this run uses it as a backing file.
exec 8<"$cache/.lock"
flock -s -w 3600 8 || usage_error "could not take a shared lock on $cache/.lock (an image build is running?)"
qemu-img create -q -f qcow2 -F raw -b "$image/rootfs.img" "$tmp/root.qcow2"
console="$out/console.log"
: >"$console"
say "booting the guest (QEMU TCG $tcg_thread-threaded, $smp CPUs, $mem MiB, ${link:+NIC on UDP }${link:-no NIC}); hard limit $limit s; console: $console"
started=$SECONDS
qemu-system-x86_64 \
    -name mdgate-softroce -nodefaults -no-user-config -no-reboot \
    -accel "tcg,thread=$tcg_thread" -cpu "$cpu_model" -smp "$smp" -m "$mem" "${nic[@]}" \
    -display none -monitor none -serial "file:$console" \
    -kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
    -append "root=/dev/vda rw rootfstype=ext4 console=ttyS0 init=/usr/local/sbin/mdgate-init panic=1 mitigations=off quiet loglevel=3 net.ifnames=0" \
    -drive "file=$tmp/root.qcow2,format=qcow2,if=virtio,cache=unsafe,discard=unmap" \
    -virtfs "local,path=$share,mount_tag=mdgate,security_model=none,readonly=on" \
    -virtfs "local,path=$out/guest,mount_tag=results,security_model=none" "${virtfs_exchange[@]}" \
    -device virtio-rng-pci \
    </dev/null >"$tmp/qemu.out" 2>&1 &
qemu_pid=$!
if [[ ${MDGATE_SOFTROCE_QUIET:-0} != 1 ]]; then
    tail -n +1 -F --pid="$qemu_pid" "$console" 2>/dev/null | sed -u -e 's/\r$//' -e 's/^/  guest| /' &
    tail_pid=$!
fi

timed_out=0
deadline=$((started + limit))
while kill -0 "$qemu_pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
        timed_out=1
        kill -TERM "$qemu_pid" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$qemu_pid" 2>/dev/null || break
            sleep 1
        done
        kill -KILL "$qemu_pid" 2>/dev/null || true
        break
    fi
    sleep 1
done
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
if [[ -n $tail_pid ]]; then
    sleep 1
    kill "$tail_pid" 2>/dev/null || true
    wait "$tail_pid" 2>/dev/null || true
    tail_pid=
fi
elapsed=$((SECONDS - started))

# ---- verdict --------------------------------------------------------------------------------------------
console_tail()
{
    echo "softroce: last lines of the guest console ($console):" >&2
    tail -n 40 "$console" | tr -d '\r' | sed 's/^/  guest| /' >&2
    if [[ -s $tmp/qemu.out ]]; then
        echo "softroce: QEMU said:" >&2
        sed 's/^/  qemu| /' "$tmp/qemu.out" >&2
    fi
}

summary_rc=0
"$here/summarize.sh" "$out" | tee "$out/summary.txt" || summary_rc=$?

if ((timed_out)); then
    echo "softroce: FAILED: the guest hit the hard limit of $limit s and was killed (results so far in $out)" >&2
    console_tail
    exit 3
fi
if [[ ! -s $out/guest/guest-status ]]; then
    echo "softroce: FAILED: the guest stopped after $elapsed s without reporting a status (QEMU exit code $qemu_rc): crash, kernel panic or a broken image" >&2
    console_tail
    exit 4
fi
read -r status detail <"$out/guest/guest-status"
say "guest ran $elapsed s (boot, Soft-RoCE set-up, steps, power-off); results in $out"
if [[ $status != passed || $summary_rc -ne 0 ]]; then
    echo "softroce: FAILED: guest status '$status $detail'; see $out/summary.txt and the step logs under $out/guest" >&2
    [[ $status == passed ]] || console_tail
    exit 1
fi
say "PASSED"
