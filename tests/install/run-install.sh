#!/usr/bin/env bash
# tests/install/run-install.sh - make install PREFIX=... DESTDIR=... puts
# exactly the expected files under DESTDIR/PREFIX (binaries, library, public
# headers, pkg-config file, templates, schema, the specs and their generated
# headers and tables, man pages and the docs they cite); a program builds
# against the installed headers and library through pkg-config and runs; the
# installed regc works from its new place and finds an installed spec by
# name; the bash completion of both programs is installed and completes;
# ldconfig runs for an install without DESTDIR as root, only then;
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

# ldconfig: run for an install into the system (no DESTDIR) by root, with the
# library directory; not with DESTDIR. A stand-in ldconfig first in PATH records it.
if [ "$(id -u)" != 0 ]; then
    tap_skip "ldconfig after a system install" "needs root (the Makefile runs ldconfig only as root)"
else
    mkdir -p "$tmp/bin"
    printf '#!/bin/sh\necho "ldconfig $*" >>"%s/ldconfig.log"\n' "$tmp" >"$tmp/bin/ldconfig"
    chmod +x "$tmp/bin/ldconfig"
    sys=$tmp/sys
    PATH=$tmp/bin:$PATH "$make" --no-print-directory -s BUILD="$build" SAN="${SAN:-}" PREFIX="$sys" install >"$tmp/log" 2>&1
    PATH=$tmp/bin:$PATH mk install >>"$tmp/log" 2>&1
    if [ "$(cat "$tmp/ldconfig.log" 2>/dev/null)" = "ldconfig $sys/lib" ]; then
        tap_ok "ldconfig runs after a system install, with the library directory, and not with DESTDIR"
    else tap_fail "ldconfig runs after a system install" "log: $(cat "$tmp/ldconfig.log" 2>/dev/null)"; fi
    PATH=$tmp/bin:$PATH "$make" --no-print-directory -s BUILD="$build" SAN="${SAN:-}" PREFIX="$sys" uninstall >>"$tmp/log" 2>&1
    mk uninstall >>"$tmp/log" 2>&1
    if [ ! -e "$sys" ]; then tap_ok "uninstall of a system install removes its prefix when empty"
    else tap_fail "uninstall of a system install removes its prefix when empty" "$(cd "$sys" && find . | head -n 5)"; fi
fi
tap_done
