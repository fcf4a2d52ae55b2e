#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/debugkernel/install-deps.sh - what building the debug kernel
# needs beyond scripts/install-deps.sh (which brings gcc, make, qemu,
# busybox and linux-source-6.1): kconfig's flex and bison, bc for
# kernel/time/timeconst, libelf for objtool (ORC unwinder), and the
# source tarball.  Idempotent: nothing happens when all is installed.
# lane.sh runs it first.  Installs under DEPS_LOCK (scripts/vm/lib.sh), as
# scripts/install-deps.sh does, so that two never run apt at once.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

PACKAGES=(flex bison bc libelf-dev pkg-config xz-utils make gcc libc6-dev
	linux-source-6.1 kmod cpio patch)

find_missing() {
	local p
	missing=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			missing+=("$p")
	done
}

find_missing
[ ${#missing[@]} -eq 0 ] && exit 0
take_lock "$DEPS_LOCK"
find_missing	# another run may have installed them meanwhile
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo ">>> debug kernel: installing ${missing[*]}" >&2
if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	-o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"; then
	$SUDO apt-get update -q -o DPkg::Lock::Timeout=600
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		-o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"
fi
