/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between progs/map_perf.c and benchs/bench_map_perf.c. */
#ifndef __MAP_PERF_H
#define __MAP_PERF_H

/*
 * samples/bpf/map_perf_test's update tests, per trigger: the hash maps do
 * MAP_PERF_HASH_ROUNDS rounds of update, lookup and delete of the
 * producer's key; the LRU maps one update of a random key; the LPM trie
 * MAP_PERF_LPM_LOOKUPS lookups of one prefix.
 */
#define MAP_PERF_HASH_ROUNDS	10
#define MAP_PERF_LPM_LOOKUPS	32

/*
 * A producer's counters are bench_prod_counter (bench_producer.h): hits
 * are triggers (map_perf_test's events), and each of the trigger's
 * operations ends in exactly one of:
 */
#define MAP_PERF_FAILED	0	/* the update failed (LPM: the lookup missed) */
#define MAP_PERF_DONE	1	/* hash: the key was found and deleted; LRU: the update
				 * succeeded; LPM: the lookup hit */

#endif /* __MAP_PERF_H */
