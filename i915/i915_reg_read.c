// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: REG_READ and the timestamp frequency
 *
 * DRM_IOCTL_I915_REG_READ gives user space one register, as upstream's
 * list does on these parts: the render engine's 64-bit timestamp,
 * TIMESTAMP at 0x2358, on Gen4 only (Mesa reads it for GL_TIMESTAMP,
 * which crocus offers from Gen6; libdrm's drm_intel_reg_read()).  The caller's
 * offset names the register's lower dword with flags in its three low
 * bits: 0 reads the 8 bytes in one 64-bit access; I915_REG_READ_8B_WA
 * reads the upper dword, the lower, and the upper again, repeating (at
 * most twice more) while the upper one moved, so that a carry between the
 * two reads cannot tear the value.  Any other flag value, any other
 * offset (the upper 32 bits of the u64 included) and any offset at all on
 * Gen3 fail with -EINVAL.  Render nodes may call it, as upstream's.
 *
 * GETPARAM CS_TIMESTAMP_FREQUENCY answers the rate that timestamp counts
 * at, derived as upstream derives it on Gen2-Gen4: once every 16 host
 * clocks, the host clock (hrawclk) being a quarter of the FSB frequency
 * whose straps CLKCFG holds in the MCHBAR mirror.  It is read once at
 * probe; mobile and desktop parts encode the straps differently, and a
 * code the table does not know means 133.333 MHz.  Upstream answers it
 * on Gen3 as well, which has no timestamp register; so does this driver.
 */

#include <uapi/drm/i915_drm.h>

#include "i915_drv.h"
#include "i915_reg.h"

/* hrawclk in kHz from CLKCFG's FSB straps */
static u32 hrawclk_khz(const struct i915_device_info *info, u32 clkcfg)
{
	u32 fsb = clkcfg & I915_CLKCFG_FSB_MASK;

	if (info->is_mobile) {
		switch (fsb) {
		case I915_CLKCFG_FSB_400:
			return 100000;
		case I915_CLKCFG_FSB_533:
			return 133333;
		case I915_CLKCFG_FSB_667:
			return 166667;
		case I915_CLKCFG_FSB_800:
			return 200000;
		case I915_CLKCFG_FSB_1067:
			return 266667;
		case I915_CLKCFG_FSB_1333:
			return 333333;
		}
		return I915_HRAWCLK_DEFAULT_KHZ;
	}

	switch (fsb) {
	case I915_CLKCFG_FSB_400_ALT:
		return 100000;
	case I915_CLKCFG_FSB_533:
		return 133333;
	case I915_CLKCFG_FSB_667:
		return 166667;
	case I915_CLKCFG_FSB_800:
		return 200000;
	case I915_CLKCFG_FSB_1067_ALT:
		return 266667;
	case I915_CLKCFG_FSB_1333_ALT:
		return 333333;
	case I915_CLKCFG_FSB_1600_ALT:
		return 400000;
	}
	return I915_HRAWCLK_DEFAULT_KHZ;
}

/**
 * i915_timestamp_init - read the timestamp's frequency from CLKCFG
 * @i915: the device, its hardware seam initialised
 *
 * Sets @i915->timestamp_hz, which GETPARAM CS_TIMESTAMP_FREQUENCY answers.
 */
void i915_timestamp_init(struct i915_device *i915)
{
	u32 clkcfg = i915_read(&i915->hw, I915_CLKCFG);
	u32 khz = hrawclk_khz(i915->info, clkcfg);

	i915->timestamp_hz = khz * 1000 / I915_TIMESTAMP_HCLK_DIVIDER;
	drm_dbg(&i915->drm, "CLKCFG 0x%08x: hrawclk %u kHz, timestamp %u Hz\n",
		clkcfg, khz, i915->timestamp_hz);
}

/* Upper, lower, upper again until the upper dword holds still. */
static u64 read64_2x32(struct i915_hw *hw, u32 lower_reg, u32 upper_reg)
{
	u32 upper, old_upper, lower;
	unsigned int tries = 0;

	upper = i915_read(hw, upper_reg);
	do {
		old_upper = upper;
		lower = i915_read(hw, lower_reg);
		upper = i915_read(hw, upper_reg);
	} while (upper != old_upper && tries++ < 2);

	return (u64)upper << 32 | lower;
}

/**
 * i915_reg_read_ioctl - REG_READ: read a register user space may read
 * @dev: DRM device
 * @data: &struct drm_i915_reg_read
 * @file: DRM file
 *
 * Return: 0 with the value in @data->val; -EINVAL for a register not on
 * the list for this GPU (every one on Gen3) or an unknown flag.
 */
int i915_reg_read_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct i915_device *i915 = to_i915(dev);
	struct drm_i915_reg_read *reg = data;
	u64 offset = reg->offset & ~(u64)(sizeof(u64) - 1);
	u64 flags = reg->offset & (sizeof(u64) - 1);

	if (i915->info->gen < 4 || offset != I965_RING_TIMESTAMP)
		return -EINVAL;

	switch (flags) {
	case 0:
		reg->val = i915_read64(&i915->hw, I965_RING_TIMESTAMP);
		return 0;
	case I915_REG_READ_8B_WA:
		reg->val = read64_2x32(&i915->hw, I965_RING_TIMESTAMP,
				       I965_RING_TIMESTAMP_UDW);
		return 0;
	}
	return -EINVAL;
}
