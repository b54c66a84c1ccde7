#!/usr/bin/env bash
# Builds the Soft-RoCE guest image (Debian bookworm with its own kernel, rdma-core, perftest and a JRE) once
# into a cache directory, and again only when one of its inputs changes: the package names in packages.txt,
# this script, the guest's init (guest/image-init.sh) and the Debian suite. Their hash is the image's stamp.
#
# Usage: deploy/softroce/build-image.sh [--force] [--check]
#   --force   rebuild even when the stamp matches
#   --check   build nothing; exit 0 when the cached image is up to date, 1 when it would be (re)built
# Environment:
#   MDGATE_SOFTROCE_CACHE   cache directory (default /var/cache/mdgate/softroce)
#   MDGATE_SOFTROCE_MIRROR  Debian mirror URL (default: the first bookworm source of this host's apt)
#   MDGATE_SOFTROCE_SUITE   Debian suite (default bookworm)
#
# The image lands in $MDGATE_SOFTROCE_CACHE/image: rootfs.img (ext4, made with mkfs.ext4 -d, no loop
# mount), vmlinuz, initrd.img, packages.lst (what got installed) and stamp. Building needs root
# (debootstrap chroots) and the host packages of deploy/setup.sh; booting it (run.sh) does not.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
self="$here/$(basename "${BASH_SOURCE[0]}")"
cache=${MDGATE_SOFTROCE_CACHE:-/var/cache/mdgate/softroce}
suite=${MDGATE_SOFTROCE_SUITE:-bookworm}
image="$cache/image"

force=0
check=0
for arg in "$@"; do
    case $arg in
        --force) force=1 ;;
        --check) check=1 ;;
        -h|--help) sed -n '2,18p' "$self" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-image: unknown argument '$arg' (expected --force, --check or --help)" >&2; exit 2 ;;
    esac
done

say() { echo "build-image: $*"; }
die() { echo "build-image: $*" >&2; exit 1; }

