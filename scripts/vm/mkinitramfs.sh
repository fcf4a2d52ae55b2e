#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm/mkinitramfs.sh - build the bench VM's initramfs (uncompressed
# newc cpio: the fastest to unpack under TCG).  Called by scripts/vm/run.sh;
# usable alone.
#
# Usage: mkinitramfs.sh --out FILE --modules ROOT --kver VER --module KO
#                       [--sim-module KO] --tests DIR [--script FILE]
#                       [--conf FILE]
#                       [--extra SRC:DEST]... [--kmod NAME]...
#   --modules ROOT  directory holding lib/modules/VER of the booted kernel
#   --module KO     the i915.ko to test (its vermagic must start with VER)
#   --sim-module KO the model, i915_sim.ko (default: the one beside the
#                   i915.ko of --module), built for the same kernel
#   --tests DIR     every executable regular file in DIR becomes /tests/NAME
#   --script FILE   the guest program the init runs (default tests/run-suite.sh)
#   --conf FILE     becomes /etc/bench.conf (shell variables for the guest)
#   --extra S:D     copy host file S to D inside the image (repeatable)
#   --kmod NAME     one more module of the kernel to load at boot, after
#                   its dependencies (repeatable)
#
# The image holds:
#   /init                 scripts/vm/init
#   /bin/*                busybox-static and its applet links
#   /lib/modules/VER/...  drm.ko, virtio_pci, virtio_blk, the --kmod ones
#                         and their deps (built-in ones are skipped), listed
#                         in load order in /etc/modules.load
#   /i915.ko, /i915_sim.ko, /run-suite.sh, /tests/*, /etc/bench.conf,
#   /out (empty)
#   /lib/guest-lib.sh     what the guest programs share (scripts/vm/)
#   every shared library the tests need (ldd), 64- and 32-bit, with an
#   ld.so.cache made by ldconfig
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib.sh
. "$REPO/scripts/vm/lib.sh"

# Modules the guest loads before the suite, besides i915.ko's own deps.
BASE_MODULES=(virtio_pci virtio_blk)

OUT='' MODROOT='' KVER='' MODULE='' SIM_MODULE='' TESTS=''
SCRIPT=$REPO/tests/run-suite.sh CONF=
EXTRAS=()

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--out) OUT=$2 ;;
		--modules) MODROOT=$2 ;;
		--kver) KVER=$2 ;;
		--module) MODULE=$2 ;;
		--sim-module) SIM_MODULE=$2 ;;
		--tests) TESTS=$2 ;;
		--script) SCRIPT=$2 ;;
		--conf) CONF=$2 ;;
		--extra) EXTRAS+=("$2") ;;
		--kmod) BASE_MODULES+=("$2") ;;
		*) die "mkinitramfs.sh: unknown argument $1" ;;
		esac
		shift 2
	done
	[ -n "$OUT" ] || die "--out missing"
	[ -n "$KVER" ] || die "--kver missing"
	[ -d "$MODROOT/lib/modules/$KVER" ] || die "no $MODROOT/lib/modules/$KVER"
	[ -f "$MODULE" ] || die "module $MODULE missing (make modules?)"
	MODULE=$(realpath "$MODULE") # a path, never taken for a module name
	SIM_MODULE=${SIM_MODULE:-$(dirname "$MODULE")/i915_sim.ko}
	[ -f "$SIM_MODULE" ] || die "model $SIM_MODULE missing (make modules, without I915_SIM=n)"
	[ -d "$TESTS" ] || die "test directory $TESTS missing (make tests?)"
	[ -f "$SCRIPT" ] || die "guest script $SCRIPT missing"
}

# Copy $1 to $ROOT$2, creating directories; follows symlinks.
put() {
	mkdir -p "$ROOT$(dirname "$2")"
	cp -L "$1" "$ROOT$2"
}

add_busybox() {
	local bb=/bin/busybox a
	[ -x $bb ] || die "$bb missing (package busybox-static)"
	file -L $bb | grep -q 'statically linked' || die "$bb is not static (install busybox-static)"
	put $bb /bin/busybox
	for a in $($bb --list); do
		[ "$a" = busybox ] || ln -sf busybox "$ROOT/bin/$a"
	done
}

