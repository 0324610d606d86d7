/* SPDX-License-Identifier: MIT */
/*
 * The packets this host counted as dropped, so that a UDP transfer can tell
 * loss that a counter explains (a receive ring without buffers, a full
 * socket buffer, a full transmit queue) from loss that nothing accounts for.
 */
#ifndef INCGRAD_DROPS_H
#define INCGRAD_DROPS_H

#include <stdint.h>

/*
 * Receive side: the "drop" column of /proc/net/dev over every interface
 * (a driver's rx_dropped, which for inceptionn includes the NIC's drops),
 * plus Udp InErrors (/proc/net/snmp) and Udp6InErrors (/proc/net/snmp6),
 * which count full socket buffers and bad checksums.
 * Transmit side: the transmit "drop" column; the drops of every root
 * queueing discipline (rtnetlink: fq_codel, the kernel's default, drops at
 * dequeue behind a back-pressured NIC, unseen by any other counter; a
 * drop on enqueue is also UDP's SndbufErrors, which are read instead only
 * without rtnetlink); the neighbour tables' unresolved_discards
 * (/proc/net/stat/arp_cache and ndisc_cache: a full queue waiting for an
 * address resolution).
 * Files that are missing (no IPv6) count 0. 0, or -1 when /proc/net/dev
 * cannot be read.
 */
int ig_host_drops(int rx, uint64_t *drops);

/*
 * Address resolutions that failed (res_failed of arp_cache and
 * ndisc_cache): the packets queued for them were dropped, which the kernel
 * does not count one by one. 0, or -1 when neither file can be read.
 */
int ig_neigh_failed(uint64_t *failed);

/*
 * Packets this host's IP layer refused as it received them (IPv4 and IPv6:
 * bad headers or header checksums, truncated packets, wrong addresses,
 * unknown protocols, discards, failed reassemblies: the Ip lines
 * of /proc/net/snmp, IpExt of /proc/net/netstat, Ip6 of /proc/net/snmp6).
 * Not drops a busy host explains: a NIC that restored a frame wrongly
 * shows here. 0, or -1 when /proc/net/snmp cannot be read.
 */
int ig_ip_in_errors(uint64_t *errors);

#endif
