#!/usr/bin/env bash
# tools/regen-events.sh - regenerate every event table listed in
# regspec/events/events.conf from Intel's perfmon JSON.
#
#   tools/regen-events.sh [--check] [SPEC_BLOCK...]
#
# The perfmon files are looked up in $PERFMON_DIR (default: ../shared/perfmon
# beside the repository). --check writes nothing and fails when a file on disk
# differs from its regeneration. Exclusions are listed on stderr.
set -eu
cd "$(dirname "$0")/.."
exec python3 tools/perfmon2regspec.py regspec/events/events.conf "$@"
