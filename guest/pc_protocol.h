/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pc_protocol.h: the console protocol's markers, generated from the table in
 * engine/pcengine/protocol.py by "make protocol": do not edit.  A
 * marker starts its line, alone or followed by a space and its
 * arguments (given below).
 */
#ifndef PC_PROTOCOL_H
#define PC_PROTOCOL_H

#define PCM_GUEST_START "PC-GUEST-START"	/* CASE RELEASE */
#define PCM_GUEST_END "PC-GUEST-END"
#define PCM_SNAPSHOT_READY "PC-SNAPSHOT-READY"
#define PCM_NOTE "PC-NOTE"	/* TEXT */
#define PCM_NO_CASE "PC-NO-CASE"	/* CASE */
#define PCM_INSMOD_FAILED "PC-INSMOD-FAILED"
#define PCM_PSTORE_BEGIN "PC-PSTORE-BEGIN"	/* RECORD */
#define PCM_PSTORE_END "PC-PSTORE-END"
#define PCM_PSTORE_DONE "PC-PSTORE-DONE"
#define PCM_PSTORE_RAM "PC-PSTORE-RAM"	/* ADDR SIZE */
#define PCM_PART "PC-PART"	/* CASE */
#define PCM_SKIP "PC-SKIP"	/* REASON */
#define PCM_NOT_DISARMED "PC-NOT-DISARMED"	/* LISTING */
#define PCM_DETECTOR "PC-DETECTOR"	/* TEXT */
#define PCM_KDUMP_TEXT "PC-KDUMP-TEXT"	/* SYMLINE (_stext ADDR) */
#define PCM_KDUMP_LOADED "PC-KDUMP-LOADED"	/* N bytes reserved */
#define PCM_KDUMP_LOAD_FAILED "PC-KDUMP-LOAD-FAILED"	/* TEXT */
#define PCM_KDUMP_CLOCK "PC-KDUMP-CLOCK"	/* up=S ticks=N hz=HZ */
#define PCM_KDUMP_CAPTURE "PC-KDUMP-CAPTURE"	/* up=S ticks=N hz=HZ */
#define PCM_KDUMP_VMCORE "PC-KDUMP-VMCORE"	/* N bytes */
#define PCM_KDUMP_DMESG_BEGIN "PC-KDUMP-DMESG-BEGIN"
#define PCM_KDUMP_DMESG_END "PC-KDUMP-DMESG-END"
#define PCM_KDUMP_BAD_LEVEL "PC-KDUMP-BAD-LEVEL"	/* TEXT */
#define PCM_KDUMP_DUMP "PC-KDUMP-DUMP"	/* N bytes */
#define PCM_KDUMP_NO_VMCORE "PC-KDUMP-NO-VMCORE"
#define PCM_KDUMP_DONE "PC-KDUMP-DONE"
#define PCM_RUN_BEGIN "PC-RUN-BEGIN"
#define PCM_RUN_END "PC-RUN-END"	/* [RC] */
#define PCM_ARM_REFUSED "PC-ARM-REFUSED"
#define PCM_TRIGGER_REFUSED "PC-TRIGGER-REFUSED"
#define PCM_GDB_WAIT "PC-GDB-WAIT"
#define PCM_MODULE_FAILED "PC-MODULE-FAILED"	/* NAME ERROR */
#define PCM_WHY "PC-WHY"	/* KERNEL-LINE */
#define PCM_POINT "PC-POINT"	/* LISTING-LINE */
#define PCM_NO_OOPS "PC-NO-OOPS"

#endif /* PC_PROTOCOL_H */
