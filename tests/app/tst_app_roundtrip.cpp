// SPDX-License-Identifier: MIT
// The session format's round trip: a session of two processes with every record type is written through
// the collector's SessionStore and read back through the inspector's public API (SessionLoader::loadAll,
// SessionReader); every page's data is compared field by field with what was written. The writer folds
// parts of a dispatch into one row or spills them to overflow tables (docs/session-schema.md, "Physical
// layout"); the values read must not depend on which.
#include "model/SessionLoader.h"
#include "model/SessionReader.h"
#include "model/SessionSnapshot.h"

#include <replayscope/ipc/records.h>
#include <replayscope/ipc/session_store.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <map>
#include <string>

using namespace rs::app;
using namespace rs::ipc;

namespace {

constexpr std::uint64_t kGpu = 0xa000, kCpu = 0xc000, kQueue = 0x5100;
constexpr std::uint64_t kStencil = 0x6b01, kReduce = 0x6b02, kCopy = 0x6b03;
constexpr std::uint64_t kBuffer = 0x7000'0000, kBufferSize = 1 << 20; // allocation 1 (tracked)
constexpr std::uint64_t kFine = 0x7100'0000, kFineSize = 4096;        // allocation 2 (fine-grained)
constexpr std::uint64_t kCoeffs = 0x7f00'0000, kCoeffsSize = 256;     // module variable
constexpr std::uint64_t kFootprint = kBufferSize + kCoeffsSize;
constexpr std::uint64_t kWall = 1'764'000'000'000'000'000ull;

/// Writes the records of one process through a SessionStore, numbering them from 1 and stamping each
/// 1000 ns after the one before; remembers every record's sequence and time by a name.
class ProcessWriter {
  public:
    ProcessWriter(SessionStore& store, std::int64_t process, std::uint64_t t0)
        : store_(store), process_(process), ts_(t0) {}
    template <typename Fill>
    void put(EventType type, Fill fill, const char* name = nullptr) {
        Record r;
        std::memset(&r, 0, sizeof r);
        r.type = type;
        r.sequence = ++seq_;
        ts_ += 1000;
        r.timestamp_ns = ts_;
        fill(r);
        if (name) {
            seqs[name] = seq_;
            times[name] = ts_;
        }
        ok = store_.insert(process_, r) && ok;
    }
    StringId string(const std::string& text) {
        const StringId id = ++strings_;
        put(EventType::string, [&](Record& r) {
            r.string.id = id;
            r.string.original_length = std::uint32_t(text.size());
            r.string.length = std::uint16_t(text.size());
            std::memcpy(r.string.text, text.data(), text.size());
        });
        return id;
    }
    std::uint64_t seq() const { return seq_; }
    std::map<std::string, std::uint64_t> seqs, times;
    bool ok = true;

  private:
    SessionStore& store_;
    std::int64_t process_;
    std::uint64_t seq_ = 0, ts_;
    StringId strings_ = 0;
};

struct PassSpec {
    std::uint32_t index;
    std::uint64_t start, end, restoreNs, bytes;
    std::uint32_t regions, skips;
    std::int8_t fidelity;
};

struct RestoreSpec {
    std::uint32_t passIndex;
    bool final;
    std::uint64_t host, device, hashNs, restoreNs;
    std::uint32_t regions, dirty, total, missed;
};

} // namespace

