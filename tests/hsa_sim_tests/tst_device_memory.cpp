// SPDX-License-Identifier: MIT
/*
 * Device memory accounting: HSA_SIM_DEVICE_MEMORY sets the device memory of each GPU agent (K/M/G and
 * KiB/MiB/GiB suffixes, default 16 GiB), reported as the size of its coarse- and fine-grained pools; the
 * live allocations of both pools together never exceed it (OUT_OF_RESOURCES past it, INVALID_ALLOCATION
 * for a single request larger than the pool, as ROCr); frees, region allocations and virtual-memory
 * handles are accounted; every GPU agent has its own budget; CPU pools are not limited by it. With ROCr
 * 6.x headers HSA_AMD_AGENT_INFO_MEMORY_AVAIL (0xA015) answers the free bytes; with 5.2.3 headers the
 * attribute does not exist and is refused (INVALID_ARGUMENT), as by ROCr 5.2.3.
 * The variable is read at hsa_init: every case sets it, initialises, checks and shuts down.
 */
#include "sim_test_util.h"

#include <QTest>

#include <hsa_api_trace.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

using namespace rs_test;

namespace {

constexpr auto kMemoryAvail = static_cast<hsa_agent_info_t>(0xA015);
constexpr bool kHasMemoryAvail = HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2;
constexpr uint64_t kMiB = 1024 * 1024;

/// HSA_AMD_AGENT_INFO_MEMORY_AVAIL of `agent`, or UINT64_MAX when the attribute is refused.
uint64_t memory_avail(hsa_agent_t agent, hsa_status_t* status = nullptr) {
    hsa_status_t st = HSA_STATUS_SUCCESS;
    const auto v = agent_info<uint64_t>(agent, kMemoryAvail, &st);
    if (status) {
        *status = st;
    }
    return st == HSA_STATUS_SUCCESS ? v : UINT64_MAX;
}

hsa_region_t find_region(hsa_agent_t agent, uint32_t flags) {
    for (hsa_region_t r : list_regions(agent)) {
        if (region_info<uint32_t>(r, HSA_REGION_INFO_GLOBAL_FLAGS) == flags) {
            return r;
        }
    }
    return {0};
}

} // namespace

class DeviceMemoryTest : public QObject {
    Q_OBJECT

    hsa_agent_t cpu_{0}, gpu_{0};
    hsa_amd_memory_pool_t coarse_{0}, fine_{0}, system_{0};

    /// Sets HSA_SIM_DEVICE_MEMORY (unset when empty), initialises the runtime and finds agents and pools.
    bool start(const QByteArray& device_memory, const QByteArray& gpus = "1") {
        if (device_memory.isEmpty()) {
            qunsetenv("HSA_SIM_DEVICE_MEMORY");
        } else {
            qputenv("HSA_SIM_DEVICE_MEMORY", device_memory);
        }
        qputenv("HSA_SIM_GPU_AGENTS", gpus);
        if (hsa_init() != HSA_STATUS_SUCCESS) {
            return false;
        }
        const Agents agents = list_agents();
        if (agents.cpus.empty() || agents.gpus.empty()) {
            return false;
        }
        cpu_ = agents.cpus[0];
        gpu_ = agents.gpus[0];
        coarse_ = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        fine_ = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        system_ = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        return coarse_.handle && fine_.handle && system_.handle;
    }

