#!/usr/bin/env bash
# Refreshes Debian's package lists once, for the up-*.sh scripts that install packages after it.
set -u
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq >/dev/null 2>&1 || echo "notice: apt-get update failed"
else
  echo "notice: not root or no apt-get: Debian packages the tests need cannot be installed here"
fi
