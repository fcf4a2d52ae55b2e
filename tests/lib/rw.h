/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PREAD and PWRITE side by side: the same arguments, the same checks in
 * the same order (a size of 0 first, then the user range: EFAULT, then
 * the object's bounds: EINVAL), so gem_pread and gem_pwrite share the
 * subtests below, each run in its direction.  What only one direction
 * has (a new object reads as zeroes, a read-only source is fine...)
 * stays in its program.
 *
 * Every subtest works on a "shadow" object: 4 pages + 1 byte asked for
 * (so 5 pages), filled with a pattern, with a CPU copy of what it must
 * hold, compared after each operation: a failed PREAD or PWRITE must
 * leave the object alone.
 */
#ifndef IGT_RW_H
#define IGT_RW_H

#include "gem.h"

enum rw_dir { RW_READ, RW_WRITE };

#define SHADOW_SIZE	(5 * PAGE_SZ)

struct shadow {
	int fd;
	uint32_t handle;
	enum rw_dir dir;
	unsigned char *data;	/* what the object holds */
};

/* open the device, create the object (asserting the rounding), fill it */
void shadow_init(struct shadow *o, enum rw_dir dir);
/* the whole object, read back, is the shadow */
void shadow_check(struct shadow *o, const char *what);
void shadow_fini(struct shadow *o);

/* PREAD into or PWRITE from @buf: 0 or -errno */
int shadow_rw(struct shadow *o, uint64_t offset, void *buf, uint64_t len);

/*
 * One good transfer of [@off, @off + @len) through a user buffer
 * @misalign bytes past an aligned one, checked: a read returns the
 * shadow's bytes and writes nothing around them; a write changes those
 * bytes of the object and nothing else.
 */
void shadow_rw_check(struct shadow *o, uint64_t off, uint64_t len,
		     unsigned int misalign);

/* the subtests both programs run (see rw.c) */
void rw_offsets_lengths(enum rw_dir dir);
void rw_to_the_end(enum rw_dir dir);
void rw_unaligned_buffer(enum rw_dir dir);
void rw_size_zero(enum rw_dir dir);
void rw_beyond_object(enum rw_dir dir);
void rw_offset_overflow(enum rw_dir dir);
void rw_size_overflow(enum rw_dir dir);
void rw_bad_handle(enum rw_dir dir);
void rw_bad_pointer(enum rw_dir dir);
void rw_partly_unmapped(enum rw_dir dir);
void rw_prot_none_hole(enum rw_dir dir);

/* subtest_@name() runs rw_@fn(@dir) */
#define RW_SUBTEST(name, fn, dir) \
	static void subtest_##name(void) \
	{ \
		rw_##fn(dir); \
	}

#endif /* IGT_RW_H */
