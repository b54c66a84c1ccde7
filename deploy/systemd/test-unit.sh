#!/usr/bin/env bash
# Starts the dist's gateway under its systemd unit, in a container that boots systemd (run as root; `make
# test-systemd`). The build host's PID 1 is not systemd, so systemd-nspawn boots Debian 12's systemd as the
# container's PID 1, with a private network (only lo). In it: the dist tarball unpacked into /opt and
# mdgate-install run, a configuration with a kernel-socket ingress on lo and a shared-memory egress written to
# /etc/mdgate/unit-test.toml, `systemctl enable --now mdgate@unit-test`, the simulator's multicast sent on lo,
# then `systemctl stop`. Each check prints ok or FAIL; any FAIL exits 1 (2: the bed itself could not be set up).
#
# The container's root is an overlay over a cached debootstrap rootfs ($MDGATE_NSPAWN_CACHE/rootfs, built once
# into a temporary directory and renamed when complete), so a run changes nothing in the cache. Everything a run
# starts or mounts is stopped, unmounted and removed on exit, failed or not.
#
#   deploy/systemd/test-unit.sh --tarball target/mdgate-VERSION.tar.gz [--config FILE] [--keep]
#
# --config FILE  use FILE as /etc/mdgate/unit-test.toml instead of the built-in one (its counters_file must be
#                /dev/shm/mdgate-unit-test/counters for the counter checks)
# --keep         leave the run's directory (console log, journal of the container) in place
#
# Environment: MDGATE_NSPAWN_CACHE (default /var/cache/mdgate/nspawn), MDGATE_DEBIAN_MIRROR (default
# http://deb.debian.org/debian), MDGATE_SECURITY_MAX (highest `systemd-analyze security` exposure passed, 4.0).
set -euo pipefail

