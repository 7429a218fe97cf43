// SPDX-License-Identifier: GPL-2.0
/*
 * `bench config [--slug|--key|--json] RUN.json...`: the configuration of
 * each result file as result_config.h defines it, one line per file, so
 * that scripts (the lkp-tests program, the wrappers) name runs as bench
 * does instead of with a rule of their own.
 */
#include <argp.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_exit.h"
#include "cli_json.h"
#include "config_cli.h"
#include "result_config.h"
#include "result_file.h"

enum config_form { FORM_LABEL, FORM_SLUG, FORM_KEY, FORM_JSON };

static struct {
	enum config_form form;
	const char **files;
	int nfiles;
} cfg;

enum { ARG_SLUG = 1000, ARG_KEY, ARG_JSON };

static const struct argp_option config_options[] = {
	{ "slug", ARG_SLUG, NULL, 0, "The label as one path component ([A-Za-z0-9_-])" },
	{ "key", ARG_KEY, NULL, 0, "The full key: every option, defaults included, as canonical JSON" },
	{ "json", ARG_JSON, NULL, 0,
	  "One JSON object (the bench-cli envelope, docs/results-and-json.md): \"configs\", one entry per file: file, benchmark, label, slug, config" },
	{},
};

static error_t config_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_SLUG:
		cfg.form = FORM_SLUG;
		break;
	case ARG_KEY:
		cfg.form = FORM_KEY;
		break;
	case ARG_JSON:
		cfg.form = FORM_JSON;
		break;
	case ARGP_KEY_ARG:
		cfg.files[cfg.nfiles++] = arg;
		break;
	case ARGP_KEY_END:
		if (!cfg.nfiles)
			argp_error(state, "give one or more result files (bench --json FILE)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp config_argp = {
	.options = config_options,
	.parser = config_parse,
	.args_doc = "RUN.json...",
	.doc = "Print each result file's configuration: every option that changes what is "
	       "measured, as compare, history, plot and export name it.\v"
	       "The label omits options at their default; the key has them all. Two files "
	       "are of one configuration when their benchmarks and keys are equal.\n\n"
	       "EXAMPLES:\n"
	       "  bench config run.json              # overwrite value_size=4096\n"
	       "  bench config --slug run.json       # overwrite-value_size_4096\n"
	       "  bench config --key run.json | jq .",
};

/* one file's entry of config --json's "configs" */
static json_t *config_json(const struct result_file *rf)
{
	char label[512], slug[512];

	result_config_label(rf->doc, label, sizeof(label));
	result_config_slug(rf->doc, slug, sizeof(slug));
	return json_pack("{s:s, s:s, s:s, s:s, s:O}", "file", rf->path, "benchmark",
			 rf->benchmark, "label", label, "slug", slug, "config", rf->config);
}

/* config --json: every file's entry in the bench-cli envelope, on one line */
static int print_json(const struct result_file *rf, int n)
{
	json_t *o = cli_json_new("config"), *a = json_array();
	int i;

	for (i = 0; a && i < n; i++)
		if (json_array_append_new(a, config_json(&rf[i])))
			a = (json_decref(a), NULL);
	if (!o || !a || json_object_set_new(o, "configs", a)) {
		json_decref(o);
		fprintf(stderr, "config: failed to render the configurations as JSON: %s\n",
			strerror(ENOMEM));
		return -ENOMEM;
	}
	return cli_json_print(o);
}

static int print_one(const struct result_file *rf)
{
	char label[512], slug[512];
	char *s;

	switch (cfg.form) {
	case FORM_LABEL:
		result_config_label(rf->doc, label, sizeof(label));
		printf("%s\n", label);
		return 0;
	case FORM_SLUG:
		result_config_slug(rf->doc, slug, sizeof(slug));
		printf("%s\n", slug);
		return 0;
	case FORM_KEY:
		s = result_config_key(rf->doc);
		break;
	default:
		return -EINVAL;
	}
	if (!s)
		return -ENOMEM;
	printf("%s\n", s);
	free(s);
	return 0;
}

/* every file's configuration: 0, or a negative errno after one line */
static int print_all(const struct result_file *rf, int n)
{
	int i, err;

	if (cfg.form == FORM_JSON)
		return print_json(rf, n);
	for (i = 0; i < n; i++) {
		err = print_one(&rf[i]);
		if (err) {
			fprintf(stderr, "config: failed to print %s's configuration: %s\n",
				cfg.files[i], strerror(-err));
			return err == -EINVAL ? -EIO : err;
		}
	}
	/* stdout is checked, and a failure said, by main (bench.c) */
	return 0;
}

int bench_config_main(int argc, char **argv)
{
	struct result_file *rf;
	int i, n = 0, err;

	cfg.files = calloc(argc, sizeof(*cfg.files));
	rf = calloc(argc, sizeof(*rf));
	if (!cfg.files || !rf) {
		fprintf(stderr, "config: failed to allocate the file list: %s\n", strerror(ENOMEM));
		/* before anything is read: the table's 2, as it always was here */
		err = -EINVAL;
		goto out;
	}
	err = argp_parse(&config_argp, argc, argv, 0, NULL, NULL) ? -EINVAL : 0;
	/* every file loads before anything is printed */
	if (!err)
		err = result_files_load("config", cfg.files, cfg.nfiles, rf, &n);
	if (!err)
		err = print_all(rf, n);
out:
	for (i = 0; i < n; i++)
		result_file_free(&rf[i]);
	free(rf);
	free(cfg.files);
	return bench_exit_status(err);
}
