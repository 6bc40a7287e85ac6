// SPDX-License-Identifier: MIT
// Post-run benchmark (docs/performance.md, "After the run"): what replayscope-run does after the program
// ended, the spools imported into the session and the session finished. Prints, each beside a baseline
// measured in the same run:
//  1. 8,000 one-event processes (one spool each: its hello and one dispatch) imported with one finish
//     (SpoolImporter::import_all), target < 5 s; and one finish's per-process SQL over those processes,
//     as the store runs it against the shapes it replaced (the stored counts' `restores` view, which
//     filters dispatch_rows by its unindexed generated `process` column and so scans the table once per
//     process, and the event-name update by type alone, a scan of event_counts per type);
//  2. 30 processes of 2,000 events each (dispatches with their snapshot, two passes and restores;
//     every twelfth restore does not fold into its dispatch row) the same way, target < 5 s;
//  3. a spool of one process appended to the finished file of (1): finish() recounts the changed process
//     only.
// The baselines' statements live in this file only; the store no longer runs them.
//   post_run_bench [one-event processes] [processes] [events per process]   (8000 30 2000)
#include "replayscope/ipc/frame_encoder.h"
#include "replayscope/ipc/records.h"
#include "replayscope/ipc/session_store.h"
#include "replayscope/ipc/spool_importer.h"
#include "replayscope/session/write_statements.h"

#include <flatbuffers/flatbuffers.h>

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace rs::ipc;
using Clock = std::chrono::steady_clock;

namespace {

/// The stored counts of one process before the store counted the restores folded into dispatch_rows by
/// key range: through the `restores` view, filtered by the generated column (a scan per process).
constexpr const char* kOldStoredCounts = R"sql(
INSERT INTO event_counts(process, event_type, name, sent, stored)
SELECT ?1, t.code, '', NULL, t.n FROM (
  SELECT 2 AS code, (SELECT count(*) FROM processes WHERE process = ?1 AND start_seq IS NOT NULL) AS n
  UNION ALL SELECT 3, (SELECT count(*) FROM strings WHERE process = ?1)
  UNION ALL SELECT 4, (SELECT count(*) FROM agents WHERE process = ?1)
  UNION ALL SELECT 5, (SELECT count(*) FROM allocations WHERE process = ?1 AND alloc_seq IS NOT NULL)
  UNION ALL SELECT 6, (SELECT count(*) FROM allocations WHERE process = ?1 AND free_seq IS NOT NULL)
  UNION ALL SELECT 7, (SELECT count(*) FROM executables WHERE process = ?1)
  UNION ALL SELECT 8, (SELECT count(*) FROM module_variables WHERE process = ?1)
  UNION ALL SELECT 9, (SELECT count(*) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3 AND decision IS NOT NULL)
  UNION ALL SELECT 10, (SELECT count(*) FROM inventories WHERE process = ?1)
  UNION ALL SELECT 11, (SELECT count(*) FROM inventory_regions WHERE process = ?1)
  UNION ALL SELECT 12, (SELECT count(*) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3 AND s_dseq IS NOT NULL)
  UNION ALL SELECT 13, (SELECT count(*) FROM snapshot_failures WHERE process = ?1)
  UNION ALL SELECT 14, (SELECT count(p0_dseq) + count(p1_dseq) FROM dispatch_rows WHERE key BETWEEN ?2 AND ?3)
                       + (SELECT count(*) FROM extra_passes WHERE process = ?1)
  UNION ALL SELECT 15, (SELECT count(*) FROM restore_skips WHERE process = ?1)
  UNION ALL SELECT 16, (SELECT count(*) FROM warnings WHERE process = ?1)
  UNION ALL SELECT 17, (SELECT count(*) FROM processes WHERE process = ?1 AND end_seq IS NOT NULL)
  UNION ALL SELECT 18, (SELECT count(*) FROM fidelity_mismatches WHERE process = ?1)
  UNION ALL SELECT 19, (SELECT count(*) FROM async_copies WHERE process = ?1)
  UNION ALL SELECT 20, (SELECT count(*) FROM restore_failures WHERE process = ?1)
  UNION ALL SELECT 21, (SELECT count(*) FROM snapshot_placements WHERE process = ?1)
  UNION ALL SELECT 22, (SELECT count(*) FROM restores WHERE process = ?1)
  UNION ALL SELECT 23, (SELECT count(*) FROM restore_misses WHERE process = ?1)
  UNION ALL SELECT 24, (SELECT count(*) FROM pass_counters WHERE process = ?1)) AS t WHERE true
ON CONFLICT(process, event_type) DO UPDATE SET stored = excluded.stored;
)sql";
/// The event-name update before it was per process: by type alone, a scan of event_counts per type.
constexpr const char* kOldEventCountName = "UPDATE event_counts SET name=?2 WHERE event_type=?1";

std::string temp_dir() {
    char pattern[] = "/tmp/rs-post-run-XXXXXX";
    const char* dir = ::mkdtemp(pattern);
    return dir ? dir : "/tmp";
}

