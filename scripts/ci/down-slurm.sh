#!/usr/bin/env bash
# CI: stops the Slurm cluster scripts/ci/up-slurm.sh started.
set -u
if [ "$(id -u)" != 0 ]; then echo "notice: not root: no Slurm cluster to stop"; exit 0; fi
bash "$(dirname "$0")/../slurm/down.sh" || true
exit 0
