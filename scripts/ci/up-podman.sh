#!/usr/bin/env bash
# Root podman for the offline-image test: podman + runc (crun rejects this VM's hybrid cgroups) and a
# containers.conf with runc and ulimits under the hard limits. Idempotent; a notice and exit 0 when it cannot.
set -u
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc >/dev/null 2>&1; } \
    || { echo "notice: podman could not be installed; the container test will skip"; exit 0; }
fi
mkdir -p /etc/gym
cat > /etc/gym/containers.conf <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
echo "podman $(podman --version 2>/dev/null | awk '{print $3}') ready (CONTAINERS_CONF=/etc/gym/containers.conf)"
