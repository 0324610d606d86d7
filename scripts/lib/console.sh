# SPDX-License-Identifier: MIT
#
# Reading a guest's console log while the guest runs: sourced by
# scripts/demo.sh and scripts/demo-train.sh.
#
# The log (tests/vm/run.sh --log-dir) grows a byte at a time: QEMU writes
# each character the guest's UART sends. A reader that polls it may find a
# line half written; shown then, it would be cut short, and counted as seen
# it would never be shown whole. whole_lines gives only complete lines, so a
# line still being written is left for the next look.

# whole_lines LOG: LOG up to and including its last newline
whole_lines() {
	local sz
	sz=$(stat -c %s "$1" 2>/dev/null) || return 0
	[ "$sz" -gt 0 ] || return 0
	if [ "$(tail -c +"$sz" "$1" | head -c 1 | od -An -tx1 | tr -d ' ')" = 0a ]; then
		head -c "$sz" "$1"
	else
		head -c "$sz" "$1" | sed '$d'
	fi
}
