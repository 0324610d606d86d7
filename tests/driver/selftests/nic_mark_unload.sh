#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload the module while marked TCP and UDP sockets are open (held by
# `sockopt --hold`): no kernel warning; without the module the option is
# gone (ENOPROTOOPT) and the sockets keep working; after insmod they read
# unmarked (their state went with the old module), can be marked again and
# close fine, and the module's socket count goes back to zero. Leaves the
# module loaded and $IF configured, as it found them.
. ./lib.sh
KO=/lib/modules/inceptionn.ko
DBG=/sys/kernel/debug/inceptionn-mark
CTL=/tmp/mark-unload.ctl
LOG=/tmp/mark-unload.log

[ -d "$DBG" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
[ -r "$DBG/sockets" ] || skip "no $DBG"
base=$(cat "$DBG/sockets")

rm -f "$CTL" "$LOG"
mkfifo "$CTL" || fail "mkfifo"
./sockopt --hold <"$CTL" >"$LOG" 2>&1 &
pid=$!
exec 3>"$CTL"

# wait_done CMD: until the holder answered "done CMD" (up to 30 s)
wait_done() {
	wait_for 30 grep -q "^done $1" "$LOG" ||
		{ cat "$LOG"; fail "no answer to $1"; }
	if grep -q "^fail $1" "$LOG"; then
		cat "$LOG"
		fail "$1"
	fi
}

wait_done start
n=$(sed -n 's/^sockets //p' "$LOG")
[ "$(cat "$DBG/sockets")" -eq $((base + n)) ] ||
	fail "$n sockets marked, debugfs counts $(cat "$DBG/sockets") (was $base)"
log "$n sockets marked and held"

rmmod inceptionn || fail "rmmod with marked sockets open"
[ ! -e "/sys/class/net/$IF" ] || fail "$IF still there after rmmod"
echo unloaded >&3
wait_done unloaded
log "unloaded: the option is gone, the sockets still work"

insmod "$KO" || fail "insmod"
setup_if || fail "setup after insmod"
[ "$(cat "$DBG/sockets")" -eq 0 ] || fail "stale entries after insmod: $(cat "$DBG/sockets")"
echo loaded >&3
wait_done loaded
[ "$(cat "$DBG/sockets")" -eq "$n" ] ||
	fail "marked again: debugfs counts $(cat "$DBG/sockets"), not $n"
log "reloaded: the sockets read unmarked, can be marked again"

# unload once more while marked, then close them with the module gone
rmmod inceptionn || fail "second rmmod with marked sockets open"
echo quit >&3
exec 3>&-
wait "$pid" || { cat "$LOG"; fail "holder exit status"; }
insmod "$KO" || fail "insmod after close"
setup_if || fail "setup after the last insmod"
[ "$(cat "$DBG/sockets")" -eq 0 ] || fail "entries left: $(cat "$DBG/sockets")"
ping -c 1 -W 10 "$PEER4" >/dev/null || fail "ping after reload"
dmesg_clean || fail "kernel warnings"
rm -f "$CTL" "$LOG"
log "sockets closed with and without the module: no warning"
exit 0