    /// MEMORY_AVAIL of the first GPU agent equals `expected` (6.x headers) or is refused (5.2.3 headers).
    void expectAvail(uint64_t expected) {
        hsa_status_t st = HSA_STATUS_SUCCESS;
        const uint64_t avail = memory_avail(gpu_, &st);
        if (kHasMemoryAvail) {
            QCOMPARE(st, HSA_STATUS_SUCCESS);
            QCOMPARE(avail, expected);
        } else {
            QCOMPARE(st, HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
    }

  private Q_SLOTS:
    void cleanup() {
        // A failed case may leave the runtime open: close every reference so the next case starts anew.
        while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
        }
        qunsetenv("HSA_SIM_DEVICE_MEMORY");
        qunsetenv("HSA_SIM_GPU_AGENTS");
    }

    void defaultIsSixteenGiB() {
        QVERIFY(start(""));
        const uint64_t size = 16ull << 30;
        QCOMPARE(pool_info<size_t>(coarse_, HSA_AMD_MEMORY_POOL_INFO_SIZE), size);
        QCOMPARE(pool_info<size_t>(fine_, HSA_AMD_MEMORY_POOL_INFO_SIZE), size);
        QCOMPARE(pool_info<size_t>(coarse_, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE), size);
        expectAvail(size);
        void* p = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 3 * kMiB, 0, &p), HSA_STATUS_SUCCESS);
        expectAvail(size - 3 * kMiB);
        QCOMPARE(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
        expectAvail(size);
        // The CPU agent does not answer the attribute on any header generation.
        hsa_status_t st = HSA_STATUS_SUCCESS;
        memory_avail(cpu_, &st);
        QCOMPARE(st, HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }

    void sizeSuffixes_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<quint64>("bytes");
        QTest::newRow("plain") << QByteArray("1048576") << quint64{1048576};
        QTest::newRow("K") << QByteArray("64K") << quint64{65536};
        QTest::newRow("KiB") << QByteArray("8KiB") << quint64{8192};
        QTest::newRow("M") << QByteArray("3M") << quint64{3 * kMiB};
        QTest::newRow("MiB") << QByteArray("5MiB") << quint64{5 * kMiB};
        QTest::newRow("G") << QByteArray("2G") << quint64{2ull << 30};
        QTest::newRow("GiB") << QByteArray("1GiB") << quint64{1ull << 30};
        QTest::newRow("minimum") << QByteArray("4096") << quint64{4096};
        // Malformed or too small values are reported on stderr and the default is used.
        QTest::newRow("bad suffix") << QByteArray("12X") << quint64{16ull << 30};
        QTest::newRow("not a number") << QByteArray("lots") << quint64{16ull << 30};
        QTest::newRow("below a page") << QByteArray("4095") << quint64{16ull << 30};
        QTest::newRow("overflow") << QByteArray("99999999999999G") << quint64{16ull << 30};
    }
    void sizeSuffixes() {
        QFETCH(QByteArray, value);
        QFETCH(quint64, bytes);
        QVERIFY(start(value));
        QCOMPARE(quint64{pool_info<size_t>(coarse_, HSA_AMD_MEMORY_POOL_INFO_SIZE)}, bytes);
        QCOMPARE(quint64{pool_info<size_t>(fine_, HSA_AMD_MEMORY_POOL_INFO_SIZE)}, bytes);
        const hsa_region_t region = find_region(gpu_, HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED);
        QVERIFY(region.handle);
        QCOMPARE(quint64{region_info<size_t>(region, HSA_REGION_INFO_SIZE)}, bytes);
        expectAvail(bytes);
    }

