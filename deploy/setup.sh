#!/usr/bin/env bash
# Installs the Debian 12 packages mdgate builds and tests with. Safe to run again: packages that are
# already present are left alone, and apt is only asked when something is missing (one dpkg query, so a
# host that has everything is done in a fraction of a second). Installing needs root; as another user it
# lists what is missing and fails.
set -euo pipefail

packages=(
  gcc g++ make pkg-config            # native builds (JNI libraries, the C consumer and its C++ wrapper)
  openjdk-17-jdk-headless maven      # Java 17 build
  ca-certificates                    # Maven downloads its plugins and dependencies over HTTPS
  dpdk libdpdk-dev libpcap-dev       # DPDK 22.11 ingress and its pcap PMD
  rdma-core libibverbs-dev librdmacm-dev ibverbs-utils  # verbs egress
  iproute2                           # network namespaces and veth pairs in tests
  nftables kmod                      # per-line packet loss in the namespace tests (nft), modprobe for sch_netem
  tshark                             # independent dissection of generated captures in tests
  jq                                 # the end-to-end benchmark script reads the demo's JSON summaries
  debootstrap qemu-system-x86 qemu-utils e2fsprogs  # Soft-RoCE guest (deploy/softroce): image, boot, overlay
  systemd-container                  # the unit test: systemd booted in a systemd-nspawn container (rootfs by debootstrap)
)

installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null |
  awk '$NF == "installed" { print $1 }' || true)
missing=()
for p in "${packages[@]}"; do
  grep -qxF "$p" <<<"$installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} OS packages present"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run 'sudo deploy/setup.sh' (installing packages needs root)" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer once, non-interactively.
echo 'wireshark-common wireshark-common/install-setuid boolean false' | debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
