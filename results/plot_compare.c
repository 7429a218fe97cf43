// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot compare: bench compare's rows drawn, a bar per metric from
 * compare_eval() itself (the change, its 95% interval, the verdict in its
 * colour and in words), so that a bar and a line of `bench compare`
 * cannot disagree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot_common.h"

/* the verdict colours: the legend of the compare chart names each */
#define COLOR_BETTER "#2e7d32"
#define COLOR_WORSE "#c62828"
#define COLOR_NOISE "#9e9e9e"
#define COLOR_UNTESTED "#ef6c00"

static const char *verdict_color(const char *v)
{
	if (!strcmp(v, "better"))
		return COLOR_BETTER;
	if (!strcmp(v, "worse"))
		return COLOR_WORSE;
	if (strstr(v, "untested"))
		return COLOR_UNTESTED;
	return COLOR_NOISE;
}

static void compare_row(FILE *f, int idx, const char *name, double change, double lo,
			double hi, const char *verdict)
{
	fprintf(f, "%d ", idx);
	plot_put_str(f, name);
	fprintf(f, " %.6g %.6g %.6g 0x%s ", change, lo, hi, verdict_color(verdict) + 1);
	plot_put_str(f, verdict);
	fprintf(f, "\n");
}

/* the run's noise warnings on stderr; how many */
static int note_warnings(const struct plot_run *r, const char *which)
{
	int i;

	for (i = 0; i < r->rf.nwarnings; i++)
		fprintf(stderr, "warning: the %s run was noisy: %s\n", which, r->rf.warnings[i]);
	return r->rf.nwarnings;
}

/* a side of compare_eval() over runs[from..from+n-1]: the files shared, not copied */
static int make_side(struct compare_side *sd, const char *which, struct plot_run *runs, int from,
		     int n)
{
	int i;

	sd->which = which;
	sd->n = n;
	sd->rf = calloc(n, sizeof(*sd->rf));
	if (!sd->rf)
		return plot_nomem("build the compare chart");
	for (i = 0; i < n; i++)
		sd->rf[i] = runs[from + i].rf;
	return 0;
}

/*
 * The $compare block: a bar per row of bench compare's own evaluation (the
 * change, its 95% interval, the verdict), for the same sides, unit and
 * options.  The range the bars span in *lo, *hi; the bars' count, or
 * -errno after one line.
 */
static int compare_rows(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			double *lo, double *hi, enum compare_unit *unit, int *na, int *nb)
{
	struct compare_params prm = { .verb = "plot", .threshold_pct = o->threshold_pct,
				      .force = o->force, .rank = o->rank, .paired = o->paired,
				      .trimmed = o->trimmed };
	struct compare_side sa = {}, sb = {};
	struct compare_row *rows = NULL, *r;
	int nbase = o->nbase ? o->nbase : 1, i, nrows = 0, err;
	double ch, l, h;
	char name[128];

	err = make_side(&sa, "base", runs, 0, nbase);
	if (!err)
		err = make_side(&sb, "new", runs, nbase, n - nbase);
	if (!err)
		err = compare_eval(&prm, &sa, &sb, stderr, &rows, &nrows, unit);
	if (err)
		goto out;
	/* observations per side: in the title when every bar has the same */
	*na = nrows ? rows[0].na : 0;
	*nb = nrows ? rows[0].nb : 0;
	for (i = 1; i < nrows; i++)
		if (rows[i].na != *na || rows[i].nb != *nb)
			*na = *nb = -1;
	plot_block_begin(f, "compare",
			 "index metric change_pct ci95_low_pct ci95_high_pct color verdict");
	for (i = 0; i < nrows; i++) {
		r = &rows[i];
		/* no change to draw (not measured, or from a base of 0): a bar of 0 */
		ch = r->measured && !isnan(r->change_pct) ? r->change_pct : 0;
		l = isnan(r->lo_pct) ? ch : r->lo_pct;
		h = isnan(r->hi_pct) ? ch : r->hi_pct;
		if (*na < 0 && *unit == COMPARE_UNIT_PAIR)
			snprintf(name, sizeof(name), "%s, %d pairs", r->name, r->na);
		else if (*na < 0)
			snprintf(name, sizeof(name), "%s, %d+%d", r->name, r->na, r->nb);
		else
			snprintf(name, sizeof(name), "%s", r->name);
		compare_row(f, i, name, ch, l, h, r->measured ? r->verdict : "n/a");
		*lo = fmin(*lo, l);
		*hi = fmax(*hi, h);
	}
	plot_block_end(f);
	err = nrows;
out:
	free(rows);
	free(sa.rf);
	free(sb.rf);
	return err;
}

/* "label" or "label and 2 more files" */
static void side_label(char *buf, size_t sz, const struct plot_run *r, int n)
{
	if (n > 1)
		snprintf(buf, sz, "%s and %d more file%s", r->label, n - 1, n > 2 ? "s" : "");
	else
		snprintf(buf, sz, "%s", r->label);
}