# The package names, without comments or blank lines, sorted: editing a comment rebuilds nothing.
mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$here/packages.txt" | sort -u)
((${#packages[@]} > 0)) || die "no package names in $here/packages.txt"

stamp=$({
    echo "suite $suite"
    printf 'package %s\n' "${packages[@]}"
    echo "build-image $(sha256sum <"$self" | cut -d' ' -f1)"
    echo "image-init $(sha256sum <"$here/guest/image-init.sh" | cut -d' ' -f1)"
} | sha256sum | cut -d' ' -f1)

up_to_date()
{
    [[ $force -eq 0 && -f $image/stamp && $(<"$image/stamp") == "$stamp" \
        && -f $image/rootfs.img && -f $image/vmlinuz && -f $image/initrd.img ]]
}

if ((check)); then
    up_to_date && { say "cached image $image is up to date"; exit 0; }
    say "cached image $image is missing or stale"
    exit 1
fi
if up_to_date; then
    say "cached image is up to date ($image, stamp ${stamp:0:12})"
    exit 0
fi

[[ $(id -u) -eq 0 ]] || die "building the guest image needs root (debootstrap); run 'sudo $0'"
for tool in debootstrap mkfs.ext4 flock sha256sum; do
    command -v "$tool" >/dev/null || die "'$tool' is missing; run deploy/setup.sh"
done

# The mirror this host's apt already uses for the suite: deb822 .sources files first, then one-line lists.
find_mirror()
{
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        awk -v suite="$suite" '
            function flush() { if (deb && has && uri != "") { print uri; found = 1; exit } deb = has = 0; uri = "" }
            /^[[:space:]]*$/ { flush(); next }
            /^Types:/   { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
            /^Suites:/  { for (i = 2; i <= NF; i++) if ($i == suite) has = 1 }
            /^URIs:/    { uri = $2 }
            END { if (!found) flush() }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -f $f ]] || continue
        awk -v suite="$suite" '
            { line = $0; sub(/#.*/, "", line); sub(/\[[^]]*\]/, "", line); n = split(line, w)
              if (n >= 3 && w[1] == "deb" && w[3] == suite) { print w[2]; exit } }' "$f"
    done
}
mirror=${MDGATE_SOFTROCE_MIRROR:-$(find_mirror | head -n 1)}
[[ -n $mirror ]] || die "no apt source for '$suite' in /etc/apt/sources.list*; set MDGATE_SOFTROCE_MIRROR=URL"

mkdir -p "$cache/debs"
exec 9>"$cache/.lock"
if ! flock -n 9; then
    say "waiting for another build or run holding $cache/.lock ..."
    flock -w 3600 9 || die "gave up waiting for $cache/.lock after an hour"
fi
if up_to_date; then
    say "cached image is up to date ($image, built meanwhile by another process)"
    exit 0
fi

work=$(mktemp -d "$cache/build.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
rootfs="$work/rootfs"
out="$work/image"
mkdir -p "$out"
started=$SECONDS
stage_started=$SECONDS
stage() { say "$1 done in $((SECONDS - stage_started)) s"; stage_started=$SECONDS; }

say "building the $suite guest image into $image (stamp ${stamp:0:12}) from $mirror"
say "debootstrap --variant=minbase with ${#packages[@]} packages (log: $out/build.log while it runs) ..."
include=$(IFS=,; echo "${packages[*]}")
if ! debootstrap --variant=minbase --include="$include" --cache-dir="$cache/debs" \
        "$suite" "$rootfs" "$mirror" >"$out/build.log" 2>&1; then
    tail -n 30 "$out/build.log" >&2
    die "debootstrap failed (last lines above)"
fi
stage debootstrap

kernels=("$rootfs"/boot/vmlinuz-*)
initrds=("$rootfs"/boot/initrd.img-*)
[[ ${#kernels[@]} -eq 1 && -f ${kernels[0]} ]] || die "expected one kernel in the guest's /boot, found: ${kernels[*]}"
[[ ${#initrds[@]} -eq 1 && -f ${initrds[0]} ]] || die "expected one initrd in the guest's /boot, found: ${initrds[*]}"
# Checked inside the guest tree: a symbolic link (/usr/bin/java) would resolve against this host instead.
for tool in ib_write_lat ib_send_bw ibv_devinfo mckey rdma java modprobe; do
    chroot "$rootfs" /bin/sh -c "command -v $tool" >/dev/null || die "the guest lacks '$tool' after debootstrap"
done
cp -L "${kernels[0]}" "$out/vmlinuz"
cp -L "${initrds[0]}" "$out/initrd.img"
chroot "$rootfs" dpkg-query -W -f '${Package} ${Version}\n' >"$out/packages.lst"

# What the guest never reads: package caches, apt lists, documentation.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
install -m 0755 "$here/guest/image-init.sh" "$rootfs/usr/local/sbin/mdgate-init"
mkdir -p "$rootfs/mdgate" "$rootfs/results"
echo softroce >"$rootfs/etc/hostname"
printf '127.0.0.1\tlocalhost softroce\n::1\tlocalhost\n' >"$rootfs/etc/hosts"

# Free space for what the guest writes on its root (on the run's overlay; /tmp is a tmpfs).
tree_mb=$(du -sm "$rootfs" | cut -f1)
image_mb=$((tree_mb + tree_mb / 5 + 1024))
mkfs.ext4 -q -F -L mdgate-softroce -E root_owner=0:0 -d "$rootfs" "$out/rootfs.img" "${image_mb}M" >/dev/null
stage "ext4 image (${tree_mb} MiB of files in a ${image_mb} MiB file system)"

echo "$stamp" >"$out/stamp"
rm -rf "$image.old"
[[ -d $image ]] && mv "$image" "$image.old"
mv "$out" "$image"
rm -rf "$image.old"
say "guest image ready in $((SECONDS - started)) s: $image ($(du -sm "$image/rootfs.img" | cut -f1) MiB allocated)"
