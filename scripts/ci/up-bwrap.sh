#!/usr/bin/env bash
# Installs bubblewrap (the sandbox for code_gen / evalplus programs). Idempotent; a notice and exit 0 when it cannot.
set -u
if command -v bwrap >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get install -y -qq -o DPkg::Lock::Timeout=300 bubblewrap >/dev/null 2>&1 \
    || echo "notice: apt-get install bubblewrap failed: the sandbox tests will skip"
else
  echo "notice: not root or no apt-get: bubblewrap cannot be installed here; the sandbox tests will skip"
fi
command -v bwrap >/dev/null && bwrap --version
exit 0
