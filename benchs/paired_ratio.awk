# SPDX-License-Identifier: GPL-2.0
#
# Used by run_bench_latency_overhead.sh: given two lists of rates, off and on
# (-v off="1 2 3" -v on="1 2 3", round i's runs at position i), prints
#
#   off <rates>  on <rates>  ratio R  paired G (95% CI L..U, N rounds)
#
# R is mean(on) / mean(off).  G is the geometric mean of the per-round
# ratios on_i / off_i and L..U its 95% confidence interval, Student's t on
# the logarithms: the rounds are the replicates, and pairing each run with
# its neighbour takes the machine's drift over minutes out of the ratio.
#
# Used by run_bench_fidelity.sh with -v within=PCT: prints instead one line
# "G L U N VERDICT" at full precision (L and U "-" from one round), VERDICT
# "within" when L..U lies inside 1 ± PCT% (log1p(-PCT%)..log1p(PCT%) on the
# logarithms, as bench ab's --threshold), "outside" when it lies wholly
# beyond, "undecided" otherwise (and from one round).

function t975(df) {
	# two-sided 95% quantiles of Student's t, df 1..30; the normal's beyond
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
	      "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
	      "2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", q, " ")
	return df <= 30 ? q[df] : 1.960
}

BEGIN {
	n = split(off, a, " ")
	if (split(on, b, " ") != n || n < 1) {
		print "paired_ratio.awk: off and on need the same number of rates, at least one" > "/dev/stderr"
		exit 1
	}
	for (i = 1; i <= n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0)) {
			print "paired_ratio.awk: rate " i " is not positive (off " a[i] ", on " b[i] ")" > "/dev/stderr"
			exit 1
		}
		so += a[i]
		sn += b[i]
		l[i] = log(b[i] / a[i])
		sl += l[i]
	}
	m = sl / n
	if (within != "") {
		thr = within / 100
		if (!(thr > 0 && thr < 1)) {
			print "paired_ratio.awk: within " within " is not a percentage above 0 and below 100" > "/dev/stderr"
			exit 1
		}
		if (n < 2) {
			printf "%.6f - - %d undecided\n", exp(m), n
			exit 0
		}
		for (i = 1; i <= n; i++)
			ss += (l[i] - m) ^ 2
		h = t975(n - 1) * sqrt(ss / (n - 1) / n)
		lo = log(1 - thr)
		hi = log(1 + thr)
		v = (m - h >= lo && m + h <= hi) ? "within" : (m + h < lo || m - h > hi) ? "outside" : "undecided"
		printf "%.6f %.6f %.6f %d %s\n", exp(m), exp(m - h), exp(m + h), n, v
		exit 0
	}
	printf "off"
	for (i = 1; i <= n; i++)
		printf " %.2f", a[i]
	printf "  on"
	for (i = 1; i <= n; i++)
		printf " %.2f", b[i]
	printf "  ratio %.3f", sn / so
	if (n < 2) {
		printf "  paired %.3f (1 round: no interval)\n", exp(m)
		exit 0
	}
	for (i = 1; i <= n; i++)
		ss += (l[i] - m) ^ 2
	h = t975(n - 1) * sqrt(ss / (n - 1) / n)
	printf "  paired %.3f (95%% CI %.3f..%.3f, %d rounds)\n", exp(m), exp(m - h), exp(m + h), n
}
