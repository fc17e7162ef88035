#!/bin/sh
# tools/install-deps.sh - install the Debian packages regc needs to build and test.
# Run as root (or through sudo) on Debian 12 or later.
#
#   tools/install-deps.sh           everything `make check` uses (compilers for the
#                                   header matrix, FUSE, clang's libFuzzer, Chromium...)
#   tools/install-deps.sh --build   only what `make` and `make install` need
set -eu
BUILD_PACKAGES="build-essential pkg-config libxml2-dev libjansson-dev"
PACKAGES="$BUILD_PACKAGES libxml2-utils time \
libcmocka-dev libfuse3-dev fuse3 clang libclang-rt-dev gcc-arm-none-eabi \
libnewlib-arm-none-eabi python3 python3-jsonschema valgrind strace git jq \
cmark-gfm tidy chromium groff-base libcap2-bin linux-headers-$(dpkg --print-architecture)"
case ${1:-} in
--build) PACKAGES=$BUILD_PACKAGES ;;
"") ;;
*) echo "usage: tools/install-deps.sh [--build]" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
    exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PACKAGES
