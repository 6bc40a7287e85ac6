// SPDX-License-Identifier: MIT
// Program control: SOPP (branches, s_barrier, s_waitcnt, s_endpgm, s_sendmsg, s_trap, ...) and s_call_b64
// (CDNA2 ISA §4.5 "Branching", §4.4 "Data Dependency Resolution", §12.5).
#include "op_table.h"
#include "operand_access.h"

namespace sim::isa {

namespace {

void branch_to(Wave& w, const Instruction& in) {
    if (in.simm < 0) {
        fault(w, in, "branch target outside the decoded code");
        return;
    }
    w.pc = static_cast<uint32_t>(in.simm);
}

void s_branch(Wave& w, const Instruction& in) {
    branch_to(w, in);
}

template <bool (*Taken)(const Wave&)>
void cbranch(Wave& w, const Instruction& in) {
    if (Taken(w)) {
        branch_to(w, in);
    }
}
bool scc0(const Wave& w) {
    return !w.scc;
}
bool scc1(const Wave& w) {
    return w.scc;
}
bool vccz(const Wave& w) {
    return w.vcc() == 0;
}
bool vccnz(const Wave& w) {
    return w.vcc() != 0;
}
bool execz(const Wave& w) {
    return w.exec() == 0;
}
bool execnz(const Wave& w) {
    return w.exec() != 0;
}
bool never(const Wave&) {
    return false;
}

void s_call_b64(Wave& w, const Instruction& in) {
    write_scalar64(w, in.dst[0], w.program->base_address + in.address + in.size);
    branch_to(w, in);
}

void nothing(Wave&, const Instruction&) {}

void s_endpgm(Wave& w, const Instruction&) {
    w.status = WaveStatus::ended;
}

void s_barrier(Wave& w, const Instruction&) {
    w.status = WaveStatus::barrier;
}

void s_trap(Wave& w, const Instruction& in) {
    const int64_t id = in.src_count ? static_cast<int64_t>(in.src[0].value & 0xff) : 0;
    // ROCr's trap handler: trap id 2 (llvm.trap, abort, assert) ends the dispatch with a queue error;
    // llvm.debugtrap (3) with no debugger attached continues.
    if (id == 3) {
        return;
    }
    fault(w, in, "s_trap " + std::to_string(id) + " (a trap in the kernel: abort, assert or llvm.trap)");
}

void add(OpTable& t, const char* name, ExecuteFn fn, Unit unit = Unit::program, uint8_t dsts = 0) {
    t.add({name, fn, unit, dsts, {ValueType::b32, ValueType::b32, ValueType::b32, ValueType::b32}});
}

} // namespace

void register_program_ops(OpTable& t) {
    add(t, "s_branch", s_branch, Unit::branch);
    add(t, "s_cbranch_scc0", cbranch<scc0>, Unit::branch);
    add(t, "s_cbranch_scc1", cbranch<scc1>, Unit::branch);
    add(t, "s_cbranch_vccz", cbranch<vccz>, Unit::branch);
    add(t, "s_cbranch_vccnz", cbranch<vccnz>, Unit::branch);
    add(t, "s_cbranch_execz", cbranch<execz>, Unit::branch);
    add(t, "s_cbranch_execnz", cbranch<execnz>, Unit::branch);
    // No debugger is ever attached: the debug-system branches fall through.
    add(t, "s_cbranch_cdbgsys", cbranch<never>, Unit::branch);
    add(t, "s_cbranch_cdbguser", cbranch<never>, Unit::branch);
    add(t, "s_cbranch_cdbgsys_or_user", cbranch<never>, Unit::branch);
    add(t, "s_cbranch_cdbgsys_and_user", cbranch<never>, Unit::branch);
    add(t, "s_call_b64", s_call_b64, Unit::branch, 1);
    add(t, "s_endpgm", s_endpgm);
    add(t, "s_endpgm_saved", s_endpgm);
    add(t, "s_endpgm_ordered_ps_done", s_endpgm);
    add(t, "s_code_end", s_endpgm);
    add(t, "s_barrier", s_barrier);
    add(t, "s_trap", s_trap);
    // Memory is complete when an instruction finishes here, so waits and scheduling hints do nothing.
    for (const char* name : {"s_nop",
                             "s_waitcnt",
                             "s_sleep",
                             "s_setprio",
                             "s_sethalt",
                             "s_icache_inv",
                             "s_incperflevel",
                             "s_decperflevel",
                             "s_ttracedata",
                             "s_sendmsg",
                             "s_sendmsghalt",
                             "s_setkill",
                             "s_wakeup",
                             "s_dcache_wb",
                             "s_dcache_inv",
                             "s_dcache_inv_vol",
                             "s_dcache_wb_vol",
                             "buffer_wbinvl1",
                             "buffer_wbinvl1_vol",
                             "buffer_wbl2",
                             "buffer_invl2",
                             "s_waitcnt_depctr"}) {
        add(t, name, nothing);
    }
}

} // namespace sim::isa
