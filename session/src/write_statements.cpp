// SPDX-License-Identifier: MIT
// The writer's statements (write_statements.h).
#include "replayscope/session/write_statements.h"

namespace rs::session {

namespace {

/// Merges a (partial) row into an existing one (dispatch_row_insert).
constexpr const char* kRowUpsert =
    " ON CONFLICT(key) DO UPDATE SET"
    " seq = CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " ts_ns = CASE WHEN excluded.decision IS NOT NULL THEN excluded.ts_ns ELSE ts_ns END,"
    " agent_ref = coalesce(excluded.agent_ref, agent_ref), queue_ref = coalesce(excluded.queue_ref, "
    "queue_ref),"
    " kernel_ref = coalesce(excluded.kernel_ref, kernel_ref),"
    " kernel_name_id = coalesce(excluded.kernel_name_id, kernel_name_id),"
    " grid_x = coalesce(excluded.grid_x, grid_x), grid_y = coalesce(excluded.grid_y, grid_y),"
    " grid_z = coalesce(excluded.grid_z, grid_z), workgroup_x = coalesce(excluded.workgroup_x, workgroup_x),"
    " workgroup_y = coalesce(excluded.workgroup_y, workgroup_y),"
    " workgroup_z = coalesce(excluded.workgroup_z, workgroup_z), decision = coalesce(excluded.decision, "
    "decision),"
    " s_dseq = CASE WHEN excluded.s_dseq IS NOT NULL THEN excluded.seq + excluded.s_dseq ELSE seq + s_dseq "
    "END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " s_dts = CASE WHEN excluded.s_dts IS NOT NULL THEN excluded.ts_ns + excluded.s_dts ELSE ts_ns + s_dts "
    "END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.ts_ns ELSE ts_ns END,"
    " s_agent_ref = coalesce(excluded.s_agent_ref, s_agent_ref),"
    " generation = coalesce(excluded.generation, generation), regions = coalesce(excluded.regions, regions),"
    " bytes = coalesce(excluded.bytes, bytes), duration_ns = coalesce(excluded.duration_ns, duration_ns),"
    " ok = coalesce(excluded.ok, ok), failures = coalesce(excluded.failures, failures),"
    " p0_dseq = CASE WHEN excluded.p0_dseq IS NOT NULL THEN excluded.seq + excluded.p0_dseq ELSE seq + "
    "p0_dseq END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " p0_start = coalesce(excluded.p0_start, p0_start), p0_ticks = coalesce(excluded.p0_ticks, p0_ticks),"
    " p0_restore_ns = coalesce(excluded.p0_restore_ns, p0_restore_ns),"
    " p0_regions = coalesce(excluded.p0_regions, p0_regions), p0_bytes = coalesce(excluded.p0_bytes, "
    "p0_bytes),"
    " p0_skips = coalesce(excluded.p0_skips, p0_skips), p0_fidelity = coalesce(excluded.p0_fidelity, "
    "p0_fidelity),"
    " p1_dseq = CASE WHEN excluded.p1_dseq IS NOT NULL THEN excluded.seq + excluded.p1_dseq ELSE seq + "
    "p1_dseq END"
    "   - CASE WHEN excluded.decision IS NOT NULL THEN excluded.seq ELSE seq END,"
    " p1_start = CASE WHEN excluded.p1_start IS NULL THEN p1_start WHEN excluded.p0_dseq IS NULL"
    "   THEN excluded.p1_start - coalesce(p0_start, 0) ELSE excluded.p1_start END,"
    " p1_ticks = coalesce(excluded.p1_ticks, p1_ticks),"
    " p1_restore_ns = coalesce(excluded.p1_restore_ns, p1_restore_ns),"
    " p1_regions = coalesce(excluded.p1_regions, p1_regions), p1_bytes = coalesce(excluded.p1_bytes, "
    "p1_bytes),"
    " p1_skips = coalesce(excluded.p1_skips, p1_skips), p1_fidelity = coalesce(excluded.p1_fidelity, "
    "p1_fidelity),"
    " s_store = coalesce(excluded.s_store, s_store), r1 = coalesce(excluded.r1, r1), rf = "
    "coalesce(excluded.rf, rf), s_fence_ns = coalesce(excluded.s_fence_ns, s_fence_ns)";

} // namespace

std::string dispatch_row_insert(int rows, bool narrow) {
    std::string sql =
        !narrow ? "INSERT INTO dispatch_rows(key, seq, ts_ns, agent_ref, queue_ref, kernel_ref, "
                  "kernel_name_id, "
                  "grid_x, grid_y, grid_z, workgroup_x, workgroup_y, workgroup_z, decision, s_dseq, s_dts, "
                  "s_agent_ref, generation, regions, bytes, duration_ns, ok, failures, p0_dseq, p0_start, "
                  "p0_ticks, p0_restore_ns, p0_regions, p0_bytes, p0_skips, p0_fidelity, p1_dseq, p1_start, "
                  "p1_ticks, p1_restore_ns, p1_regions, p1_bytes, p1_skips, p1_fidelity, s_store, r1, rf, "
                  "s_fence_ns) "
                  "VALUES "
                : "INSERT INTO dispatch_rows(key, seq, ts_ns, agent_ref, queue_ref, kernel_ref, "
                  "kernel_name_id, grid_x, grid_y, grid_z, workgroup_x, workgroup_y, workgroup_z, "
                  "decision) VALUES ";
    const int columns = narrow ? kDispatchColumns : kRowColumns;
    for (int i = 0; i < rows; ++i) {
        sql += i == 0 ? "(" : ",(";
        for (int c = 0; c < columns; ++c) {
            sql += c == 0 ? "?" : ",?";
        }
        sql += ")";
    }
    return sql + kRowUpsert;
}

} // namespace rs::session
