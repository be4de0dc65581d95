# Under lockdown the module is not loaded, and the log says why: the kernel
# refuses an unsigned module; a signed one refuses itself (debugfs would be
# read-only).  The tool sees the lockdown and says so before anything else.
# needs: CONFIG_SECURITYFS
# boot: lockdown=integrity pc_noload=1
# expect: Lockdown: insmod: unsigned module loading is restricted|provoke_crash: kernel lockdown makes debugfs read-only
# expect-out: insmod: refused
# expect-out: no directory
# expect-out: tool: provoke-crash: kernel lockdown is 'integrity': debugfs is read-only
# expect-out: tool exit: 4
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|provoke_crash: loaded
# shellcheck shell=dash
insmod /provoke_crash.ko && echo "insmod: loaded" || echo "insmod: refused"
[ -d "$D" ] || echo "no directory"
mount -t securityfs securityfs /sys/kernel/security
provoke-crash status 2>&1 | sed 's/^/tool: /'
provoke-crash status >/dev/null 2>&1
echo "tool exit: $?"
