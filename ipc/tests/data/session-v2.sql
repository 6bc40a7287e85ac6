-- A version-2 session file (3 dispatches, one declined; 19 events, complete) as the version-2 writer
-- (SessionStore of session format 2) left it, dumped with sqlite3 .dump; tst_ipc_session_file loads it
-- and sets application_id 0x52534442 and user_version 2.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
  internal_errors INTEGER);
INSERT INTO session VALUES(1,2,1796135352053601997,3,31337,1,2,3,4,5,7,7000,1700000000000000000,19,19000,0,1,19,19,'session end received',NULL,NULL,0);
CREATE TABLE event_counts(event_type INTEGER PRIMARY KEY, name TEXT NOT NULL, sent INTEGER, stored INTEGER NOT NULL);
INSERT INTO event_counts VALUES(2,'session_start',1,1);
INSERT INTO event_counts VALUES(3,'string',6,6);
INSERT INTO event_counts VALUES(4,'agent',1,1);
INSERT INTO event_counts VALUES(5,'allocation',1,1);
INSERT INTO event_counts VALUES(6,'free',0,0);
INSERT INTO event_counts VALUES(7,'executable_loaded',0,0);
INSERT INTO event_counts VALUES(8,'module_variable',0,0);
INSERT INTO event_counts VALUES(9,'dispatch',3,3);
INSERT INTO event_counts VALUES(10,'inventory',0,0);
INSERT INTO event_counts VALUES(11,'inventory_region',0,0);
INSERT INTO event_counts VALUES(12,'snapshot',2,2);
INSERT INTO event_counts VALUES(13,'snapshot_failure',0,0);
INSERT INTO event_counts VALUES(14,'pass',4,4);
INSERT INTO event_counts VALUES(15,'restore_skip',0,0);
INSERT INTO event_counts VALUES(16,'warning',0,0);
INSERT INTO event_counts VALUES(17,'session_end',1,1);
INSERT INTO event_counts VALUES(18,'fidelity_mismatch',0,0);
INSERT INTO event_counts VALUES(19,'async_copy',0,0);
INSERT INTO event_counts VALUES(20,'restore_failure',0,0);
CREATE TABLE sequence_gaps(first_seq INTEGER PRIMARY KEY, last_seq INTEGER NOT NULL);
CREATE TABLE enum_names(enum TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (enum, code)) WITHOUT ROWID;
INSERT INTO enum_names VALUES('api',0,'hsa_amd_memory_pool_allocate');
INSERT INTO enum_names VALUES('api',1,'hsa_memory_allocate');
INSERT INTO enum_names VALUES('api',2,'hsa_amd_vmem_map');
INSERT INTO enum_names VALUES('async_copy_outcome',0,'not-fenced');
INSERT INTO enum_names VALUES('async_copy_outcome',1,'waited');
INSERT INTO enum_names VALUES('async_copy_outcome',2,'timed-out');
INSERT INTO enum_names VALUES('async_copy_outcome',3,'held');
INSERT INTO enum_names VALUES('classification',0,'tracked');
INSERT INTO enum_names VALUES('classification',1,'kernarg');
INSERT INTO enum_names VALUES('classification',2,'host');
INSERT INTO enum_names VALUES('classification',3,'fine-grained');
INSERT INTO enum_names VALUES('classification',4,'executable');
INSERT INTO enum_names VALUES('classification',5,'not-owned');
INSERT INTO enum_names VALUES('classification',6,'unknown-pointer');
INSERT INTO enum_names VALUES('decision',0,'replayed');
INSERT INTO enum_names VALUES('decision',1,'multi-packet');
INSERT INTO enum_names VALUES('decision',2,'graph-launch');
INSERT INTO enum_names VALUES('decision',3,'snapshot-incomplete');
INSERT INTO enum_names VALUES('decision',4,'footprint-budget');
INSERT INTO enum_names VALUES('decision',5,'drain-timeout');
INSERT INTO enum_names VALUES('decision',6,'filtered');
INSERT INTO enum_names VALUES('decision',7,'restore-failed');
INSERT INTO enum_names VALUES('decision',8,'runtime-kernel');
INSERT INTO enum_names VALUES('decision',9,'unrestorable-memory');
INSERT INTO enum_names VALUES('decision',10,'pass-timeout');
INSERT INTO enum_names VALUES('decision',11,'no-private-queue');
INSERT INTO enum_names VALUES('decision',12,'out-of-memory');
INSERT INTO enum_names VALUES('decision',13,'signal-unavailable');
INSERT INTO enum_names VALUES('decision',14,'internal-error');
INSERT INTO enum_names VALUES('device_type',0,'cpu');
INSERT INTO enum_names VALUES('device_type',1,'gpu');
INSERT INTO enum_names VALUES('device_type',2,'dsp');
INSERT INTO enum_names VALUES('device_type',3,'other');
INSERT INTO enum_names VALUES('fidelity',-1,'not-checked');
INSERT INTO enum_names VALUES('fidelity',0,'differed');
INSERT INTO enum_names VALUES('fidelity',1,'matched');
INSERT INTO enum_names VALUES('pointer_type',0,'unknown');
INSERT INTO enum_names VALUES('pointer_type',1,'hsa');
INSERT INTO enum_names VALUES('pointer_type',2,'locked');
INSERT INTO enum_names VALUES('pointer_type',3,'graphics');
INSERT INTO enum_names VALUES('pointer_type',4,'ipc');
INSERT INTO enum_names VALUES('region_kind',0,'allocation');
INSERT INTO enum_names VALUES('region_kind',1,'module-variable');
INSERT INTO enum_names VALUES('restore_skip',0,'freed');
INSERT INTO enum_names VALUES('restore_skip',1,'reallocated');
INSERT INTO enum_names VALUES('restore_skip',2,'copy-failed');
INSERT INTO enum_names VALUES('snapshot_failure',0,'host-allocation');
INSERT INTO enum_names VALUES('snapshot_failure',1,'copy-failed');
INSERT INTO enum_names VALUES('snapshot_failure',2,'inventory-reserve');
INSERT INTO enum_names VALUES('snapshot_failure',3,'symbol-enumeration');
INSERT INTO enum_names VALUES('variable_status',0,'captured');
INSERT INTO enum_names VALUES('variable_status',1,'zero-address');
INSERT INTO enum_names VALUES('variable_status',2,'zero-size');
INSERT INTO enum_names VALUES('variable_status',3,'too-large');
INSERT INTO enum_names VALUES('warning',0,'general');
INSERT INTO enum_names VALUES('warning',1,'graph-launch');
INSERT INTO enum_names VALUES('warning',2,'snapshot-incomplete');
INSERT INTO enum_names VALUES('warning',3,'restore-failed');
INSERT INTO enum_names VALUES('warning',4,'fidelity-mismatch');
INSERT INTO enum_names VALUES('warning',5,'configuration');
INSERT INTO enum_names VALUES('warning',6,'emitter');
INSERT INTO enum_names VALUES('warning',7,'drain-timeout');
INSERT INTO enum_names VALUES('warning',8,'pass-timeout');
INSERT INTO enum_names VALUES('warning',9,'no-private-queue');
INSERT INTO enum_names VALUES('warning',10,'footprint-budget');
INSERT INTO enum_names VALUES('warning',11,'signal-unavailable');
INSERT INTO enum_names VALUES('warning',12,'out-of-memory');
INSERT INTO enum_names VALUES('warning',13,'queue-intercept-failed');
INSERT INTO enum_names VALUES('warning',14,'internal-error');
CREATE TABLE strings(id INTEGER PRIMARY KEY, text TEXT NOT NULL, original_length INTEGER NOT NULL, seq INTEGER NOT NULL);
INSERT INTO strings VALUES(1,'/usr/bin/v2app',14,1);
INSERT INTO strings VALUES(2,'v2app --n 3',11,2);
INSERT INTO strings VALUES(3,'v2host',6,3);
INSERT INTO strings VALUES(4,'0.1.0',5,4);
INSERT INTO strings VALUES(5,replace('REPLAYSCOPE_PASSES=2\n','\n',char(10)),21,5);
INSERT INTO strings VALUES(6,'accumulate.kd',13,6);
CREATE TABLE agents(handle INTEGER PRIMARY KEY, seq INTEGER, ts_ns INTEGER, name_id INTEGER, isa_id INTEGER,
  device_type INTEGER, node INTEGER);
