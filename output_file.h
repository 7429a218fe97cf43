/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __OUTPUT_FILE_H
#define __OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Every file bench writes goes through here, so that a path naming
 * something other than a regular file is never replaced and a failed
 * write never leaves a partial or temporary file:
 *
 * - a regular file or a new path (symlinks followed first, dangling ones
 *   included: the link keeps pointing at the new content) is written to a
 *   temporary file in the final directory, fsynced and renamed over it.
 *   A new file gets 0666 less the umask; an existing one keeps its mode.
 * - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to
 *   that open descriptor; a FIFO, a character device or a socket is opened
 *   and written in place.  Either is written in one go, every write and
 *   the close checked.
 * - a directory or a block device is refused.
 *
 * The content is collected in memory (output_file_stream() is an ordinary
 * FILE *) and written by output_file_commit(), so nothing exists at the
 * path until the whole content does.  Functions return 0 or a negative
 * errno; none prints.
 */
struct output_file;

/*
 * Without creating or opening anything: -errno if content could not be
 * written at path (missing or read-only directory, directory, block
 * device, full file system, closed descriptor).
 */
int output_file_check(const char *path);
/*
 * The same, when it fails: a path is a bad option, "invalid OPT 'PATH':
 * cannot write there: ..." and -EINVAL; the standard output is an output
 * that could not be written, not bad input: its -errno, kept as a failed
 * write there is (output_stdout_error()), for README's one line at the end
 */
int output_file_precheck(const char *opt, const char *path);

/* true when path names the standard output ("-", /dev/stdout, ...) */
int output_file_is_stdout(const char *path);
/* path as a message names it: "standard output" for "-", /dev/stdout, ... */
const char *output_file_name(const char *path);

int output_file_open(struct output_file **of, const char *path);
FILE *output_file_stream(struct output_file *of);
/* writes the content; frees of whatever the outcome */
int output_file_commit(struct output_file *of);
/* discards the content; nothing is written */
void output_file_abort(struct output_file *of);

/* open, write buf, commit */
int output_file_write(const char *path, const void *buf, size_t len);

/*
 * Standard output, through one checked path.  output_stdout_init(), in
 * main before anything is printed, puts in stdout's place a stream whose
 * writes keep the first error with its errno (stdio's error flag alone
 * loses it) and never raise SIGPIPE: a reader that went away is EPIPE.
 * After the first failure nothing more is written there.
 */
int output_stdout_init(void);
/* flushes stdout: 0, or -errno of the first write there that failed */
int output_stdout_error(void);
/* whether anything was written (or tried) there since output_stdout_init() */
bool output_stdout_used(void);
/*
 * output_stdout_error(), then a close of a duplicate of the descriptor:
 * the error a file system defers to the close (NFS) is seen too
 */
int output_stdout_close(void);

#endif /* __OUTPUT_FILE_H */
