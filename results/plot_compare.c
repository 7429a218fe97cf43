// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot compare: bench compare's rows drawn, a bar per metric from
 * compare_eval() itself (the change, its 95% interval, the verdict in its
 * colour and in words), so that a bar and a line of `bench compare`
 * cannot disagree.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot_common.h"

/* the verdict colours: the legend of the compare chart names each */
#define COLOR_BETTER "#2e7d32"
#define COLOR_WORSE "#c62828"
#define COLOR_WITHIN "#9e9e9e"
#define COLOR_UNDECIDED "#ef6c00"

static const char *verdict_color(enum verdict_kind kind)
{
	switch (kind) {
	case VERDICT_BETTER:
		return COLOR_BETTER;
	case VERDICT_WORSE:
		return COLOR_WORSE;
	case VERDICT_UNDECIDED:
		return COLOR_UNDECIDED;
	default:
		return COLOR_WITHIN;
	}
}

/* an interval's end as data: an unbounded one far beyond any axis */
static double finite_end(double y)
{
	return isinf(y) ? copysign(1e30, y) : y;
}

static void compare_row(FILE *f, int idx, const char *name, double change, double lo,
			double hi, enum verdict_kind kind, const char *verdict)
{
	fprintf(f, "%d ", idx);
	plot_put_str(f, name);
	fprintf(f, " %.6g %.6g %.6g 0x%s ", change, finite_end(lo), finite_end(hi),
		verdict_color(kind) + 1);
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

/* a bar of the chart: a row of compare's, as drawn */
struct bar {
	double ch, lo, hi;	/* the change and its interval, 0 where there is none */
	char name[128];		/* metric (unit), and its counts where the bars' differ */
	char detail[160];	/* why a bar is undecided, or "" */
	char verdict[24];	/* the verdict's word, over the bar */
	enum verdict_kind kind;
};

/* a bar's verdict, compare's: its word over the bar, its reason under the chart */
static void bar_words(struct bar *b, const struct compare_row *r)
{
	snprintf(b->verdict, sizeof(b->verdict), "%s", r->measured ? r->v.word : "n/a");
	b->kind = r->measured ? r->v.kind : VERDICT_NA;
	snprintf(b->detail, sizeof(b->detail), "%s", r->measured ? r->v.why : "");
}

/* the bars of compare's rows; na, nb: observations per side, -1 where the bars differ */
static void make_bars(struct bar *bars, const struct compare_row *rows, int nrows,
		      enum compare_unit unit, int na)
{
	const struct compare_row *r;
	struct bar *b;
	int i;

	for (i = 0; i < nrows; i++) {
		r = &rows[i];
		b = &bars[i];
		/* no change to draw (not measured, or from a base of 0): a bar of 0 */
		b->ch = r->measured && !isnan(r->change_pct) ? r->change_pct : 0;
		b->lo = isnan(r->lo_pct) ? b->ch : r->lo_pct;
		b->hi = isnan(r->hi_pct) ? b->ch : r->hi_pct;
		if (na < 0 && unit == COMPARE_UNIT_PAIR)
			snprintf(b->name, sizeof(b->name), "%s, %d pairs", r->name, r->na);
		else if (na < 0)
			snprintf(b->name, sizeof(b->name), "%s, %d+%d", r->name, r->na, r->nb);
		else
			snprintf(b->name, sizeof(b->name), "%s", r->name);
		bar_words(b, r);
	}
}

/*
 * A bar per row of bench compare's own evaluation (the change, its 95%
 * interval, the verdict), for the same sides, unit and options, in *bars
 * (malloc'ed).  The bars' count, or -errno after one line.
 */
static int compare_bars(const struct plot_opts *o, struct plot_run *runs, int n,
			struct bar **bars, enum compare_unit *unit, int *na, int *nb)
{
	struct compare_params prm = { .verb = "plot", .threshold_pct = o->threshold_pct,
				      .force = o->force, .rank = o->rank, .paired = o->paired,
				      .trimmed = o->trimmed };
	struct compare_side sa = {}, sb = {};
	struct compare_row *rows = NULL;
	int nbase = o->nbase ? o->nbase : 1, i, nrows = 0, err;

	err = make_side(&sa, "base", runs, 0, nbase);
	if (!err)
		err = make_side(&sb, "new", runs, nbase, n - nbase);
	if (!err)
		err = compare_eval(&prm, &sa, &sb, stderr, &rows, &nrows, unit);
	if (!err) {
		*bars = calloc(nrows + 1, sizeof(**bars));
		err = *bars ? 0 : plot_nomem("build the compare chart");
	}
	if (!err) {
		/* observations per side: in the title when every bar has the same */
		*na = nrows ? rows[0].na : 0;
		*nb = nrows ? rows[0].nb : 0;
		for (i = 1; i < nrows; i++)
			if (rows[i].na != *na || rows[i].nb != *nb)
				*na = *nb = -1;
		make_bars(*bars, rows, nrows, *unit, *na);
		err = nrows;
	}
	free(rows);
	free(sa.rf);
	free(sb.rf);
	return err;
}

/* the $compare block; the range the estimates span in *lo, *hi */
static void compare_block(FILE *f, const struct bar *bars, int nbars, double *lo, double *hi)
{
	int i;

	plot_block_begin(f, "compare",
			 "index metric change_pct ci95_low_pct ci95_high_pct color verdict");
	for (i = 0; i < nbars; i++) {
		compare_row(f, i, bars[i].name, bars[i].ch, bars[i].lo, bars[i].hi,
			    bars[i].kind, bars[i].verdict);
		*lo = fmin(*lo, bars[i].ch);
		*hi = fmax(*hi, bars[i].ch);
	}
	plot_block_end(f);
}

/* bench ab's side of a file it wrote (DIR/pair-001-A.json: 'A'), or 0 */
static char ab_side(const char *path)
{
	const char *b = plot_base_name(path);

	if (strlen(b) != strlen("pair-001-A.json") || strncmp(b, "pair-", 5) ||
	    !isdigit(b[5]) || !isdigit(b[6]) || !isdigit(b[7]) || b[8] != '-' ||
	    (b[9] != 'A' && b[9] != 'B') || strcmp(b + 10, ".json"))
		return 0;
	return b[9];
}

/* the options that set run i apart, if every run of its side has the same; malloc'ed */
static char *side_options(struct plot_run *runs, int n, int from, int cnt)
{
	char *opts = plot_options_text(runs, n, from, false, NULL), *other;
	int i;

	for (i = from + 1; opts && i < from + cnt; i++) {
		other = plot_options_text(runs, n, i, false, NULL);
		if (!other || strcmp(other, opts))
			opts[0] = '\0';
		if (!other) {
			free(opts);
			opts = NULL;
		}
		free(other);
	}
	return opts;
}

/*
 * What names a side of cnt files (runs[from...]) in the title: its --label
 * (one a side), else bench ab's side letter (its files carry it) with the
 * options that set the side apart, else those options; then the count.
 * Without any, the first file's label "and N more files".
 */
static int side_label(char *buf, size_t sz, struct plot_run *runs, int n, int from, int cnt)
{
	const struct plot_run *r = &runs[from];
	char ab = ab_side(r->path), *opts;
	bool one_label = true;
	int i;

	if (cnt == 1) {
		snprintf(buf, sz, "%s", r->label);
		return 0;
	}
	opts = side_options(runs, n, from, cnt);
	if (!opts)
		return plot_nomem("name the sides of the chart");
	for (i = from + 1; i < from + cnt; i++) {
		one_label &= !strcmp(runs[i].label, r->label);
		if (ab_side(runs[i].path) != ab)
			ab = 0;
	}
	/* a label shared by a side's files is a --label: set_labels() names files apart */
	if (one_label)
		snprintf(buf, sz, "%s (%d files)", r->label, cnt);
	else if (ab)
		snprintf(buf, sz, "%c%s%s (%d files)", ab, *opts ? ": " : "", opts, cnt);
	else if (*opts)
		snprintf(buf, sz, "%s (%d files)", opts, cnt);
	else
		snprintf(buf, sz, "%s and %d more file%s", r->label, cnt - 1, cnt > 2 ? "s" : "");
	free(opts);
	return 0;
}

/* the left margin, as 10 characters: where the plot area starts */
#define COMPARE_LMARGIN_CHARS 10

/*
 * Where the plot area ends, as a fraction of the picture's width: with
 * five names or more the rotated tic labels draw the last name from its
 * tic rightwards, and where it would run off the picture the plot ends
 * early enough (1 where gnuplot's own margin does)
 */
static double compare_right(const struct plot_opts *o, const struct bar *bars, int nbars)
{
	double cw = plot_char_px(o), w = o->width, left = COMPARE_LMARGIN_CHARS * cw;
	double need = (0.94 * strlen(bars[nbars - 1].name) + 1) * cw;
	double k = (nbars - 0.4) / (nbars + 0.2), right;

	if (nbars < 5 || o->format == PLOT_TEXT)
		return 1;
	right = ((w - need - left) / k + left) / w;
	return right < (w - 2 * cw) / w ? fmax(right, 0.5) : 1;
}

/* where the plot area ends, in the picture's units */
static double compare_plot_end(const struct plot_opts *o, double right)
{
	return right < 1 ? right * o->width : o->width - 2 * plot_char_px(o);
}

/*
 * The most characters a line centred under the plot area holds inside the
 * picture: gnuplot centres the axis title on the plot area, which starts
 * after the left margin and ends at right
 */
static int compare_line_chars(const struct plot_opts *o, double right)
{
	double cw = plot_char_px(o), mid = (COMPARE_LMARGIN_CHARS * cw + compare_plot_end(o, right)) / 2;

	return (int)(2 * fmin(mid, o->width - mid) / cw) - 2;
}

/* a title line, wrapped to the picture (the text terminal's own way there) */
static void compare_line(FILE *f, const struct plot_opts *o, const char *text, double right)
{
	if (o->format == PLOT_TEXT)
		plot_put_line(f, o, text);
	else
		plot_put_wrapped(f, text, compare_line_chars(o, right));
}

/* the title lines: what is compared, on what unit and test, and the runs' noise */
static int compare_title(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			 enum compare_unit unit, int na, int nb, double right)
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
		 unit == COMPARE_UNIT_PAIR ? "(geometric mean of pair ratios)" :
		 "(ratio of means)", count,
		 compare_unit_name(unit),
		 unit == COMPARE_UNIT_PAIR ? (o->rank ? "signed-rank test" :
					      o->trimmed ? "trimmed t-test" : "paired t-test on logs") :
		 o->rank ? "Mann-Whitney" : "Fieller's interval");
	compare_line(f, o, title, right);
	fprintf(f, " . \"\\n\" . ");
	if (side_label(a, sizeof(a), runs, n, nbase, n - nbase) ||
	    side_label(b, sizeof(b), runs, n, 0, nbase))
		return -ENOMEM;
	snprintf(title, sizeof(title), "new: %s, base: %s", a, b);
	compare_line(f, o, title, right);
	/* noise weakens every verdict in the chart: the chart says so, as compare does */
	for (i = 0; i < n; i++) {
		if (i < nbase)
			wa += note_warnings(&runs[i], "base");
		else
			wb += note_warnings(&runs[i], "new");
	}
	if (wa || wb || o->emulated) {
		snprintf(title, sizeof(title), "%s%snoise warnings: base %d, new %d (bench compare lists them)",
			 o->emulated ? PLOT_EMULATED_LINE : "", o->emulated ? "; " : "", wa, wb);
		if (!wa && !wb)
			snprintf(title, sizeof(title), "%s", PLOT_EMULATED_LINE);
		fprintf(f, " . \"\\n\" . ");
		compare_line(f, o, title, right);
	}
	fprintf(f, "\n");
	return 0;
}

