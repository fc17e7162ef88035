# tests/regspec-valid.sh - for scripts that check what `regc -t regspec` writes; source it after
# tests/tap.sh and tap_setup regc tmp.
#   regspec_valid NAME FILE   FILE validates against regspec/regspec.rng (xmllint --relaxng, which
#                             knows nothing of regc; skipped, saying so, without xmllint) and
#                             compiles without a diagnostic: one TAP line each
regspec_valid() {
    local name=$1 a=$2
    if ! command -v xmllint >/dev/null; then
        tap_skip "$name: -t regspec valid against regspec.rng" "xmllint not installed"
    elif xmllint --noout --relaxng regspec/regspec.rng "$a" 2>"$tmp/err"; then
        tap_ok "$name: -t regspec valid against regspec.rng"
    else
        tap_fail "$name: -t regspec valid against regspec.rng" "$(head -n 3 "$tmp/err")"
    fi
    if "$regc" --check "$a" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
        tap_ok "$name: the regspec compiles without a diagnostic"
    else
        tap_fail "$name: the regspec compiles without a diagnostic" "$(head -n 3 "$tmp/err")"
    fi
}
