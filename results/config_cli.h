/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __CONFIG_CLI_H
#define __CONFIG_CLI_H

/*
 * `bench config [--slug|--key|--json] RUN.json...`: each file's
 * configuration label (result_config.h).  0, 1 (writing failed), 2 (a bad
 * option or file).
 */
int bench_config_main(int argc, char **argv);

#endif /* __CONFIG_CLI_H */
