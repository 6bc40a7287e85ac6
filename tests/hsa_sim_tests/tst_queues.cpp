// SPDX-License-Identifier: MIT
/*
 * Queues and AQL packets: queue creation (power-of-two sizes), kernel dispatch through the packet
 * processor (results, completion-signal decrements, consumed slots set to INVALID, read index advancing),
 * barrier-bit ordering, the in-flight limit for packets without the barrier bit, barrier-AND/OR
 * dependency semantics, profiling timestamps (system domain, ordered, covering the kernel's run time),
 * and the agent's one shared, reference-counted cooperative queue (ROCr 5.2.3 GpuAgent::QueueCreate).
 */
#include "sim_test_kernels.h"
#include "sim_test_util.h"

#include <QTest>

#include <algorithm>
#include <memory>

using namespace rs_test;

class QueuesTest : public QObject {
    Q_OBJECT

    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};
    LoadedCode code_;
    uint64_t fill_{0};
    uint64_t record_{0};
    hsa_queue_t* queue_ = nullptr;

    static uint16_t slotType(hsa_queue_t* q, uint64_t index) {
        const uint16_t header =
            __atomic_load_n(&slot<hsa_kernel_dispatch_packet_t>(q, index)->header, __ATOMIC_ACQUIRE);
        return static_cast<uint16_t>((header >> HSA_PACKET_HEADER_TYPE) &
                                     ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1));
    }

    /** Submits `count` rs_record.kd dispatches sleeping `sleep_ns` each; returns their completion signal. */
    hsa_signal_t submitRecords(RecordShared* shared, uint32_t first, uint32_t count, uint64_t sleep_ns,
                               bool barrier, std::vector<void*>* kernargs) {
        hsa_signal_t done;
        hsa_signal_create(count, 0, nullptr, &done);
        for (uint32_t i = first; i < first + count; ++i) {
            auto* args = alloc_kernarg<RecordArgs>(cpu_);
            *args = RecordArgs{shared, i, 0, sleep_ns};
            kernargs->push_back(args);
            dispatch(queue_, record_, args, 1, 1, done, barrier);
        }
        return done;
    }

    static void freeAll(std::vector<void*>& ptrs) {
        for (void* p : ptrs) {
            hsa_amd_memory_pool_free(p);
        }
        ptrs.clear();
    }

  private Q_SLOTS:
    void initTestCase() {
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.cpus.empty() && !agents.gpus.empty());
        cpu_ = agents.cpus[0];
        gpu_ = agents.gpus[0];
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, false, true, &code_), HSA_STATUS_SUCCESS);
        fill_ = kernel_object(code_.exe, gpu_, kFillKernel);
        record_ = kernel_object(code_.exe, gpu_, kRecordKernel);
        QVERIFY(fill_ != 0 && record_ != 0);
    }
    void cleanupTestCase() {
        unload_code(&code_);
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
    }
    void init() {
        QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX,
                                  &queue_),
                 HSA_STATUS_SUCCESS);
    }
    void cleanup() {
        QCOMPARE(hsa_queue_destroy(queue_), HSA_STATUS_SUCCESS);
        queue_ = nullptr;
    }

    void queueProperties() {
        QVERIFY(queue_->base_address != nullptr);
        QCOMPARE(queue_->size, 64u);
        QVERIFY(queue_->doorbell_signal.handle != 0);
        QCOMPARE(hsa_queue_load_read_index_scacquire(queue_), uint64_t{0});
        QCOMPARE(hsa_queue_load_write_index_scacquire(queue_), uint64_t{0});
        // A fresh queue holds only INVALID packets (the packet processor must not run them).
        for (uint64_t i = 0; i < queue_->size; ++i) {
            QCOMPARE(slotType(queue_, i), uint16_t{HSA_PACKET_TYPE_INVALID});
        }
        hsa_queue_t* single = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 128, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, UINT32_MAX, UINT32_MAX,
                                  &single),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(single->size, 128u);
        QVERIFY(single->id != queue_->id);
        QCOMPARE(hsa_queue_destroy(single), HSA_STATUS_SUCCESS);
        // Sizes must be powers of two within [QUEUE_MIN_SIZE, QUEUE_MAX_SIZE].
        const auto min_size = agent_info<uint32_t>(gpu_, HSA_AGENT_INFO_QUEUE_MIN_SIZE);
        const auto max_size = agent_info<uint32_t>(gpu_, HSA_AGENT_INFO_QUEUE_MAX_SIZE);
        QVERIFY(min_size >= 1 && min_size <= 64 && max_size >= 128);
        hsa_queue_t* bad = nullptr;
        if (min_size > 1) {
            QCOMPARE(hsa_queue_create(gpu_, min_size / 2, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                      UINT32_MAX, &bad),
                     HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        QCOMPARE(
            hsa_queue_create(gpu_, 100, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &bad),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }

    void kernelDispatch() {
        constexpr uint32_t n = 1000;
        std::vector<uint32_t> out(n, 0xdeadbeef);
        auto* args = alloc_kernarg<FillArgs>(cpu_);
        QVERIFY(args);
        *args = FillArgs{out.data(), 10, 0};
        hsa_signal_t done;
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        const uint64_t index = dispatch(queue_, fill_, args, n, 64, done, false);
        QCOMPARE(index, uint64_t{0});
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(out[i], kTableInitial[i % 4] * 10 + i);
        }
        // The processor consumed the slot: read index advanced, header set back to INVALID.
        QTRY_COMPARE_WITH_TIMEOUT(hsa_queue_load_read_index_scacquire(queue_), uint64_t{1}, 2000);
        QTRY_COMPARE_WITH_TIMEOUT(slotType(queue_, 0), uint16_t{HSA_PACKET_TYPE_INVALID}, 2000);
        hsa_signal_destroy(done);
        hsa_amd_memory_pool_free(args);
    }

    void completionSignalIsDecremented() {
        // Three packets share one completion signal starting at 3: it ends at 0, never below.
        std::vector<uint32_t> out(16, 0);
        auto* args = alloc_kernarg<FillArgs>(cpu_);
        *args = FillArgs{out.data(), 1, 0};
        hsa_signal_t done;
        QCOMPARE(hsa_signal_create(3, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        for (int i = 0; i < 3; ++i) {
            dispatch(queue_, fill_, args, 16, 16, done, true);
        }
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{0});
        QTRY_COMPARE_WITH_TIMEOUT(hsa_queue_load_read_index_scacquire(queue_), uint64_t{3}, 2000);
        hsa_signal_destroy(done);
        hsa_amd_memory_pool_free(args);
    }

    void wrapsAroundTheRing() {
        // The smallest queue the agent allows, filled more than twice over.
        const auto min_size = agent_info<uint32_t>(gpu_, HSA_AGENT_INFO_QUEUE_MIN_SIZE);
        hsa_queue_t* small = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, min_size, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &small),
                 HSA_STATUS_SUCCESS);
        const uint64_t count = 2 * uint64_t{min_size} + 5;
        hsa_signal_t done;
        QCOMPARE(hsa_signal_create(static_cast<hsa_signal_value_t>(count), 0, nullptr, &done),
                 HSA_STATUS_SUCCESS);
        for (uint64_t i = 0; i < count; ++i) {
            submit_barrier(small, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
        }
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        QTRY_COMPARE_WITH_TIMEOUT(hsa_queue_load_read_index_scacquire(small), count, 2000);
        hsa_signal_destroy(done);
        QCOMPARE(hsa_queue_destroy(small), HSA_STATUS_SUCCESS);
    }

    void barrierBitSerialises() {
        auto shared = std::make_unique<RecordShared>();
        std::vector<void*> kernargs;
        const hsa_signal_t done = submitRecords(shared.get(), 0, 6, 5'000'000, true, &kernargs);
        QCOMPARE(wait_below_one(done, 5000), hsa_signal_value_t{0});
        QCOMPARE(shared->max_in_flight.load(), 1);
        for (uint32_t i = 1; i < 6; ++i) {
            QVERIFY(shared->start_event[i] > shared->end_event[i - 1]);
        }
        hsa_signal_destroy(done);
        freeAll(kernargs);
    }

    void inFlightLimitAndBarrierAfterConcurrentPackets() {
        auto shared = std::make_unique<RecordShared>();
        std::vector<void*> kernargs;
        // Eight packets without the barrier bit: at most four run at once.
        const hsa_signal_t first = submitRecords(shared.get(), 0, 8, 30'000'000, false, &kernargs);
        // Then one with the barrier bit: it starts only once all eight completed.
        const hsa_signal_t last = submitRecords(shared.get(), 8, 1, 1'000'000, true, &kernargs);
        QCOMPARE(wait_below_one(last, 5000), hsa_signal_value_t{0});
        QCOMPARE(hsa_signal_load_scacquire(first), hsa_signal_value_t{0});
        qInfo("max in flight without barrier bit: %d", shared->max_in_flight.load());
        QVERIFY(shared->max_in_flight.load() >= 1);
        QVERIFY(shared->max_in_flight.load() <= 4);
        const uint32_t last_end = *std::max_element(shared->end_event, shared->end_event + 8);
        QVERIFY(shared->start_event[8] > last_end);
        hsa_signal_destroy(first);
        hsa_signal_destroy(last);
        freeAll(kernargs);
    }

    void barrierAndWaitsForAllDependencies() {
        hsa_signal_t a, b, done;
        hsa_signal_create(1, 0, nullptr, &a);
        hsa_signal_create(1, 0, nullptr, &b);
        hsa_signal_create(1, 0, nullptr, &done);
        const hsa_signal_t null_signal{0};
        // Null dep_signal entries are ignored.
        submit_barrier(queue_, HSA_PACKET_TYPE_BARRIER_AND, {a, null_signal, b}, done);
        std::this_thread::sleep_for(std::chrono::milliseconds(40));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_store_screlease(a, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(40));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_store_screlease(b, 0);
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        // A barrier-AND with no dependencies completes at once.
        hsa_signal_store_relaxed(done, 1);
        submit_barrier(queue_, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        hsa_signal_destroy(a);
        hsa_signal_destroy(b);
        hsa_signal_destroy(done);
    }

    void barrierOrWaitsForAnyDependency() {
        hsa_signal_t a, b, done;
        hsa_signal_create(1, 0, nullptr, &a);
        hsa_signal_create(1, 0, nullptr, &b);
        hsa_signal_create(1, 0, nullptr, &done);
        submit_barrier(queue_, HSA_PACKET_TYPE_BARRIER_OR, {a, b}, done);
        std::this_thread::sleep_for(std::chrono::milliseconds(40));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_store_screlease(b, 0);
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        QCOMPARE(hsa_signal_load_scacquire(a), hsa_signal_value_t{1});
        hsa_signal_destroy(a);
        hsa_signal_destroy(b);
        hsa_signal_destroy(done);
    }

    void barrierPacketBlocksLaterPackets() {
        // Packets are processed in order: a kernel behind an unsatisfied barrier-AND (with the barrier bit)
        // does not run until the dependency is satisfied.
        hsa_signal_t dep, bdone, kdone;
        hsa_signal_create(1, 0, nullptr, &dep);
        hsa_signal_create(1, 0, nullptr, &bdone);
        hsa_signal_create(1, 0, nullptr, &kdone);
        std::vector<uint32_t> out(4, 0);
        auto* args = alloc_kernarg<FillArgs>(cpu_);
        *args = FillArgs{out.data(), 5, 0};
        submit_barrier(queue_, HSA_PACKET_TYPE_BARRIER_AND, {dep}, bdone, true);
        dispatch(queue_, fill_, args, 4, 4, kdone, true);
        std::this_thread::sleep_for(std::chrono::milliseconds(40));
        QCOMPARE(hsa_signal_load_scacquire(kdone), hsa_signal_value_t{1});
        QCOMPARE(out[1], 0u);
        hsa_signal_store_screlease(dep, 0);
        QCOMPARE(wait_below_one(kdone, 3000), hsa_signal_value_t{0});
        QCOMPARE(hsa_signal_load_scacquire(bdone), hsa_signal_value_t{0});
        QCOMPARE(out[1], kTableInitial[1] * 5 + 1);
        hsa_signal_destroy(dep);
        hsa_signal_destroy(bdone);
        hsa_signal_destroy(kdone);
        hsa_amd_memory_pool_free(args);
    }

    void profilingTimestamps() {
        QCOMPARE(hsa_amd_profiling_set_profiler_enabled(queue_, 1), HSA_STATUS_SUCCESS);
        auto shared = std::make_unique<RecordShared>();
        std::vector<void*> kernargs;
        constexpr int count = 4;
        constexpr uint64_t sleep_ns = 10'000'000;
        std::vector<hsa_signal_t> signals;
        const uint64_t before = system_timestamp();
        for (uint32_t i = 0; i < count; ++i) {
            auto* args = alloc_kernarg<RecordArgs>(cpu_);
            *args = RecordArgs{shared.get(), i, 0, sleep_ns};
            kernargs.push_back(args);
            hsa_signal_t s;
            hsa_signal_create(1, 0, nullptr, &s);
            signals.push_back(s);
            dispatch(queue_, record_, args, 1, 1, s, true);
        }
        for (hsa_signal_t s : signals) {
            QCOMPARE(wait_below_one(s, 3000), hsa_signal_value_t{0});
        }
        const uint64_t after = system_timestamp();
        uint64_t previous_end = 0;
        for (hsa_signal_t s : signals) {
            hsa_amd_profiling_dispatch_time_t t{};
            QCOMPARE(hsa_amd_profiling_get_dispatch_time(gpu_, s, &t), HSA_STATUS_SUCCESS);
            QVERIFY(t.start != 0);
            QVERIFY(t.start <= t.end);
            QVERIFY2(t.start >= before && t.end <= after,
                     "dispatch times are in the system timestamp domain");
            QVERIFY2(t.end - t.start >= sleep_ns * 9 / 10, qPrintable(QString::number(t.end - t.start)));
            QVERIFY(t.start >= previous_end); // barrier bit: each starts after the previous ended
            previous_end = t.end;
            hsa_signal_destroy(s);
        }
        freeAll(kernargs);
    }

    /// ROCr 5.2.3: every hsa_queue_create(COOPERATIVE) on an agent returns the same queue (64 packets, the
    /// requested size ignored), reference counted: it works until the last hsa_queue_destroy; a type past
    /// COOPERATIVE is invalid.
    void cooperativeQueueIsSharedAndCounted() {
        hsa_queue_t* a = nullptr;
        hsa_queue_t* b = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 4096, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &a),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_queue_create(gpu_, 128, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &b),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(a, b);
        QCOMPARE(a->type, uint32_t{HSA_QUEUE_TYPE_COOPERATIVE});
        QCOMPARE(a->size, 64u);
        QVERIFY(a->id != queue_->id);
        auto run_fill = [&](hsa_queue_t* q, uint32_t value) {
            std::vector<uint32_t> out(8, 0);
            auto* args = alloc_kernarg<FillArgs>(cpu_);
            *args = FillArgs{out.data(), value, 0};
            hsa_signal_t done;
            hsa_signal_create(1, 0, nullptr, &done);
            dispatch(q, fill_, args, 8, 8, done, true);
            const hsa_signal_value_t v = wait_below_one(done, 3000);
            hsa_signal_destroy(done);
            hsa_amd_memory_pool_free(args);
            return v == 0 && out[5] == kTableInitial[1] * value + 5;
        };
        QVERIFY(run_fill(a, 3));
        QCOMPARE(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
        QVERIFY(run_fill(b, 4)); // still referenced once
        QCOMPARE(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
        // The last reference is gone: a new request makes a new queue.
        hsa_queue_t* c = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &c),
                 HSA_STATUS_SUCCESS);
        QVERIFY(run_fill(c, 5));
        QCOMPARE(hsa_queue_destroy(c), HSA_STATUS_SUCCESS);
        hsa_queue_t* bad = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 64, static_cast<hsa_queue_type32_t>(3), nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &bad),
                 HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
};

QTEST_GUILESS_MAIN(QueuesTest)
#include "tst_queues.moc"
