#!/usr/bin/env bash
# CI: a one-node Slurm cluster on 127.0.0.1 for the `gym eval submit` end-to-end tests (scripts/slurm/up.sh).
set -u
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "notice: not root or no apt-get: no Slurm cluster here; the Slurm tests will skip"; exit 0
fi
bash "$(dirname "$0")/../slurm/up.sh" || echo "notice: Slurm bring-up failed; the Slurm tests will skip"
exit 0
