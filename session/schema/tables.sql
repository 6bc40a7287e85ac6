-- SPDX-License-Identifier: MIT
-- Tables of a ReplayScope session file (format 5; docs/session-schema.md). Run once when a file is created,
-- before views.sql. A dispatch, its snapshot, its first two passes and the folded restores share one
-- dispatch_rows row; the views give them the documented columns.
CREATE TABLE session(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  format_version INTEGER NOT NULL,
  created_wall_ns INTEGER NOT NULL,
  protocol_version INTEGER, pid INTEGER, executable_id INTEGER, argv_id INTEGER, hostname_id INTEGER,
  engine_version_id INTEGER, configuration_id INTEGER,
  start_seq INTEGER, start_ns INTEGER, start_wall_ns INTEGER,
  end_seq INTEGER, end_ns INTEGER, spooled INTEGER,
  complete INTEGER NOT NULL DEFAULT 0,
  last_sequence INTEGER NOT NULL DEFAULT 0,
  events_stored INTEGER NOT NULL DEFAULT 0,
  end_reason TEXT,
  exit_status INTEGER, exit_signal INTEGER,
  internal_errors INTEGER,
  process_count INTEGER, rejected_frames INTEGER, missing_events INTEGER,
  job_rank INTEGER, run_id TEXT, foreign_spools TEXT);
CREATE TABLE processes(process INTEGER PRIMARY KEY, instance INTEGER NOT NULL UNIQUE, pid INTEGER,
  parent_pid INTEGER, protocol_version INTEGER, executable_id INTEGER, argv_id INTEGER, hostname_id INTEGER,
  engine_version_id INTEGER, configuration_id INTEGER, start_seq INTEGER, start_ns INTEGER,
  start_wall_ns INTEGER, end_seq INTEGER, end_ns INTEGER, spooled INTEGER, internal_errors INTEGER,
  exit_status INTEGER, exit_signal INTEGER,
  last_sequence INTEGER NOT NULL DEFAULT 0, events_stored INTEGER NOT NULL DEFAULT 0,
  missing_events INTEGER NOT NULL DEFAULT 0, rejected_frames INTEGER NOT NULL DEFAULT 0,
  complete INTEGER NOT NULL DEFAULT 0, end_reason TEXT);
CREATE TABLE event_counts(process INTEGER NOT NULL, event_type INTEGER NOT NULL, name TEXT NOT NULL,
  sent INTEGER, stored INTEGER NOT NULL, PRIMARY KEY (process, event_type)) WITHOUT ROWID;
CREATE TABLE sequence_gaps(process INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  PRIMARY KEY (process, first_seq)) WITHOUT ROWID;
CREATE TABLE enum_names(enum TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (enum, code)) WITHOUT ROWID;
CREATE TABLE strings(process INTEGER NOT NULL, id INTEGER NOT NULL, text TEXT NOT NULL,
  original_length INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (process, id));
CREATE TABLE agents(process INTEGER NOT NULL, handle INTEGER NOT NULL, seq INTEGER, ts_ns INTEGER,
  name_id INTEGER, isa_id INTEGER, device_type INTEGER, node INTEGER, PRIMARY KEY (process, handle)) WITHOUT ROWID;
CREATE TABLE allocations(process INTEGER NOT NULL, id INTEGER NOT NULL, alloc_seq INTEGER, alloc_ns INTEGER,
  address INTEGER, size INTEGER, agent INTEGER, api INTEGER, pool_flags INTEGER, pointer_type INTEGER,
  classification INTEGER, free_seq INTEGER, free_ns INTEGER, PRIMARY KEY (process, id)) WITHOUT ROWID;
