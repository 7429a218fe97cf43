/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __COMPARE_MD_H
#define __COMPARE_MD_H

#include "compare.h"

/*
 * bench compare --markdown: the before/after table of two sets of runs,
 * one row per configuration of the base side (files grouped by
 * result_config_key()), on stdout; refusals, notes and warnings on
 * stderr.  *worse_any is set when a row got worse.  0, -EINVAL (a
 * configuration refused, or none on both sides) or -ENOMEM.
 */
/* the widest line of the markdown output: a table row, a wrapped paragraph */
#define COMPARE_MD_WIDTH 120

int compare_markdown(const struct compare_params *prm, const struct compare_side *sa,
		     const struct compare_side *sb, int *worse_any);

#endif /* __COMPARE_MD_H */
