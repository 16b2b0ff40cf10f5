#!/usr/bin/env bash
# Stops the one-node Slurm cluster that scripts/slurm/up.sh started (jobs cancelled, daemons stopped,
# pid files removed so a later apt-get purge does not fail). Idempotent; a notice and exit 0 when not root.
set -u
[ "$(id -u)" = 0 ] || { echo "notice: slurm: not root: nothing to stop"; exit 0; }
command -v scancel >/dev/null && timeout 10 scancel --user=root --quiet >/dev/null 2>&1 || true
for daemon in slurmd slurmctld; do
  pid=$(cat "/run/slurm/$daemon.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  for _ in $(seq 1 20); do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  rm -f "/run/slurm/$daemon.pid" "/run/$daemon.pid"
done
pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
[ -n "$pid" ] && kill "$pid" 2>/dev/null
rm -f /run/munge/munged.pid
echo "slurm: down"