void remove_session(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        ::unlink((path + suffix).c_str());
    }
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Record record(EventType type, std::uint64_t sequence) {
    Record r{};
    r.type = type;
    r.sequence = sequence;
    r.timestamp_ns = 1000 + sequence;
    return r;
}

/// Writes the spool of one process: its hello (instance, pid) and `events` events: with `realistic`,
/// a session_start, dispatches with their snapshot, two passes and the restores around pass 1 (every
/// twelfth restore of another pass, so that it does not fold) and a session_end; else dispatches only.
bool write_spool(const std::string& path, std::uint64_t instance, std::uint32_t pid, std::uint64_t events,
                 bool realistic) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<std::uint8_t> out, frame;
    auto add = [&](const Record& r) {
        frame.clear();
        append_frame(r, builder, frame);
        out.insert(out.end(), frame.begin(), frame.end());
    };
    Record hello = record(EventType::hello, 0);
    std::memset(hello.hello.token, '0', sizeof hello.hello.token);
    hello.hello.pid = pid;
    hello.hello.ppid = 1;
    hello.hello.instance = instance;
    hello.hello.protocol_version = kProtocolVersion;
    add(hello);
    std::uint64_t seq = 0;
    if (realistic) {
        Record start = record(EventType::session_start, ++seq);
        start.session_start.pid = pid;
        start.session_start.protocol_version = kProtocolVersion;
        add(start);
    }
    for (std::uint64_t id = 1; seq + (realistic ? 2 : 1) <= events; ++id) {
        Record d = record(EventType::dispatch, ++seq);
        d.dispatch = {id, 0x1000,      0x2000,     0x3000 + id,
                      0,  {256, 1, 1}, {64, 1, 1}, DispatchDecision::replayed};
        add(d);
        if (!realistic || seq + 6 > events) {
            continue;
        }
        Record s = record(EventType::snapshot, ++seq);
        s.snapshot.dispatch_id = id;
        s.snapshot.agent = 0x1000;
        s.snapshot.regions = 2;
        s.snapshot.bytes = 8192;
        s.snapshot.device_bytes = 8192;
        s.snapshot.store = SnapshotStore::device;
        s.snapshot.total_chunks = 4;
        s.snapshot.ok = true;
        s.snapshot.fence_wait_ns = -1;
        add(s);
        for (std::uint32_t pass = 0; pass < 2; ++pass) {
            if (pass == 1) {
                Record restore = record(EventType::restore, ++seq);
                restore.restore.dispatch_id = id;
                restore.restore.pass_index = id % 12 == 0 ? 3 : 1;
                restore.restore.restored_bytes_device = 8192;
                restore.restore.regions_restored = 2;
                restore.restore.total_chunks = 4;
                restore.restore.dirty_chunks = 4;
                add(restore);
            }
            Record p = record(EventType::pass, ++seq);
            p.pass.dispatch_id = id;
            p.pass.index = pass;
            p.pass.start_tick = 100 * id;
            p.pass.end_tick = 100 * id + 50;
            p.pass.regions_restored = pass == 1 ? 2 : 0;
            p.pass.bytes_restored = pass == 1 ? 8192 : 0;
            p.pass.fidelity = kFidelityNotChecked;
            add(p);
        }
    }
    if (realistic) {
        Record end = record(EventType::session_end, ++seq);
        end.session_end.last_sequence = seq;
        end.session_end.exit_status = 0;
        add(end);
    }
    FILE* f = std::fopen(path.c_str(), "wb");
    const bool ok = f != nullptr && std::fwrite(out.data(), 1, out.size(), f) == out.size();
    if (f != nullptr) {
        std::fclose(f);
    }
    return ok;
}

/// One finish's per-process statements over every process of `path` (stored counts, names by type,
/// end reasons), in a transaction rolled back at the end: with the old shapes or the store's.
double per_process_sql(const std::string& path, bool old_shapes) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_stmt* count_processes = nullptr;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM processes", -1, &count_processes, nullptr);
    sqlite3_step(count_processes);
    const std::int64_t processes = sqlite3_column_int64(count_processes, 0);
    sqlite3_finalize(count_processes);
    const auto start = Clock::now();
    sqlite3_stmt* counts = nullptr;
    sqlite3_stmt* names = nullptr;
    sqlite3_stmt* reason = nullptr;
    sqlite3_prepare_v2(db, old_shapes ? kOldStoredCounts : rs::session::kUpsertStoredCounts, -1, &counts,
                       nullptr);
    sqlite3_prepare_v2(db, old_shapes ? kOldEventCountName : rs::session::kUpdateEventCountName, -1, &names,
                       nullptr);
    sqlite3_prepare_v2(db, "UPDATE processes SET end_reason=?2 WHERE process=?1", -1, &reason, nullptr);
    constexpr int kShift = 40;
    for (std::int64_t p = 1; p <= processes; ++p) {
        sqlite3_bind_int64(counts, 1, p);
        sqlite3_bind_int64(counts, 2, p << kShift);
        sqlite3_bind_int64(counts, 3, (p << kShift) + ((std::int64_t{1} << kShift) - 1));
        sqlite3_step(counts);
        sqlite3_reset(counts);
        if (!old_shapes) {
            for (const EnumName& type : kEventTypeNames) {
                sqlite3_bind_int64(names, 1, p);
                sqlite3_bind_int64(names, 2, type.code);
                sqlite3_bind_text(names, 3, type.name.data(), static_cast<int>(type.name.size()),
                                  SQLITE_STATIC);
                sqlite3_step(names);
                sqlite3_reset(names);
            }
        }
        sqlite3_bind_int64(reason, 1, p);
        sqlite3_bind_text(reason, 2, "no session end", -1, SQLITE_STATIC);
        sqlite3_step(reason);
        sqlite3_reset(reason);
    }
    if (old_shapes) { // once per finish, every process's rows of each type
        for (const EnumName& type : kEventTypeNames) {
            sqlite3_bind_int64(names, 1, type.code);
            sqlite3_bind_text(names, 2, type.name.data(), static_cast<int>(type.name.size()), SQLITE_STATIC);
            sqlite3_step(names);
            sqlite3_reset(names);
        }
    }
    const double elapsed = seconds_since(start);
    sqlite3_finalize(counts);
    sqlite3_finalize(names);
    sqlite3_finalize(reason);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return elapsed;
}