cache=${MDGATE_NSPAWN_CACHE:-/var/cache/mdgate/nspawn}
mirror=${MDGATE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security_max=${MDGATE_SECURITY_MAX:-4.0}
# What the rootfs holds; a cache built with another list is rebuilt.
rootfs_packages=systemd,systemd-sysv,dbus,openjdk-17-jre-headless,iproute2
unit_name=unit-test
unit=mdgate@$unit_name.service
unit_file=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/mdgate@.service

tarball=
config=
keep=0
while (($#)); do
    case $1 in
        --tarball) tarball=$2; shift 2 ;;
        --config) config=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "test-unit: unknown argument '$1' (see the head of $0)" >&2; exit 2 ;;
    esac
done

die() { echo "test-unit: $*" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || die "must run as root (debootstrap, overlay mount, systemd-nspawn)"
[[ -n $tarball && -f $tarball ]] || die "--tarball FILE required: the tarball of 'make dist' (got '${tarball}')"
[[ -z $config || -f $config ]] || die "--config $config: no such file"
for tool in systemd-nspawn debootstrap nsenter jq; do
    command -v "$tool" >/dev/null || die "$tool not found: run deploy/setup.sh"
done

passed=0
failed=0
failures=()
check() { # check NAME CONDITION-WAS-TRUE(0/1) DETAIL
    if [[ $2 == 0 ]]; then
        passed=$((passed + 1)); printf 'ok    %4ss %-26s %s\n' "$SECONDS" "$1" "$3"
    else
        failed=$((failed + 1)); failures+=("$1"); printf 'FAIL  %4ss %-26s %s\n' "$SECONDS" "$1" "$3"
    fi
}

# --- the cached rootfs -------------------------------------------------------------------------------------
build_rootfs() {
    install -d -m 755 "$cache"
    # Held until the script ends: no rebuild swaps the rootfs under another run's overlay.
    exec 9>"$cache/lock"
    flock 9
    if [[ -f $cache/rootfs/.mdgate-rootfs && $(<"$cache/rootfs/.mdgate-rootfs") == "$rootfs_packages" ]]; then
        return
    fi
    local build started=$SECONDS
    rm -rf "$cache"/rootfs.build.*
    build=$(mktemp -d "$cache/rootfs.build.XXXXXX")
    echo "test-unit: building the rootfs ($rootfs_packages) from $mirror into $build"
    debootstrap --variant=minbase --include="$rootfs_packages" bookworm "$build/root" "$mirror" \
        >"$build/debootstrap.log" 2>&1 || { tail -20 "$build/debootstrap.log" >&2; die "debootstrap failed"; }
    echo "$rootfs_packages" >"$build/root/.mdgate-rootfs"
    rm -rf "$cache/rootfs.old"
    [[ ! -e $cache/rootfs ]] || mv "$cache/rootfs" "$cache/rootfs.old"
    mv "$build/root" "$cache/rootfs"
    rm -rf "$build" "$cache/rootfs.old"
    echo "test-unit: rootfs built in $((SECONDS - started)) s ($(du -sh "$cache/rootfs" | cut -f1))"
}

# --- one run: overlay, container, cleanup ------------------------------------------------------------------
run=
nspawn_pid=
leader=
cgroups=()
cleanup() {
    local rc=$?
    set +e
    if [[ -n $nspawn_pid ]] && kill -0 "$nspawn_pid" 2>/dev/null; then
        # nspawn answers SIGTERM by asking the container's systemd to power off.
        kill -TERM "$nspawn_pid"
        for _ in $(seq 1 100); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.2; done
        if kill -0 "$nspawn_pid" 2>/dev/null; then
            echo "test-unit: the container did not power off in 20 s; killing it" >&2
            [[ -z $leader ]] || kill -KILL "$leader"
            kill -KILL "$nspawn_pid"
        fi
        wait "$nspawn_pid" 2>/dev/null
    fi
    for cg in "${cgroups[@]}"; do
        [[ -d $cg ]] && find "$cg" -depth -type d -exec rmdir {} \; 2>/dev/null
    done
    if [[ -n $run ]]; then
        mountpoint -q "$run/root" && umount "$run/root"
        rmdir "/run/systemd/nspawn/propagate/$(basename "$run")" 2>/dev/null
        if ((keep)); then echo "test-unit: kept $run"; else rm -rf "$run"; fi
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

inside() { nsenter -t "$leader" -a -- env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

boot() {
    run=$(mktemp -d /var/tmp/mdgate-unit.XXXXXX)
    mkdir -p "$run/upper" "$run/work" "$run/root"
    mount -t overlay overlay -o "lowerdir=$cache/rootfs,upperdir=$run/upper,workdir=$run/work" "$run/root"
    cp "$tarball" "$run/root/root/"
    # No login prompt and no first-boot questions on the pipe console. No waiting for a network that is lo only:
    # the unit is ordered after network-online.target, which systemd-networkd-wait-online would hold back for its
    # full 120 s, waiting for a link to configure.
    for masked in console-getty systemd-firstboot systemd-networkd-wait-online; do
        ln -sf /dev/null "$run/root/etc/systemd/system/$masked.service"
    done
    # Without systemd as the host's PID 1 nobody manages the systemd hierarchies (this host mounts them in
    # hybrid layout): nspawn gets a cgroup of its own there, so the container's systemd never takes the host's
    # processes for its own. Under a host systemd, --keep-unit keeps the container in the caller's unit.
    local name cg
    name=$(basename "$run")
    if [[ $(</proc/1/comm) != systemd ]]; then
        for h in /sys/fs/cgroup/systemd /sys/fs/cgroup/unified; do
            if [[ -w $h/cgroup.procs ]]; then cg=$h/$name; mkdir "$cg"; cgroups+=("$cg"); fi
        done
    fi
    # --keep-unit: the host has no systemd to make a scope; --register=no: nor systemd-machined.
    # --private-network: lo only (and CAP_NET_ADMIN); CAP_IPC_LOCK is not in nspawn's default set, and the unit
    # grants it, so the container must hold it.
    (
        for cg in "${cgroups[@]}"; do echo "$BASHPID" >"$cg/cgroup.procs"; done
        exec systemd-nspawn --quiet --register=no --keep-unit --private-network --capability=CAP_IPC_LOCK \
            --machine="$name" -D "$run/root" -b --console=pipe </dev/null >"$run/console.log" 2>&1 9>&-
    ) &
    nspawn_pid=$!
    local state=
    for _ in $(seq 1 300); do
        kill -0 "$nspawn_pid" 2>/dev/null || { tail -20 "$run/console.log" >&2; die "systemd-nspawn exited"; }
        if [[ -z $leader ]]; then
            leader=$(pgrep -P "$nspawn_pid" -x systemd || true)
        else
            state=$(inside systemctl is-system-running 2>/dev/null || true)
            [[ $state == running || $state == degraded ]] && break
        fi
        sleep 0.2
    done
    [[ $state == running || $state == degraded ]] || { tail -20 "$run/console.log" >&2; die "systemd did not come up ($state)"; }
    echo "test-unit: ${SECONDS}s container up: systemd $(inside systemctl --version | sed -n '1s/systemd \([0-9]*\).*/\1/p'), PID 1 = host PID $leader, $state"
    if [[ $state == degraded ]]; then
        inside systemctl --failed --no-legend --plain | sed 's/^/test-unit:   failed unit: /'
    fi
}

write_config() {
    local target=$run/root/etc/mdgate/$unit_name.toml
    if [[ -n $config ]]; then
        cp "$config" "$target"
    else
        cat >"$target" <<'EOF'
# The unit test's gateway: kernel-socket ingress on lo (the container has no other interface), shared-memory
# egress, journal; sleeping cores, small books, so that it shares two CPUs politely.
[gateway]
name = "unit-test"
counters_file = "/dev/shm/mdgate-unit-test/counters"
hlog_dir = "/var/log/mdgate/unit-test"

[feed]
gap_wait_ms = 2

[[feed.lines]]
name = "A"
group = "239.255.77.1"
port = 26477

[[feed.lines]]
name = "B"
group = "239.255.77.2"
port = 26477

[[ports]]
name = "p0"
driver = "socket"
interface = "lo"

[journal]
dir = "/var/lib/mdgate/unit-test/journal"
min_free_mb = 0

[book]
max_orders = 65536
max_levels = 16384
reference_window = 65536

[egress]
transport = "shm"
shm_group = "mdgate"

[[egress.consumers]]
name = "c1"
token = "unit-test-token"

[[cores]]
cpu = 0
agents = ["ingress:p0:0", "session", "journal", "egress"]
idle = "sleep:1ms"

[[cores]]
cpu = 1
agents = ["housekeeping"]
idle = "sleep:1ms"
EOF
    fi
    inside chgrp mdgate "/etc/mdgate/$unit_name.toml"
    inside chmod 640 "/etc/mdgate/$unit_name.toml"
}

# Capability names to the bit mask /proc/PID/status shows, from the kernel's header.
cap_mask() {
    local header=/usr/include/linux/capability.h mask=0 bit name
    for name in "$@"; do
        bit=$(awk -v n="$name" '$1 == "#define" && $2 == n { print $3 }' "$header")
        [[ $bit =~ ^[0-9]+$ ]] || die "capability $name not found in $header"
        mask=$((mask | (1 << bit)))
    done
    printf '%016x' "$mask"
}

counter() { # counter JSON LABEL: the counter's value, or -1
    jq -r --arg l "$2" '(.counters // {}) | if type == "object" then (.[$l] // -1)
        else (map(select(.label == $l)) | first | .value // -1) end' <<<"$1"
}

stat_json() { inside /usr/local/bin/mdgate stat --once --json --config "/etc/mdgate/$unit_name.toml" 2>/dev/null | tail -1; }

unit_show() { inside systemctl show -P "$1" "$unit"; }

# --- the checks ------------------------------------------------------------------------------------------
main() {
    local started=$SECONDS r
    build_rootfs
    boot
    local version
    version=$(basename "$tarball" .tar.gz)
    inside tar -C /opt -xzf "/root/$(basename "$tarball")"
    local out rc=0
    out=$(inside "/opt/$version/bin/mdgate-install" 2>&1) || rc=$?
    check install "$rc" "$out"
    write_config
    rc=0; inside systemctl cat "$unit" >/dev/null 2>&1 || rc=$?
    check unit-loaded "$rc" "$(unit_show FragmentPath) ($(unit_show LoadState))"

    # Enabled, as an operator would (`systemctl enable --now`): this also tries the [Install] section, and keeps
    # the stopped instance loaded, so that its exit status can still be read after the stop.
    inside systemctl enable --now "$unit" 2>/dev/null || true
    local enabled
    enabled=$(inside systemctl is-enabled "$unit" || true)
    r=0; [[ $enabled == enabled ]] || r=1; check enabled "$r" "is-enabled=$enabled"
    sleep 5
    local active pid restarts
    active=$(inside systemctl is-active "$unit" || true)
    restarts=$(unit_show NRestarts)
    r=0; [[ $active == active && $restarts == 0 ]] || r=1; check active-after-5s "$r" "is-active=$active NRestarts=$restarts"
    pid=$(unit_show MainPID)
    local status=$run/proc-status uid=x
    if [[ $pid =~ ^[0-9]+$ && $pid != 0 ]] && inside cat "/proc/$pid/status" >"$status" 2>/dev/null; then
        uid=$(inside id -u mdgate)
        local uids gids comm
        uids=$(awk '/^Uid:/ { print $2, $3, $4, $5 }' "$status")
        gids=$(awk '/^Gid:/ { print $2, $3, $4, $5 }' "$status")
        comm=$(inside cat "/proc/$pid/comm")
        r=0; [[ $uids == "$uid $uid $uid $uid" ]] || r=1; check runs-as-mdgate "$r" "MainPID $pid ($comm) uid $uids gid $gids (mdgate = $uid)"
        local names want eff bnd prm amb nnp seccomp
        read -ra names <<<"$(sed -n 's/^CapabilityBoundingSet=//p' "$unit_file")"
        want=$(cap_mask "${names[@]}")
        eff=$(awk '/^CapEff:/ { print $2 }' "$status")
        bnd=$(awk '/^CapBnd:/ { print $2 }' "$status")
        prm=$(awk '/^CapPrm:/ { print $2 }' "$status")
        amb=$(awk '/^CapAmb:/ { print $2 }' "$status")
        r=0; [[ $eff == "$want" && $bnd == "$want" && $prm == "$want" && $amb == "$want" ]] || r=1
        check capabilities "$r" "CapEff=$eff CapPrm=$prm CapBnd=$bnd CapAmb=$amb, the unit's ${names[*]} = $want"
        nnp=$(awk '/^NoNewPrivs:/ { print $2 }' "$status")
        seccomp=$(awk '/^Seccomp:/ { print $2 }' "$status")
        r=0; [[ $nnp == 1 && $seccomp == 2 ]] || r=1; check no-new-privs-seccomp "$r" "NoNewPrivs=$nnp Seccomp=$seccomp (2 = filter)"
    else
        check runs-as-mdgate 1 "no main process (MainPID=$pid)"
        check capabilities 1 "no main process"
        check no-new-privs-seccomp 1 "no main process"
    fi

    local json state ticks
    json=$(stat_json || true)
    state=$(jq -r '.state // "none"' <<<"$json" 2>/dev/null || echo none)
    r=0; [[ $state == running && $(jq -r '.pid' <<<"$json") == "$pid" ]] || r=1
    check stat-running "$r" "mdgate stat --json: state=$state pid=$(jq -r '.pid // "none"' <<<"$json" 2>/dev/null) ($(jq -r '.counters | length' <<<"$json" 2>/dev/null || echo 0) counters)"

    # Traffic: the simulator's two lines as multicast on the container's lo, into the unit's socket ingress.
    local messages=20000 sim simrc=0
    sim=$(inside /usr/local/bin/mdgate sim --messages "$messages" --seed 16 --instruments 10 --rate 100000 \
        --send lo --group-a 239.255.77.1:26477 --group-b 239.255.77.2:26477 --max-idle-ms 5 --json 2>&1) || simrc=$?
    check sim-sent "$simrc" "mdgate sim --send lo: $(jq -c '{messages, packets, sendFailures}' <<<"$(tail -1 <<<"$sim")" 2>/dev/null || tail -3 <<<"$sim")"
    local journaled=-1 eos=-1 published=-1
    ticks=-1
    for _ in $(seq 1 50); do
        json=$(stat_json || true)
        ticks=$(counter "$json" session.ticks 2>/dev/null || echo -1)
        journaled=$(counter "$json" journal.position 2>/dev/null || echo -1)
        eos=$(counter "$json" feed.end_of_session 2>/dev/null || echo -1)
        published=$(counter "$json" egress.last_sequence 2>/dev/null || echo -1)
        ((eos == 1 && ticks > 0 && journaled == ticks && published == ticks)) && break
        sleep 0.2
    done
    r=0; ((eos == 1 && ticks > 0 && journaled == ticks && published == ticks)) || r=1; check ticks-counted "$r" \
        "session.ticks=$ticks journal.position=$journaled egress.last_sequence=$published feed.end_of_session=$eos"
    local owner
    owner=$(inside find "/var/lib/mdgate/$unit_name/journal" -type f -name '*.cq4' -printf '%u\n' 2>/dev/null | sort -u | tr '\n' ' ')
    r=0; [[ $owner == "mdgate " ]] || r=1; check journal-owned-by-mdgate "$r" "journal files' owners: ${owner:-none}"

    local score
    out=$(inside systemd-analyze security --no-pager "$unit" 2>&1 || true)
    score=$(sed -n "s/.*Overall exposure level for $unit: \([0-9.]*\) .*/\1/p" <<<"$out")
    r=0; [[ -n $score ]] && awk -v s="$score" -v m="$security_max" 'BEGIN { exit !(s <= m) }' || r=1
    check security-exposure "$r" "systemd-analyze security: ${score:-no score: $(tail -1 <<<"$out")}$(sed -n "s/.*Overall exposure level for $unit: [0-9.]* \([A-Z]*\).*/ \1/p" <<<"$out") (at most $security_max passes)"

    inside systemctl stop "$unit" || true
    local astate result code mstatus mpid
    astate=$(unit_show ActiveState); result=$(unit_show Result)
    code=$(unit_show ExecMainCode); mstatus=$(unit_show ExecMainStatus); mpid=$(unit_show ExecMainPID)
    # ExecMainCode 1 = exited (not killed by a signal); ExecMainPID the process that did.
    r=0; [[ $astate == inactive && $result == success && $code == 1 && $mstatus == 0 && $mpid == "$pid" ]] || r=1
    check clean-stop "$r" "ActiveState=$astate Result=$result ExecMainPID=$mpid ExecMainCode=$code ExecMainStatus=$mstatus"
    json=$(stat_json || true)
    state=$(jq -r '.state // "none"' <<<"$json" 2>/dev/null || echo none)
    r=0; [[ $state != running && $state != none ]] || r=1; check stat-after-stop "$r" "mdgate stat after the stop: state=$state"

    if ((failed)); then
        echo "test-unit: the gateway's journal (last 25 lines):"
        inside journalctl -u "$unit" --no-pager -n 25 -o cat | sed 's/^/  /'
    fi
    echo "test-unit: $passed passed, $failed failed${failures:+ (${failures[*]})} in $((SECONDS - started)) s"
    ((failed == 0))
}

main