/*
 * Whether the bars' labels (each bar's verdict, and the value of an
 * interval's end cut at the axis, "from unbounded" at the most) are wider
 * than a bar's room: then every other bar's labels start two lines
 * further out, so that neighbours' never share a line and the labels on
 * a line are two bars' room apart
 */
static bool compare_stagger(const struct plot_opts *o, const struct bar *bars, int nbars,
			    double right)
{
	double cw = plot_char_px(o), room;
	size_t widest = strlen("from unbounded");
	int i;

	room = (compare_plot_end(o, right) - COMPARE_LMARGIN_CHARS * cw) / (nbars + 0.2);
	for (i = 0; i < nbars; i++)
		if (strlen(bars[i].verdict) > widest)
			widest = strlen(bars[i].verdict);
	return widest * cw > room;
}

/* the side of bar b where its verdict sits, away from its change: 1 over, -1 under */
static int words_side(const struct bar *b)
{
	return b->ch >= 0 ? 1 : -1;
}

/* whether bar b's interval end on side s (1: high, -1: low) is cut at the axis [lo, hi] */
static bool cut_end(const struct bar *b, int s, double lo, double hi)
{
	return s > 0 ? b->hi > hi : b->lo < lo;
}

/*
 * A bar's labels on a side stack outwards from its interval's end, a line
 * each: the cut end's value first, then the verdict.  Line row's offset
 * in characters on side s (the text terminal drops a fraction of a line);
 * bar i's first line, 0 or (staggered) 2.
 */
