#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/dkms-check.sh - the dkms lane of `make check` (host side, no VM):
# does the Debian package of `make dkms-deb` give a user the same i915.ko
# that `make` builds?  Everything happens in a throw-away directory: the
# system's /var/lib/dkms, /usr/src and /lib/modules are not touched, so
# runs are independent of each other and of installed packages.
#
#  1. scripts/dkms-deb.sh builds i915gem-dkms_<version>_all.deb there;
#  2. the package: only /usr/src/i915gem-<version>/ and its doc directory,
#     with dkms.conf, no tests, scripts, Makefile, objects or model (sim/),
#     Depends on dkms, and maintainer
#     scripts that dkms add/build/install and remove this name and version;
#  3. dpkg-deb -x, then `dkms add` and `dkms build` for the installed
#     linux-headers (scripts/kver.sh) with --sourcetree/--dkmstree in the
#     throw-away directory: the build must give i915.ko;
#  4. its modinfo must equal that of the i915.ko `make modules` builds, in
#     every field but filename (where it lies) and the module signature
#     (sig_id, signer, sig_key, sig_hashalgo, signature: DKMS signs with
#     the machine's key, /var/lib/dkms/mok.key, made on first use; `make`
#     does not sign).  That covers name, description, author, license,
#     depends, vermagic, retpoline, every parm (name, description, type)
#     and every alias (the PCI ids the driver binds), and srcversion or
#     version if the module ever gets them.  These are what the kernel and
#     depmod read to load, bind and configure the module: if they match,
#     the package built the same driver for the same kernel.  name,
#     description, license, vermagic, depends, parm and alias must be
#     present, so that two empty fields cannot match;
#  5. `dkms install --installtree` into the throw-away directory, beside
#     the kernel's own i915.ko (Debian's, from the VM's kernel image cache,
#     scripts/vm/lib.sh: kimg_dir; a copy of make's i915.ko if that cache
#     is absent), then depmod there: `modinfo -n i915` must name
#     updates/dkms/i915.ko (the package's i915 wins over the kernel's).
#     dkms install refuses a module whose version and srcversion equal
#     the installed one's (both i915.ko have neither), unless
#     /usr/share/dkms/modules_to_force_install names "<module>_version-
#     override": the package ships that file; dkms reads it only at that
#     fixed path, so here the package's copy is checked and the same
#     override given as --force-version-override.  dkms install wants
#     root: sudo is used when not root.
#
# Output: "RESULT dkms PASS|FAIL [why]", then run.sh's last lines:
#   lane dkms: N passed, N failed, N skipped (S s)
#   N passed, N failed, N skipped
# Exit status 0 on PASS, 1 on FAIL.  Env: KEEP=1 keeps the directory.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

T0=$SECONDS
WORK=
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# result PASS|FAIL [why]: report and exit.
result() {
	local st=$1 p=0 f=0
	shift
	echo "RESULT dkms $st${*:+ $*}"
	if [ "$st" = PASS ]; then p=1; else f=1; echo "FAIL dkms: $*" >&2; fi
	echo "lane dkms: $p passed, $f failed, 0 skipped ($((SECONDS - T0)) s)"
	echo "$p passed, $f failed, 0 skipped"
	[ "$f" -eq 0 ]
	exit
}

# shellcheck disable=SC2317	# (called by the EXIT trap)
cleanup() {
	[ -n "$WORK" ] || return 0
	if [ -n "${KEEP:-}" ]; then
		note "kept $WORK"
	else
		$SUDO rm -rf "$WORK"
	fi
}

# check_package DEB VERSION: what the .deb holds and runs (step 2).
check_package() {
	local deb=$1 ver=$2 src=./usr/src/i915gem-$2 paths bad never
	local force=./usr/share/dkms/modules_to_force_install/i915gem
	paths=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
	bad=$(grep -vxE "\./(usr/((src|share|share/doc|share/dkms|share/dkms/modules_to_force_install)/)?)?|$src/.*|\./usr/share/doc/i915gem-dkms/.*|$force" \
		<<<"$paths" || true)
	[ -z "$bad" ] || result FAIL "package holds files outside $src: $(some "$bad")"
	never='/(tests|scripts|sim)/|/Makefile$|\.(o|ko|cmd|mod)$'
	bad=$(grep -E "$never" <<<"$paths" || true)
	[ -z "$bad" ] || result FAIL "package ships what it must not: $(some "$bad")"
	grep -qx "$src/dkms.conf" <<<"$paths" || result FAIL "package has no $src/dkms.conf"
	dpkg-deb -f "$deb" Depends | grep -qw dkms || result FAIL "package does not depend on dkms"
	dpkg-deb -I "$deb" postinst | grep -qx "DKMS_VERSION=$ver" ||
		result FAIL "package's postinst does not register i915gem $ver with dkms"
	dpkg-deb -I "$deb" prerm | grep -q 'dkms remove' ||
		result FAIL "package's prerm does not dkms remove"
	[ "$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$force" 2>/dev/null)" = i915gem_version-override ] ||
		result FAIL "package has no $force saying i915gem_version-override (dkms install would refuse i915.ko)"
}

# some LINES: the first five of LINES on one line, and how many in all.
some() {
	echo "$(head -n 5 <<<"$1" | tr '\n' ' ')($(wc -l <<<"$1") in all)"
}

