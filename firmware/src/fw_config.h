/* SPDX-License-Identifier: MIT */
/*
 * Clock assumptions (docs/firmware.md "Time"). mgmt_soc's timer counts
 * mtime once every TIMER_PRESCALE core clocks; the NIC instantiates it with
 * TIMER_PRESCALE = FW_CORE_HZ / FW_MTIME_HZ, so that mtime counts
 * microseconds whatever the core clock. The firmware only assumes
 * FW_MTIME_HZ; FW_CORE_HZ is the clock the NIC's logic is sized for (250
 * MHz: TIMER_PRESCALE 250). The system test runs the SoC with
 * TIMER_PRESCALE 4, so that its "millisecond" is 4000 clocks.
 */
#ifndef FW_CONFIG_H
#define FW_CONFIG_H

#define FW_CORE_HZ		250000000u
#define FW_MTIME_HZ		1000000u
#define FW_HEARTBEAT_HZ		1000u	/* FW_HEARTBEAT: +1 a millisecond */
#define FW_TICK			(FW_MTIME_HZ / FW_HEARTBEAT_HZ)	/* mtime ticks */
#define FW_TIMER_PRESCALE	(FW_CORE_HZ / FW_MTIME_HZ)

#endif /* FW_CONFIG_H */