    /// Coarse- and fine-grained pools of one agent share its device memory; sizes count in 4 KiB pages.
    void poolsShareTheAgentsMemory() {
        QVERIFY(start("1M"));
        void* a = nullptr;
        void* b = nullptr;
        void* c = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 512 * 1024, 0, &a), HSA_STATUS_SUCCESS);
        expectAvail(512 * 1024);
        // 4097 bytes hold two pages.
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_, 4097, 0, &b), HSA_STATUS_SUCCESS);
        expectAvail(512 * 1024 - 8192);
        // What remains is 516096 bytes: one page more fails, exactly that much succeeds, from either pool.
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_, 516096 + 1, 0, &c), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        QCOMPARE(c, nullptr);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 516096 + 4096, 0, &c),
                 HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        expectAvail(512 * 1024 - 8192); // a refused allocation holds nothing
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 516096, 0, &c), HSA_STATUS_SUCCESS);
        expectAvail(0);
        void* d = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_, 1, 0, &d), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        // Host memory is not device memory: the CPU's pools still allocate.
        void* host = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(system_, 4 * kMiB, 0, &host), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);
        // Freeing gives the bytes back, although the simulator keeps the block for reuse.
        QCOMPARE(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
        expectAvail(8192);
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_, 8192, 0, &b), HSA_STATUS_SUCCESS);
        expectAvail(0);
        QCOMPARE(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(c), HSA_STATUS_SUCCESS);
        expectAvail(kMiB);
        // A freed pointer freed again changes nothing.
        QCOMPARE(hsa_amd_memory_pool_free(c), HSA_STATUS_ERROR_INVALID_ALLOCATION);
        expectAvail(kMiB);
        // The whole memory in one allocation; one byte more is larger than the pool (INVALID_ALLOCATION).
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, kMiB, 0, &a), HSA_STATUS_SUCCESS);
        expectAvail(0);
        QCOMPARE(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, kMiB + 1, 0, &a), HSA_STATUS_ERROR_INVALID_ALLOCATION);
        expectAvail(kMiB);
    }

    /// hsa_memory_allocate on the agent's regions draws on the same memory.
    void regionsAreAccounted() {
        QVERIFY(start("256K"));
        const hsa_region_t coarse = find_region(gpu_, HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED);
        QVERIFY(coarse.handle);
        void* a = nullptr;
        void* b = nullptr;
        QCOMPARE(hsa_memory_allocate(coarse, 200 * 1024, &a), HSA_STATUS_SUCCESS);
        expectAvail(56 * 1024);
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_, 60 * 1024, 0, &b), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        QCOMPARE(hsa_memory_allocate(coarse, 60 * 1024, &b), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        QCOMPARE(hsa_memory_allocate(coarse, 56 * 1024, &b), HSA_STATUS_SUCCESS);
        expectAvail(0);
        QCOMPARE(hsa_memory_free(a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_memory_free(b), HSA_STATUS_SUCCESS);
        expectAvail(256 * 1024);
    }

    /// Each GPU agent has its own device memory.
    void agentsHaveTheirOwnMemory() {
        QVERIFY(start("1M", "2"));
        const Agents agents = list_agents();
        QCOMPARE(agents.gpus.size(), size_t{2});
        const hsa_amd_memory_pool_t second =
            find_pool(agents.gpus[1], HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        QVERIFY(second.handle);
        void* a = nullptr;
        void* b = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, kMiB, 0, &a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_allocate(second, kMiB, 0, &b), HSA_STATUS_SUCCESS);
        expectAvail(0);
        if (kHasMemoryAvail) {
            QCOMPARE(memory_avail(agents.gpus[1]), uint64_t{0});
        }
        QCOMPARE(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
        expectAvail(0);
        if (kHasMemoryAvail) {
            QCOMPARE(memory_avail(agents.gpus[1]), kMiB);
        }
        QCOMPARE(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
    }

    /// The accounting starts over at the next hsa_init (allocations are released by hsa_shut_down).
    void shutDownReleasesTheAccount() {
        QVERIFY(start("1M"));
        void* a = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, kMiB, 0, &a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
        QVERIFY(start("1M"));
        expectAvail(kMiB);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, kMiB, 0, &a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
    }

    /// Threads allocating at once never overshoot the memory: exactly capacity / page allocations succeed.
    void concurrentAllocationsStopAtTheLimit() {
        QVERIFY(start("2M"));
        constexpr int kThreads = 4;
        std::atomic<int> succeeded{0};
        std::vector<std::vector<void*>> held(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                const hsa_amd_memory_pool_t pool = (t % 2) ? fine_ : coarse_;
                for (int i = 0; i < 1000; ++i) {
                    void* p = nullptr;
                    if (hsa_amd_memory_pool_allocate(pool, 4096, 0, &p) == HSA_STATUS_SUCCESS) {
                        held[t].push_back(p);
                        succeeded.fetch_add(1);
                    }
                }
            });
        }
        for (auto& th : threads) {
            th.join();
        }
        QCOMPARE(succeeded.load(), int(2 * kMiB / 4096));
        expectAvail(0);
        for (auto& list : held) {
            for (void* p : list) {
                QCOMPARE(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
            }
        }
        expectAvail(2 * kMiB);
    }

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2
    /// A virtual-memory handle holds device memory from hsa_amd_vmem_handle_create to its release.
    void vmemHandlesAreAccounted() {
        QVERIFY(start("1M"));
        void* a = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 256 * 1024, 0, &a), HSA_STATUS_SUCCESS);
        hsa_amd_vmem_alloc_handle_t handle{};
        QCOMPARE(hsa_amd_vmem_handle_create(coarse_, 512 * 1024, MEMORY_TYPE_NONE, 0, &handle),
                 HSA_STATUS_SUCCESS);
        expectAvail(256 * 1024);
        hsa_amd_vmem_alloc_handle_t second{};
        QCOMPARE(hsa_amd_vmem_handle_create(fine_, 512 * 1024, MEMORY_TYPE_NONE, 0, &second),
                 HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        expectAvail(256 * 1024);
        QCOMPARE(hsa_amd_vmem_handle_release(handle), HSA_STATUS_SUCCESS);
        expectAvail(768 * 1024);
        QCOMPARE(hsa_amd_vmem_handle_create(fine_, 512 * 1024, MEMORY_TYPE_NONE, 0, &second),
                 HSA_STATUS_SUCCESS);
        expectAvail(256 * 1024);
        QCOMPARE(hsa_amd_vmem_handle_release(second), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
        expectAvail(kMiB);
    }
#endif
};

QTEST_APPLESS_MAIN(DeviceMemoryTest)
#include "tst_device_memory.moc"