# modinfo_fields KO: the field names modinfo prints for KO.
modinfo_fields() {
	modinfo "$1" | sed -n 's/^\([a-z_][a-z0-9_]*\):.*/\1/p' | sort -u
}

# compare_modinfo KO_MAKE KO_DKMS (step 4).
compare_modinfo() {
	local a=$1 b=$2 f diff=() need
	for need in name description license vermagic depends parm alias; do
		[ -n "$(modinfo -F "$need" "$a")" ] || result FAIL "make's i915.ko has no $need"
	done
	for f in $( { modinfo_fields "$a"; modinfo_fields "$b"; } | sort -u); do
		case $f in filename | sig_id | signer | sig_key | sig_hashalgo | signature) continue ;; esac
		if ! cmp -s <(modinfo -F "$f" "$a" | sort) <(modinfo -F "$f" "$b" | sort); then
			diff+=("$f")
			echo "modinfo $f: make's i915.ko / the DKMS one:" >&2
			diff <(modinfo -F "$f" "$a" | sort) <(modinfo -F "$f" "$b" | sort) >&2 || true
		fi
	done
	[ ${#diff[@]} -eq 0 ] || result FAIL "modinfo differs from make's i915.ko in: ${diff[*]}"
}

main() {
	local kv ver deb ko kos dkms_args loc n intree
	trap cleanup EXIT
	kv=$(kver)
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/i915gem-dkms.XXXXXX")
	command -v dkms >/dev/null || result FAIL "no dkms (scripts/install-deps.sh installs it)"

	note "dkms: make modules (the reference i915.ko)"
	make -s -C "$REPO" modules >"$WORK/make.log" 2>&1 ||
		{ cat "$WORK/make.log" >&2; result FAIL "make modules failed"; }

	note "dkms: building the package"
	deb=$(DKMS_OUT=$WORK/out "$REPO/scripts/dkms-deb.sh" | tail -n 1) ||
		result FAIL "make dkms-deb failed"
	ver=$(dpkg-deb -f "$deb" Version)
	check_package "$deb" "$ver"

	note "dkms: dkms add + build i915gem/$ver for $kv in $WORK"
	dpkg-deb -x "$deb" "$WORK/root"
	mkdir -p "$WORK/dkms" "$WORK/lib/modules/$kv"
	dkms_args=(-m i915gem -v "$ver" --sourcetree "$WORK/root/usr/src" --dkmstree "$WORK/dkms")
	if ! { dkms add "${dkms_args[@]}" && dkms build "${dkms_args[@]}" -k "$kv"; } \
		>"$WORK/dkms.log" 2>&1; then
		cat "$WORK/dkms.log" >&2
		tail -n 30 "$WORK/dkms/i915gem/$ver/build/make.log" >&2 || true
		result FAIL "dkms add/build of the package's sources failed for $kv"
	fi
	kos=$(cd "$WORK/dkms/i915gem/$ver/$kv" && find . -name '*.ko*' | sort)
	ko=$WORK/dkms/i915gem/$ver/$kv/$(uname -m)/module/i915.ko
	[ -f "$ko" ] || result FAIL "dkms build gave no i915.ko (modules: ${kos:-none})"
	n=$(wc -l <<<"$kos")
	[ "$n" -eq 1 ] || result FAIL "dkms build gave more than i915.ko: $(tr '\n' ' ' <<<"$kos")"

	note "dkms: modinfo of $ko against $REPO/i915.ko"
	compare_modinfo "$REPO/i915.ko" "$ko"

	intree=$(kimg_dir)/root/lib/modules/$kv/kernel/drivers/gpu/drm/i915/i915.ko
	[ -f "$intree" ] || intree=$REPO/i915.ko
	note "dkms: dkms install into $WORK/lib/modules beside $intree; which i915 does depmod pick?"
	mkdir -p "$WORK/lib/modules/$kv/kernel/drivers/gpu/drm/i915"
	cp "$intree" "$WORK/lib/modules/$kv/kernel/drivers/gpu/drm/i915/"
	$SUDO dkms install "${dkms_args[@]}" -k "$kv" --installtree "$WORK/lib/modules" \
		--no-depmod --force-version-override >>"$WORK/dkms.log" 2>&1 ||
		{ cat "$WORK/dkms.log" >&2; result FAIL "dkms install into $WORK/lib/modules failed"; }
	depmod -b "$WORK" "$kv" 2>/dev/null || result FAIL "depmod -b $WORK $kv failed"
	loc=$(modinfo -b "$WORK" -k "$kv" -n i915) || result FAIL "modinfo -n i915 found nothing after depmod"
	[ "$loc" = "$WORK/lib/modules/$kv/updates/dkms/i915.ko" ] ||
		result FAIL "depmod prefers ${loc#"$WORK"/} to updates/dkms/i915.ko"

	result PASS "i915gem-dkms $ver: dkms build for $kv gives make's i915.ko (modinfo" \
		"$(modinfo_fields "$ko" | grep -cvE '^(filename|sig_id|signer|sig_key|sig_hashalgo|signature)$') fields)," \
		"installed to updates/dkms, preferred by depmod"
}

main "$@"
