#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm/run.sh - boot a kernel under QEMU (TCG) with the bench
# initramfs, run the in-VM suite (tests/run-suite.sh) or another guest
# script, and report.  Every lane of `make check` and `make demo` comes
# through here.
#
# Usage: scripts/vm/run.sh [options]
#   --kernel FILE    kernel to boot: a vmlinux with a PVH note (fast, qboot)
#                    or a bzImage (its vmlinux is extracted and cached when
#                    it has a PVH entry, else the bzImage boots as is).
#                    Default: Debian's, from scripts/install-deps.sh.
#   --modules DIR    directory holding lib/modules/<kver> for that kernel
#                    (drm.ko, virtio_blk...).  Default: Debian's.
#   --kver VER       <kver> under DIR/lib/modules (default: the only one)
#   --module KO      the i915.ko to test (default: ./i915.ko of the repo)
#   --sim-module KO  the model, i915_sim.ko (default: the one beside KO)
#   --tests DIR      test programs (default: tests/build)
#   --script FILE    guest program instead of tests/run-suite.sh
#   --filter 'PATS'  run only tests matching these shell patterns
#   --exclude 'PATS' leave out tests matching these shell patterns
#   --sims 'IDS'     simulated GPUs (default '0x2772 0x2a42'), loaded all
#                    at once (insmod i915_sim.ko ids=0x2772,0x2a42)
#   --one-at-a-time  load the GPUs of --sims one after the other instead
#   --append STR     extra kernel command line (repeatable)
#   --set VAR=VAL    extra line for the guest's /etc/bench.conf, a shell
#                    assignment (repeatable; e.g. TEST_TIMEOUT=900 or
#                    "I915_ARGS='a=1 b=2'"; see tests/run-suite.sh)
#   --extra SRC:DEST copy a host file into the initramfs (repeatable)
#   --kmod NAME      also load this module of the booted kernel (and its
#                    dependencies) at boot, e.g. vgem (repeatable)
#   --mem MIB        guest RAM (default 1024; Gen3 DMA is 32-bit: < 3072)
#   --smp N          guest CPUs (default 2)
#   --swap SIZE      swap disk size for qemu-img (default 2G)
#   --timeout SECS   host-side limit for the whole VM run (default 1800)
#   --outdir DIR     where the files the guest leaves in /out land
#   --lane NAME      label in the summary (default: debian)
#   --workdir DIR    keep initramfs, console.log and results.txt there
#   --verbose        all kernel messages on the console (default: quiet)
#   --no-mesa        do not attach the host's Mesa as a disk (by default
#                    scripts/vm/mkmesadisk.sh's image is the second virtio
#                    disk when the host has Mesa; the init mounts it at
#                    /mesa for tests/mesa_gles)
#
# Output: the guest console, live; then one line per failed result and the
# final line "N passed, N failed, N skipped".  A result the suite planned
# but never reported (VM crash, panic, timeout) counts as failed, and so
# does a VM that did not finish (missing BENCH-END) or a BENCH-ERROR.
# Only one bench VM runs at a time per machine (flock on
# $I915GEM_CACHE/vm.lock, or on $I915GEM_VM_LOCK if set, so that
# developers working in several checkouts can run VMs side by side);
# a second run on the same lock waits for the first.
# Exit status: 0 if nothing failed, else non-zero (a setup error prints
# "ERROR: ..." and exits before booting).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib.sh
. "$REPO/scripts/vm/lib.sh"

QBOOT=/usr/share/qemu/qboot.rom
KERNEL='' MODROOT='' KVER='' MODULE=$REPO/i915.ko SIM_MODULE='' TESTS=$REPO/tests/build
SCRIPT=$REPO/tests/run-suite.sh FILTER='' EXCLUDE='' SIMS="0x2772 0x2a42"
APPEND='' MEM=1024 SMP=2 SWAP=2G TIMEOUT=1800 OUTDIR='' LANE=debian WORK=''
VERBOSE='' SETS=() EXTRAS=() TOGETHER=1 MESA=1 MESA_IMG=''

usage() {
	sed -n '/^# Usage:/,/^set -e/{/^set -e/d;s/^# \{0,1\}//p;}' "$0" >&2
	exit "${1:-2}"
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--verbose) VERBOSE=1; shift; continue ;;
		--one-at-a-time) TOGETHER=0; shift; continue ;;
		--no-mesa) MESA=''; shift; continue ;;
		-h | --help) usage 0 ;;
		esac
		[ $# -ge 2 ] || usage
		case $1 in
		--kernel) KERNEL=$2 ;;
		--modules) MODROOT=$2 ;;
		--kver) KVER=$2 ;;
		--module) MODULE=$2 ;;
		--sim-module) SIM_MODULE=$2 ;;
		--tests) TESTS=$2 ;;
		--script) SCRIPT=$2 ;;
		--filter) FILTER=$2 ;;
		--exclude) EXCLUDE=$2 ;;
		--sims) SIMS=$2 ;;
		--append) APPEND="$APPEND $2" ;;
		--set) SETS+=("$2") ;;
		--extra) EXTRAS+=(--extra "$2") ;;
		--kmod) EXTRAS+=(--kmod "$2") ;;
		--mem) MEM=$2 ;;
		--smp) SMP=$2 ;;
		--swap) SWAP=$2 ;;
		--timeout) TIMEOUT=$2 ;;
		--outdir) OUTDIR=$2 ;;
		--lane) LANE=$2 ;;
		--workdir) WORK=$2 ;;
		*) echo "run.sh: unknown option $1" >&2; usage ;;
		esac
		shift 2
	done
}

