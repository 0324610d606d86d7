/* SPDX-License-Identifier: MIT */
/*
 * The names of vl_nic.h under another prefix, for a program that holds two
 * models of the NIC: the lockstep check (sim/nic/vl_nic_lockstep.cpp) links
 * vl_nic.cpp compiled as the reference model (VL_NIC_AS_REF: vlref_*) and
 * as the working tree's (VL_NIC_AS_CUR: vlcur_*), and implements the plain
 * vl_nic_* names itself. Without either macro this header does nothing.
 * struct vl_nic_io is shared: both models take the same inputs.
 */
#ifndef INC_VL_NIC_AS_H
#define INC_VL_NIC_AS_H

#if defined(VL_NIC_AS_REF)
#define vl_nic			vlref_nic
#define vl_nic_beat		vlref_nic_beat
#define vl_nic_new		vlref_nic_new
#define vl_nic_free		vlref_nic_free
#define vl_nic_set_inputs	vlref_nic_set_inputs
#define vl_nic_settle		vlref_nic_settle
#define vl_nic_get_outputs	vlref_nic_get_outputs
#define vl_nic_eval		vlref_nic_eval
#define vl_nic_tick		vlref_nic_tick
#define vl_nic_reset		vlref_nic_reset
#define vl_nic_cycles		vlref_nic_cycles
#define vl_nic_sleep_limit	vlref_nic_sleep_limit
#define vl_nic_skip		vlref_nic_skip
#define vl_nic_mtime		vlref_nic_mtime
#elif defined(VL_NIC_AS_CUR)
#define vl_nic			vlcur_nic
#define vl_nic_beat		vlcur_nic_beat
#define vl_nic_new		vlcur_nic_new
#define vl_nic_free		vlcur_nic_free
#define vl_nic_set_inputs	vlcur_nic_set_inputs
#define vl_nic_settle		vlcur_nic_settle
#define vl_nic_get_outputs	vlcur_nic_get_outputs
#define vl_nic_eval		vlcur_nic_eval
#define vl_nic_tick		vlcur_nic_tick
#define vl_nic_reset		vlcur_nic_reset
#define vl_nic_cycles		vlcur_nic_cycles
#define vl_nic_sleep_limit	vlcur_nic_sleep_limit
#define vl_nic_skip		vlcur_nic_skip
#define vl_nic_mtime		vlcur_nic_mtime
#endif

#endif
