#!/bin/sh
# SPDX-License-Identifier: MIT
# inspector_make_session's command line: --help is usage, not an output path; an option-like path and a
# non-numeric count are refused without writing anything; a valid call writes the dispatches asked for.
# usage: check_make_session.sh INSPECTOR_MAKE_SESSION WORK_DIR
set -eu
tool=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() {
    echo "check_make_session.sh: FAIL: $1" >&2
    exit 1
}
out=$("$tool" --help) || fail "--help exited with $?"
case $out in usage:*) ;; *) fail "--help printed '$out'" ;; esac
status=0
"$tool" --out 2> /dev/null || status=$?
[ "$status" -eq 2 ] || fail "an option-like path exited with $status, not 2"
status=0
"$tool" s.rsdb 12x 2> /dev/null || status=$?
[ "$status" -eq 2 ] || fail "a count '12x' exited with $status, not 2"
[ -z "$(ls -A)" ] || fail "refused calls wrote $(ls -A)"
"$tool" s.rsdb 20 2 || fail "a valid call failed"
n=$(sqlite3 s.rsdb "SELECT count(*) FROM dispatches")
[ "$n" = 20 ] || fail "s.rsdb has $n dispatches, not 20"
echo "check_make_session.sh: OK"
