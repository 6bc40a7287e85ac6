// SPDX-License-Identifier: MIT
// Session pipeline benchmark (docs/performance.md, "Session pipeline"). Prints:
//  1. emitter cost on the producing thread, ns/event of its CPU time (bursts that fit the queue;
//     target <= 100 ns), with the wall-clock figure beside it;
//  2. end-to-end ingest, events/s: 10^6 dispatch events emitted, sent through the socket, verified and
//     stored by the real collector (target >= 1,000,000 events/s), counts checked in the session file;
//  3. session bytes per dispatch in steady state with an unchanged inventory (target <= 100 bytes): a
//     replayed dispatch is its dispatch, snapshot, 2 passes and the 2 restores the engine sends with
//     them (before pass 1, after the last pass); with the bytes per table and index (dbstat).
//   ipc_bench [events]   (default 1000000)
#include "replayscope/ipc/collector.h"
#include "replayscope/ipc/emitter.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <time.h>
#include <unistd.h>

using namespace rs::ipc;
using Clock = std::chrono::steady_clock;

namespace {

std::string temp_path(const char* name) {
    return std::string("/tmp/rs-bench-") + std::to_string(::getpid()) + "-" + name;
}

void remove_session(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", ".spool"}) {
        ::unlink((path + suffix).c_str());
    }
}