static double stack_offset(const struct plot_opts *o, int row, int s)
{
	return (row + (o->format == PLOT_TEXT ? 1 : 0.8)) * s;
}

static int stack_base(int i, bool stagger)
{
	return stagger && i % 2 ? 2 : 0;
}

/*
 * Each bar's words in a command of its own: over a bar that rose, under
 * one that fell, outside the threshold lines (which would strike through
 * them) and its whisker, in its stack (after a cut end's value).  Text
 * has no colours and no room: there the bars are numbered and the list
 * under the chart says each one's name and verdict.
 */
static void compare_words(FILE *f, const struct plot_opts *o, const struct bar *bars, int nbars,
			  double lo, double hi, bool stagger)
{
	double thr = o->threshold_pct, y;
	int i, s, row;

	for (i = 0; i < nbars && o->format != PLOT_TEXT; i++) {
		s = words_side(&bars[i]);
		y = s > 0 ? fmax(fmin(bars[i].hi, hi), thr) : fmin(fmax(bars[i].lo, lo), -thr);
		row = stack_base(i, stagger) + cut_end(&bars[i], s, lo, hi);
		fprintf(f, "  $compare every ::%d::%d using 1:(%.6g):7 with labels offset 0,%g notitle, \\\n",
			i, i, y, stack_offset(o, row, s));
	}
}

