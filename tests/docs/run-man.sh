#!/usr/bin/env bash
# tests/docs/run-man.sh - the man pages render without a warning (groff -ww),
# have the sections a reader looks for, and regc(1) documents every option
# regc --help lists. Skipped when groff is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

pages="docs/man/regc.1 docs/man/regctl.1 docs/man/regspec.5"
if ! command -v groff >/dev/null; then
    for p in $pages; do tap_skip "man page renders: $p" "groff not installed"; done
    tap_done; exit 0
fi
for p in $pages; do
    if LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$p" 2>"$tmp/warn" && [ ! -s "$tmp/warn" ]; then
        tap_ok "man page renders without warnings: $p"
    else
        tap_fail "man page renders without warnings: $p" "$(head -n 5 "$tmp/warn")"
    fi
    LC_ALL=C.UTF-8 groff -man -Tascii -P-cbou "$p" >"$tmp/text" 2>/dev/null
    want="NAME SYNOPSIS DESCRIPTION"
    case $p in *.1) want="$want OPTIONS EXIT_STATUS EXAMPLES" ;; *) want="NAME DESCRIPTION" ;; esac
    missing=""
    for sec in $want SEE_ALSO; do
        grep -q "^${sec//_/ }" "$tmp/text" || missing="$missing $sec"
    done
    if [ -z "$missing" ]; then tap_ok "man page has its sections: $p"
    else tap_fail "man page has its sections: $p" "missing:$missing"; fi
done

# Every option of regc --help is in regc(1), and every exit status.
LC_ALL=C.UTF-8 groff -man -Tascii -P-cbou docs/man/regc.1 2>/dev/null >"$tmp/regc.txt"
missing=""
for opt in $("$regc" --help | grep -oE '(^| )-(-[a-z][a-z-]*|[A-Za-z]+)' | sort -u); do
    grep -qe "$opt" "$tmp/regc.txt" || missing="$missing $opt"
done
if [ -z "$missing" ]; then tap_ok "regc(1) documents every option of regc --help"
else tap_fail "regc(1) documents every option of regc --help" "missing:$missing"; fi
missing=""
for st in 0 1 2 3; do grep -qE "^ +$st( |\$)" "$tmp/regc.txt" || missing="$missing $st"; done
if [ -z "$missing" ]; then tap_ok "regc(1) documents exit statuses 0-3"
else tap_fail "regc(1) documents exit statuses 0-3" "missing:$missing"; fi

# Every option of regctl --help is in regctl(1), when regctl is built.
regctl=${REGCTL:-}
if [ -n "$regctl" ] && [ -x "$regctl" ]; then
    LC_ALL=C.UTF-8 groff -man -Tascii -P-cbou docs/man/regctl.1 2>/dev/null >"$tmp/regctl.txt"
    missing=""
    for opt in $("$regctl" --help | grep -oE '(^| )--[a-z][a-z-]*' | sort -u) list read write; do
        grep -qe "$opt" "$tmp/regctl.txt" || missing="$missing $opt"
    done
    if [ -z "$missing" ]; then tap_ok "regctl(1) documents every option and command of regctl --help"
    else tap_fail "regctl(1) documents every option and command of regctl --help" "missing:$missing"; fi
else
    tap_skip "regctl(1) documents every option of regctl --help" "regctl not built"
fi

# The checks can fail: an unknown macro is a warning.
printf '.TH X 1\n.SH NAME\nx \\- y\n.XYZZY\n' >"$tmp/bad.1"
if LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$tmp/bad.1" 2>"$tmp/warn" && [ ! -s "$tmp/warn" ]; then
    tap_fail "groff -ww reports an unknown macro"
else tap_ok "groff -ww reports an unknown macro"; fi
tap_done
