#!/usr/bin/env bash
# Tunes a host for the mdgate appliance: hugepages, CPU isolation on the kernel command line, interrupt
# affinity away from the gateway's CPUs, and the CPU frequency governor. Without --apply it only reports what
# it would change; with --apply (as root) it changes what can change at run time. The kernel command line
# (isolcpus, nohz_full, rcu_nocbs) needs a reboot, so it is reported, never edited.
#
#   deploy/tune-host.sh [--cpus LIST] [--hugepages N] [--apply]
#
#   --cpus LIST      the CPUs the core map busy-spins on, e.g. 2-5 (default: the CPUs isolated now)
#   --hugepages N    2 MiB hugepages to reserve (default 1024, i.e. 2 GiB; 0 leaves them alone)
#   --apply          make the changes (root); without it nothing is written
#
# Exit codes: 0 nothing to change or all changed, 1 changes pending (report) or some failed (apply),
# 2 wrong usage. MDGATE_HOST_ROOT=DIR reads and writes /sys and /proc under DIR instead (tests).
set -euo pipefail

root="${MDGATE_HOST_ROOT:-}"
apply=0
cpus=""
hugepages=1024
pending=0
failed=0

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
  exit 2
}

while (($#)); do
  case "$1" in
    --apply) apply=1 ;;
    --cpus) [[ $# -ge 2 ]] || usage; cpus="$2"; shift ;;
    --cpus=*) cpus="${1#--cpus=}" ;;
    --hugepages) [[ $# -ge 2 ]] || usage; hugepages="$2"; shift ;;
    --hugepages=*) hugepages="${1#--hugepages=}" ;;
    -h|--help) usage ;;
    *) echo "tune-host: unknown option '$1'" >&2; usage ;;
  esac
  shift
done

[[ "$hugepages" =~ ^[0-9]+$ ]] || { echo "tune-host: --hugepages must be a whole number, was '$hugepages'" >&2; exit 2; }
if [[ -n "$cpus" && ! "$cpus" =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]]; then
  echo "tune-host: --cpus must be a CPU list such as 2-5 or 2,3,6, was '$cpus'" >&2
  exit 2
fi
if ((apply)) && [[ -z "$root" && $(id -u) -ne 0 ]]; then
  echo "tune-host: --apply changes kernel settings and needs root; run 'sudo deploy/tune-host.sh --apply ...'" >&2
  exit 2
fi

