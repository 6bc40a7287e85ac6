-- SPDX-License-Identifier: MIT
-- Views of a ReplayScope session file (format 4; docs/session-schema.md), created after tables.sql: the
-- documented columns over the physical rows.
CREATE VIEW snapshot_stores AS
  SELECT process AS process, id AS dispatch_id, CASE WHEN s_store & 3 = 0 THEN bytes ELSE 0 END AS host_bytes,
         CASE WHEN s_store & 3 = 1 THEN bytes ELSE 0 END AS device_bytes, s_store >> 37 AS hash_ns,
         (s_store >> 5) & 4294967295 AS total_chunks, s_store & 3 AS store, (s_store >> 2) & 3 AS hash_path,
         1 - ((s_store >> 4) & 1) AS host_pinned
  FROM dispatch_rows WHERE s_store IS NOT NULL
  UNION ALL
  SELECT process, dispatch_id, host_bytes, device_bytes, hash_ns, total_chunks, store, hash_path, host_pinned
  FROM snapshot_store_rows;
CREATE VIEW restores AS
  SELECT process AS process, id AS dispatch, 1 AS pass_index, 0 AS final,
         CASE WHEN s_store & 3 = 0 THEN coalesce(p1_bytes, bytes) ELSE 0 END AS restored_bytes_host,
         CASE WHEN s_store & 3 = 1 THEN coalesce(p1_bytes, bytes) ELSE 0 END AS restored_bytes_device,
         r1 >> 32 AS hash_ns, p1_restore_ns AS restore_ns, coalesce(p1_regions, regions) AS regions_restored,
         r1 & 4294967295 AS dirty_chunks, (s_store >> 5) & 4294967295 AS total_chunks, 0 AS missed_chunks,
         seq + p1_dseq - 1 AS seq, NULL AS ts_ns
  FROM dispatch_rows WHERE r1 IS NOT NULL
  UNION ALL
  SELECT process, id, 2, 1, CASE WHEN s_store & 3 = 0 THEN coalesce(p1_bytes, bytes) ELSE 0 END,
         CASE WHEN s_store & 3 = 1 THEN coalesce(p1_bytes, bytes) ELSE 0 END, rf >> 31, rf & 2147483647,
         coalesce(p1_regions, regions), r1 & 4294967295, (s_store >> 5) & 4294967295, 0, seq + p1_dseq + 1, NULL
  FROM dispatch_rows WHERE rf IS NOT NULL
  UNION ALL
  SELECT process, dispatch, pass_index, final, restored_bytes_host, restored_bytes_device, hash_ns, restore_ns,
         regions_restored, dirty_chunks, total_chunks, missed_chunks, seq, ts_ns
  FROM restore_rows;
CREATE VIEW dispatches AS
  SELECT r.process AS process, r.id AS id, r.seq AS seq, r.ts_ns AS ts_ns, ha.handle AS agent,
         hq.handle AS queue, hk.handle AS kernel_object, r.kernel_name_id AS kernel_name_id, r.grid_x AS grid_x,
         r.grid_y AS grid_y, r.grid_z AS grid_z, r.workgroup_x AS workgroup_x, r.workgroup_y AS workgroup_y,
         r.workgroup_z AS workgroup_z, r.decision AS decision,
         CASE WHEN r.s_dseq IS NOT NULL THEN r.bytes END AS footprint,
         (SELECT e.name FROM enum_names e WHERE e.enum = 'snapshot_store' AND e.code =
            CASE WHEN r.s_store IS NOT NULL THEN r.s_store & 3 ELSE (SELECT x.store FROM snapshot_store_rows x
              WHERE x.process = r.process AND x.dispatch_id = r.id) END) AS store,
         (SELECT sum(v) FROM (
            SELECT CASE WHEN r.s_store & 3 = 0 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END AS v
              WHERE r.r1 IS NOT NULL
            UNION ALL SELECT CASE WHEN r.s_store & 3 = 0 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END
              WHERE r.rf IS NOT NULL
            UNION ALL SELECT x.restored_bytes_host FROM restore_rows x WHERE x.process = r.process
              AND x.dispatch = r.id)) AS restored_bytes_host,
         (SELECT sum(v) FROM (
            SELECT CASE WHEN r.s_store & 3 = 1 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END AS v
              WHERE r.r1 IS NOT NULL
            UNION ALL SELECT CASE WHEN r.s_store & 3 = 1 THEN coalesce(r.p1_bytes, r.bytes) ELSE 0 END
              WHERE r.rf IS NOT NULL
            UNION ALL SELECT x.restored_bytes_device FROM restore_rows x WHERE x.process = r.process
              AND x.dispatch = r.id)) AS restored_bytes_device,
         CASE WHEN r.s_dseq IS NOT NULL THEN r.duration_ns + coalesce(r.s_fence_ns, 0) - r.s_dts END AS window_ns
  FROM dispatch_rows r LEFT JOIN handles ha ON ha.ref = r.agent_ref LEFT JOIN handles hq ON hq.ref = r.queue_ref
       LEFT JOIN handles hk ON hk.ref = r.kernel_ref
  WHERE r.decision IS NOT NULL;
