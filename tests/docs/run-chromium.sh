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
    "$regc" -t html "$spec" -o "$tmp/$name.html" && "$regc" --dump-context "$spec" -o "$tmp/$name.json" ||
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
# appended to a copy of the page does it) and read the Value column back,
# with the named value of 'invert' and the event the value encodes.
# type PAGE SECTION VALUE: the page with VALUE typed into SECTION's decoder, as a DOM.
type_value() {
    sed "s|</body>|<script>var i = document.querySelector(\"#$2 input\"); i.value = \"$3\"; i.dispatchEvent(new Event(\"input\"));</script></body>|" \
        "$1" >"$tmp/typed.html"
    run_chrome --dump-dom "file://$tmp/typed.html"
}
type_value "$tmp/e5_2600.html" u_msr_pmon_ctl 0x400842 >"$tmp/typed.dom"
got=$(python3 - "$tmp/typed.dom" u_msr_pmon_ctl ev_sel umask en thresh invert <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
sec = dom[dom.index('id="%s"' % sys.argv[2]):]
event = re.sub(r"<[^>]*>", "", re.search(r'<span class="event">(.*?)</span>', sec, re.S).group(1))
sec = sec[:sec.index("</table>")]
vals = {}
for row in re.findall(r"<tr>(.*?)</tr>", sec, re.S):
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    if cells:
        vals[cells[0]] = re.sub(r"<[^>]*>", "", cells[-1])
print(" ".join("%s=%s" % (k, vals.get(k)) for k in sys.argv[3:]) + " | " + event)
PY
)
if [ "$got" = "ev_sel=0x42 umask=0x8 en=0x1 thresh=0x0 invert=0x0 GE | event: EVENT_MSG.DOORBELL_RCVD" ]; then
    tap_ok "the decoder splits 0x400842 into fields, names invert's value and the event"
else
    tap_fail "the decoder splits 0x400842 into fields, names invert's value and the event" "got: $got"
fi
# The M-Box's two event tables share one control: 0x80 (flag_mode, set_flag_sel 0) is
# CYCLES_DSP_FILL, not DSP_FILL (inc_sel 0), as the header's encodings say.
"$regc" -t html regspec/xeon7500_mbox.xml -o "$tmp/mbox.html"
for v in 0x80 0x0 0x3a00; do
    want=$(sed -n "s/^#define XEON7500_EV_MBOX_\([A-Z0-9_]*\) *UINT64_C($v)\$/\1/p" generated/xeon7500_mbox.h | head -n 1)
    type_value "$tmp/mbox.html" m_msr_pmu_cnt_ctl "$v" >"$tmp/mbox.dom"
    ev=$(python3 -c 'import re,sys; d=open(sys.argv[1]).read(); d=d[d.index("id=\"m_msr_pmu_cnt_ctl\""):]; print(re.sub(r"<[^>]*>","",re.search(r"<span class=\"event\">(.*?)</span>",d,re.S).group(1)))' "$tmp/mbox.dom")
    # the first name is the header's; the others, if any, its sub-events told apart by another register
    first=$(echo "$ev" | sed 's/^event: //; s/,.*//')
    others=$(echo "$ev" | sed 's/^event: [^,]*//; s/, /\n/g' | grep -v "^$want\\." | grep -c .)
    if [ -n "$want" ] && [ "$first" = "$want" ] && [ "$others" = 0 ]; then
        tap_ok "the decoder names M_MSR_PMU_CNT_CTL = $v the header's $want"
    else
        tap_fail "the decoder names M_MSR_PMU_CNT_CTL = $v the header's ${want:-?}" "got: $ev"
    fi
done

# The search box finds an event and a field, case-insensitively, as links into the page.
sed 's|</body>|<script>var q = document.querySelector("nav .search input"); q.value = "DoorBell"; q.dispatchEvent(new Event("input"));</script></body>|' \
    "$tmp/e5_2600.html" >"$tmp/search.html"
run_chrome --dump-dom "file://$tmp/search.html" >"$tmp/search.dom"
if grep -q '<ul class="results"><li><a href="#event-ubox-event_msg-doorbell_rcvd">EVENT_MSG.DOORBELL_RCVD</a> event of U_MSR_PMON_CTL</li>' "$tmp/search.dom"; then
    tap_ok "the search box finds EVENT_MSG.DOORBELL_RCVD from 'DoorBell' (file://, no network)"
else
    tap_fail "the search box finds EVENT_MSG.DOORBELL_RCVD" "$(grep -o '<ul class="results">.\{0,300\}' "$tmp/search.dom")"
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
