// libi2c-dev (i2c-tools): SMBus helpers, plus the kernel's i2c-dev uAPI for I2C_RDWR.
#include <stddef.h>
#include <linux/types.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
