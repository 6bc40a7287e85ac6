#!/usr/bin/env bash
# Fetches Debian 13's libhsa-runtime-dev 6.1.2 (ROCr 6.1.2 headers) and unpacks its headers into
# third_party/rocr-6.1.2/include/hsa (ignored by git), for the second ROCr generation the project builds
# against. A private apt configuration (sources list, lists and cache under a temporary directory) is used
# for this one download: nothing of Debian 13 is installed on the system. Idempotent.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
version="6.1.2-3"
dest="$top/third_party/rocr-6.1.2"
if [ -f "$dest/include/hsa/hsa_api_trace.h" ] && [ "$(cat "$dest/VERSION" 2>/dev/null)" = "$version" ]; then
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
(cd "$work" && apt-get "${opts[@]}" download "libhsa-runtime-dev=$version" >/dev/null)
dpkg-deb -x "$work"/libhsa-runtime-dev_*.deb "$work/root"
rm -rf "$dest"
mkdir -p "$dest/include"
cp -r "$work/root/usr/include/hsa" "$dest/include/hsa"
echo "$version" > "$dest/VERSION"
echo "fetch-rocr61-headers.sh: ROCr $version headers in $dest/include/hsa"
