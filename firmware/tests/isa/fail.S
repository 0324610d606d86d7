/* SPDX-License-Identifier: MIT */
/* a negative check of the harness: check 3 expects a wrong value, so this
 * program must report "check 3 failed" (tohost 7); a harness that calls it
 * a pass is broken */
#include "test.h"
RVTEST_BEGIN
	TEST_RR(1, add, 3, 1, 2)
	TEST_RR(2, sub, 1, 3, 2)
	TEST_RR(3, add, 4, 1, 2)
	TEST_RR(4, add, 5, 2, 3)
RVTEST_END
