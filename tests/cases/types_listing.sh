# The module's `types` file lists exactly the table: name, a tab, description.
# debug-slice: no: the table as text, the same on every kernel
# expect-out: types: match
# expect-out: PC-GUEST-END
# shellcheck shell=dash
cat "$D/types"
provoke-crash types --table | cut -f1,7 >/tmp/table
cmp "$D/types" /tmp/table && echo "types: match"
