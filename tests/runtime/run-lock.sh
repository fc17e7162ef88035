#!/usr/bin/env bash
# run-lock.sh - lock files no other user can turn against a root run (docs/runtime.md "Lock
# files"). As root, with an unprivileged user (nobody, through setpriv) doing what an attacker
# would in a directory everyone can write to (mode 1777, like /run/lock): a planted symbolic
# link, a dangling one, a lock file of theirs, removing root's lock files while a root run holds
# them, making the lock directory first, a symbolic link on the way. Each is refused with its
# message, and what it pointed at is untouched (text, inode, size, time). Then the defaults: root
# locks in /run/regc (0755 root; a private /run in a mount namespace), another user in
# $XDG_RUNTIME_DIR/regc.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh

names=("a planted symbolic link is not followed" "its target untouched"
    "a dangling symbolic link creates nothing" "another user's lock file is refused"
    "that file untouched" "they cannot take root's lock"
    "they cannot remove root's lock files: a second root run still sees the lock"
    "a lock directory they made first is refused" "a symbolic link of theirs on the way is refused"
    "root's default: /run/regc, 0755 root, files 0600 and empty"
    "they cannot write to /run/regc" "another user's default: \$XDG_RUNTIME_DIR/regc")
skip_all() { tap_skip_rest "$1" "${names[@]}"; }
if [ "$(id -u)" != 0 ]; then skip_all "not root: cannot act as another user"; fi
if ! command -v setpriv >/dev/null; then skip_all "setpriv is not installed (util-linux)"; fi
regctl_needs e5_2600v2 "${names[@]}"

tmp=$(mktemp -d)
apid=""
cleanup() {
    if [ -n "$apid" ]; then kill "$apid" 2>/dev/null; wait "$apid" 2>/dev/null; fi
    rm -rf "$tmp"
}
# a signal from outside ends the script (tests/run.sh reports its status); a trap that only
# cleaned up would let it run on without its scratch directory
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 755 "$tmp"
cp "$REGCTL" "$tmp/regctl"
R=$tmp/regctl
NOBODY=65534
them() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }
if ! them "$R" --version >/dev/null 2>&1; then skip_all "uid $NOBODY cannot run regctl from $tmp"; fi

U='ubox:EVENT_MSG.DOORBELL_RCVD'
pub=$tmp/pub
mkdir -m 1777 "$pub"
real=$(realpath "$pub") # the messages name the directories they walked through

