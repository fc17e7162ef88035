#!/usr/bin/env bash
# tests/install/run-install.sh - make install PREFIX=... DESTDIR=... puts
# exactly the expected files under DESTDIR/PREFIX (binaries, library, public
# headers, pkg-config file, templates, schema, the specs and their generated
# headers and tables, man pages and the docs they cite); a program builds
# against the installed headers and library through pkg-config and runs; the
# installed regc works from its new place and finds an installed spec by
# name; the bash completion of both programs is installed and completes;
# ldconfig runs for an install without DESTDIR as root, only then, and
# plain only for a directory the loader searches (ldconfig -n elsewhere);
# make uninstall removes every file and every directory it made.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp
build=${BUILD:-build}
make=${MAKE:-make}
prefix=/opt/regc-test
root=$tmp/root
mk() { "$make" --no-print-directory -s BUILD="$build" SAN="${SAN:-}" PREFIX="$prefix" DESTDIR="$root" "$@"; }

if ! mk install >"$tmp/log" 2>&1; then
    tap_fail "make install" "$(tail -n 5 "$tmp/log")"; tap_done; exit 0
fi
tap_ok "make install PREFIX=$prefix DESTDIR=..."

# What must be there, relative to DESTDIR.
{
    echo "$prefix/bin/regc"
    [ -n "$(ls runtime/regctl/*.c 2>/dev/null)" ] && echo "$prefix/bin/regctl"
    if [ -n "$(ls runtime/*.c 2>/dev/null)" ]; then
        echo "$prefix/lib/libregrt.a"
        echo "$prefix/lib/libregrt.so"
        echo "$prefix/lib/libregrt.so.0"
        [ -f runtime/libregrt.pc.in ] && echo "$prefix/lib/pkgconfig/libregrt.pc"
        for h in runtime/include/regc/*.h; do echo "$prefix/include/regc/${h##*/}"; done
    fi
    for t in templates/*.mustache; do echo "$prefix/share/regc/templates/${t##*/}"; done
    for s in regspec/*.rng regspec/*.xml; do echo "$prefix/share/regc/regspec/${s##*/}"; done
    for s in regspec/events/*.xml; do echo "$prefix/share/regc/regspec/events/${s##*/}"; done
    for s in regspec/metrics/*.xml; do echo "$prefix/share/regc/regspec/metrics/${s##*/}"; done
    for h in generated/*.h; do echo "$prefix/include/regc/${h##*/}"; done
    for m in docs/man/*.[0-9]; do echo "$prefix/share/man/man${m##*.}/${m##*/}"; done
    echo "$prefix/share/bash-completion/completions/regc"
    [ -n "$(ls runtime/regctl/*.c 2>/dev/null)" ] && echo "$prefix/share/bash-completion/completions/regctl"
    for d in docs/*.md docs/regc-model.schema.json docs/sources/*.md; do echo "$prefix/share/doc/regc/${d#docs/}"; done
} | sort >"$tmp/want"
(cd "$root" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort) >"$tmp/have"
missing=$(comm -23 "$tmp/want" "$tmp/have")
extra=$(comm -13 "$tmp/want" "$tmp/have")
if [ -z "$missing" ]; then tap_ok "every expected file is installed ($(wc -l <"$tmp/want") files)"
else tap_fail "every expected file is installed" "missing: $(echo $missing)"; fi
if [ -z "$extra" ]; then tap_ok "nothing else is installed"
else tap_fail "nothing else is installed" "unexpected: $(echo $extra)"; fi
outside=$(cd "$root" && find . -mindepth 1 \( -type f -o -type l \) | sed 's|^\.||' | grep -v "^$prefix/" || true)
if [ -z "$outside" ]; then tap_ok "nothing is installed outside PREFIX"
else tap_fail "nothing is installed outside PREFIX" "$(echo $outside)"; fi
if [ -x "$root$prefix/bin/regc" ] && [ "$(stat -c %a "$root$prefix/share/man/man1/regc.1" 2>/dev/null)" = 644 ]; then
    tap_ok "modes: binaries executable, data 644"
else tap_fail "modes: binaries executable, data 644"; fi

# The installed bash completion, driven as bash drives it, asks the installed programs.
comp=$root$prefix/share/bash-completion/completions
if [ -x "$root$prefix/bin/regctl" ]; then
    got=$(PATH=$root$prefix/bin:$PATH bash -c 'source "$1"; COMP_LINE="regctl mon"; COMP_POINT=10
        _regctl; printf "%s " "${COMPREPLY[@]}"; COMP_LINE="regc --list-t"; COMP_POINT=13
        _regc; printf "%s " "${COMPREPLY[@]}"' _ "$comp/regctl" 2>&1)
    if [ "$got" = "monitor --list-templates " ]; then tap_ok "installed completion: regctl mon<TAB>, regc --list-t<TAB>"
    else tap_fail "installed completion: regctl mon<TAB>, regc --list-t<TAB>" "got '$got'"; fi
fi

# The installed regc runs from its new place and its output compiles.
cc=${CC:-cc}
sanflags=""
[ "${SAN:-}" = 1 ] && sanflags="-fsanitize=address,undefined"
if "$root$prefix/bin/regc" tests/cli/mini.xml -o "$tmp/mini.h" 2>"$tmp/err" &&
   printf '#include "mini.h"\nint main(void) { return mini_ctl_addr(1) == 0x101 ? 0 : 1; }\n' >"$tmp/h.c" &&
   $cc -std=c11 $sanflags -I"$tmp" -o "$tmp/h" "$tmp/h.c" 2>>"$tmp/err" && "$tmp/h"; then
    tap_ok "installed regc generates a header that compiles"
else tap_fail "installed regc generates a header that compiles" "$(head -n 5 "$tmp/err")"; fi

# A spec by name, from the installed copies (beside the installed regc), and its
# generated header from the installed include directory.
if (cd "$tmp" && "$root$prefix/bin/regc" e5_2600v2 -o "$tmp/byname.h" 2>"$tmp/err") &&
   cmp -s "$tmp/byname.h" "$root$prefix/include/regc/e5_2600v2.h" &&
   grep -q "share/regc/regspec/e5_2600v2.xml" <(cd "$tmp" && "$root$prefix/bin/regc" e5_2600v2 -o "$tmp/b.h" -MD && cat "$tmp/b.h.d"); then
    tap_ok "installed regc finds an installed spec by name (regc e5_2600v2), as the installed header has it"
else tap_fail "installed regc finds an installed spec by name" "$(head -n 5 "$tmp/err")"; fi
if (cd "$tmp" && ! "$root$prefix/bin/regc" no_such_spec --check 2>"$tmp/err") &&
   grep -q "no_such_spec" "$tmp/err"; then
    tap_ok "a name that is no installed spec is an error naming it"
else tap_fail "a name that is no installed spec is an error naming it" "$(head -n 3 "$tmp/err")"; fi

# A program against the installed library, found through pkg-config.
if [ ! -f "$root$prefix/lib/pkgconfig/libregrt.pc" ]; then
    tap_skip "program built with pkg-config against the installed libregrt" "no runtime/libregrt.pc.in in this tree"
elif ! command -v pkg-config >/dev/null; then
    tap_skip "program built with pkg-config against the installed libregrt" "pkg-config not installed"
else
    cat >"$tmp/prog.c" <<'C'
#include <regc/attr.h>
#include <regc/backend.h>
#include <regc/regc.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    const struct regc_backend_ops *sim = regc_backend_find("sim");
    if (!sim || regc_backend_find("no-such-backend"))
        return 1;
    printf("%s\n", regc_access_text(regc_access_parse("RW1C")));
    return 0;
}
C
    export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$root$prefix/lib/pkgconfig PKG_CONFIG_LIBDIR=$root$prefix/lib/pkgconfig
    flags="$(pkg-config --cflags libregrt) $(pkg-config --libs libregrt)"
    if $cc -std=c11 $sanflags -o "$tmp/prog" "$tmp/prog.c" $flags 2>"$tmp/err" &&
       out=$(LD_LIBRARY_PATH=$root$prefix/lib "$tmp/prog" 2>>"$tmp/err") && [ "$out" = RW1C ] &&
       case $flags in *"$root$prefix/include"*"$root$prefix/lib"*|*"$root$prefix/lib"*"$root$prefix/include"*) true ;; *) false ;; esac; then
        tap_ok "program built with pkg-config against the installed libregrt runs"
    else
        tap_fail "program built with pkg-config against the installed libregrt runs" "flags: $flags" "$(head -n 5 "$tmp/err")"
    fi
    if LD_LIBRARY_PATH=$root$prefix/lib ldd "$tmp/prog" 2>/dev/null | grep -q "libregrt.so.0 => $root$prefix/lib/"; then
        tap_ok "the program uses the installed libregrt.so.0"
    else tap_fail "the program uses the installed libregrt.so.0" "$(LD_LIBRARY_PATH=$root$prefix/lib ldd "$tmp/prog" 2>&1 | grep regrt)"; fi
fi

# Uninstall leaves nothing of ours: no file, no directory under PREFIX.
if mk uninstall >"$tmp/log" 2>&1; then tap_ok "make uninstall"
else tap_fail "make uninstall" "$(tail -n 5 "$tmp/log")"; fi
left=$(cd "$root" && find . -mindepth 1 | sed 's|^\.||' | grep -v -x -e /opt || true)
if [ -z "$left" ]; then tap_ok "nothing is left after uninstall, directories included"
else tap_fail "nothing is left after uninstall, directories included" "$(echo $left)"; fi

# ldconfig, as root without DESTDIR only: for a LIBDIR the loader searches, plain ldconfig
# (install and uninstall); for any other (a private PREFIX), `ldconfig -n LIBDIR` on install,
# which leaves the system's cache alone, and nothing on uninstall. A stand-in ldconfig first
# in PATH records each call, and answers `ldconfig -v -N -X` (the directories the loader
# searches) with $tmp/syslink/lib, a symbolic link's way to $tmp/sys/lib.
if [ "$(id -u)" != 0 ]; then
    for t in "ldconfig after an install into a directory the loader searches" \
        "ldconfig -n after an install into a private prefix" "ldconfig after the uninstalls"; do
        tap_skip "$t" "needs root (the Makefile runs ldconfig only as root)"
    done
else
    mkdir -p "$tmp/bin"
    cat >"$tmp/bin/ldconfig" <<SH
#!/bin/sh
if [ "\$*" = "-v -N -X" ]; then
    printf '%s\n' "$tmp/syslink/lib: (from /etc/ld.so.conf.d/test.conf:1)" "	libx.so.1 -> libx.so.1.0" "/lib: (from <builtin>:0)"
    exit 0
fi
echo ldconfig "\$@" >>"$tmp/ldconfig.log"
SH
    chmod +x "$tmp/bin/ldconfig"
    sys=$tmp/sys priv=$tmp/priv
    ln -s sys "$tmp/syslink"
    sysmk() { env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR PATH="$tmp/bin:$PATH" "$make" --no-print-directory -s BUILD="$build" SAN="${SAN:-}" PREFIX="$1" "${@:2}"; }
    sysmk "$sys" install >"$tmp/log" 2>&1
    PATH=$tmp/bin:$PATH mk install >>"$tmp/log" 2>&1
    if [ "$(cat "$tmp/ldconfig.log" 2>/dev/null)" = "ldconfig" ]; then
        tap_ok "ldconfig after an install into a directory the loader searches (none with DESTDIR)"
    else tap_fail "ldconfig after an install into a directory the loader searches" "log: $(cat "$tmp/ldconfig.log" 2>/dev/null)"; fi
    : >"$tmp/ldconfig.log"
    sysmk "$priv" install >"$tmp/privlog" 2>&1
    if [ "$(cat "$tmp/ldconfig.log")" = "ldconfig -n $priv/lib" ] &&
        grep -qF "LD_LIBRARY_PATH=$priv/lib" "$tmp/privlog"; then
        tap_ok "ldconfig -n after an install into a private prefix: the system's cache left alone"
    else tap_fail "ldconfig -n after an install into a private prefix" "log: $(cat "$tmp/ldconfig.log")" "$(cat "$tmp/privlog")"; fi
    : >"$tmp/ldconfig.log"
    sysmk "$sys" uninstall >>"$tmp/log" 2>&1
    sysmk "$priv" uninstall >>"$tmp/log" 2>&1
    mk uninstall >>"$tmp/log" 2>&1
    if [ "$(cat "$tmp/ldconfig.log")" = "ldconfig" ]; then
        tap_ok "ldconfig after the uninstalls: the searched directory's only"
    else tap_fail "ldconfig after the uninstalls: the searched directory's only" "log: $(cat "$tmp/ldconfig.log")"; fi
    if [ ! -e "$sys" ] && [ ! -e "$priv" ]; then tap_ok "uninstall of a system install removes its prefix when empty"
    else tap_fail "uninstall of a system install removes its prefix when empty" "$(find "$sys" "$priv" 2>/dev/null | head -n 5)"; fi
fi
tap_done
