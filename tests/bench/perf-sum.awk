# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/perf-sum.awk - sum `perf script -F comm,ip,sym` call chains
# (tests/bench/run-perf.sh): the samples inside the EXECBUFFER2 ioctl per
# leaf function and per call path of up to DEPTH functions below
# exec_run(); the others per task and leaf function.  Each sample is a
# line naming the task, then one line per frame ("address symbol"), leaf
# first, then an empty line.

function flush(	i, j, p) {
	if (!n)
		return
	total++
	inexec = 0
	for (i = 1; i <= n; i++)
		if (fr[i] == "i915_gem_execbuffer2_ioctl" ||
		    fr[i] == "i915_gem_execbuffer_ioctl")
			inexec = 1
	if (inexec) {
		exec++
		leaf[fr[1]]++
		for (i = 2; i <= n; i++) {
			if (fr[i] != "exec_run")
				continue
			p = ""
			for (j = i - 1; j >= 1 && j >= i - DEPTH; j--)
				p = p " > " fr[j]
			path[p == "" ? " (exec_run itself)" : p]++
			break
		}
	} else {
		other[comm " " fr[1]]++
	}
	n = 0
}

# a frame: an address, the symbol, perhaps "+0x..." and the module
/^[ \t]+[0-9a-f]+ / {
	s = $2
	sub(/\+0x[0-9a-f]+$/, "", s)
	fr[++n] = s
	next
}
/^[ \t]*$/ { flush(); next }
{ flush(); comm = $1; next }

function top(a, title, lim,	k, cmd) {
	printf "-- %s\n", title
	cmd = "sort -rn | head -n " lim
	for (k in a)
		printf "%8d %s\n", a[k], k | cmd
	close(cmd)
	fflush()
}

END {
	flush()
	printf "samples: %d, inside EXECBUFFER2: %d\n", total, exec
	top(leaf, "inside EXECBUFFER2, by function", 40)
	top(path, "inside EXECBUFFER2, by path below exec_run()", 40)
	top(other, "outside, by task and function", 25)
}
