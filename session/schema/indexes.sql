-- SPDX-License-Identifier: MIT
-- Indexes of a ReplayScope session file, built when the session is finished (rows go in faster without
-- them). IF NOT EXISTS: finishing a file that has them already (a spool appended to it) keeps them.
CREATE INDEX IF NOT EXISTS allocations_address ON allocations(process, address);
CREATE INDEX IF NOT EXISTS snapshot_failures_dispatch ON snapshot_failures(process, dispatch_id);
CREATE INDEX IF NOT EXISTS restore_skips_dispatch ON restore_skips(process, dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS fidelity_mismatches_dispatch ON fidelity_mismatches(process, dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS restore_failures_dispatch ON restore_failures(process, dispatch_id, pass_idx);
CREATE INDEX IF NOT EXISTS warnings_dispatch ON warnings(process, dispatch_id);
CREATE INDEX IF NOT EXISTS snapshot_placements_dispatch ON snapshot_placements(process, dispatch);
CREATE INDEX IF NOT EXISTS restore_misses_dispatch ON restore_misses(process, dispatch, pass_index);
