#!/usr/bin/env bash
# Builds the offline image: scripts/container/build.sh [TAG=gym-offline] [CACHE_DIR (a `gym env prefetch` cache)]
# Needs podman (root podman on this VM: CONTAINERS_CONF with runtime = "runc"; see scripts/ci/up-podman.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
tag="${1:-gym-offline}"
cache="${2:-}"
bin="$repo/dist/gym"
[ -x "$bin" ] || { echo "No $bin: run npm run build first" >&2; exit 1; }
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
root="$ctx/rootfs"
mkdir -p "$root/usr/local/bin" "$root/tmp" "$root/root" "$root/work" "$root/cache" "$root/etc"
chmod 1777 "$root/tmp"
cp "$bin" "$root/usr/local/bin/gym"
ln -s gym "$root/usr/local/bin/ng"
# The shared libraries the binary links, at the paths the loader looks for them.
for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
echo "root:x:0:0:root:/root:/usr/local/bin/gym" > "$root/etc/passwd"
echo "127.0.0.1 localhost" > "$root/etc/hosts"
[ -n "$cache" ] && cp -a "$cache/." "$root/cache/"
cp "$here/Containerfile" "$ctx/Containerfile"
podman build --pull=never --network=none -q -t "$tag" "$ctx"