INSERT INTO agents VALUES(4096,8,8000,3,0,1,0);
CREATE TABLE allocations(id INTEGER PRIMARY KEY, alloc_seq INTEGER, alloc_ns INTEGER, address INTEGER, size INTEGER,
  agent INTEGER, api INTEGER, pool_flags INTEGER, pointer_type INTEGER, classification INTEGER,
  free_seq INTEGER, free_ns INTEGER);
INSERT INTO allocations VALUES(1,9,9000,117440512,4096,4096,0,0,0,0,NULL,NULL);
CREATE TABLE executables(seq INTEGER PRIMARY KEY, ts_ns INTEGER, executable INTEGER, code_object INTEGER,
  agent INTEGER, uri_id INTEGER);
CREATE TABLE module_variables(seq INTEGER PRIMARY KEY, ts_ns INTEGER, executable INTEGER, agent INTEGER,
  address INTEGER, size INTEGER, symbol_id INTEGER, status INTEGER);
CREATE TABLE inventories(agent INTEGER NOT NULL, generation INTEGER NOT NULL, seq INTEGER, ts_ns INTEGER,
  bytes INTEGER, region_count INTEGER, PRIMARY KEY (agent, generation)) WITHOUT ROWID;
CREATE TABLE inventory_regions(agent INTEGER NOT NULL, generation INTEGER NOT NULL, idx INTEGER NOT NULL,
  seq INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, kind INTEGER,
  PRIMARY KEY (agent, generation, idx)) WITHOUT ROWID;