/*
 * Text: the bars' numbers as tics and, in the bottom margin, a line per
 * bar with its name and verdict; room above for a three-line title.
 */
static void compare_text_axis(FILE *f, const struct plot_opts *o, const struct bar *bars,
			      int nbars)
{
	/* plot_put_line() cuts a text line beyond width - 6 bytes: wrap before */
	int i, n = 0, w = o->width > 20 ? o->width - 6 : 14, len, cut;
	char line[400], *lines[64][2];
	int lens[64];
	const char *p;

	/* each bar's line, wrapped at a space to the chart's width: a list line is never cut */
	for (i = 0; i < nbars; i++) {
		snprintf(line, sizeof(line), "%d %s: %s%s%s", i + 1, bars[i].name, bars[i].verdict,
			 !*bars[i].detail ? "" : bars[i].kind == VERDICT_UNDECIDED ? ": " : ", ",
			 bars[i].detail);
		for (p = line; *p && n < 64; p += cut, n++) {
			len = strlen(p) + (p != line ? 4 : 0);
			cut = strlen(p);
			if (len > w) {
				cut = w - (p != line ? 4 : 0);
				while (cut > 1 && p[cut] != ' ')
					cut--;
			}
			lines[n][0] = p != line ? "    " : "";
			lines[n][1] = strndup(p, cut);
			lens[n] = cut;
			while (p[cut] == ' ')
				cut++;
		}
	}
	fprintf(f, "set tmargin 6\nset bmargin %d\nset xtics (", n + 3);
	for (i = 0; i < nbars; i++)
		fprintf(f, "%s\"%d\" %d", i ? ", " : "", i + 1, i);
	fprintf(f, ")\nset xlabel \"the lines at ±%g%% mark the threshold\"\n", o->threshold_pct);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%s%.*s", lines[i][0], lens[i],
			 lines[i][1] ? lines[i][1] : "");
		free(lines[i][1]);
		fprintf(f, "set label %d ", 201 + i);
		plot_put_line(f, o, line);
		fprintf(f, " at character 1, character %d left\n", n - i);
	}
}