# Fill in the Debian defaults and check the kernel/module pairing.
resolve_kernel() {
	local d
	if [ -z "$KERNEL" ] || [ -z "$MODROOT" ]; then
		d=$(kimg_dir)
		[ -f "$d/.complete" ] || die "no Debian kernel image in $d: run scripts/install-deps.sh"
		KERNEL=${KERNEL:-$d/vmlinux}
		MODROOT=${MODROOT:-$d/root}
	fi
	[ -f "$KERNEL" ] || die "kernel $KERNEL missing"
	if [ -z "$KVER" ]; then
		d=$(ls "$MODROOT/lib/modules" 2>/dev/null) || die "no $MODROOT/lib/modules"
		[ "$(echo "$d" | wc -l)" = 1 ] || die "several kernels in $MODROOT/lib/modules: pass --kver"
		KVER=$d
	fi
	BOOT_KERNEL=$(pick_boot_kernel "$KERNEL")
}

# The file QEMU gets as -kernel: a PVH vmlinux when one can be had.
pick_boot_kernel() {
	local k=$1 cached tmp
	if readelf -h "$k" >/dev/null 2>&1; then
		is_pvh_vmlinux "$k" || die "$k is an ELF without a PVH note: pass the bzImage"
		echo "$k"
		return
	fi
	cached=$I915GEM_CACHE/vmlinux/$(sha256sum "$k" | cut -c1-16)
	if [ ! -f "$cached" ]; then
		mkdir -p "$I915GEM_CACHE/vmlinux"
		tmp=$(mktemp "$cached.XXXXXX")
		if ! extract_vmlinux "$k" >"$tmp" 2>/dev/null || ! is_pvh_vmlinux "$tmp"; then
			rm -f "$tmp"
			echo "$k"
			return
		fi
		mv "$tmp" "$cached"
	fi
	echo "$cached"
}

write_conf() {
	local s
	{
		echo "SIMS='$SIMS'"
		echo "SIMS_TOGETHER=$TOGETHER"
		echo "FILTER='$FILTER'"
		echo "EXCLUDE='$EXCLUDE'"
		echo "LANE='$LANE'"
		for s in ${SETS[@]+"${SETS[@]}"}; do echo "$s"; done
	} >"$WORK/bench.conf"
}

# Is module $1 built into the booted kernel or one of its modules?
has_kmod() {
	local d=$MODROOT/lib/modules/$KVER
	grep -qs "/$1\.ko" "$d/modules.builtin" ||
		[ -n "$(find "$d" -name "$1.ko*" -print -quit)" ]
}

# The host's Mesa as a read-only disk (mkmesadisk.sh), with ext4 (it
# mounts ext2) and crc32c in the initramfs; nothing if there is no Mesa
# or the kernel has no ext4 (the debug kernel): the Mesa test skips.
find_mesa() {
	[ -n "$MESA" ] || return 0
	if ! has_kmod ext4; then
		note "no ext4 in $KVER: no Mesa disk, the Mesa test will skip"
		return 0
	fi
	MESA_IMG=$("$REPO/scripts/vm/mkmesadisk.sh") || { MESA_IMG=''; return 0; }
	EXTRAS+=(--kmod ext4)
	if has_kmod crc32c_generic; then EXTRAS+=(--kmod crc32c_generic); fi
}

build_initramfs() {
	local t0=$SECONDS
	write_conf
	"$REPO/scripts/vm/mkinitramfs.sh" --out "$WORK/initramfs.cpio" \
		--modules "$MODROOT" --kver "$KVER" --module "$MODULE" \
		${SIM_MODULE:+--sim-module "$SIM_MODULE"} \
		--tests "$TESTS" --script "$SCRIPT" --conf "$WORK/bench.conf" \
		${EXTRAS[@]+"${EXTRAS[@]}"}
	note "initramfs $(du -h "$WORK/initramfs.cpio" | cut -f1) in $((SECONDS - t0)) s"
}

# One VM at a time on this machine (2 shared cores): wait for the others.
lock_vm() {
	mkdir -p "$I915GEM_CACHE"
	exec 9>"${I915GEM_VM_LOCK:-$I915GEM_CACHE/vm.lock}"
	flock -n 9 && return 0
	note "another bench VM is running on this machine: waiting for it"
	flock 9
}