# a root run of one interval on the simulator, locking in $1; status in rc, stderr in $tmp/err
run() {
    "$R" --backend sim monitor e5_2600v2 "$U" --lock-dir "$1" --interval 0 --count 1 \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
# expect NAME WANT_STDERR: the last run exited 1 with exactly that message
expect() {
    if [ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "$2" ]; then tap_ok "$1"; else
        tap_fail "$1" "exit $rc" "got:  $(cat "$tmp/err")" "want: $2"; fi
}
# what a file is: inode, size, modification time (ns), text
print() { stat -c '%i %s %y' "$1" && cat "$1"; }
same() {
    if [ "$(print "$2")" = "$3" ]; then tap_ok "$1"; else tap_fail "$1" "before: $3" "after:  $(print "$2")"; fi
}

# ---- a planted symbolic link, to root's file and to nowhere
printf 'root only\n' >"$tmp/victim"
chmod 600 "$tmp/victim"
before=$(print "$tmp/victim")
them ln -s "$tmp/victim" "$pub/sim-cpu0-global.lock"
run "$pub"
expect "${names[0]}" "regctl: monitor: the lock file '$pub/sim-cpu0-global.lock' is a symbolic link; refusing to follow it"
same "${names[1]}" "$tmp/victim" "$before"
them rm "$pub/sim-cpu0-global.lock"
them ln -s "$tmp/made-by-root" "$pub/sim-cpu0-ubox.lock"
run "$pub"
if [ "$rc" = 1 ] && grep -q "'$pub/sim-cpu0-ubox.lock' is a symbolic link" "$tmp/err" && [ ! -e "$tmp/made-by-root" ]
then tap_ok "${names[2]}"; else tap_fail "${names[2]}" "exit $rc" "$(cat "$tmp/err")" "$(ls -l "$tmp")"; fi
them rm "$pub/sim-cpu0-ubox.lock"

# ---- a lock file of theirs: they could remove it while root holds it
them sh -c "printf 'theirs\n' >'$pub/sim-cpu0-ubox.lock'"
before=$(print "$pub/sim-cpu0-ubox.lock")
run "$pub"
expect "${names[3]}" "regctl: monitor: the lock file '$pub/sim-cpu0-ubox.lock' belongs to uid $NOBODY, who could remove it and break the lock; refusing it"
same "${names[4]}" "$pub/sim-cpu0-ubox.lock" "$before"
them rm "$pub/sim-cpu0-ubox.lock"

# ---- root holds the lock: they can neither remove the files nor take the lock
# (it runs until interrupted, and holds the lock once it has printed interval 1: waited for as
# long as it runs, so a loaded machine only makes the wait longer)
: >"$tmp/a.out"
"$R" --backend sim monitor e5_2600v2 "$U" --lock-dir "$pub" --interval 100ms --count 100000 \
    >"$tmp/a.out" 2>"$tmp/a.err" &
apid=$!
wait_for "$tmp/a.out" '^ *1 ' "$apid"
files=$(ls -i "$pub")
them rm -f "$pub/sim-cpu0-global.lock" "$pub/sim-cpu0-ubox.lock" 2>"$tmp/rm.err"
rmrc=$?
them mv "$pub/sim-cpu0-global.lock" "$pub/moved" 2>/dev/null
them "$R" --backend sim monitor e5_2600v2 "$U" --lock-dir "$pub" --interval 0 --count 1 >/dev/null 2>"$tmp/err"
rc=$?
expect "${names[5]}" "regctl: monitor: cannot open the lock file '$pub/sim-cpu0-global.lock': Permission denied"
run "$pub"
if [ $rmrc = 0 ] || [ "$(ls -i "$pub")" != "$files" ] || [ -z "$files" ]; then
    tap_fail "${names[6]}" "rm exit $rmrc" "before: $files" "after: $(ls -i "$pub")"
else
    expect "${names[6]}" "regctl: monitor: the global control is locked by another session (pid $apid holds '$pub/sim-cpu0-global.lock')"
fi
kill -INT "$apid"
wait "$apid"
apid=""

# ---- the directory, or a symbolic link on the way to it, theirs
them mkdir -m 1777 "$pub/regc"
run "$pub/regc"
expect "${names[7]}" "regctl: monitor: the lock directory '$pub/regc' is not safe: '$real/regc' belongs to uid $NOBODY, not to root or you (its owner could replace the lock files)"
mkdir "$tmp/safe"
them ln -s "$tmp/safe" "$pub/link"
run "$pub/link"
made=$(find "$tmp/safe" "$pub/regc" -mindepth 1)
if [ -z "$made" ]; then
    expect "${names[8]}" "regctl: monitor: the lock directory '$pub/link' is not safe: '$real/link' is a symbolic link that belongs to uid $NOBODY, not to root or you"
else tap_fail "${names[8]}" "lock files made: $made"; fi

# ---- the defaults, on the msr backend (an empty file for the device: the lock is taken, then
# the first read fails); root's in a private /run
mkdir -p "$tmp/cpu/0" "$tmp/sys" "$tmp/xdg"
: >"$tmp/cpu/0/msr"
chmod 644 "$tmp/cpu/0/msr"
M=(--force-cpu --msr-root "$tmp/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 "$U" --interval 0 --count 1)
# shellcheck disable=SC2016 # expanded by the inner shell
if unshare -m sh -c 'mount -t tmpfs -o mode=755 regc-test /run' 2>/dev/null; then
    unshare -m sh -c '
        mount -t tmpfs -o mode=755 regc-test /run || exit 1
        env -u REGC_LOCK_DIR "$@" >/dev/null 2>&1
        stat -c "%n %a %U" /run/regc
        stat -c "%n %a %U %s" /run/regc/*
        setpriv --reuid='$NOBODY' --regid='$NOBODY' --clear-groups ln -s /etc/passwd /run/regc/x 2>/dev/null && echo planted
    ' sh "$R" "${M[@]}" >"$tmp/def.out" 2>&1
    want="/run/regc 755 root
/run/regc/msr-cpu0-global.lock 600 root 0
/run/regc/msr-cpu0-ubox.lock 600 root 0"
    got=$(grep -v '^planted' "$tmp/def.out")
    if [ "$got" = "$want" ]; then tap_ok "${names[9]}"; else tap_fail "${names[9]}" "got:" "$(cat "$tmp/def.out")"; fi
    if grep -q '^planted' "$tmp/def.out"; then tap_fail "${names[10]}"; else tap_ok "${names[10]}"; fi
else
    tap_skip "${names[9]}" "cannot mount a private /run (unshare -m)"
    tap_skip "${names[10]}" "cannot mount a private /run (unshare -m)"
fi
chown $NOBODY "$tmp/xdg"
chmod 700 "$tmp/xdg"
them env -u REGC_LOCK_DIR XDG_RUNTIME_DIR="$tmp/xdg" "$R" "${M[@]}" >/dev/null 2>&1
got=$(stat -c '%n %a %u' "$tmp/xdg/regc" "$tmp/xdg/regc/"* 2>&1)
want="$tmp/xdg/regc 755 $NOBODY
$tmp/xdg/regc/msr-cpu0-global.lock 600 $NOBODY
$tmp/xdg/regc/msr-cpu0-ubox.lock 600 $NOBODY"
if [ "$got" = "$want" ]; then tap_ok "${names[11]}"; else tap_fail "${names[11]}" "got:  $got" "want: $want"; fi
tap_done