CREATE TABLE handles(ref INTEGER PRIMARY KEY, handle INTEGER NOT NULL);
INSERT INTO handles VALUES(1,4096);
INSERT INTO handles VALUES(2,8192);
INSERT INTO handles VALUES(3,12288);
CREATE TABLE dispatch_rows(id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  agent_ref INTEGER, queue_ref INTEGER, kernel_ref INTEGER, kernel_name_id INTEGER,
  grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, workgroup_x INTEGER, workgroup_y INTEGER, workgroup_z INTEGER,
  decision INTEGER,
  s_dseq INTEGER, s_dts INTEGER, s_agent_ref INTEGER, generation INTEGER, regions INTEGER, bytes INTEGER,
  duration_ns INTEGER, ok INTEGER, failures INTEGER,
  p0_dseq INTEGER, p0_start INTEGER, p0_ticks INTEGER, p0_restore_ns INTEGER, p0_regions INTEGER,
  p0_bytes INTEGER, p0_skips INTEGER, p0_fidelity INTEGER,
  p1_dseq INTEGER, p1_start INTEGER, p1_ticks INTEGER, p1_restore_ns INTEGER, p1_regions INTEGER,
  p1_bytes INTEGER, p1_skips INTEGER, p1_fidelity INTEGER);
INSERT INTO dispatch_rows VALUES(1,10,10000,1,2,3,6,256,1,1,64,1,1,0,1,1000,NULL,1,1,4096,0,1,0,2,100,5,0,NULL,NULL,0,NULL,3,10,5,0,NULL,NULL,0,NULL);
INSERT INTO dispatch_rows VALUES(2,14,14000,1,2,3,6,256,1,1,64,1,1,0,1,1000,NULL,1,1,4096,0,1,0,2,200,5,0,NULL,NULL,0,NULL,3,10,5,0,NULL,NULL,0,NULL);
INSERT INTO dispatch_rows VALUES(3,18,18000,1,2,3,6,256,1,1,64,1,1,1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE extra_passes(dispatch_id INTEGER NOT NULL, idx INTEGER NOT NULL, seq INTEGER, ts_ns INTEGER,
  start_tick INTEGER, end_tick INTEGER, restore_ns INTEGER, regions_restored INTEGER, bytes_restored INTEGER,
  skips INTEGER, fidelity INTEGER, PRIMARY KEY (dispatch_id, idx)) WITHOUT ROWID;
CREATE TABLE snapshot_failures(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER, address INTEGER,
  size INTEGER, allocation_id INTEGER, reason INTEGER);
CREATE TABLE restore_skips(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER, pass_idx INTEGER,
  address INTEGER, size INTEGER, allocation_id INTEGER, reason INTEGER);
CREATE TABLE fidelity_mismatches(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER, pass_idx INTEGER,
  address INTEGER, size INTEGER, allocation_id INTEGER);
CREATE TABLE async_copies(seq INTEGER PRIMARY KEY, ts_ns INTEGER, agent INTEGER, dst INTEGER, src INTEGER,
  size INTEGER, dispatch_id INTEGER, waited_ns INTEGER, outcome INTEGER);
CREATE TABLE warnings(seq INTEGER PRIMARY KEY, ts_ns INTEGER, code INTEGER, dispatch_id INTEGER, text_id INTEGER);
CREATE TABLE restore_failures(seq INTEGER PRIMARY KEY, ts_ns INTEGER, dispatch_id INTEGER,
  pass_idx INTEGER, holds_pass_idx INTEGER, address INTEGER, size INTEGER, allocation_id INTEGER, kind INTEGER,
  attempts INTEGER, status INTEGER);
CREATE VIEW dispatches AS
  SELECT r.id AS id, r.seq AS seq, r.ts_ns AS ts_ns, ha.handle AS agent, hq.handle AS queue,
         hk.handle AS kernel_object, r.kernel_name_id AS kernel_name_id, r.grid_x AS grid_x, r.grid_y AS grid_y,
         r.grid_z AS grid_z, r.workgroup_x AS workgroup_x, r.workgroup_y AS workgroup_y,
         r.workgroup_z AS workgroup_z, r.decision AS decision
  FROM dispatch_rows r LEFT JOIN handles ha ON ha.ref = r.agent_ref LEFT JOIN handles hq ON hq.ref = r.queue_ref
       LEFT JOIN handles hk ON hk.ref = r.kernel_ref
  WHERE r.decision IS NOT NULL;
CREATE VIEW snapshots AS
  SELECT r.id AS dispatch_id, r.seq + r.s_dseq AS seq, r.ts_ns + r.s_dts AS ts_ns, h.handle AS agent,
         r.generation AS generation, r.regions AS regions, r.bytes AS bytes, r.duration_ns AS duration_ns,
         r.ok AS ok, r.failures AS failures
  FROM dispatch_rows r LEFT JOIN handles h ON h.ref = coalesce(r.s_agent_ref, r.agent_ref)
  WHERE r.s_dseq IS NOT NULL;
CREATE VIEW passes AS
  SELECT id AS dispatch_id, 0 AS idx, seq + p0_dseq AS seq, NULL AS ts_ns, p0_start AS start_tick,
         p0_start + p0_ticks AS end_tick, p0_restore_ns AS restore_ns,
         coalesce(p0_regions, regions) AS regions_restored, coalesce(p0_bytes, bytes) AS bytes_restored,
         p0_skips AS skips, coalesce(p0_fidelity, -1) AS fidelity
  FROM dispatch_rows WHERE p0_dseq IS NOT NULL
  UNION ALL
  SELECT id, 1, seq + p1_dseq, NULL, coalesce(p0_start, 0) + p1_start, coalesce(p0_start, 0) + p1_start + p1_ticks,
         p1_restore_ns, coalesce(p1_regions, regions), coalesce(p1_bytes, bytes), p1_skips,
         coalesce(p1_fidelity, -1)
  FROM dispatch_rows WHERE p1_dseq IS NOT NULL
  UNION ALL
  SELECT dispatch_id, idx, seq, ts_ns, start_tick, end_tick, restore_ns, regions_restored, bytes_restored, skips,
         fidelity FROM extra_passes;
CREATE VIEW declines AS
  SELECT d.id AS dispatch_id, d.seq AS seq, d.ts_ns AS ts_ns, d.decision AS reason_code, e.name AS reason
  FROM dispatches d JOIN enum_names e ON e.enum = 'decision' AND e.code = d.decision WHERE d.decision <> 0;
CREATE INDEX allocations_address ON allocations(address);
CREATE INDEX snapshot_failures_dispatch ON snapshot_failures(dispatch_id);
CREATE INDEX restore_skips_dispatch ON restore_skips(dispatch_id, pass_idx);
CREATE INDEX fidelity_mismatches_dispatch ON fidelity_mismatches(dispatch_id, pass_idx);
CREATE INDEX restore_failures_dispatch ON restore_failures(dispatch_id, pass_idx);
CREATE INDEX warnings_dispatch ON warnings(dispatch_id);
COMMIT;