/*
 * The metric axis's title; under it, each bar's reason (why undecided,
 * below the threshold): too long to sit over a bar.  Bars of one reason
 * share it ("memory, peak_memory: below the 0.5 MiB resolution"), and
 * the lines are wrapped to the picture, which would cut them at both
 * edges.
 */
static void compare_xlabel(FILE *f, const struct plot_opts *o, const struct bar *bars, int nbars,
			   double right)
{
	char note[1024] = "";
	size_t len = 0;
	int i, j, k;

	for (i = 0; i < nbars && len < sizeof(note); i++) {
		for (j = 0; j < i && strcmp(bars[j].detail, bars[i].detail); j++)
			;
		if (!*bars[i].detail || j < i)
			continue;
		len += snprintf(note + len, sizeof(note) - len, "%s", len ? "; " : "");
		for (k = i; k < nbars && len < sizeof(note); k++)
			if (!strcmp(bars[k].detail, bars[i].detail))
				len += snprintf(note + len, sizeof(note) - len, "%s%.*s",
						k > i ? ", " : "", (int)strcspn(bars[k].name, " "),
						bars[k].name);
		if (len < sizeof(note))
			len += snprintf(note + len, sizeof(note) - len, ": %s", bars[i].detail);
	}
	fprintf(f, "set xlabel \"metric (unit)\"");
	if (*note) {
		fprintf(f, " . \"\\n\" . ");
		plot_put_wrapped(f, note, compare_line_chars(o, right));
		/*
		 * and an empty line: the margin gnuplot leaves for the key
		 * below holds one line fewer than a title of several draws
		 */
		fprintf(f, " . \"\\n\"");
	}
	fprintf(f, "\n");
}

/*
 * An interval's end beyond the axis [lo, hi]: an arrow to the edge and,
 * beyond its head, centred on the bar, the end's value ("unbounded" for
 * Fieller's unbounded interval) on the first line of the bar's stack
 */
static void compare_cuts(FILE *f, const struct plot_opts *o, const struct bar *bars, int nbars,
			 double lo, double hi, bool stagger)
{
	double end, edge, len = (hi - lo) * 0.06;
	char val[32], text[48];
	int i, s, n = 0;

	for (i = 0; i < nbars; i++) {
		for (s = -1; s <= 1; s += 2) {
			if (!cut_end(&bars[i], s, lo, hi))
				continue;
			end = s > 0 ? bars[i].hi : bars[i].lo;
			edge = s > 0 ? hi : lo;
			verdict_fmt_pct(end, val, sizeof(val));
			snprintf(text, sizeof(text), "%s %s", s > 0 ? "to" : "from", val);
			fprintf(f, "set arrow %d from %d, first %.6g to %d, first %.6g head size screen 0.012,25 lc rgb \"black\" lw 1.5\n",
				10 + n, i, edge - s * len, i, edge);
			fprintf(f, "set label %d ", 101 + n);
			plot_put_line(f, o, text);
			fprintf(f, " at %d, first %.6g center offset 0,%g\n", i, edge,
				stack_offset(o, stack_base(i, stagger), s));
			n++;
		}
	}
}