CREATE VIEW snapshots AS
  SELECT r.process AS process, r.id AS dispatch_id, r.seq + r.s_dseq AS seq, r.ts_ns + r.s_dts AS ts_ns,
         h.handle AS agent, r.generation AS generation, r.regions AS regions, r.bytes AS bytes,
         r.duration_ns AS duration_ns, r.ok AS ok, r.failures AS failures,
         es.name AS store,
         CASE WHEN r.s_store IS NULL THEN x.host_bytes WHEN r.s_store & 3 = 0 THEN r.bytes ELSE 0 END AS host_bytes,
         CASE WHEN r.s_store IS NULL THEN x.device_bytes WHEN r.s_store & 3 = 1 THEN r.bytes ELSE 0 END
           AS device_bytes,
         CASE WHEN r.s_store IS NULL THEN x.host_pinned ELSE 1 - ((r.s_store >> 4) & 1) END AS host_pinned,
         eh.name AS hash_path, CASE WHEN r.s_store IS NULL THEN x.hash_ns ELSE r.s_store >> 37 END AS hash_ns,
         CASE WHEN r.s_store IS NULL THEN x.total_chunks ELSE (r.s_store >> 5) & 4294967295 END AS total_chunks,
         r.s_fence_ns AS fence_wait_ns
  FROM dispatch_rows r LEFT JOIN handles h ON h.ref = coalesce(r.s_agent_ref, r.agent_ref)
       LEFT JOIN snapshot_store_rows x ON r.s_store IS NULL AND x.process = r.process AND x.dispatch_id = r.id
       LEFT JOIN enum_names es ON es.enum = 'snapshot_store'
         AND es.code = CASE WHEN r.s_store IS NULL THEN x.store ELSE r.s_store & 3 END
       LEFT JOIN enum_names eh ON eh.enum = 'chunk_hash_path'
         AND eh.code = CASE WHEN r.s_store IS NULL THEN x.hash_path ELSE (r.s_store >> 2) & 3 END
  WHERE r.s_dseq IS NOT NULL;
