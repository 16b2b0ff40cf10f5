#!/usr/bin/env bash
# Installs Debian's numpy, scipy, sympy, h5py and matplotlib for /usr/bin/python3 (the interpreter scicode's sub-steps
# run with in the sandbox). Idempotent; a notice and exit 0 when it cannot (the scicode sandbox tests then skip).
set -u
PACKAGES="python3 python3-numpy python3-scipy python3-sympy python3-h5py python3-matplotlib"
if /usr/bin/python3 -c "import numpy, scipy, sympy, h5py" >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 $PACKAGES >/dev/null 2>&1 \
    || echo "notice: apt-get install $PACKAGES failed: the scicode sandbox tests will skip"
else
  echo "notice: not root or no apt-get: $PACKAGES cannot be installed here; the scicode sandbox tests will skip"
fi
exit 0