# Module file of $1 under the module tree, "" if built in; dies if absent.
MODDIR=
find_module() {
	local n=${1//-/_} f
	if sed 's/-/_/g' "$MODDIR/modules.builtin" 2>/dev/null | grep -q "/$n\.ko$"; then
		return 0
	fi
	f=$(find "$MODDIR" \( -name "$n.ko*" -o -name "${n//_/-}.ko*" \) | head -n 1)
	[ -n "$f" ] || die "module $1 neither built in nor in $MODDIR"
	echo "$f"
}

# Add module $1 (a name, or a path for i915.ko) after its dependencies.
declare -A ADDED=()
add_module() {
	local f=$1 dep dest
	case $f in
	*/*) ;;
	*)
		f=$(find_module "$1") || exit 1
		[ -n "$f" ] || return 0
		;;
	esac
	[ -n "${ADDED[$f]:-}" ] && return 0
	ADDED[$f]=1
	for dep in $(modinfo -F depends "$f" | tr ',' ' '); do
		add_module "$dep"
	done
	[ "$f" = "$MODULE" ] && return 0 # loaded by the suite, not at boot
	dest=/lib/modules/$KVER/$(basename "${f%.ko*}").ko
	mkdir -p "$ROOT$(dirname "$dest")"
	case $f in
	*.ko) cp "$f" "$ROOT$dest" ;;
	*.ko.xz) xz -dc "$f" >"$ROOT$dest" ;;
	*.ko.zst) zstd -qdc "$f" >"$ROOT$dest" ;;
	*.ko.gz) gzip -dc "$f" >"$ROOT$dest" ;;
	*) die "unknown module format $f" ;;
	esac
	echo "$dest" >>"$ROOT/etc/modules.load"
}

# Die unless module file $1 was built for $KVER.
check_vermagic() {
	local vm
	vm=$(modinfo -F vermagic "$1")
	case "$vm" in
	"$KVER "*) ;;
	*) die "$1 was built for '$vm', the VM boots $KVER: rebuild it against that kernel" ;;
	esac
}

add_modules() {
	local m
	MODDIR=$MODROOT/lib/modules/$KVER
	check_vermagic "$MODULE"
	check_vermagic "$SIM_MODULE"
	[ -z "$(modinfo -F depends "$SIM_MODULE")" ] ||
		die "$SIM_MODULE depends on $(modinfo -F depends "$SIM_MODULE"): the model must stand alone"
	: >"$ROOT/etc/modules.load"
	for m in "${BASE_MODULES[@]}"; do
		add_module "$m"
	done
	add_module "$MODULE"
	put "$MODULE" /i915.ko
	put "$SIM_MODULE" /i915_sim.ko
}

# Copy every library (and loader) binary $1 needs; dies on "not found".
LIBDIRS=()
add_libs() {
	local out line lib
	out=$(ldd "$1" 2>&1) || {
		case $out in
		*"not a dynamic executable"* | *"statically linked"*) return 0 ;;
		*) die "ldd $1: $out" ;;
		esac
	}
	if grep -q 'not found' <<<"$out"; then
		die "$1 needs libraries the host lacks: $(grep 'not found' <<<"$out" | tr -s ' \t' ' ')"
	fi
	while read -r line; do
		case $line in
		*"=> /"*) lib=${line#*=> } ;;
		/*) lib=$line ;;
		*) continue ;; # linux-vdso.so.1
		esac
		lib=${lib%% (*}
		[ -e "$ROOT$lib" ] && continue
		put "$lib" "$lib"
		LIBDIRS+=("$(dirname "$lib")")
	done <<<"$out"
}

add_tests() {
	local f n=0
	mkdir -p "$ROOT/tests"
	for f in "$TESTS"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		put "$f" "/tests/$(basename "$f")"
		add_libs "$f"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || die "no executable test in $TESTS"
	note "initramfs: $n test programs from $TESTS"
}

add_extras() {
	local e
	for e in ${EXTRAS[@]+"${EXTRAS[@]}"}; do
		[ -e "${e%%:*}" ] || die "--extra ${e%%:*} missing"
		put "${e%%:*}" "${e#*:}"
		if [ -x "${e%%:*}" ]; then
			add_libs "${e%%:*}"
		fi
	done
}

# ld.so.cache, so the 64- and 32-bit loaders find what ldd found.
make_ldcache() {
	[ ${#LIBDIRS[@]} -gt 0 ] || return 0
	printf '%s\n' "${LIBDIRS[@]}" | sort -u >"$ROOT/etc/ld.so.conf"
	ldconfig -r "$ROOT"
}

main() {
	parse_args "$@"
	ROOT=$(mktemp -d)
	trap 'rm -rf "$ROOT"' EXIT
	chmod 755 "$ROOT" # becomes the guest's /; mktemp made it 0700
	mkdir -p "$ROOT"/{bin,dev,etc,proc,sys,tmp,out,run}
	add_busybox
	add_modules
	add_tests
	add_extras
	make_ldcache
	put "$REPO/scripts/vm/init" /init
	put "$SCRIPT" /run-suite.sh
	put "$REPO/scripts/vm/guest-lib.sh" /lib/guest-lib.sh
	chmod 755 "$ROOT/init" "$ROOT/run-suite.sh"
	if [ -n "$CONF" ]; then put "$CONF" /etc/bench.conf; else : >"$ROOT/etc/bench.conf"; fi
	(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$OUT"
}

main "$@"