CREATE VIEW passes AS
  SELECT p.process AS process, p.dispatch_id AS dispatch_id, p.idx AS idx, p.seq AS seq, p.ts_ns AS ts_ns,
         p.start_tick AS start_tick, p.end_tick AS end_tick, p.restore_ns AS restore_ns,
         p.regions_restored AS regions_restored, p.bytes_restored AS bytes_restored, p.skips AS skips,
         p.fidelity AS fidelity,
         CASE WHEN p.r1 IS NULL THEN x.restored_bytes_host WHEN p.s_store & 3 = 0 THEN p.bytes_restored ELSE 0 END
           AS restored_bytes_host,
         CASE WHEN p.r1 IS NULL THEN x.restored_bytes_device WHEN p.s_store & 3 = 1 THEN p.bytes_restored
           ELSE 0 END AS restored_bytes_device,
         CASE WHEN p.r1 IS NULL THEN x.dirty_chunks ELSE p.r1 & 4294967295 END AS dirty_chunks,
         CASE WHEN p.r1 IS NULL THEN x.total_chunks ELSE (p.s_store >> 5) & 4294967295 END AS total_chunks,
         CASE WHEN p.r1 IS NULL THEN x.hash_ns ELSE p.r1 >> 32 END AS hash_ns,
         CASE WHEN p.r1 IS NULL THEN x.missed_chunks ELSE 0 END AS missed_chunks
  FROM (
  SELECT process AS process, id AS dispatch_id, 0 AS idx, seq + p0_dseq AS seq, NULL AS ts_ns,
         p0_start AS start_tick, p0_start + p0_ticks AS end_tick, p0_restore_ns AS restore_ns,
         coalesce(p0_regions, regions) AS regions_restored, coalesce(p0_bytes, bytes) AS bytes_restored,
         p0_skips AS skips, coalesce(p0_fidelity, -1) AS fidelity, NULL AS r1, NULL AS s_store
  FROM dispatch_rows WHERE p0_dseq IS NOT NULL
  UNION ALL
  SELECT process, id, 1, seq + p1_dseq, NULL, coalesce(p0_start, 0) + p1_start,
         coalesce(p0_start, 0) + p1_start + p1_ticks, p1_restore_ns, coalesce(p1_regions, regions),
         coalesce(p1_bytes, bytes), p1_skips, coalesce(p1_fidelity, -1), r1, s_store
  FROM dispatch_rows WHERE p1_dseq IS NOT NULL
  UNION ALL
  SELECT process, dispatch_id, idx, seq, ts_ns, start_tick, end_tick, restore_ns, regions_restored,
         bytes_restored, skips, fidelity, NULL, NULL FROM extra_passes
  ) p LEFT JOIN restore_rows x ON p.r1 IS NULL AND x.process = p.process AND x.dispatch = p.dispatch_id
       AND x.pass_index = p.idx AND x.final = 0;
CREATE VIEW declines AS
  SELECT d.process AS process, d.id AS dispatch_id, d.seq AS seq, d.ts_ns AS ts_ns, d.decision AS reason_code,
         e.name AS reason
  FROM dispatches d JOIN enum_names e ON e.enum = 'decision' AND e.code = d.decision WHERE d.decision <> 0;
CREATE VIEW process_totals AS
  SELECT p.process AS process, p.pid AS pid,
         (SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775
            AND r.decision IS NOT NULL) AS dispatches,
         (SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775
            AND r.decision = 0) AS replayed,
         (SELECT count(*) FROM dispatch_rows r WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775
            AND r.decision <> 0) AS declined,
         (SELECT coalesce(sum(r.bytes), 0) FROM dispatch_rows r
            WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775 AND r.s_dseq IS NOT NULL)
           AS snapshot_bytes,
         (SELECT count(r.p0_dseq) + count(r.p1_dseq) FROM dispatch_rows r
            WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775)
           + (SELECT count(*) FROM extra_passes x WHERE x.process = p.process) AS passes,
         p.events_stored AS events_stored, p.missing_events AS missing_events, p.complete AS complete,
         (SELECT coalesce(sum(r.bytes), 0) FROM dispatch_rows r
            WHERE r.key BETWEEN p.process << 40 AND (p.process << 40) + 1099511627775 AND r.s_dseq IS NOT NULL)
           AS footprint,
         (SELECT count(*) FROM restores x WHERE x.process = p.process) AS restores,
         (SELECT coalesce(sum(r.bytes), 0) FROM restores x JOIN dispatch_rows r
            ON r.key = (x.process << 40) + x.dispatch WHERE x.process = p.process) AS full_restore_bytes,
         (SELECT coalesce(sum(x.restored_bytes_host), 0) FROM restores x WHERE x.process = p.process)
           AS restored_bytes_host,
         (SELECT coalesce(sum(x.restored_bytes_device), 0) FROM restores x WHERE x.process = p.process)
           AS restored_bytes_device
  FROM processes p;
CREATE VIEW pass_counter_values AS
  SELECT p.process AS process, p.dispatch AS dispatch, p.pass_index AS pass_index, c.name AS counter,
         c.block AS block, c.unit AS unit, p.value AS value
  FROM pass_counters p JOIN counters c ON c.id = p.counter;