/* the axes, the threshold lines, the bars with their intervals and verdicts, the key */
static void compare_plot(FILE *f, const struct plot_opts *o, const struct bar *bars, int nbars,
			 double lo, double hi, double right)
{
	double room;
	bool stagger = compare_stagger(o, bars, nbars, right);

	plot_put_ylabels(f, o, "change vs base (%), bars: 95% CI", NULL);
	if (o->format == PLOT_TEXT)
		compare_text_axis(f, o, bars, nbars);
	else
		compare_xlabel(f, o, bars, nbars, right);
	/*
	 * The axis fits the estimates and the threshold lines, not the
	 * intervals: an interval beyond it is cut at its edge with an arrow
	 * and its value, so that one wide interval does not flatten every bar
	 */
	lo = fmin(lo, -o->threshold_pct);
	hi = fmax(hi, o->threshold_pct);
	lo -= (hi - lo) * 0.3;
	hi += (hi - lo) * 0.3;
	compare_cuts(f, o, bars, nbars, lo, hi, stagger);
	/* room for the label stacks above and below the bars: two lines, or four staggered */
	room = (hi - lo) * (stagger ? 0.4 : 0.22);
	fprintf(f, "set yrange [%.6g:%.6g]\n", lo - room, hi + room);
	fprintf(f, "clip(y) = y < %.6g ? %.6g : y > %.6g ? %.6g : y\n", lo, lo, hi, hi);
	fprintf(f, "set xrange [-0.6:%d.6]\n", nbars - 1);
	fprintf(f, "set xtics scale 0\nset grid ytics\nset xzeroaxis lt -1\n");
	/* five names or more do not fit side by side */
	if (nbars >= 5 && o->format != PLOT_TEXT)
		fprintf(f, "set xtics rotate by -20 left\n");
	if (right < 1)
		fprintf(f, "set rmargin at screen %.3f\n", right);
	fprintf(f, "set arrow 1 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n",
		o->threshold_pct, o->threshold_pct);
	fprintf(f, "set arrow 2 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n",
		-o->threshold_pct, -o->threshold_pct);
	fprintf(f, "set boxwidth 0.6\nset style fill solid 0.8 border -1\nset key below\n");
	fprintf(f, "plot $compare using 1:3:6%s with boxes lc rgb variable notitle, \\\n",
		o->format == PLOT_TEXT ? "" : ":xtic(2)");
	fprintf(f, "  $compare using 1:(clip($4)):(0):(clip($5) - clip($4)) with vectors heads size screen 0.008,90 lc rgb \"black\" lw 1.5 notitle, \\\n");
	/* the verdict in words over each bar: the colours alone do not survive print */
	compare_words(f, o, bars, nbars, lo, hi, stagger);
	if (o->format == PLOT_TEXT) {
		/* no colours in text: the list under the chart gives the verdicts */
		fprintf(f, "  keyentry notitle\n");
		return;
	}
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"better\", \\\n", COLOR_BETTER);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"worse\", \\\n", COLOR_WORSE);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"within ±%g%%\", \\\n",
		COLOR_WITHIN, o->threshold_pct);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"undecided\", \\\n",
		COLOR_UNDECIDED);
	fprintf(f, "  keyentry with lines dt 2 lc rgb \"#555555\" title \"±%g%% threshold\"\n",
		o->threshold_pct);
}

/* base against new, a bar per metric: bench compare's rows, drawn */
int plot_compare_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	int nbase = o->nbase ? o->nbase : 1, nbars, na = -1, nb = -1, err;
	struct bar *bars = NULL;
	enum compare_unit unit;
	double lo = 0, hi = 0, right = 1;

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
	nbars = compare_bars(o, runs, n, &bars, &unit, &na, &nb);
	if (nbars < 0)
		return nbars;
	err = 0;
	if (!nbars) {
		fprintf(stderr, "%s and %s share no metric\n", runs[0].path, runs[nbase].path);
		err = -EINVAL;
	}
	if (!err) {
		compare_block(f, bars, nbars, &lo, &hi);
		right = compare_right(o, bars, nbars);
		err = compare_title(f, o, runs, n, unit, na, nb, right);
	}
	if (!err)
		compare_plot(f, o, bars, nbars, lo, hi, right);
	free(bars);
	return err;
}
