/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tiled.h: one 32-bit surface, linear or X/Y tiled, for the tiling tests
 * (gem_tiled_blits, gem_tiled_gtt): the CPU reference tiling with bit-6
 * swizzle, SET_TILING with its answers checked, whole-surface blitter
 * copies, and the check of a tiled object's bytes as pread shows them.
 */
#ifndef TESTS_LIB_TILED_H
#define TESTS_LIB_TILED_H

#include "exec.h"

#define TSURF_WIDTH	256	/* pixels of 4 bytes */
#define TSURF_HEIGHT	64
#define TSURF_STRIDE	(TSURF_WIDTH * 4)
#define TSURF_SIZE	(TSURF_STRIDE * TSURF_HEIGHT)

struct tsurf {
	struct bo bo;
	uint32_t tiling;
	uint32_t swizzle;
};

/* The GPU under test; before anything else below. */
void tsurf_setup(int fd);
int tsurf_gen(void);
bool tsurf_y512(void);	/* 915G/GM: Y tiles of 32-byte columns, 8 rows */

uint64_t tile_offset(uint32_t tiling, uint32_t swizzle, uint64_t v);
void tile(uint8_t *dst, const uint8_t *src, uint32_t tiling,
	  uint32_t swizzle);

void tsurf_set_tiling(int fd, struct tsurf *s, uint32_t tiling);
void tsurf_init(int fd, struct tsurf *s, uint32_t tiling);
void tsurf_emit_copy(struct batch *b, struct tsurf *dst, struct tsurf *src);
void tsurf_copy(int fd, struct tsurf *dst, struct tsurf *src);
void tsurf_check_tiled(int fd, struct tsurf *s, const uint8_t *linear,
		       const char *what);

#endif
