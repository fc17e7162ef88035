#!/bin/sh
# tools/install-ldconfig.sh install|uninstall LIBDIR - the loader-cache step of
# `make install` and `make uninstall` as root without DESTDIR, as libtool does
# it: only a directory the dynamic loader searches (its trusted directories
# and those of /etc/ld.so.conf, as `ldconfig -v -N -X` lists them) goes into
# its cache.
#
#   LIBDIR searched:      install and uninstall run `ldconfig` (the cache
#                         gains or loses libregrt.so.0);
#   any other directory:  install runs `ldconfig -n LIBDIR`, which only makes
#                         the library's links there and leaves the system's
#                         cache alone (a private PREFIX stays private: the
#                         loader finds it through LD_LIBRARY_PATH or an rpath);
#                         uninstall runs nothing.
# Prints each command it runs. Nothing to do without ldconfig.
set -eu
case $# in 2) ;; *) echo "usage: tools/install-ldconfig.sh install|uninstall LIBDIR" >&2; exit 2 ;; esac
what=$1 libdir=$2
case $what in install | uninstall) ;; *) echo "usage: tools/install-ldconfig.sh install|uninstall LIBDIR" >&2; exit 2 ;; esac
command -v ldconfig >/dev/null 2>&1 || exit 0

# a path with its symbolic links resolved (/lib/x86_64-linux-gnu is /usr/lib/... on a merged
# /usr), its missing parts (a directory uninstall removed) kept as they are
real() { readlink -m "$1" 2>/dev/null || printf '%s\n' "$1"; }
want=$(real "$libdir")
# `ldconfig -v -N -X` (no cache written, no link made) prints each directory it scans as
# "DIR: (from FILE:LINE)", each library in it on an indented line
searched=$({ ldconfig -v -N -X 2>/dev/null || true; } | sed -n 's|^\(/[^:]*\):.*|\1|p' |
    while IFS= read -r dir; do if [ "$(real "$dir")" = "$want" ]; then echo yes; fi; done)

if [ -n "$searched" ]; then
    echo "ldconfig"
    ldconfig
elif [ "$what" = install ]; then
    echo "ldconfig -n $libdir"
    ldconfig -n "$libdir"
    echo "($libdir is not a directory the loader searches: its cache is left alone; run programs" \
        "with LD_LIBRARY_PATH=$libdir or link them with -Wl,-rpath,$libdir)"
fi