long long scalar(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    long long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

long long file_size(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

DispatchRecord dispatch(std::uint64_t id, DispatchDecision decision) {
    return DispatchRecord{id, 0x7f3a00001000,   0x7f3a00200000, 0x7f3a10000100,
                          7,  {1u << 20, 1, 1}, {256, 1, 1},    decision};
}

/// Waits until the emitter's queue is at most `limit` records deep (bench producers do not spill).
/// Sleeps rather than spinning on sched_yield: on two cores a yielding producer steals the CPU the
/// sender and the collector need (perf: 20% of all cycles in sched_yield before).
void throttle(const Emitter& e, std::uint64_t limit) {
    for (;;) {
        const auto s = e.stats();
        if (s.accepted - s.sent - s.spooled <= limit) {
            return;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

struct Session {
    std::string path;
    std::unique_ptr<Collector> collector;
    Emitter emitter;
    explicit Session(const char* name, std::size_t queue) : path(temp_path(name)) {
        remove_session(path);
        std::string error;
        collector = Collector::create({path, true, {}, kMaxPayloadBytes}, error);
        if (!collector || !collector->start()) {
            std::fprintf(stderr, "collector: %s\n", error.c_str());
            std::exit(1);
        }
        emitter.start({collector->socket_path(), collector->token(), collector->spool_path(), queue});
    }
};

/// CPU time consumed by the calling thread, ns (excludes time the thread was preempted).
double thread_cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

void emitter_cost() {
    Session s("cost.rsdb", 16384);
    constexpr int kBurst = 8192, kBursts = 64;
    double total_ns = 0, cpu_ns = 0;
    for (int b = 0; b < kBursts; ++b) {
        throttle(s.emitter, 0);
        const auto t0 = Clock::now();
        const double c0 = thread_cpu_ns();
        for (int i = 0; i < kBurst; ++i) {
            s.emitter.emit_event(
                dispatch(static_cast<std::uint64_t>(b) * kBurst + i + 1, DispatchDecision::replayed));
        }
        cpu_ns += thread_cpu_ns() - c0;
        total_ns += std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    }
    s.emitter.stop(std::chrono::seconds(10));
    s.collector->finish(std::chrono::seconds(10));
    std::printf("emitter cost on the producing thread: %.1f ns/event CPU time of that thread (%.1f ns/event "
                "wall clock, including preemption; %d events in bursts of %d; target <= 100)\n",
                cpu_ns / (kBurst * kBursts), total_ns / (kBurst * kBursts), kBurst * kBursts, kBurst);
    remove_session(s.path);
}

void ingest(std::uint64_t n) {
    Session s("ingest.rsdb", 65536);
    const auto t0 = Clock::now();
    for (std::uint64_t i = 1; i <= n; ++i) {
        if ((i & 1023) == 0) {
            throttle(s.emitter, 32768);
        }
        s.emitter.emit_event(dispatch(i, DispatchDecision::declined_filtered));
    }
    while (s.collector->events_stored() < n) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    s.emitter.stop(std::chrono::seconds(10));
    const auto stats = s.emitter.stats();
    const auto summary = s.collector->finish(std::chrono::seconds(30));
    const long long stored = scalar(s.path, "SELECT count(*) FROM dispatches");
    const long long sent = scalar(s.path, "SELECT sent FROM event_counts WHERE name='dispatch'");
    std::printf("end-to-end ingest: %.0f events/s (%llu dispatch events emitted, sent, verified and stored "
                "in %.3f s; "
                "target >= 1000000)\n",
                static_cast<double>(n) / seconds, static_cast<unsigned long long>(n), seconds);
    std::printf("  counts: sent %lld, stored %lld, spooled %llu, lost %llu, session %s -> %s\n", sent, stored,
                static_cast<unsigned long long>(stats.spooled), static_cast<unsigned long long>(stats.lost),
                summary.complete ? "complete" : "incomplete",
                sent == static_cast<long long>(n) && stored == static_cast<long long>(n) ? "EQUAL"
                                                                                         : "MISMATCH");
    remove_session(s.path);
}

/// Session size for `n` replayed dispatches (snapshot, `passes` passes and the restores between and after
/// them, each) with an unchanged inventory.
long long session_bytes(std::uint64_t n, unsigned passes, bool replayed, bool breakdown = false) {
    Session s("bytes.rsdb", 65536);
    s.emitter.emit_session_start("/usr/bin/app", "app", "host", "0.1.0", "REPLAYSCOPE_PASSES=2\n");
    const InventoryRegion regions[] = {{0x7f3a40000000, 1 << 26, 1, RegionKind::allocation},
                                       {0x7f3a48000000, 1 << 26, 2, RegionKind::allocation},
                                       {0x7f3a50001000, 256, 0, RegionKind::module_variable}};
    std::uint64_t tick = 1'000'000'000;
    for (std::uint64_t i = 1; i <= n; ++i) {
        if ((i & 255) == 0) {
            throttle(s.emitter, 32768);
        }
        s.emitter.emit_inventory(0x7f3a00001000, 3, regions); // unchanged: sent once
        s.emitter.emit_event(
            dispatch(i, replayed ? DispatchDecision::replayed : DispatchDecision::declined_filtered));
        if (!replayed) {
            continue;
        }
        s.emitter.emit_event(SnapshotRecord{i, 0x7f3a00001000, 3, (2ull << 26) + 256, 21000, 3, 0, true,
                                            (2ull << 26) + 256, 0, 0, 0, SnapshotStore::host,
                                            ChunkHashPath::none, true, 3000});
        // As the engine sends them (engine/src/replay_window.cpp): before pass p >= 1 the restore it
        // measured (RestoreRecord, then the PassRecord naming the same time and bytes), and after the
        // last pass the final restore. Full restores from the host store (the snapshot is not hashed).
        for (unsigned p = 0; p < passes; ++p) {
            if (p > 0) {
                s.emitter.emit_event(RestoreRecord{i, (2ull << 26) + 256, 0, 0, 19000, p, 3, 0, 0, 0, false});
            }
            s.emitter.emit_event(PassRecord{i, tick, tick + 5200, p == 0 ? 0u : 19000u,
                                            p == 0 ? 0 : (2ull << 26) + 256, p, p == 0 ? 0u : 3u, 0,
                                            kFidelityNotChecked});
            tick += 40000;
        }
        if (passes > 0) {
            s.emitter.emit_event(RestoreRecord{i, (2ull << 26) + 256, 0, 0, 18700, passes, 3, 0, 0, 0, true});
        }
    }
    s.emitter.stop(std::chrono::seconds(30));
    s.collector->finish(std::chrono::seconds(30));
    const long long size = file_size(s.path) + std::max(0LL, file_size(s.path + "-wal"));
    if (breakdown) {
        // Where the bytes are: pages per table and index (SQLite's dbstat), per dispatch.
        sqlite3* db = nullptr;
        sqlite3_open_v2(s.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db,
                               "SELECT name, sum(pgsize), sum(payload), sum(ncell) FROM dbstat GROUP BY name "
                               "HAVING sum(pgsize) > 8192 ORDER BY 2 DESC",
                               -1, &st, nullptr) == SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                std::printf("    %-28s %6.1f bytes/dispatch in pages (%5.1f payload, %.2f rows)\n",
                            reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                            static_cast<double>(sqlite3_column_int64(st, 1)) / static_cast<double>(n),
                            static_cast<double>(sqlite3_column_int64(st, 2)) / static_cast<double>(n),
                            static_cast<double>(sqlite3_column_int64(st, 3)) / static_cast<double>(n));
            }
        }
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    remove_session(s.path);
    return size;
}

} // namespace

int main(int argc, char** argv) {
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    std::printf("ReplayScope session pipeline benchmark (%u hardware threads)\n",
                std::thread::hardware_concurrency());
    emitter_cost();
    ingest(n);
    const std::uint64_t small = 10000, large = 110000;
    std::printf("session file of %llu replayed dispatches, by table and index:\n",
                static_cast<unsigned long long>(large));
    const double replayed =
        static_cast<double>(session_bytes(large, 2, true, true) - session_bytes(small, 2, true)) /
        (large - small);
    const double declined =
        static_cast<double>(session_bytes(large, 0, false) - session_bytes(small, 0, false)) /
        (large - small);
    std::printf(
        "session bytes per dispatch, unchanged inventory: %.1f bytes per replayed dispatch (dispatch + "
        "snapshot + 2 passes + 2 restores), %.1f bytes per declined dispatch (target <= 100)\n",
        replayed, declined);
    return 0;
}
