#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or find in the cache) the debug kernel of the debug lane: Debian's
# linux-source-6.1, `make tinyconfig` + scripts/debugkernel/debug.config,
# built out of tree.  The result lives in
#
#   $I915GEM_CACHE/debugkernel-<source version>-<hash>/   (default cache:
#       ${XDG_CACHE_HOME:-~/.cache}/i915gem)
#     build/      the O= build tree: `make -C build M=<dir> modules` works
#     bzImage     the kernel to boot
#     modroot/    modules_install output (lib/modules/<kver>/...)
#     kernelrelease, build.log, .done
#
# <hash> covers the settings in debug.config (not its comments) and RECIPE
# below, so changing either rebuilds;
# an unchanged, finished cache is reused at once.  An interrupted build is
# resumed (make is incremental) on the next call.
#
# Locks (several checkouts and users may run this at once): <cache dir>/.lock
# shared to use a finished kernel (lane.sh holds it so for its whole run),
# exclusive to build one, so a build never rebuilds a kernel in use and
# the pruning of other caches skips those in use; the cache's own
# linux-source unpack under its own lock; /usr/src/linux-source-6.1 read
# under LINUX_SRC_LOCK (scripts/vm/lib.sh), shared, so that install-deps.sh
# does not swap it during a build.
#
# Usage: build.sh [--print]     (--print: only print the cache dir)
# Prints the cache dir as the last line of stdout; progress goes to stderr.
# Env: I915GEM_CACHE, KSRC (source tree; default /usr/src/linux-source-6.1,
# unpacked into the cache from /usr/src/linux-source-6.1.tar.xz if absent),
# JOBS (default: nproc), NICE (default 10).
set -euo pipefail

# Bump when the way the kernel is configured or built changes.
RECIPE=1

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../vm/lib.sh
. "$here/../vm/lib.sh"
frag=$here/debug.config
cache_root=${I915GEM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/i915gem}
jobs=${JOBS:-$(nproc)}
nice=${NICE:-10}

log() { echo "debugkernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Remove the caches of other fragments or sources (350 MB each), unless
# a build or a lane holds their lock.
prune_others() {
	local d
	for d in "$cache_root"/debugkernel-*; do
		[ "$d" = "$out" ] || [ ! -d "$d" ] && continue
		(
			exec 8>"$d/.lock"
			flock -n 8 || exit 0
			log "removing the old cache $d"
			rm -rf "$d"
		)
	done
}

# The whole script is one function: bash has read all of it before it
# runs, so editing it while a build runs cannot break that build.
main() {
	mkdir -p "$cache_root"

	# --- the source tree ------------------------------------------------------
	ksrc=${KSRC:-/usr/src/linux-source-6.1}
	[ "$ksrc" != "${LINUX_SRC:-/usr/src/linux-source-6.1}" ] || take_lock "$LINUX_SRC_LOCK" -s
	if [ ! -f "$ksrc/Makefile" ]; then
		tarball=/usr/src/linux-source-6.1.tar.xz
		[ -f "$tarball" ] || die "no $ksrc and no $tarball (apt-get install linux-source-6.1)"
		ksrc=$cache_root/linux-source-6.1
		take_lock "$cache_root/.linux-source.lock"
		if [ ! -f "$ksrc/.unpacked" ]; then
			log "unpacking $tarball into $cache_root"
			rm -rf "$ksrc" "$cache_root"/.linux-source-6.1.*
			tmp=$(mktemp -d "$cache_root/.linux-source-6.1.XXXXXX")
			tar -C "$tmp" -xf "$tarball"
			touch "$tmp/linux-source-6.1/.unpacked"
			mv -T "$tmp/linux-source-6.1" "$ksrc"
			rm -rf "$tmp"
		fi
		exec {LOCK_FD}<&-
	fi
	# An O= build needs a clean source tree.
	if [ -e "$ksrc/.config" ] || [ -d "$ksrc/include/config" ]; then
		die "$ksrc is configured in place (has .config); an out-of-tree build needs it clean"
	fi

	srcver=$(make -s -C "$ksrc" kernelversion 2>/dev/null) || die "cannot read version of $ksrc"
	pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
	# Debian's package version (6.1.192-2) names the patched source exactly.
	[ -n "$pkgver" ] && srcver=${pkgver//[^A-Za-z0-9.+~-]/_}
	hash=$( { echo "recipe=$RECIPE"; grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$frag"; } |
		sha256sum | cut -c1-12)
	out=$cache_root/debugkernel-$srcver-$hash

	if [ "${1:-}" = "--print" ]; then
		echo "$out"
		exit 0
	fi

	mkdir -p "$out"
	exec 9>>"$out/.lock"
	flock -s 9
	if [ ! -f "$out/.done" ]; then
		flock 9		# to build: wait for other builds of it
	fi
	if [ -f "$out/.done" ]; then
		log "cached: $out ($(cat "$out/kernelrelease"))"
		echo "$out"
		exit 0
	fi

	kmake() {
		nice -n "$nice" make -C "$ksrc" O="$out/build" ARCH=x86_64 "$@"
	}

	start=$(date +%s)
	log "building $srcver with $(basename "$frag") ($hash) in $out; log: $out/build.log"
	{
		mkdir -p "$out/build"
		if [ ! -f "$out/build/.config" ] || [ ! -f "$out/.configured" ]; then
			kmake tinyconfig
			"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out/build" \
				"$out/build/.config" "$frag"
			kmake olddefconfig
			touch "$out/.configured"
		fi
	} >"$out/build.log" 2>&1 || { tail -n 40 "$out/build.log" >&2; die "configuring failed"; }

	# Every line of the fragment must have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		got=$(grep -E "^$sym=|^# $sym is not set" "$out/build/.config" || true)
		if [ "$line" = "# $sym is not set" ] && [ -z "$got" ]; then
			continue	# not set and not even visible: fine
		fi
		if [ "$got" != "$line" ]; then
			log "config: wanted '$line', got '${got:-<absent>}'"
			bad=1
		fi
	done <"$frag"
	if [ "$bad" != 0 ]; then
		rm -f "$out/.configured"
		die "debug.config does not apply cleanly (see above)"
	fi

	log "make -j$jobs bzImage modules (nice $nice) ..."
	if ! kmake -j"$jobs" bzImage modules >>"$out/build.log" 2>&1; then
		grep -E 'error|Error' "$out/build.log" | tail -n 20 >&2 || true
		tail -n 20 "$out/build.log" >&2
		die "kernel build failed; log: $out/build.log"
	fi
	rm -rf "$out/modroot"
	kmake INSTALL_MOD_PATH="$out/modroot" modules_install >>"$out/build.log" 2>&1 ||
		die "modules_install failed; log: $out/build.log"
	kmake -s kernelrelease >"$out/kernelrelease" 2>>"$out/build.log"
	cp "$out/build/arch/x86/boot/bzImage" "$out/bzImage"
	# modules_install leaves links to the build tree; the VM does not need them.
	rm -f "$out/modroot/lib/modules/$(cat "$out/kernelrelease")"/{build,source}
	touch "$out/.done"
	log "built $(cat "$out/kernelrelease") in $(( $(date +%s) - start )) s"
	prune_others
	echo "$out"
}

main "$@"
