#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian 13's libhsa-runtime-dev 6.1.2 (ROCr 6.1.2 headers) and unpacks its headers into
# third_party/rocr-6.1.2/include/hsa (ignored by git), for the second ROCr generation the project builds
# against. A private apt configuration (sources list, lists and cache under a temporary directory) is used
# for this one download: nothing of Debian 13 is installed on the system. Idempotent.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
version="6.1.2-3"
dest="$top/third_party/rocr-6.1.2"
if [ -f "$dest/include/hsa/hsa_api_trace.h" ] && grep -q '^6\.1\.' "$dest/VERSION" 2>/dev/null; then
    echo "fetch-rocr61-headers.sh: ROCr $version headers already in $dest"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/cache/archives/partial"
cat > "$work/parts/trixie.sources" <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$work/parts"
      -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Dir::State::status=/dev/null"
      -o "APT::Architecture=amd64" -o "APT::Sandbox::User=root" -q)
apt-get "${opts[@]}" update >/dev/null
# The pinned revision first; if Debian 13 has moved on to another 6.1 revision, take that one (the header
# layout is fixed within 6.1), and refuse anything that is not 6.1.
if ! (cd "$work" && apt-get "${opts[@]}" download "libhsa-runtime-dev=$version" >/dev/null 2>&1); then
    echo "fetch-rocr61-headers.sh: $version is gone from Debian 13; trying its current libhsa-runtime-dev" >&2
    (cd "$work" && apt-get "${opts[@]}" download libhsa-runtime-dev >/dev/null)
fi
deb="$(ls "$work"/libhsa-runtime-dev_*.deb)"
got="$(dpkg-deb -f "$deb" Version)"
case "$got" in
6.1.*) version="$got" ;;
*)
    echo "fetch-rocr61-headers.sh: Debian 13 now has libhsa-runtime-dev $got, not ROCr 6.1; pin another source" >&2
    exit 1
    ;;
esac
dpkg-deb -x "$deb" "$work/root"
rm -rf "$dest"
mkdir -p "$dest/include"
cp -r "$work/root/usr/include/hsa" "$dest/include/hsa"
echo "$version" > "$dest/VERSION"
echo "fetch-rocr61-headers.sh: ROCr $version headers in $dest/include/hsa"
