#!/usr/bin/env bash
# Installs Debian's chromium (gym view's browser tests drive it with playwright-core). Idempotent; a notice and exit 0 when it cannot.
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 chromium >/dev/null 2>&1 \
    || echo "notice: apt-get install chromium failed: gym view's browser tests will skip"
else
  echo "notice: not root or no apt-get: chromium cannot be installed here; gym view's browser tests will skip"
fi
[ -x /usr/bin/chromium ] && /usr/bin/chromium --version 2>/dev/null
exit 0