class TestAppRoundtrip : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path_;
    SessionSnapshot s_;
    std::map<std::string, std::uint64_t> seq1_, ts1_, seq2_, ts2_;

    void pass(ProcessWriter& w, std::uint64_t dispatch, const PassSpec& p, const char* name = nullptr) {
        w.put(
            EventType::pass,
            [&](Record& r) {
                r.pass = {dispatch, p.start,   p.end,   p.restoreNs, p.bytes,
                          p.index,  p.regions, p.skips, p.fidelity};
            },
            name);
    }
    void restore(ProcessWriter& w, std::uint64_t dispatch, const RestoreSpec& x) {
        w.put(EventType::restore, [&](Record& r) {
            r.restore.dispatch_id = dispatch;
            r.restore.restored_bytes_host = x.host;
            r.restore.restored_bytes_device = x.device;
            r.restore.hash_ns = x.hashNs;
            r.restore.restore_ns = x.restoreNs;
            r.restore.pass_index = x.passIndex;
            r.restore.regions_restored = x.regions;
            r.restore.dirty_chunks = x.dirty;
            r.restore.total_chunks = x.total;
            r.restore.missed_chunks = x.missed;
            r.restore.final_restore = x.final;
        });
    }
    void dispatch(ProcessWriter& w, std::uint64_t id, std::uint64_t kernel, StringId name,
                  DispatchDecision decision, std::uint32_t grid, const char* label) {
        w.put(
            EventType::dispatch,
            [&](Record& r) {
                r.dispatch = {id, kGpu, kQueue, kernel, name, {grid, 2, 1}, {64, 1, 1}, decision};
            },
            label);
    }
    void snapshot(ProcessWriter& w, std::uint64_t dispatch, std::uint64_t host, std::uint64_t device,
                  SnapshotStore store, ChunkHashPath path, bool pinned, bool ok, std::uint32_t failures) {
        w.put(EventType::snapshot, [&](Record& r) {
            SnapshotRecord& s = r.snapshot;
            s.dispatch_id = dispatch;
            s.agent = kGpu;
            s.generation = 1;
            s.bytes = host + device;
            s.duration_ns = 5000 + dispatch;
            s.regions = 2;
            s.failures = failures;
            s.ok = ok;
            s.host_bytes = host;
            s.device_bytes = device;
            s.hash_ns = path == ChunkHashPath::none ? 0 : 700 + dispatch;
            s.total_chunks = path == ChunkHashPath::none ? 0 : 17;
            s.store = store;
            s.hash_path = path;
            s.host_pinned = pinned;
            // The window's fence wait: dispatch 2 as an engine that did not measure it (-1), dispatch 4
            // measured as 0 ns (a value, not "not recorded").
            s.fence_wait_ns = dispatch == 2 ? -1 : dispatch == 4 ? 0 : std::int64_t(40000 + dispatch);
        });
    }

    /// Process 1: two agents, three allocations (one freed, one a vmem mapping), an executable, two module
    /// variables, an inventory, five dispatches (host, device and mixed snapshots, three passes with a
    /// fidelity mismatch, a skip and a missed chunk; a failed restore; a declined snapshot-incomplete with
    /// a snapshot failure; a multi-packet decline), an async copy, a warning and its session end.
    bool writeProcessOne(SessionStore& store, std::int64_t process) {
        ProcessWriter w(store, process, 2'000'000);
        const StringId exe = w.string("/usr/bin/heat"), argv = w.string("heat --steps 3"),
                       host = w.string("node7"), engine = w.string("0.9.1"),
                       config = w.string("REPLAYSCOPE_PASSES=3");
        w.put(
            EventType::session_start,
            [&](Record& r) { r.session_start = {4242, 5, kWall, exe, argv, host, engine, config}; }, "start");
        const StringId gfx = w.string("gfx90a"), isa = w.string("amdgcn-amd-amdhsa--gfx90a"),
                       cpu = w.string("AMD EPYC 7713");
        w.put(EventType::agent, [&](Record& r) { r.agent = {kGpu, gfx, isa, DeviceType::gpu, 1}; });
        w.put(EventType::agent, [&](Record& r) { r.agent = {kCpu, cpu, 0, DeviceType::cpu, 0}; });
        w.put(
            EventType::allocation,
            [&](Record& r) {
                r.allocation = {1,
                                kBuffer,
                                kBufferSize,
                                kGpu,
                                1,
                                AllocationApi::memory_pool_allocate,
                                PointerType::hsa,
                                AllocationClass::tracked};
            },
            "alloc1");
        w.put(
            EventType::allocation,
            [&](Record& r) {
                r.allocation = {2,
                                kFine,
                                kFineSize,
                                kGpu,
                                4,
                                AllocationApi::memory_allocate,
                                PointerType::hsa,
                                AllocationClass::excluded_fine_grained};
            },
            "alloc2");
        w.put(
            EventType::allocation,
            [&](Record& r) {
                r.allocation = {3,
                                0x7200'0000,
                                2 << 20,
                                kGpu,
                                1,
                                AllocationApi::vmem_map,
                                PointerType::hsa,
                                AllocationClass::tracked};
            },
            "alloc3");
        const StringId uri = w.string("file:///usr/bin/heat#offset=4096&size=8192");
        w.put(EventType::executable_loaded, [&](Record& r) { r.executable = {0xe000, 0xe100, kGpu, uri}; });
        const StringId coeffs = w.string("coeffs"), scratch = w.string("scratch");
        w.put(
            EventType::module_variable,
            [&](Record& r) {
                r.module_variable = {0xe000, kGpu, kCoeffs, kCoeffsSize, coeffs, VariableStatus::captured};
            },
            "var1");
        w.put(
            EventType::module_variable,
            [&](Record& r) {
                r.module_variable = {0xe000, kGpu,    0x7f00'1000,
                                     0,      scratch, VariableStatus::skipped_zero_size};
            },
            "var2");
        w.put(EventType::inventory, [&](Record& r) { r.inventory = {kGpu, 1, kFootprint, 2}; });
        w.put(EventType::inventory_region, [&](Record& r) {
            r.inventory_region = {kGpu, 1, kBuffer, kBufferSize, 1, 0, RegionKind::allocation};
        });
        w.put(EventType::inventory_region, [&](Record& r) {
            r.inventory_region = {kGpu, 1, kCoeffs, kCoeffsSize, 0, 1, RegionKind::module_variable};
        });
        const StringId stencil = w.string("stencil"), reduce = w.string("reduce");

        // Dispatch 1: host store (pinned, device hash), three passes, a fidelity mismatch and a skip on
        // pass 2, a missed chunk in the restore before pass 2, restores before 1 and 2 and the final one.
        dispatch(w, 1, kStencil, stencil, DispatchDecision::replayed, 256, "d1");
        snapshot(w, 1, kFootprint, 0, SnapshotStore::host, ChunkHashPath::device, true, true, 0);
        pass(w, 1, {0, 10'000, 10'250, 0, 0, 0, 0, kFidelityNotChecked});
        restore(w, 1, {1, false, 65536, 0, 300, 900, 1, 1, 17, 0});
        pass(w, 1, {1, 11'000, 11'300, 900, 65536, 1, 0, kFidelityMatched});
        w.put(EventType::restore_skip, [&](Record& r) {
            r.restore_skip = {1, kBuffer, kBufferSize, 1, 2, RestoreSkipReason::reallocated};
        });
        restore(w, 1, {2, false, 131072, 0, 310, 1200, 2, 2, 17, 1});
        w.put(EventType::restore_miss,
              [&](Record& r) { r.restore_miss = {1, kBuffer + 65536, 65536, 1, 2}; });
        pass(w, 1, {2, 12'000, 12'400, 1200, 131072, 2, 1, kFidelityDiffered}, "d1p2");
        w.put(EventType::fidelity_mismatch,
              [&](Record& r) { r.fidelity_mismatch = {1, 2, kCoeffs, kCoeffsSize, 0}; });
        restore(w, 1, {3, true, 65536, 0, 320, 1000, 1, 1, 17, 0});

        // Dispatch 2: device store, two passes, the restores the engine sends (before pass 1, final).
        dispatch(w, 2, kReduce, reduce, DispatchDecision::replayed, 512, "d2");
        snapshot(w, 2, 0, kFootprint, SnapshotStore::device, ChunkHashPath::device, false, true, 0);
        pass(w, 2, {0, 20'000, 20'100, 0, 0, 0, 0, kFidelityNotChecked});
        restore(w, 2, {1, false, 0, 4096, 200, 500, 1, 1, 17, 0});
        pass(w, 2, {1, 21'000, 21'120, 500, 4096, 1, 0, kFidelityNotChecked});
        restore(w, 2, {2, true, 0, 4096, 210, 520, 1, 1, 17, 0});

        // Dispatch 3: mixed store (the buffer in the host store, pageable; the variable on the device),
        // host hashing, two passes; the final restore could not write the buffer back.
        dispatch(w, 3, kStencil, stencil, DispatchDecision::replayed, 128, "d3");
        snapshot(w, 3, kBufferSize, kCoeffsSize, SnapshotStore::mixed, ChunkHashPath::host, false, true, 0);
        w.put(EventType::snapshot_placement,
              [&](Record& r) { r.snapshot_placement = {3, kBuffer, kBufferSize, SnapshotStore::host}; });
        w.put(EventType::snapshot_placement,
              [&](Record& r) { r.snapshot_placement = {3, kCoeffs, kCoeffsSize, SnapshotStore::device}; });
        pass(w, 3, {0, 30'000, 30'500, 0, 0, 0, 0, kFidelityNotChecked});
        restore(w, 3, {1, false, kBufferSize, kCoeffsSize, 0, 4000, 2, 17, 17, 0});
        pass(w, 3, {1, 31'000, 31'700, 4000, kFootprint, 2, 0, kFidelityNotChecked});
        w.put(EventType::restore_failure, [&](Record& r) {
            r.restore_failure = {3, kBuffer, kBufferSize, 1, 2, 1, 3, 0x1008, RegionKind::allocation};
        });
        restore(w, 3, {2, true, kCoeffsSize, 0, 0, 3000, 1, 17, 17, 0});

        // Dispatch 4: declined, its snapshot incomplete (one region could not be copied).
        dispatch(w, 4, kStencil, stencil, DispatchDecision::declined_snapshot_incomplete, 64, "d4");
        snapshot(w, 4, kCoeffsSize, 0, SnapshotStore::host, ChunkHashPath::none, true, false, 1);
        w.put(EventType::snapshot_failure, [&](Record& r) {
            r.snapshot_failure = {4, kBuffer, kBufferSize, 1, SnapshotFailureReason::copy_failed};
        });
        // Dispatch 5: declined multi-packet, no snapshot, an anonymous kernel.
        dispatch(w, 5, kCopy, 0, DispatchDecision::declined_multi_packet, 32, "d5");

        w.put(
            EventType::async_copy,
            [&](Record& r) {
                r.async_copy = {kGpu, 0x7300'0000, kBuffer, 4096, 1, 12'345, AsyncCopyOutcome::timed_out};
            },
            "copy");
        const StringId missed = w.string("restore before pass 2 of dispatch 1 missed 1 chunk");
        w.put(
            EventType::warning,
            [&](Record& r) { r.warning = {1, missed, WarningCode::restore_missed_chunk}; }, "warning");
        w.put(EventType::free, [&](Record& r) { r.free = {2, kFine}; }, "free2");
        w.put(
            EventType::session_end,
            [&](Record& r) {
                r.session_end.spooled = 0;
                r.session_end.last_sequence = w.seq(); // its own sequence: put() numbers the record first
                r.session_end.internal_errors = 2;
                r.session_end.exit_status = 0;
            },
            "end");
        seq1_ = w.seqs;
        ts1_ = w.times;
        return w.ok;
    }

    /// Process 2 (a child of process 1): the same GPU agent, one replayed dispatch whose id repeats process
    /// 1's, and its session end with exit status 3.
    bool writeProcessTwo(SessionStore& store, std::int64_t process) {
        ProcessWriter w(store, process, 9'000'000);
        const StringId exe = w.string("/usr/bin/worker"), argv = w.string("worker 7"),
                       host = w.string("node7"), engine = w.string("0.9.1"),
                       config = w.string("REPLAYSCOPE_PASSES=2");
        w.put(
            EventType::session_start,
            [&](Record& r) { r.session_start = {4243, 5, kWall + 5000, exe, argv, host, engine, config}; },
            "start");
        const StringId gfx = w.string("gfx90a"), isa = w.string("amdgcn-amd-amdhsa--gfx90a");
        w.put(EventType::agent, [&](Record& r) { r.agent = {kGpu, gfx, isa, DeviceType::gpu, 1}; });
        w.put(EventType::allocation, [&](Record& r) {
            r.allocation = {1,
                            0x9000'0000,
                            8192,
                            kGpu,
                            1,
                            AllocationApi::memory_pool_allocate,
                            PointerType::hsa,
                            AllocationClass::tracked};
        });
        w.put(EventType::inventory, [&](Record& r) { r.inventory = {kGpu, 1, 8192, 1}; });
        w.put(EventType::inventory_region, [&](Record& r) {
            r.inventory_region = {kGpu, 1, 0x9000'0000, 8192, 1, 0, RegionKind::allocation};
        });
        const StringId reduce = w.string("reduce");
        dispatch(w, 1, kReduce, reduce, DispatchDecision::replayed, 1024, "d1");
        w.put(EventType::snapshot, [&](Record& r) {
            r.snapshot = {1,
                          kGpu,
                          1,
                          8192,
                          800,
                          1,
                          0,
                          true,
                          8192,
                          0,
                          90,
                          1,
                          SnapshotStore::host,
                          ChunkHashPath::device,
                          true,
                          777};
        });
        pass(w, 1, {0, 40'000, 40'060, 0, 0, 0, 0, kFidelityNotChecked});
        restore(w, 1, {1, false, 8192, 0, 40, 300, 1, 1, 1, 0});
        pass(w, 1, {1, 41'000, 41'080, 300, 8192, 1, 0, kFidelityNotChecked});
        restore(w, 1, {2, true, 8192, 0, 45, 310, 1, 1, 1, 0});
        w.put(
            EventType::session_end,
            [&](Record& r) {
                r.session_end.last_sequence = w.seq(); // its own sequence: put() numbers the record first
                r.session_end.exit_status = 3;
            },
            "end");
        seq2_ = w.seqs;
        ts2_ = w.times;
        return w.ok;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath(QStringLiteral("roundtrip.rsdb"));
        std::string error;
        auto store = SessionStore::open(path_.toStdString(), SessionStore::Mode::create, error);
        QVERIFY2(store, error.c_str());
        const std::int64_t one = store->process({0x1111, 4242, 1});
        const std::int64_t two = store->process({0x2222, 4243, 4242});
        QCOMPARE(one, 1);
        QCOMPARE(two, 2);
        QVERIFY2(writeProcessOne(*store, one), store->last_error().c_str());
        QVERIFY2(store->commit(), store->last_error().c_str());
        QVERIFY2(writeProcessTwo(*store, two), store->last_error().c_str());
        QVERIFY2(store->finish("session end received"), store->last_error().c_str());
        store.reset();
        SessionError e;
        s_ = SessionLoader::loadAll(path_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QVERIFY(!s_.isNull());
        QVERIFY(s_->regionsLoaded);
    }

    void session() {
        const SessionInfo& i = s_->info;
        QCOMPARE(i.path, path_);
        QVERIFY(i.openedCopy.isEmpty());
        QCOMPARE(i.formatVersion, 7);
        QCOMPARE(i.pid, 4242); // the session row's identity is process 1's
        QCOMPARE(i.executable, QStringLiteral("/usr/bin/heat"));
        QCOMPARE(i.argv, QStringLiteral("heat --steps 3"));
        QCOMPARE(i.hostname, QStringLiteral("node7"));
        QCOMPARE(i.engineVersion, QStringLiteral("0.9.1"));
        QCOMPARE(i.configuration, QStringLiteral("REPLAYSCOPE_PASSES=3"));
        QCOMPARE(i.startNs, qint64(ts1_["start"]));
        QCOMPARE(i.startWallNs, qint64(kWall));
        QVERIFY(i.ended);
        QCOMPARE(i.endNs, qint64(ts1_["end"]));
        QVERIFY(i.complete);
        QCOMPARE(i.endReason, QStringLiteral("session end received"));
        QCOMPARE(i.lastSequence, qint64(seq1_["end"])); // the highest of the two processes
        QCOMPARE(i.eventsStored, qint64(seq1_["end"] + seq2_["end"]));
        QCOMPARE(i.spooled, 0);
        QCOMPARE(i.internalErrors, 2); // summed over the processes
        QCOMPARE(i.gapRanges, 0);
        QCOMPARE(i.missingEvents, 0);
        QCOMPARE(i.processCount, 2);
        QCOMPARE(i.rejectedFrames, 0);
        QVERIFY(!i.hasExitStatus); // written by replayscope-run only
        QCOMPARE(s_.enumName(QStringLiteral("decision"), int(DispatchDecision::declined_multi_packet)),
                 QStringLiteral("multi-packet"));
        QCOMPARE(s_.enumName(QStringLiteral("snapshot_store"), int(SnapshotStore::mixed)),
                 QStringLiteral("mixed"));
        QCOMPARE(s_.enumName(QStringLiteral("fidelity"), kFidelityDiffered), QStringLiteral("differed"));
    }

    void processes() {
        QCOMPARE(s_->processes.size(), 2);
        const ProcessInfo& a = s_->processes[0];
        QCOMPARE(a.process, 1);
        QCOMPARE(a.instance, quint64(0x1111));
        QCOMPARE(a.pid, 4242);
        QCOMPARE(a.parentPid, 1);
        QCOMPARE(a.executable, QStringLiteral("/usr/bin/heat"));
        QCOMPARE(a.argv, QStringLiteral("heat --steps 3"));
        QCOMPARE(a.configuration, QStringLiteral("REPLAYSCOPE_PASSES=3"));
        QCOMPARE(a.startNs, qint64(ts1_["start"]));
        QCOMPARE(a.startWallNs, qint64(kWall));
        QVERIFY(a.ended);
        QCOMPARE(a.endNs, qint64(ts1_["end"]));
        QVERIFY(a.complete);
        QCOMPARE(a.lastSequence, qint64(seq1_["end"]));
        QCOMPARE(a.eventsStored, qint64(seq1_["end"]));
        QCOMPARE(a.missingEvents, 0);
        QCOMPARE(a.internalErrors, 2);
        QVERIFY(a.hasExitStatus);
        QCOMPARE(a.exitStatus, 0);
        QCOMPARE(a.dispatches, 5);
        QCOMPARE(a.replayed, 3);
        QCOMPARE(a.declined, 2);
        QCOMPARE(a.restores, 7); // 3 + 2 + 2
        QCOMPARE(a.fullRestoreBytes, qint64(kFootprint * 7));
        QCOMPARE(a.movedHost, qint64(65536 + 131072 + 65536 + kBufferSize + kCoeffsSize));
        QCOMPARE(a.movedDevice, qint64(4096 + 4096 + kCoeffsSize));
        const ProcessInfo& b = s_->processes[1];
        QCOMPARE(b.process, 2);
        QCOMPARE(b.instance, quint64(0x2222));
        QCOMPARE(b.pid, 4243);
        QCOMPARE(b.parentPid, 4242);
        QCOMPARE(b.executable, QStringLiteral("/usr/bin/worker"));
        QCOMPARE(b.argv, QStringLiteral("worker 7"));
        QCOMPARE(b.startWallNs, qint64(kWall + 5000));
        QVERIFY(b.complete);
        QCOMPARE(b.lastSequence, qint64(seq2_["end"]));
        QCOMPARE(b.internalErrors, 0);
        QCOMPARE(b.exitStatus, 3);
        QCOMPARE(b.dispatches, 1);
        QCOMPARE(b.replayed, 1);
        QCOMPARE(b.declined, 0);
        QCOMPARE(b.restores, 2);
        QCOMPARE(b.movedHost, 16384);
        QCOMPARE(b.movedDevice, 0);
    }

    void agents() {
        // One entry per agent of each process: process 2 reported the same GPU handle, and keeps its own
        // entry (a handle is only meaningful in its own process).
        QCOMPARE(s_->agents.size(), 3);
        const AgentInfo& gpu = s_->agents[0];
        QCOMPARE(gpu.process, 1);
        QCOMPARE(gpu.handle, qint64(kGpu));
        QCOMPARE(gpu.name, QStringLiteral("gfx90a"));
        QCOMPARE(gpu.isa, QStringLiteral("amdgcn-amd-amdhsa--gfx90a"));
        QVERIFY(gpu.isGpu());
        QCOMPARE(gpu.node, 1);
        const AgentInfo& cpu = s_->agents[1];
        QCOMPARE(cpu.handle, qint64(kCpu));
        QCOMPARE(cpu.name, QStringLiteral("AMD EPYC 7713"));
        QVERIFY(cpu.isa.isEmpty());
        QCOMPARE(cpu.deviceType, int(DeviceType::cpu));
        QVERIFY(!cpu.isGpu());
        QCOMPARE(cpu.node, 0);
        const AgentInfo& second = s_->agents[2];
        QCOMPARE(second.process, 2);
        QCOMPARE(second.handle, qint64(kGpu));
        QCOMPARE(second.name, QStringLiteral("gfx90a"));
        QVERIFY(second.isGpu());
        QCOMPARE(s_.agentIndex(1, kGpu), 0);
        QCOMPARE(s_.agentIndex(2, kGpu), 2);
        QCOMPARE(s_.agentIndex(2, kCpu), -1);
        QCOMPARE(s_.agentName(1, kGpu), QStringLiteral("gfx90a #0"));
        QCOMPARE(s_.agentName(2, kGpu), QStringLiteral("gfx90a #0"));
        QVERIFY(s_.agentLabel(1, kGpu) != s_.agentLabel(2, kGpu));
        QVERIFY(s_.agentLabel(2, kGpu).endsWith(QStringLiteral(" · gfx90a #0")));
    }

    void dispatches() {
        QCOMPARE(int(s_->dispatches.size()), 6);
        // By process, then id.
        const int rows[6][2] = {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {2, 1}};
        for (int r = 0; r < 6; ++r) {
            QCOMPARE(s_->dispatches[r].process, rows[r][0]);
            QCOMPARE(s_->dispatches[r].id, rows[r][1]);
            QCOMPARE(s_.dispatchRow(rows[r][0], rows[r][1]), r);
        }
        QCOMPARE(s_->kernelNames, QStringList({QStringLiteral("stencil"), QStringLiteral("reduce"),
                                               QStringLiteral("kernel@6b03")}));
        const DispatchRow& d1 = s_->dispatches[0];
        QCOMPARE(d1.seq, qint64(seq1_["d1"]));
        QCOMPARE(d1.tsNs, qint64(ts1_["d1"]));
        QCOMPARE(d1.agent, qint64(kGpu));
        QCOMPARE(d1.queue, qint64(kQueue));
        QCOMPARE(d1.kernelObject, qint64(kStencil));
        QCOMPARE(s_->kernelNames[d1.kernel], QStringLiteral("stencil"));
        QCOMPARE(d1.grid[0], 256u);
        QCOMPARE(d1.grid[1], 2u);
        QCOMPARE(d1.grid[2], 1u);
        QCOMPARE(d1.workgroup[0], 64u);
        QCOMPARE(d1.workgroup[1], 1u);
        QCOMPARE(d1.launchShape(), QStringLiteral("grid 256×2×1, workgroup 64×1×1"));
        QVERIFY(d1.replayed());
        QVERIFY(d1.hasSnapshot);
        QVERIFY(d1.snapshotOk);
        QCOMPARE(d1.generation, 1);
        QCOMPARE(d1.snapshotBytes, qint64(kFootprint));
        QCOMPARE(d1.snapshotNs, 5001);
        QCOMPARE(d1.fenceWaitNs, 40001);
        QCOMPARE(d1.snapshotRegions, 2);
        QCOMPARE(d1.snapshotFailures, 0);
        QCOMPARE(d1.passes, 3);
        QCOMPARE(d1.skips, 1);
        QCOMPARE(d1.kernelMin, 250);
        QCOMPARE(d1.kernelMedian, 300);
        QCOMPARE(d1.kernelMax, 400);
        QVERIFY(d1.storedIn(SnapshotStore::host));
        QCOMPARE(d1.hashPath, int(ChunkHashPath::device));
        QCOMPARE(d1.hostPinned, 1);
        QCOMPARE(d1.hostBytes, qint64(kFootprint));
        QCOMPARE(d1.deviceBytes, 0);
        QCOMPARE(d1.snapshotHashNs, 701);
        QCOMPARE(d1.snapshotChunks, 17);
        QCOMPARE(d1.restores, 3);
        QCOMPARE(d1.restoreNs, 900 + 1200 + 1000); // the restore records, the final one included
        QCOMPARE(d1.movedHost, 65536 + 131072 + 65536);
        QCOMPARE(d1.movedDevice, 0);
        QCOMPARE(d1.dirtyChunks, 1 + 2 + 1);
        QCOMPARE(d1.comparedChunks, 3 * 17);
        QCOMPARE(d1.missedChunks, 1);
        QCOMPARE(d1.restoreHashNs, 300 + 310 + 320);
        QCOMPARE(d1.fullRestoreBytes(), qint64(3 * kFootprint));

        const DispatchRow& d2 = s_->dispatches[1];
        QCOMPARE(s_->kernelNames[d2.kernel], QStringLiteral("reduce"));
        QCOMPARE(d2.grid[0], 512u);
        QCOMPARE(d2.fenceWaitNs, -1); // not recorded
        QVERIFY(d2.storedIn(SnapshotStore::device));
        QCOMPARE(d2.hostPinned, 0);
        QCOMPARE(d2.hostBytes, 0);
        QCOMPARE(d2.deviceBytes, qint64(kFootprint));
        QCOMPARE(d2.passes, 2);
        QCOMPARE(d2.kernelMin, 100);
        QCOMPARE(d2.kernelMax, 120);
        QCOMPARE(d2.kernelMedian, 110);
        QCOMPARE(d2.restores, 2);
        QCOMPARE(d2.restoreNs, 500 + 520);
        QCOMPARE(d2.movedHost, 0);
        QCOMPARE(d2.movedDevice, 8192);
        QCOMPARE(d2.dirtyChunks, 2);
        QCOMPARE(d2.comparedChunks, 34);
        QCOMPARE(d2.missedChunks, 0);
        QCOMPARE(d2.restoreHashNs, 410);

        const DispatchRow& d3 = s_->dispatches[2];
        QVERIFY(d3.storedIn(SnapshotStore::mixed));
        QCOMPARE(d3.hashPath, int(ChunkHashPath::host));
        QCOMPARE(d3.hostPinned, 0);
        QCOMPARE(d3.hostBytes, qint64(kBufferSize));
        QCOMPARE(d3.fenceWaitNs, 40003); // its store columns spill, the fence wait stays in the row
        QCOMPARE(d3.deviceBytes, qint64(kCoeffsSize));
        QCOMPARE(s_.regionStore(2, kBuffer), int(SnapshotStore::host));
        QCOMPARE(s_.regionStore(2, kCoeffs), int(SnapshotStore::device));
        QCOMPARE(s_.regionStore(0, kCoeffs), int(SnapshotStore::host)); // a host snapshot: every region
        QCOMPARE(d3.restores, 2);
        QCOMPARE(d3.movedHost, qint64(kBufferSize + kCoeffsSize));
        QCOMPARE(d3.movedDevice, qint64(kCoeffsSize));

        const DispatchRow& d4 = s_->dispatches[3];
        QCOMPARE(d4.decision, int(DispatchDecision::declined_snapshot_incomplete));
        QVERIFY(!d4.replayed());
        QVERIFY(d4.hasSnapshot);
        QVERIFY(!d4.snapshotOk);
        QCOMPARE(d4.snapshotFailures, 1);
        QCOMPARE(d4.fenceWaitNs, 0);
        QCOMPARE(d4.hashPath, int(ChunkHashPath::none));
        QCOMPARE(d4.snapshotChunks, 0);
        QCOMPARE(d4.passes, 0);
        QCOMPARE(d4.restores, 0);
        QCOMPARE(d4.movedHost, -1); // no restore recorded
        QCOMPARE(d4.kernelMin, -1);

        const DispatchRow& d5 = s_->dispatches[4];
        QCOMPARE(d5.decision, int(DispatchDecision::declined_multi_packet));
        QVERIFY(!d5.hasSnapshot);
        QCOMPARE(d5.fenceWaitNs, -1);
        QCOMPARE(d5.store, -1);
        QCOMPARE(d5.hostBytes, -1);
        QCOMPARE(s_->kernelNames[d5.kernel], QStringLiteral("kernel@6b03"));

        const DispatchRow& p2 = s_->dispatches[5];
        QCOMPARE(p2.seq, qint64(seq2_["d1"]));
        QCOMPARE(p2.tsNs, qint64(ts2_["d1"]));
        QCOMPARE(s_->kernelNames[p2.kernel], QStringLiteral("reduce")); // one entry per name
        QCOMPARE(p2.grid[0], 1024u);
        QCOMPARE(p2.snapshotBytes, 8192);
        QCOMPARE(p2.snapshotChunks, 1);
        QCOMPARE(p2.fenceWaitNs, 777); // process 2's dispatch 1, not process 1's (40001)
        QCOMPARE(p2.restores, 2);
        QCOMPARE(p2.movedHost, 16384);
    }

    void passes() {
        QCOMPARE(int(s_->passBegin.size()), 7);
        const std::vector<int> begin{0, 3, 5, 7, 7, 7, 9};
        QCOMPARE(s_->passBegin, begin);
        struct Expected {
            int index;
            qint64 start, end, restoreNs, bytes;
            int regions, skips, fidelity;
        };
        const Expected d1[3] = {{0, 10'000, 10'250, 0, 0, 0, 0, kFidelityNotChecked},
                                {1, 11'000, 11'300, 900, 65536, 1, 0, kFidelityMatched},
                                {2, 12'000, 12'400, 1200, 131072, 2, 1, kFidelityDiffered}};
        for (int i = 0; i < 3; ++i) {
            const PassRow& p = s_->passes[std::size_t(i)];
            QCOMPARE(p.process, 1);
            QCOMPARE(p.dispatchId, 1);
            QCOMPARE(p.index, d1[i].index);
            QCOMPARE(p.startTick, d1[i].start);
            QCOMPARE(p.endTick, d1[i].end);
            QCOMPARE(p.restoreNs, d1[i].restoreNs);
            QCOMPARE(p.bytesRestored, d1[i].bytes);
            QCOMPARE(p.regionsRestored, d1[i].regions);
            QCOMPARE(p.skips, d1[i].skips);
            QCOMPARE(p.fidelity, d1[i].fidelity);
        }
        // Passes 2+ keep their time (passes 0 and 1 are folded into the dispatch row without one).
        QCOMPARE(s_->passes[2].tsNs, qint64(ts1_["d1p2"]));
        QVERIFY(s_->passes[2].differed());
        QVERIFY(!s_->passes[0].fidelityChecked());
        // Each later pass links the restore before it; pass 0 has none.
        QCOMPARE(s_->passes[0].restore, -1);
        QCOMPARE(s_->restores[std::size_t(s_->passes[1].restore)].passIndex, 1);
        QCOMPARE(s_->restores[std::size_t(s_->passes[2].restore)].passIndex, 2);
        const PassRow& last = s_->passes[8];
        QCOMPARE(last.process, 2);
        QCOMPARE(last.index, 1);
        QCOMPARE(last.startTick, 41'000);
        QCOMPARE(last.endTick, 41'080);
        QCOMPARE(last.restoreNs, 300);
        QCOMPARE(last.bytesRestored, 8192);
    }

    void restores() {
        QVERIFY(s_->hasRestoreRecords);
        const std::vector<int> begin{0, 3, 5, 7, 7, 7, 9};
        QCOMPARE(s_->restoreBegin, begin);
        // By dispatch row, then pass index, the final restore last.
        struct Expected {
            int process;
            qint64 dispatch;
            int pass;
            bool final;
            qint64 host, device, hashNs, restoreNs;
            int regions, dirty, total, missed;
        };
        const Expected e[9] = {{1, 1, 1, false, 65536, 0, 300, 900, 1, 1, 17, 0},
                               {1, 1, 2, false, 131072, 0, 310, 1200, 2, 2, 17, 1},
                               {1, 1, 3, true, 65536, 0, 320, 1000, 1, 1, 17, 0},
                               {1, 2, 1, false, 0, 4096, 200, 500, 1, 1, 17, 0},
                               {1, 2, 2, true, 0, 4096, 210, 520, 1, 1, 17, 0},
                               {1, 3, 1, false, kBufferSize, kCoeffsSize, 0, 4000, 2, 17, 17, 0},
                               {1, 3, 2, true, kCoeffsSize, 0, 0, 3000, 1, 17, 17, 0},
                               {2, 1, 1, false, 8192, 0, 40, 300, 1, 1, 1, 0},
                               {2, 1, 2, true, 8192, 0, 45, 310, 1, 1, 1, 0}};
        QCOMPARE(int(s_->restores.size()), 9);
        for (int i = 0; i < 9; ++i) {
            const RestoreRow& r = s_->restores[std::size_t(i)];
            QCOMPARE(r.process, e[i].process);
            QCOMPARE(r.dispatchId, e[i].dispatch);
            QCOMPARE(r.passIndex, e[i].pass);
            QCOMPARE(r.finalRestore, e[i].final);
            QCOMPARE(r.bytesHost, e[i].host);
            QCOMPARE(r.bytesDevice, e[i].device);
            QCOMPARE(r.hashNs, e[i].hashNs);
            QCOMPARE(r.restoreNs, e[i].restoreNs);
            QCOMPARE(r.regionsRestored, e[i].regions);
            QCOMPARE(r.dirtyChunks, e[i].dirty);
            QCOMPARE(r.totalChunks, e[i].total);
            QCOMPARE(r.missedChunks, e[i].missed);
        }
        QCOMPARE(int(s_->restoreMisses.size()), 1);
        const RestoreMissRow& m = s_->restoreMisses[0];
        QCOMPARE(m.process, 1);
        QCOMPARE(m.dispatchId, 1);
        QCOMPARE(m.passIndex, 2);
        QCOMPARE(m.address, qint64(kBuffer + 65536));
        QCOMPARE(m.size, 65536);
        QCOMPARE(m.allocationId, 1);
        QCOMPARE(int(s_->placements.size()), 2);
        QCOMPARE(s_->placements[0].dispatchId, 3);
        QCOMPARE(s_->placements[0].address, qint64(kBuffer));
        QCOMPARE(s_->placements[0].size, qint64(kBufferSize));
        QCOMPARE(s_->placements[0].store, int(SnapshotStore::host));
        QCOMPARE(s_->placements[1].address, qint64(kCoeffs));
        QCOMPARE(s_->placements[1].size, qint64(kCoeffsSize));
        QCOMPARE(s_->placements[1].store, int(SnapshotStore::device));
    }

    void skipsFailuresAndMismatches() {
        // By dispatch row, then pass: dispatch 1's skip, dispatch 3's failed restore, dispatch 4's
        // snapshot failure.
        const std::vector<int> begin{0, 1, 1, 2, 3, 3, 3};
        QCOMPARE(s_->skipBegin, begin);
        const SkipRow& skip = s_->skips[0];
        QCOMPARE(skip.process, 1);
        QCOMPARE(skip.dispatchId, 1);
        QCOMPARE(skip.pass, 2);
        QCOMPARE(skip.address, qint64(kBuffer));
        QCOMPARE(skip.size, qint64(kBufferSize));
        QCOMPARE(skip.allocationId, 1);
        QCOMPARE(skip.reason, int(RestoreSkipReason::reallocated));
        QVERIFY(!skip.restoreFailure && !skip.fidelityMismatch);
        const SkipRow& failure = s_->skips[1];
        QCOMPARE(failure.dispatchId, 3);
        QCOMPARE(failure.pass, 2);
        QCOMPARE(failure.address, qint64(kBuffer));
        QCOMPARE(failure.allocationId, 1);
        QVERIFY(failure.restoreFailure);
        QCOMPARE(failure.reason, int(RegionKind::allocation));
        QCOMPARE(failure.attempts, 3);
        const SkipRow& snap = s_->skips[2];
        QCOMPARE(snap.dispatchId, 4);
        QCOMPARE(snap.pass, -1);
        QCOMPARE(snap.address, qint64(kBuffer));
        QCOMPARE(snap.size, qint64(kBufferSize));
        QCOMPARE(snap.reason, int(SnapshotFailureReason::copy_failed));
        QVERIFY(!snap.restoreFailure);

        const std::vector<int> mismatchBegin{0, 1, 1, 1, 1, 1, 1};
        QCOMPARE(s_->mismatchBegin, mismatchBegin);
        const SkipRow& m = s_->mismatches[0];
        QVERIFY(m.fidelityMismatch);
        QCOMPARE(m.process, 1);
        QCOMPARE(m.dispatchId, 1);
        QCOMPARE(m.pass, 2);
        QCOMPARE(m.address, qint64(kCoeffs));
        QCOMPARE(m.size, qint64(kCoeffsSize));
        QCOMPARE(m.allocationId, 0);
    }

    void allocations() {
        QCOMPARE(int(s_->allocations.size()), 4);
        const AllocationRow& a = s_->allocations[0];
        QCOMPARE(a.process, 1);
        QCOMPARE(a.id, 1);
        QCOMPARE(a.allocSeq, qint64(seq1_["alloc1"]));
        QCOMPARE(a.allocNs, qint64(ts1_["alloc1"]));
        QCOMPARE(a.address, qint64(kBuffer));
        QCOMPARE(a.size, qint64(kBufferSize));
        QCOMPARE(a.agent, qint64(kGpu));
        QCOMPARE(a.api, int(AllocationApi::memory_pool_allocate));
        QCOMPARE(a.poolFlags, 1u);
        QCOMPARE(a.pointerType, int(PointerType::hsa));
        QVERIFY(a.tracked());
        QCOMPARE(a.freeSeq, -1);
        QCOMPARE(a.freeNs, -1);
        QCOMPARE(a.skipped, 1);
        QCOMPARE(a.captured, 3); // the ok snapshots of inventory (1, gpu, 1): dispatches 1, 2 and 3
        const AllocationRow& fine = s_->allocations[1];
        QCOMPARE(fine.id, 2);
        QCOMPARE(fine.classification, int(AllocationClass::excluded_fine_grained));
        QVERIFY(!fine.tracked());
        QCOMPARE(fine.api, int(AllocationApi::memory_allocate));
        QCOMPARE(fine.poolFlags, 4u);
        QCOMPARE(fine.freeSeq, qint64(seq1_["free2"]));
        QCOMPARE(fine.freeNs, qint64(ts1_["free2"]));
        QCOMPARE(fine.captured, 0);
        const AllocationRow& vmem = s_->allocations[2];
        QCOMPARE(vmem.id, 3);
        QCOMPARE(vmem.api, int(AllocationApi::vmem_map));
        QCOMPARE(vmem.size, 2 << 20);
        const AllocationRow& other = s_->allocations[3];
        QCOMPARE(other.process, 2);
        QCOMPARE(other.id, 1);
        QCOMPARE(other.address, 0x9000'0000);
        QCOMPARE(other.captured, 1);
        QCOMPARE(other.skipped, 0); // process 1's skip names process 1's allocation 1 only
    }

    void moduleVariablesWarningsCopies() {
        QCOMPARE(int(s_->moduleVariables.size()), 2);
        const ModuleVariableRow& v = s_->moduleVariables[0];
        QCOMPARE(v.process, 1);
        QCOMPARE(v.seq, qint64(seq1_["var1"]));
        QCOMPARE(v.tsNs, qint64(ts1_["var1"]));
        QCOMPARE(v.executable, 0xe000);
        QCOMPARE(v.agent, qint64(kGpu));
        QCOMPARE(v.address, qint64(kCoeffs));
        QCOMPARE(v.size, qint64(kCoeffsSize));
        QCOMPARE(v.symbol, QStringLiteral("coeffs"));
        QVERIFY(v.captured());
        const ModuleVariableRow& skipped = s_->moduleVariables[1];
        QCOMPARE(skipped.symbol, QStringLiteral("scratch"));
        QCOMPARE(skipped.size, 0);
        QCOMPARE(skipped.status, int(VariableStatus::skipped_zero_size));

        QCOMPARE(int(s_->warnings.size()), 1);
        const WarningRow& w = s_->warnings[0];
        QCOMPARE(w.process, 1);
        QCOMPARE(w.seq, qint64(seq1_["warning"]));
        QCOMPARE(w.tsNs, qint64(ts1_["warning"]));
        QCOMPARE(w.dispatchId, 1);
        QCOMPARE(w.code, int(WarningCode::restore_missed_chunk));
        QCOMPARE(w.text, QStringLiteral("restore before pass 2 of dispatch 1 missed 1 chunk"));

        QCOMPARE(int(s_->asyncCopies.size()), 1);
        const AsyncCopyRow& c = s_->asyncCopies[0];
        QCOMPARE(c.process, 1);
        QCOMPARE(c.seq, qint64(seq1_["copy"]));
        QCOMPARE(c.tsNs, qint64(ts1_["copy"]));
        QCOMPARE(c.agent, qint64(kGpu));
        QCOMPARE(c.dst, 0x7300'0000);
        QCOMPARE(c.src, qint64(kBuffer));
        QCOMPARE(c.size, 4096);
        QCOMPARE(c.dispatchId, 1);
        QCOMPARE(c.waitedNs, 12'345);
        QVERIFY(c.timedOut());
    }

    void regions() {
        const RegionColumns& r = s_->regions;
        QCOMPARE(int(r.address.size()), 3);
        // Process 1's inventory (gpu, generation 1), then process 2's.
        QCOMPARE(r.process, std::vector<int>({1, 1, 2}));
        QCOMPARE(r.agent, std::vector<qint64>({qint64(kGpu), qint64(kGpu), qint64(kGpu)}));
        QCOMPARE(r.generation, std::vector<qint64>({1, 1, 1}));
        QCOMPARE(r.index, std::vector<quint32>({0, 1, 0}));
        QCOMPARE(r.address, std::vector<qint64>({qint64(kBuffer), qint64(kCoeffs), 0x9000'0000}));
        QCOMPARE(r.size, std::vector<qint64>({qint64(kBufferSize), qint64(kCoeffsSize), 8192}));
        QCOMPARE(r.allocationId, std::vector<qint64>({1, 0, 1}));
        QCOMPARE(r.kind,
                 std::vector<quint8>({quint8(RegionKind::allocation), quint8(RegionKind::module_variable),
                                      quint8(RegionKind::allocation)}));
        QCOMPARE(r.ranges.value(InventoryKey{1, qint64(kGpu), 1}), qMakePair(0, 2));
        QCOMPARE(r.ranges.value(InventoryKey{2, qint64(kGpu), 1}), qMakePair(2, 1));
    }

    void totals() {
        const SessionTotals t = sessionTotals(s_->dispatches);
        QCOMPARE(t.dispatches, 6);
        QCOMPARE(t.replayed, 4);
        QCOMPARE(t.declined(), 2);
        QCOMPARE(t.snapshotBytes, qint64(3 * kFootprint + kCoeffsSize + 8192));
        QCOMPARE(t.skips, 1);
        QCOMPARE(t.restores.restores, 9);
        QCOMPARE(t.restores.fullBytes, qint64(7 * kFootprint + 2 * 8192));
        QCOMPARE(t.restores.movedHost, s_->processes[0].movedHost + s_->processes[1].movedHost);
        QCOMPARE(t.restores.movedDevice, s_->processes[0].movedDevice);
        QCOMPARE(t.restores.dirtyChunks, 4 + 2 + 34 + 2);
        QCOMPARE(t.restores.comparedChunks, 7 * 17 + 2);
        QCOMPARE(t.restores.missedChunks, 1);
        QCOMPARE(t.restores.stores.value(int(SnapshotStore::host)), 3); // dispatches 1 and 4, process 2's
        QCOMPARE(t.restores.stores.value(int(SnapshotStore::device)), 1);
        QCOMPARE(t.restores.stores.value(int(SnapshotStore::mixed)), 1);
    }

    /// The worker-thread reader publishes the same picture (first without, then with the regions).
    void readerAgrees() {
        SessionReader reader;
        QSignalSpy ready(&reader, &SessionReader::snapshotReady);
        reader.open(path_);
        auto loaded = [&] {
            const SessionSnapshot s = reader.snapshot();
            return !s.isNull() && s.data().regionsLoaded;
        };
        QTRY_VERIFY_WITH_TIMEOUT(loaded(), 20000);
        const SessionSnapshot s = reader.snapshot();
        QCOMPARE(int(s->dispatches.size()), int(s_->dispatches.size()));
        QCOMPARE(int(s->passes.size()), int(s_->passes.size()));
        QCOMPARE(int(s->restores.size()), int(s_->restores.size()));
        QCOMPARE(s->dispatches[2].movedHost, s_->dispatches[2].movedHost);
        QCOMPARE(int(s->regions.address.size()), 3);
        QCOMPARE(s->processes.size(), 2);
    }
};

QTEST_MAIN(TestAppRoundtrip)
#include "tst_app_roundtrip.moc"