CREATE TABLE executables(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, executable INTEGER,
  code_object INTEGER, agent INTEGER, uri_id INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE module_variables(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, executable INTEGER,
  agent INTEGER, address INTEGER, size INTEGER, symbol_id INTEGER, status INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE inventories(process INTEGER NOT NULL, agent INTEGER NOT NULL, generation INTEGER NOT NULL,
  seq INTEGER, ts_ns INTEGER, bytes INTEGER, region_count INTEGER,
  PRIMARY KEY (process, agent, generation)) WITHOUT ROWID;
CREATE TABLE inventory_regions(process INTEGER NOT NULL, agent INTEGER NOT NULL, generation INTEGER NOT NULL,
  idx INTEGER NOT NULL, seq INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, kind INTEGER,
  PRIMARY KEY (process, agent, generation, idx)) WITHOUT ROWID;
CREATE TABLE handles(ref INTEGER PRIMARY KEY, handle INTEGER NOT NULL);
CREATE TABLE dispatch_rows(
  process INTEGER GENERATED ALWAYS AS (key >> 40) VIRTUAL,
  id INTEGER GENERATED ALWAYS AS (key & 1099511627775) VIRTUAL,
  key INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  agent_ref INTEGER, queue_ref INTEGER, kernel_ref INTEGER, kernel_name_id INTEGER,
  grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, workgroup_x INTEGER, workgroup_y INTEGER, workgroup_z INTEGER,
  decision INTEGER,
  s_dseq INTEGER, s_dts INTEGER, s_agent_ref INTEGER, generation INTEGER, regions INTEGER, bytes INTEGER,
  duration_ns INTEGER, ok INTEGER, failures INTEGER,
  p0_dseq INTEGER, p0_start INTEGER, p0_ticks INTEGER, p0_restore_ns INTEGER, p0_regions INTEGER,
  p0_bytes INTEGER, p0_skips INTEGER, p0_fidelity INTEGER,
  p1_dseq INTEGER, p1_start INTEGER, p1_ticks INTEGER, p1_restore_ns INTEGER, p1_regions INTEGER,
  p1_bytes INTEGER, p1_skips INTEGER, p1_fidelity INTEGER,
  s_store INTEGER, r1 INTEGER, rf INTEGER,
  s_fence_ns INTEGER);
CREATE TABLE extra_passes(process INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, idx INTEGER NOT NULL,
  seq INTEGER, ts_ns INTEGER, start_tick INTEGER, end_tick INTEGER, restore_ns INTEGER, regions_restored INTEGER,
  bytes_restored INTEGER, skips INTEGER, fidelity INTEGER, PRIMARY KEY (process, dispatch_id, idx)) WITHOUT ROWID;
CREATE TABLE snapshot_failures(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  dispatch_id INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, reason INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE restore_skips(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, dispatch_id INTEGER,
  pass_idx INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, reason INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE fidelity_mismatches(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  dispatch_id INTEGER, pass_idx INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE async_copies(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, agent INTEGER,
  dst INTEGER, src INTEGER, size INTEGER, dispatch_id INTEGER, waited_ns INTEGER, outcome INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE warnings(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER, code INTEGER,
  dispatch_id INTEGER, text_id INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE restore_failures(process INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  dispatch_id INTEGER, pass_idx INTEGER, holds_pass_idx INTEGER, address INTEGER, size INTEGER,
  allocation_id INTEGER, kind INTEGER, attempts INTEGER, status INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE snapshot_store_rows(process INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, host_bytes INTEGER,
  device_bytes INTEGER, hash_ns INTEGER, total_chunks INTEGER, store INTEGER, hash_path INTEGER,
  host_pinned INTEGER, PRIMARY KEY (process, dispatch_id)) WITHOUT ROWID;
CREATE TABLE snapshot_placements(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, address INTEGER,
  size INTEGER, store TEXT, seq INTEGER NOT NULL, ts_ns INTEGER, PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE restore_rows(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, pass_index INTEGER NOT NULL,
  final INTEGER, restored_bytes_host INTEGER, restored_bytes_device INTEGER, hash_ns INTEGER,
  restore_ns INTEGER, regions_restored INTEGER, dirty_chunks INTEGER, total_chunks INTEGER,
  missed_chunks INTEGER, seq INTEGER, ts_ns INTEGER, PRIMARY KEY (process, dispatch, pass_index)) WITHOUT ROWID;
CREATE TABLE restore_misses(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, pass_index INTEGER,
  address INTEGER, size INTEGER, allocation_id INTEGER, seq INTEGER NOT NULL, ts_ns INTEGER,
  PRIMARY KEY (process, seq)) WITHOUT ROWID;
CREATE TABLE counters(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, block TEXT NOT NULL,
  event INTEGER NOT NULL, unit TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE pass_counters(process INTEGER NOT NULL, dispatch INTEGER NOT NULL, pass_index INTEGER NOT NULL,
  counter INTEGER NOT NULL, value INTEGER NOT NULL, seq INTEGER NOT NULL, ts_ns INTEGER,
  PRIMARY KEY (process, dispatch, pass_index, counter)) WITHOUT ROWID;