# Boot; the console goes to stdout and console.log, the result channel
# (second serial port) to results.txt.  Sets VM_RC.
boot_vm() {
	local cmdline="console=ttyS0 panic=-1 rdinit=/init"
	[ -n "$VERBOSE" ] || cmdline="$cmdline quiet"
	cmdline="$cmdline$APPEND"
	[ -f "$QBOOT" ] || die "$QBOOT missing (package qemu-system-data)"
	qemu-img create -q -f raw "$WORK/swap.img" "$SWAP"
	: >"$WORK/results.txt"
	note "booting $BOOT_KERNEL ($KVER), ${MEM} MiB, $SMP CPUs, lane $LANE, timeout ${TIMEOUT}s"
	VM_T0=$SECONDS
	set +e
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
		-machine pc -accel tcg -bios "$QBOOT" \
		-nodefaults -no-user-config -display none -no-reboot \
		-m "$MEM" -smp "$SMP" \
		-kernel "$BOOT_KERNEL" -initrd "$WORK/initramfs.cpio" \
		-append "$cmdline" \
		-serial stdio -serial "file:$WORK/results.txt" \
		-drive "file=$WORK/swap.img,format=raw,if=virtio,cache=unsafe" \
		${MESA_IMG:+-drive "file=$MESA_IMG,format=raw,if=virtio,readonly=on"} \
		</dev/null 2>&1 | tr -d '\r' | tee "$WORK/console.log"
	VM_RC=${PIPESTATUS[0]}
	set -e
	VM_SECS=$((SECONDS - VM_T0))
	rm -f "$WORK/swap.img"
}

# Unpack the /out archive the guest sent, if any, into $OUTDIR.
extract_out() {
	tr -d '\r' <"$WORK/results.txt" | sed -n '/^BENCH-OUT-BEGIN$/,/^BENCH-OUT-END$/p' |
		sed '1d;$d' >"$WORK/out.b64"
	[ -s "$WORK/out.b64" ] || return 0
	[ -n "$OUTDIR" ] || return 0
	mkdir -p "$OUTDIR"
	base64 -d "$WORK/out.b64" | tar -C "$OUTDIR" -xf - ||
		{ echo "BENCH-ERROR cannot unpack the guest's /out" >>"$WORK/results.txt"; return 0; }
	note "guest files in $OUTDIR: $(base64 -d "$WORK/out.b64" | tar -tf - | grep -v '/$' | tr '\n' ' ')"
}

# Print failures and the counts; sets FAILED.
summarize() {
	local counts
	counts=$(tr -d '\r' <"$WORK/results.txt" | awk -v vmrc="$VM_RC" -v timeout="$TIMEOUT" '
		/^PLAN / { if (!($2 in plan)) { plan[$2] = 1; order[++n] = $2 } }
		/^RESULT / {
			st = $3; why = ""
			for (i = 4; i <= NF; i++) why = why " " $i
			if (st != "PASS" && st != "SKIP") st = "FAIL"
			if (!($2 in res) || st == "FAIL") { res[$2] = st; info[$2] = why }
			if (!($2 in plan)) { plan[$2] = 1; order[++n] = $2 }
		}
		/^BENCH-ERROR/ { errs++; print "FAIL bench:" substr($0, 12) > "/dev/stderr" }
		/^BENCH-END/ { ended = 1 }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]
				if (!(k in res)) { res[k] = "FAIL"; info[k] = " no result (VM died or timed out)" }
				if (res[k] == "PASS") p++
				else if (res[k] == "SKIP") s++
				else { f++; print "FAIL " k info[k] > "/dev/stderr" }
			}
			if (!ended) {
				f++
				why = vmrc == 124 ? "timed out after " timeout "s" : "qemu exit " vmrc
				print "FAIL vm: the VM did not finish (" why ")" > "/dev/stderr"
			}
			if (n == 0 && !errs) { f++; print "FAIL vm: no test was planned" > "/dev/stderr" }
			printf "%d %d %d\n", p, f + errs, s
		}')
	read -r PASSED FAILED SKIPPED <<<"$counts"
	[ "$FAILED" -eq 0 ] || echo "(console log and results kept in $WORK)"
	echo "lane $LANE: $PASSED passed, $FAILED failed, $SKIPPED skipped (VM ${VM_SECS}s)"
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
}

main() {
	parse_args "$@"
	resolve_kernel
	[ -f "$MODULE" ] || die "$MODULE missing: make modules"
	[ -d "$TESTS" ] || die "$TESTS missing: make tests"
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: scripts/install-deps.sh"
	if [ -n "$WORK" ]; then
		mkdir -p "$WORK"
	else
		WORK=$(mktemp -d "${TMPDIR:-/tmp}/i915gem-vm.XXXXXX")
		TEMP_WORK=1
	fi
	find_mesa
	build_initramfs
	lock_vm
	boot_vm
	extract_out
	echo "=== results ($LANE) ==="
	summarize 2>&1
	[ "$FAILED" -eq 0 ] || exit 1
	[ -z "${TEMP_WORK:-}" ] || rm -rf "$WORK"
	exit 0
}

main "$@"
