#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs Debian's rocminfo 5.2.3 on the simulated runtime and checks what it prints.
# usage: run_rocminfo.sh ROCMINFO SIM_LIBRARY_DIR KFD_SHIM WORK_DIR
#
# rocminfo checks two things before hsa_init (rocminfo.cc, CheckInitialState, ROCm 5.2.x):
#  1. `lsmod | grep amdgpu` prints something (the amdgpu kernel module is loaded), run through popen,
#     so through /bin/sh and PATH: a stand-in `lsmod` printing an amdgpu line is put first on PATH in
#     WORK_DIR/bin;
#  2. /dev/kfd opens read-write (then the group-membership diagnosis is skipped): KFD_SHIM, LD_PRELOADed
#     into rocminfo only (after RS_ROCMINFO_PRELOAD when set: the ASan runtime in the asan preset),
#     answers that open with /dev/null.
# Both live in this process tree only: no file outside WORK_DIR is created, no mount, no privilege.
set -eu
rocminfo=$1 simlib=$2 shim=$3 work=$4
mkdir -p "$work/bin"
cat > "$work/bin/lsmod" <<'LSMOD'
#!/bin/sh
# Stand-in for lsmod(8) in the rocminfo test: the amdgpu module "is loaded".
echo "Module                  Size  Used by"
echo "amdgpu               9000000  0"
LSMOD
chmod +x "$work/bin/lsmod"
out="$work/rocminfo.out"
status=0
PATH="$work/bin:$PATH" LD_LIBRARY_PATH="$simlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_PRELOAD="${RS_ROCMINFO_PRELOAD:+$RS_ROCMINFO_PRELOAD }$shim" \
    "$rocminfo" > "$out" 2>&1 || status=$?
cat "$out"
fail() {
    echo "run_rocminfo.sh: FAIL: $1" >&2
    exit 1
}
[ "$status" -eq 0 ] || fail "rocminfo exited with status $status"
grep -q "ROCk module is loaded" "$out" || fail "the lsmod stand-in was not used"
grep -q "HSA System Attributes" "$out" || fail "no system attributes (hsa_init failed?)"
# Agent names: the CPU agent, then the gfx90a GPU agent with its marketing name.
grep -Eq "^ *Name: +ReplayScope simulated CPU *$" "$out" || fail "no CPU agent"
grep -Eq "^ *Name: +gfx90a *$" "$out" || fail "no gfx90a agent"
grep -Eq "^ *Device Type: +CPU *$" "$out" || fail "no agent of device type CPU"
grep -Eq "^ *Device Type: +GPU *$" "$out" || fail "no agent of device type GPU"
grep -Eq "^ *Marketing Name: +ReplayScope simulated GPU *$" "$out" || fail "no GPU marketing name"
# The ISA with target features, and the GROUP (LDS) pool.
grep -Eq "^ *Name: +amdgcn-amd-amdhsa--gfx90a:sramecc\+:xnack- *$" "$out" || fail "no ISA name with features"
grep -Eq "^ *Segment: +GROUP *$" "$out" || fail "no GROUP pool"
grep -Eq "^ *Compute Unit: +104 *$" "$out" || fail "no 104 compute units"
tail -n 3 "$out" | grep -q "\*\*\* Done \*\*\*" || fail "rocminfo did not end with *** Done ***"
echo "run_rocminfo.sh: PASS"
