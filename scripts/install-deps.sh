#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Install the Debian packages a part of the project needs, if missing.
# usage: scripts/install-deps.sh GROUP...   (groups: codec rtl vm lab netns torch)
# Idempotent: when everything is present it installs nothing and does not
# touch the network; otherwise it runs `apt-get update` once, then installs
# only what is missing.
set -euo pipefail

declare -A GROUP=(
	[codec]="make gcc g++ clang libclang-rt-14-dev libzstd-dev liblz4-dev"
	# (clang and lld: the management core's ISA test programs)
	[rtl]="verilator iverilog yosys g++ clang lld"
	[vm]="python3 qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1 busybox-static iperf3 ethtool iproute2 cpio kmod sparse"
	# a lab host with the board (docs/lab-hosts.md); not in `make deps`:
	# tests/driver/test-install.sh installs it when it needs dkms
	[lab]="dkms linux-headers-amd64 kmod ethtool"
	# make bench-inccl, bench-train: hosts as network namespaces, links
	# shaped with tc
	[netns]="iproute2"
	# the DDP hook and its evaluations (docs/training.md): PyTorch, the
	# digits data (scikit-learn), the plots, pip and venv (the package's
	# install test); torchvision for gen.py's ResNet-18 gradients (make
	# bench-inccl)
	[torch]="python3-torch python3-torchvision python3-sklearn python3-matplotlib python3-pip python3-venv"
)

[ $# -gt 0 ] || { echo "usage: $0 GROUP... (${!GROUP[*]})" >&2; exit 2; }
want=()
for g in "$@"; do
	[ -n "${GROUP[$g]:-}" ] || { echo "$0: unknown group '$g' (${!GROUP[*]})" >&2; exit 2; }
	# shellcheck disable=SC2206
	want+=(${GROUP[$g]})
done

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || {
		echo "$0: need root (or sudo) to install: ${missing[*]}" >&2
		exit 1
	}
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