struct Import {
    double seconds = 0;
    std::uint64_t events = 0, processes = 0;
    bool ok = false;
};

/// Writes `count` spools of `events` events under `dir` and imports them into a new session `session`:
/// with one finish, or (`one_finish` false, the runner's flow before import_all) one import and finish
/// per spool.
Import import_spools(const std::string& dir, const std::string& session, std::uint64_t count,
                     std::uint64_t events, bool realistic, bool one_finish = true) {
    std::vector<std::string> spools;
    for (std::uint64_t i = 0; i < count; ++i) {
        spools.push_back(dir + "/spool." + std::to_string(i));
        if (!write_spool(spools.back(), 0x1000 + i, static_cast<std::uint32_t>(10000 + i), events,
                         realistic)) {
            std::fprintf(stderr, "cannot write %s\n", spools.back().c_str());
            return {};
        }
    }
    remove_session(session);
    const auto start = Clock::now();
    Import r;
    r.ok = true;
    for (std::size_t i = 0; r.ok && i < (one_finish ? 1 : spools.size()); ++i) {
        const auto result = one_finish ? SpoolImporter::import_all(spools, session)
                                       : SpoolImporter::import(spools[i], session);
        r.ok = result.ok;
        r.events += result.events_stored;
        r.processes = result.processes.size();
        if (!result.ok) {
            std::fprintf(stderr, "import failed: %s\n", result.message.c_str());
        }
    }
    r.seconds = seconds_since(start);
    for (const auto& spool : spools) {
        ::unlink(spool.c_str());
    }
    return r;
}

void report(const char* what, const std::string& session, const Import& import) {
    std::printf("%s: %llu processes, %llu events imported with one finish in %.2f s (target < 5 s)\n", what,
                static_cast<unsigned long long>(import.processes),
                static_cast<unsigned long long>(import.events), import.seconds);
    const double old_sql = per_process_sql(session, true);
    const double new_sql = per_process_sql(session, false);
    std::printf("  one finish's per-process statements over every process: %.3f s as the store runs them, "
                "%.3f s with the old shapes (%.0fx)\n",
                new_sql, old_sql, new_sql > 0 ? old_sql / new_sql : 0.0);
}

} // namespace

int main(int argc, char** argv) {
    const std::uint64_t small = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 8000;
    const std::uint64_t large = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 30;
    const std::uint64_t events = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2000;
    const std::string dir = temp_dir();
    std::printf("ReplayScope post-run benchmark (spools and session in %s)\n", dir.c_str());

    const std::string many = dir + "/many.rsdb";
    const Import one_event = import_spools(dir, many, small, 1, false);
    if (!one_event.ok) {
        return 1;
    }
    report("one-event processes", many, one_event);

    // A spool appended to that file: finish() recounts the one changed process.
    const std::string extra = dir + "/extra.spool";
    write_spool(extra, 0x77777777, 77777, 1, false);
    auto start = Clock::now();
    const auto appended = SpoolImporter::import_all({extra}, many);
    std::printf("  one more one-event spool appended to that session: %.3f s (%s)\n", seconds_since(start),
                appended.ok ? "imported" : appended.message.c_str());
    ::unlink(extra.c_str());
    remove_session(many);

    const std::string sized = dir + "/sized.rsdb";
    const Import realistic = import_spools(dir, sized, large, events, true);
    if (!realistic.ok) {
        return 1;
    }
    report("processes of realistic size", sized, realistic);
    const Import per_spool = import_spools(dir, sized, large, events, true, false);
    std::printf("  the same spools imported and finished one by one (the flow before one finish): %.2f s\n",
                per_spool.seconds);
    remove_session(sized);
    ::rmdir(dir.c_str());
    return 0;
}
