#!/usr/bin/env bash
# Regenerates docs/images/inspector-*.png: writes a 3,000-dispatch session through the pipeline's
# SessionStore (inspector_make_session) and grabs every page offscreen (replayscope --screenshots).
#   app/screenshots.sh [BUILD_DIR]    (default build/default; targets replayscope, inspector_make_session)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/default}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$build/bin/inspector_make_session" "$tmp/lulesh.rsdb" 3000 6
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$tmp/config" "$build/bin/replayscope" --screenshots "$tmp/lulesh.rsdb" "$tmp/shots"
mkdir -p "$root/docs/images"
for f in "$tmp"/shots/*.png; do
    cp "$f" "$root/docs/images/inspector-$(basename "$f")"
done
ls "$root"/docs/images/inspector-*.png
