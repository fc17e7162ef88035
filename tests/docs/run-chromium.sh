#!/usr/bin/env bash
# tests/docs/run-chromium.sh - the HTML reference as a browser shows it:
# headless Chromium renders a spec's page to a screenshot that is not blank,
# and in the DOM it builds every register's diagram has one labelled box per
# field. Skipped when chromium (or python3) is not installed.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ] || ! command -v python3 >/dev/null; then
    tap_skip "chromium renders the html reference" "chromium or python3 not installed"
    tap_done; exit 0
fi
run_chrome() {
    timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" "$@" 2>>"$tmp/chrome.log"
}

for spec in regspec/e5_2600.xml tests/docs/hostile.xml; do
    name=$(basename "$spec" .xml)
    "$regc" -t html "$spec" -o "$tmp/$name.html" && "$regc" -t json "$spec" -o "$tmp/$name.json" ||
        { tap_fail "render $spec"; continue; }
    run_chrome --screenshot="$tmp/$name.png" --window-size=1280,1200 "file://$tmp/$name.html" >/dev/null
    if [ ! -s "$tmp/$name.png" ]; then
        tap_fail "screenshot of $spec" "$(tail -n 3 "$tmp/chrome.log")"
    else
        read -r w h ink < <(python3 tests/docs/png_ink.py "$tmp/$name.png")
        # not blank: more than 2% of the pixels are not the background
        if [ "${w:-0}" -eq 1280 ] && [ "$((ink * 50))" -gt "$((w * h))" ]; then
            tap_ok "screenshot of $spec is not blank (${ink} of $((w * h)) pixels drawn)"
        else
            tap_fail "screenshot of $spec is not blank" "size ${w}x${h}, ${ink:-?} pixels drawn"
        fi
    fi
    run_chrome --dump-dom "file://$tmp/$name.html" >"$tmp/$name.dom"
    if [ ! -s "$tmp/$name.dom" ]; then
        tap_fail "chromium DOM of $spec" "$(tail -n 3 "$tmp/chrome.log")"
    elif out=$(python3 tests/docs/html_check.py "$tmp/$name.json" "$tmp/$name.dom"); then
        tap_ok "chromium DOM of $spec: every diagram has one labelled box per field"
    else
        tap_fail "chromium DOM of $spec: every diagram has one labelled box per field" "$out"
    fi
    # The optional decoder script ran and gave every register its input.
    nregs=$(python3 -c 'import json,sys; print(sum(len(b["registers"]) for b in json.load(open(sys.argv[1]))["blocks"]))' "$tmp/$name.json")
    ndec=$(grep -o 'class="decode"' "$tmp/$name.dom" | wc -l)
    if [ "$ndec" -eq "$nregs" ] && ! grep -q 'class="decode"' "$tmp/$name.html"; then
        tap_ok "chromium ran the decoder script: $ndec registers"
    else
        tap_fail "chromium ran the decoder script" "$ndec decoders for $nregs registers"
    fi
done

# The decoder decodes: type 0x400842 into U_MSR_PMON_CTL's input (a script
# appended to a copy of the page does it) and read the Value column back.
sed 's|</body>|<script>var i = document.querySelector("#u_msr_pmon_ctl input"); i.value = "0x400842"; i.dispatchEvent(new Event("input"));</script></body>|' \
    "$tmp/e5_2600.html" >"$tmp/typed.html"
run_chrome --dump-dom "file://$tmp/typed.html" >"$tmp/typed.dom"
got=$(python3 - "$tmp/typed.dom" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
sec = dom[dom.index('id="u_msr_pmon_ctl"'):]
sec = sec[:sec.index("</table>")]
vals = {}
for row in re.findall(r"<tr>(.*?)</tr>", sec, re.S):
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    if cells:
        vals[cells[0]] = re.sub(r"<[^>]*>", "", cells[-1])
print(" ".join("%s=%s" % (k, vals.get(k)) for k in ("ev_sel", "umask", "en", "thresh")))
PY
)
if [ "$got" = "ev_sel=0x42 umask=0x8 en=0x1 thresh=0x0" ]; then
    tap_ok "the decoder splits 0x400842 into ev_sel, umask and en"
else
    tap_fail "the decoder splits 0x400842 into ev_sel, umask and en" "got: $got"
fi

# The blank check must be able to fail: an empty page.
printf '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body></body></html>\n' >"$tmp/blank.html"
run_chrome --screenshot="$tmp/blank.png" --window-size=1280,1200 "file://$tmp/blank.html" >/dev/null
read -r w h ink < <(python3 tests/docs/png_ink.py "$tmp/blank.png")
if [ "${w:-0}" -eq 1280 ] && [ "$((ink * 50))" -le "$((w * h))" ]; then
    tap_ok "a blank page counts as blank"
else
    tap_fail "a blank page counts as blank" "size ${w:-?}x${h:-?}, ${ink:-?} pixels drawn"
fi
tap_done
