#!/usr/bin/env bash
# bench/overhead.sh - regctl monitor's register accesses and time per interval for every box of
# both E5 families on two sockets, against the minimum (one read per counter per interval), as
# ratios (bench/overhead.py says how; run by `make bench` after bench/run.sh). REGCTL (default
# $BUILD/regctl, BUILD default build) names the binary; N and T the intervals counted and timed.
# Numbers are reported, not judged.
set -eu
cd "$(dirname "$0")/.."
: "${BUILD:=build}"
export BUILD
: "${REGCTL:=$BUILD/regctl}"
[ -x "$REGCTL" ] || { echo "bench: $REGCTL missing (run make)" >&2; exit 1; }
command -v strace >/dev/null || echo "bench: strace not found (Debian package strace): no access counts on the msr and pci backends"
python3 bench/overhead.py "$REGCTL" e5_2600 e5_2600v2