# Expands a CPU list (0-2,5) into one CPU per line.
expand() {
  local part
  local IFS=,
  for part in $1; do
    [[ "$part" =~ ^[0-9]+(-[0-9]+)?$ ]] || continue
    if [[ "$part" == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
  done
}

# Prints the lines of $1 that are not in $2 (both one CPU per line), as a comma-separated list.
minus() {
  comm -23 <(sort -n <<<"$1" | uniq) <(sort -n <<<"$2" | uniq) | sort -n | paste -sd, -
}

read_file() { cat "$root$1" 2>/dev/null || true; }

note() { echo "  $*"; }

change() { # description, then the command that makes it
  local what="$1"; shift
  if ((apply)); then
    if "$@" 2>/dev/null; then
      note "changed: $what"
    else
      note "FAILED: $what"
      failed=$((failed + 1))
    fi
  else
    note "would change: $what"
    pending=$((pending + 1))
  fi
}

write_to() { # value, file
  printf '%s\n' "$1" > "$root$2"
}

online=$(expand "$(read_file /sys/devices/system/cpu/online)")
isolated_now=$(expand "$(read_file /sys/devices/system/cpu/isolated)")
[[ -n "$cpus" ]] || cpus=$(paste -sd, - <<<"$isolated_now")
gateway=$(expand "$cpus")
housekeeping=$(minus "$online" "$gateway")

echo "hugepages:"
if ((hugepages == 0)); then
  note "left alone (--hugepages 0)"
else
  pages_file=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
  have=$(read_file "$pages_file")
  if [[ -z "$have" ]]; then
    note "this kernel has no 2 MiB hugepages ($pages_file); DPDK will run with --no-huge"
  elif ((have >= hugepages)); then
    note "ok: $have x 2 MiB reserved"
  else
    change "reserve $hugepages x 2 MiB hugepages (now $have)" write_to "$hugepages" "$pages_file"
  fi
  if grep -q ' hugetlbfs ' "$root/proc/mounts" 2>/dev/null; then
    note "ok: hugetlbfs mounted"
  elif [[ -n "$root" ]]; then
    note "hugetlbfs is not mounted: mount -t hugetlbfs nodev /dev/hugepages"
    pending=$((pending + 1))
  else
    change "mount hugetlbfs on /dev/hugepages" bash -c 'mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages'
  fi
fi

echo "kernel command line (CPUs ${cpus:-none}):"
if [[ -z "$cpus" ]]; then
  note "no CPUs given and none isolated: pass --cpus with the CPUs the core map busy-spins on (mdgate map shows them)"
else
  cmdline=$(read_file /proc/cmdline)
  missing=()
  for param in isolcpus nohz_full rcu_nocbs; do
    value=$(tr ' ' '\n' <<<"$cmdline" | sed -n "s/^$param=//p" | tail -1)
    covered=$(expand "$(tr ',' '\n' <<<"$value" | grep -E '^[0-9]' | paste -sd, -)")
    if [[ -n "$(minus "$gateway" "$covered")" ]]; then
      missing+=("$param=$cpus")
    else
      note "ok: $param covers $cpus"
    fi
  done
  if ((${#missing[@]})); then
    note "needs a reboot, so never changed here: add '${missing[*]}' to GRUB_CMDLINE_LINUX in /etc/default/grub,"
    note "then run update-grub and reboot"
    pending=$((pending + 1))
  fi
fi

echo "interrupt affinity (keep IRQs on CPUs ${housekeeping:-none}):"
if [[ -z "$cpus" ]]; then
  note "nothing to keep free of interrupts"
elif [[ -z "$housekeeping" ]]; then
  note "every online CPU is a gateway CPU; leave at least one for interrupts and the system"
  pending=$((pending + 1))
else
  moved=0
  for dir in "$root"/proc/irq/[0-9]*; do
    [[ -f "$dir/smp_affinity_list" ]] || continue
    irq=${dir##*/}
    current=$(cat "$dir/smp_affinity_list" 2>/dev/null || true)
    if [[ -n "$(comm -12 <(expand "$current" | sort -n | uniq) <(sort -n <<<"$gateway" | uniq))" ]]; then
      change "IRQ $irq from CPUs $current to $housekeeping" write_to "$housekeeping" "/proc/irq/$irq/smp_affinity_list"
      moved=$((moved + 1))
    fi
  done
  ((moved)) || note "ok: no IRQ may run on CPUs $cpus"
  if [[ -z "$root" ]] && pgrep -x irqbalance >/dev/null 2>&1; then
    note "irqbalance runs and will move IRQs back: set IRQBALANCE_BANNED_CPULIST=$cpus in /etc/default/irqbalance"
    note "and restart it (systemctl restart irqbalance), or stop it"
    pending=$((pending + 1))
  fi
fi

echo "CPU frequency governor:"
governors=0
for cpu in $online; do
  file=/sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor
  governor=$(read_file "$file")
  [[ -n "$governor" ]] || continue
  governors=$((governors + 1))
  if [[ "$governor" != performance ]]; then
    change "CPU $cpu governor $governor -> performance" write_to performance "$file"
  fi
done
if ((governors == 0)); then
  note "no cpufreq on this host (fixed frequency, or a virtual machine)"
fi

echo
if ((apply)); then
  if ((failed)); then
    echo "tune-host: $failed change(s) failed; see above"
    exit 1
  fi
  if ((pending)); then
    echo "tune-host: changes applied; $pending item(s) need action by hand (see above)"
    exit 1
  fi
  echo "tune-host: done"
elif ((pending)); then
  echo "tune-host: $pending change(s) pending; run with --apply (as root) to make those that can be made now"
  exit 1
else
  echo "tune-host: nothing to change"
fi
