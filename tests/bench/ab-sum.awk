# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/ab-sum.awk - the goal lines of an A/B (tests/bench/run-ab.sh's
# ab.txt) side by side: for each GPU and each goal line of gem_bench (a
# line with "<= <goal>"), the value of each base run and of each change
# run, in run order, and the goal.  POSIX awk (Debian's mawk).

/^=== / {
	sim = $2
	variant = $3
	if (!(sim in seen)) {
		seen[sim] = 1
		sims[++nsims] = sim
	}
	next
}

{
	for (i = 3; i <= NF; i++)
		if ($i == "<=")
			break
	if (i > NF || $(i - 1) !~ /^[0-9.]+$/)
		next
	label = $1
	for (j = 2; j < i - 1; j++)
		label = label " " $j
	if (!(label in known)) {
		known[label] = 1
		labels[++nlabels] = label
		goal[label] = $(i + 1)
	}
	key = sim SUBSEP label SUBSEP variant
	v = $(i - 1)
	if (n[key]++)
		v = vals[key] " / " v
	vals[key] = v
}

END {
	for (s = 1; s <= nsims; s++) {
		printf "== %s: base runs -> change runs (goal)\n", sims[s]
		for (l = 1; l <= nlabels; l++) {
			b = sims[s] SUBSEP labels[l] SUBSEP "base"
			c = sims[s] SUBSEP labels[l] SUBSEP "change"
			if (!(b in vals) && !(c in vals))
				continue
			printf "  %-46s %s -> %s (<= %s)\n", labels[l], vals[b],
			       vals[c], goal[labels[l]]
		}
	}
}