/* the title lines: what is compared, on what unit and test, and the runs' noise */
static void compare_title(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			  enum compare_unit unit, int na, int nb)
{
	int nbase = o->nbase ? o->nbase : 1, wa = 0, wb = 0, i;
	char title[512], a[200], b[200], count[64] = "";

	if (na >= 0 && unit == COMPARE_UNIT_PAIR)
		snprintf(count, sizeof(count), "%d ", na);
	else if (na >= 0)
		snprintf(count, sizeof(count), "%d+%d ", na, nb);
	fprintf(f, "set title ");
	/* compare's test and estimate, all on the log scale: the chart names them */
	snprintf(title, sizeof(title), "%s compare: change %s, new vs base; %s%s, %s",
		 plot_benchmark_of(&runs[0]),
		 o->rank ? "(Hodges-Lehmann)" : o->trimmed ? "(trimmed mean of log ratios)" :
		 "(ratio of geometric means)", count,
		 compare_unit_name(unit),
		 unit == COMPARE_UNIT_PAIR ? (o->rank ? "signed-rank test" :
					      o->trimmed ? "trimmed t-test" : "paired t-test on logs") :
		 o->rank ? "Mann-Whitney" : "Welch on logs");
	plot_put_line(f, o, title);
	fprintf(f, " . \"\\n\" . ");
	side_label(a, sizeof(a), &runs[nbase], n - nbase);
	side_label(b, sizeof(b), &runs[0], nbase);
	snprintf(title, sizeof(title), "new: %s, base: %s", a, b);
	plot_put_line(f, o, title);
	/* noise weakens every verdict in the chart: the chart says so, as compare does */
	for (i = 0; i < n; i++) {
		if (i < nbase)
			wa += note_warnings(&runs[i], "base");
		else
			wb += note_warnings(&runs[i], "new");
	}
	if (wa || wb) {
		snprintf(title, sizeof(title), "noise warnings: base %d, new %d (bench compare lists them)",
			 wa, wb);
		fprintf(f, " . \"\\n\" . ");
		plot_put_line(f, o, title);
	}
	fprintf(f, "\n");
}

/* the axes, the threshold lines, the bars with their intervals and verdicts, the key */
static void compare_plot(FILE *f, const struct plot_opts *o, int nbars, double lo, double hi)
{
	plot_put_ylabels(f, o, "change vs base (%), bars: 95% CI", NULL);
	if (o->format == PLOT_TEXT)
		fprintf(f, "set xlabel \"metric (unit); the lines at ±%g%% mark the threshold\"\n",
			o->threshold_pct);
	else
		fprintf(f, "set xlabel \"metric (unit)\"\n");
	/* room for the verdict labels above and below the bars */
	lo = fmin(lo, -o->threshold_pct);
	hi = fmax(hi, o->threshold_pct);
	fprintf(f, "set yrange [%.6g:%.6g]\n", lo - (hi - lo) * 0.15, hi + (hi - lo) * 0.15);
	fprintf(f, "set xrange [-0.6:%d.6]\n", nbars - 1);
	fprintf(f, "set xtics scale 0\nset grid ytics\nset xzeroaxis lt -1\n");
	/* five names or more do not fit side by side */
	if (nbars >= 5)
		fprintf(f, "set xtics rotate by -20 left\n");
	fprintf(f, "set arrow 1 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n",
		o->threshold_pct, o->threshold_pct);
	fprintf(f, "set arrow 2 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n",
		-o->threshold_pct, -o->threshold_pct);
	fprintf(f, "set boxwidth 0.6\nset style fill solid 0.8 border -1\nset key below\n");
	fprintf(f, "plot $compare using 1:3:6:xtic(2) with boxes lc rgb variable notitle, \\\n");
	fprintf(f, "  $compare using 1:4:(0):($5 - $4) with vectors heads size screen 0.008,90 lc rgb \"black\" lw 1.5 notitle, \\\n");
	/* the verdict in words over each bar: the colours alone do not survive text or print */
	fprintf(f, "  $compare using 1:($5 > 0 ? $5 : 0):7 with labels offset 0,0.8 notitle, \\\n");
	if (o->format == PLOT_TEXT) {
		/* no colours in text: the words over the bars are the verdicts */
		fprintf(f, "  keyentry notitle\n");
		return;
	}
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"better\", \\\n", COLOR_BETTER);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"worse\", \\\n", COLOR_WORSE);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"within noise / resolution\", \\\n",
		COLOR_NOISE);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"one value, untested\", \\\n",
		COLOR_UNTESTED);
	fprintf(f, "  keyentry with lines dt 2 lc rgb \"#555555\" title \"±%g%% threshold\"\n",
		o->threshold_pct);
}

/* base against new, a bar per metric: bench compare's rows, drawn */
int plot_compare_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	int nbase = o->nbase ? o->nbase : 1, nbars, na = -1, nb = -1;
	enum compare_unit unit;
	double lo = 0, hi = 0;

	if (!o->nbase && n != 2) {
		fprintf(stderr, "a compare chart takes two files, BASE.json and NEW.json, or BASE1.json... -- NEW1.json... (got %d)\n",
			n);
		return -EINVAL;
	}
	if (nbase < 1 || nbase >= n) {
		fprintf(stderr, "a compare chart needs a file on each side of '--' (got %d base, %d new)\n",
			nbase, n - nbase);
		return -EINVAL;
	}
	nbars = compare_rows(f, o, runs, n, &lo, &hi, &unit, &na, &nb);
	if (nbars < 0)
		return nbars;
	if (!nbars) {
		fprintf(stderr, "%s and %s share no metric\n", runs[0].path, runs[nbase].path);
		return -EINVAL;
	}
	compare_title(f, o, runs, n, unit, na, nb);
	compare_plot(f, o, nbars, lo, hi);
	return 0;
}
