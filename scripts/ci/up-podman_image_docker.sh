#!/usr/bin/env bash
# dockerd for the docker sandbox provider's tests: a unix socket only, no iptables, no bridge (this VM loads no
# modules), its own data root; then debian:bookworm-slim imported from the tarball up-podman_image.sh cached.
# Idempotent; a notice and exit 0 when it cannot.
set -u
TARBALL=${GYM_IMAGE_CACHE:-/var/cache/gym/images}/debian-bookworm-minbase.tar
if ! command -v dockerd >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends docker.io >/dev/null 2>&1 \
    || echo "notice: apt-get install docker.io failed"
fi
command -v dockerd >/dev/null || { echo "notice: no dockerd (apt-get install docker.io): the docker provider tests will skip"; exit 0; }
if ! docker info >/dev/null 2>&1; then
  mkdir -p /var/lib/gym-docker /run/gym-docker
  nohup dockerd --host=unix:///var/run/docker.sock --iptables=false --ip6tables=false --bridge=none \
    --data-root=/var/lib/gym-docker --exec-root=/run/gym-docker --pidfile=/run/gym-docker.pid >/tmp/gym-dockerd.log 2>&1 &
  for _ in $(seq 1 50); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
  docker info >/dev/null 2>&1 || { echo "notice: dockerd did not start (see /tmp/gym-dockerd.log): the docker provider tests will skip"; exit 0; }
fi
if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
  [ -s "$TARBALL" ] || { echo "notice: no $TARBALL (scripts/ci/up-podman_image.sh makes it): the docker provider tests will skip"; exit 0; }
  docker import --change 'CMD ["/bin/bash"]' "$TARBALL" debian:bookworm-slim >/dev/null || { echo "notice: docker import failed"; exit 0; }
fi
echo "dockerd $(docker version --format '{{.Server.Version}}' 2>/dev/null) ready with debian:bookworm-slim"
