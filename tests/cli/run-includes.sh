#!/usr/bin/env bash
# tests/cli/run-includes.sh - includes stay home (compiler/incpath.h): a
# spec written by someone else, compiled by root, cannot make regc read or
# quote a file outside the spec's folder and the -I directories, through
# '..', a symbolic link (one planted by nobody, pointing out), or a link
# swapped in on the way; a file inside that is not a spec file is named,
# never printed. What stays inside is read: a subfolder, '..' back inside,
# a link inside, a -I directory.
set -u
cd "$(dirname "$0")"
. ../tap.sh
tap_setup regc tmp
cd "$tmp" || exit 1

mkdir -p secret build/specs/sub shared
printf 'root:$6$SECRET-HASH-LINE:19000:0:99999:7:::\n' >secret/shadow
chmod 600 secret/shadow
part() { # part FILE REGISTER-NAME ADDRESS
    cat >"$1" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<part>
  <register name="$2" space="msr" address="$3" width="32" src="doc">
    <field name="v" bits="31:0" access="RW" reset="0"/>
  </register>
</part>
EOF
}
spec() { # spec FILE HREF...: a spec including each HREF
    {
        printf '<?xml version="1.0" encoding="UTF-8"?>\n<regspec name="t" prefix="T" version="1">\n'
        printf '  <source id="doc" title="Doc"/>\n  <block name="b">\n'
        for h in "${@:2}"; do printf '    <include href="%s"/>\n' "$h"; done
        printf '  </block>\n</regspec>\n'
    } >"$1"
}
part build/specs/sub/a.xml A 0x10
part shared/common.xml C 0x20
part secret/part.xml S 0x30

# refused NAME WANT-STDERR SPEC ARGS...: status 1, exact stderr, nothing of the secret shown
refused() {
    local name=$1 want=$2 spec=$3 st problems=(); shift 3
    "$regc" --check -fno-caret-diagnostics "$@" "$spec" >out 2>err; st=$?
    [ "$st" = 1 ] || problems+=("status $st, expected 1")
    [ "$(cat err)" = "$want" ] || problems+=("stderr: $(cat err)" "expected: $want")
    grep -q SECRET err && problems+=("the secret was printed")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "$name"; else tap_fail "$name" "${problems[@]}"; fi
}
out="it leads out of the spec's folder and the -I directories (through '..' or a symbolic link)"

spec build/specs/dots.xml "../../secret/shadow"
refused "'..' out of the spec's folder" \
    "build/specs/dots.xml:5:20: error: included file 'build/specs/../../secret/shadow' refused: $out" \
    build/specs/dots.xml
spec build/specs/dots2.xml "sub/../../../secret/part.xml"
refused "'..' out through a subfolder, to a spec file" \
    "build/specs/dots2.xml:5:20: error: included file 'build/specs/sub/../../../secret/part.xml' refused: $out" \
    build/specs/dots2.xml
ln -s ../../secret/shadow build/specs/link.xml
spec build/specs/links.xml "link.xml"
refused "a symbolic link leading out" \
    "build/specs/links.xml:5:20: error: included file 'build/specs/link.xml' refused: $out" \
    build/specs/links.xml
ln -s "$tmp/secret" build/specs/dirlink
spec build/specs/dirlinks.xml "dirlink/part.xml"
refused "a folder that is an absolute link out" \
    "build/specs/dirlinks.xml:5:20: error: included file 'build/specs/dirlink/part.xml' refused: $out" \
    build/specs/dirlinks.xml
"$regc" --check build/specs/dots.xml >out 2>err
"$regc" --check build/specs/links.xml >>out 2>>err
grep -q SECRET err && tap_fail "with carets on: no line of the file outside is printed" "$(cat err)" ||
    tap_ok "with carets on: no line of the file outside is printed"
cat >shared/nest.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<part>
  <include href="../secret/part.xml"/>
</part>
EOF
spec build/specs/viaI.xml "nest.xml"
refused "'..' out of a -I directory, from a file found there" \
    "shared/nest.xml:3:18: error: included file 'shared/../secret/part.xml' refused: $out" \
    build/specs/viaI.xml -I shared

# The same spec folder written by nobody, compiled by root: nobody's links out are not followed.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    chmod 711 "$tmp" && chmod 755 build
    mkdir nobodys && chown nobody:nogroup nobodys
    setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c \
        "ln -s '$tmp/secret/shadow' nobodys/part.xml && ln -s ../secret nobodys/up"
    spec nobodys/spec.xml "part.xml" "up/part.xml"
    refused "nobody's spec folder: nobody's links out are refused" \
        "nobodys/spec.xml:5:20: error: included file 'nobodys/part.xml' refused: $out
nobodys/spec.xml:6:20: error: included file 'nobodys/up/part.xml' refused: $out" nobodys/spec.xml
else
    tap_skip "nobody's spec folder: nobody's links out are refused" "needs root and setpriv"
fi

# A file inside the folder that is not a spec file is named, never quoted (with carets on).
printf 'SECRET-IN-FOLDER: not XML at all\n' >build/specs/notes.txt
printf '<?xml version="1.0"?>\n<config>SECRET-XML</config>\n' >build/specs/other.xml
spec build/specs/notes.xml "notes.txt" "other.xml"
"$regc" --check build/specs/notes.xml >out 2>err; st=$?
problems=()
[ "$st" = 1 ] || problems+=("status $st, expected 1")
grep -q SECRET err && problems+=("a line of a file that is no spec was quoted: $(grep SECRET err)")
grep -q "^build/specs/notes.txt:1:1: error: " err || problems+=("notes.txt not named: $(cat err)")
grep -q "^build/specs/other.xml:2: error: " err ||
    problems+=("other.xml not named: $(cat err)")
if [ ${#problems[@]} -eq 0 ]; then tap_ok "an include that is no spec file is named, not printed"
else tap_fail "an include that is no spec file is named, not printed" "${problems[@]}"; fi

# What stays inside is read: a subfolder, '..' back inside, a link inside, a -I directory.
ln -s sub/a.xml build/specs/alias.xml
spec build/specs/ok1.xml "sub/a.xml"
spec build/specs/ok2.xml "sub/../sub/a.xml"
spec build/specs/ok3.xml "alias.xml"
spec build/specs/ok4.xml "common.xml"
problems=()
for f in ok1 ok2 ok3; do
    "$regc" --check "build/specs/$f.xml" 2>err || problems+=("$f: $(cat err)")
done
"$regc" --check -I shared build/specs/ok4.xml 2>err || problems+=("ok4 with -I shared: $(cat err)")
"$regc" -I shared build/specs/ok4.xml -o ok4.h 2>err && grep -q "T_C_ADDR.*0x20" ok4.h || problems+=("ok4.h: $(cat err)")
if [ ${#problems[@]} -eq 0 ]; then tap_ok "inside: a subfolder, '..' back inside, a link inside, a -I directory"
else tap_fail "inside: a subfolder, '..' back inside, a link inside, a -I directory" "${problems[@]}"; fi
tap_done
