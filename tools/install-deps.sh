#!/bin/sh
# tools/install-deps.sh - install the Debian packages regc needs to build and test.
# Run as root (or through sudo) on Debian 12 or later.
set -eu
PACKAGES="build-essential pkg-config libxml2-dev libxml2-utils libjansson-dev \
libcmocka-dev libfuse3-dev fuse3 clang libclang-rt-dev gcc-arm-none-eabi \
libnewlib-arm-none-eabi python3 valgrind git jq \
cmark-gfm tidy chromium groff-base"
if [ "$(id -u)" -ne 0 ]; then
    exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PACKAGES
