// SPDX-License-Identifier: MIT
/*
 * Agents, ISAs, system info, memory pools and regions of the simulated runtime, plus hsa_init/hsa_shut_down
 * reference counting. Runs with HSA_SIM_GPU_AGENTS=3 (set before the first hsa_init) so that node numbering
 * and per-GPU pools are checked on more than one GPU.
 */
#include "sim_test_util.h"

#include <QTest>

#include <algorithm>

using namespace rs_test;

class AgentsPoolsTest : public QObject {
    Q_OBJECT

    Agents agents_;

  private Q_SLOTS:
    void initTestCase() {
        qputenv("HSA_SIM_GPU_AGENTS", "3");
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        agents_ = list_agents();
    }
    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }

    void agentOrderAndNodes() {
        QCOMPARE(agents_.all.size(), size_t{4});
        QCOMPARE(agents_.cpus.size(), size_t{1});
        QCOMPARE(agents_.gpus.size(), size_t{3});
        QCOMPARE(agents_.all[0].handle, agents_.cpus[0].handle);
        for (size_t i = 0; i < agents_.all.size(); ++i) {
            QCOMPARE(agent_info<uint32_t>(agents_.all[i], HSA_AGENT_INFO_NODE), static_cast<uint32_t>(i));
        }
        for (size_t i = 0; i < agents_.all.size(); ++i) {
            for (size_t j = i + 1; j < agents_.all.size(); ++j) {
                QVERIFY(agents_.all[i].handle != agents_.all[j].handle);
            }
        }
    }

    void gpuAgentInfo() {
        for (hsa_agent_t gpu : agents_.gpus) {
            hsa_status_t st;
            char name[64] = {};
            QCOMPARE(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
            QCOMPARE(QByteArray(name), QByteArray("gfx90a"));
            const auto feature = agent_info<uint32_t>(gpu, HSA_AGENT_INFO_FEATURE, &st);
            QCOMPARE(st, HSA_STATUS_SUCCESS);
            QVERIFY(feature & HSA_AGENT_FEATURE_KERNEL_DISPATCH);
            char product[64] = {};
            QCOMPARE(hsa_agent_get_info(gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME),
                                        product),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(QByteArray(product), QByteArray("ReplayScope simulated GPU"));
            QCOMPARE(agent_info<uint64_t>(gpu, kAgentInfoTimestampFrequency, &st), uint64_t{100'000'000});
            QCOMPARE(st, HSA_STATUS_SUCCESS);
        }
    }

    void gpuIsa() {
        for (hsa_agent_t gpu : agents_.gpus) {
            hsa_status_t st;
            const auto isa = agent_info<hsa_isa_t>(gpu, HSA_AGENT_INFO_ISA, &st);
            QCOMPARE(st, HSA_STATUS_SUCCESS);
            QVERIFY(isa.handle != 0);
            uint32_t length = 0;
            QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length), HSA_STATUS_SUCCESS);
            QByteArray isa_name(static_cast<int>(length) + 1, '\x7f');
            QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isa_name.data()), HSA_STATUS_SUCCESS);
            // The name carries the MI210's target features; NAME_LENGTH counts the terminating NUL (as
            // ROCr 5.2.3), and NAME writes that NUL.
            QCOMPARE(QByteArray(isa_name.constData()),
                     QByteArray("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"));
            QCOMPARE(length, uint32_t{42});
            QCOMPARE(isa_name.at(41), '\0');
            // The agent's name stays the bare processor.
            char name[64] = {};
            QCOMPARE(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
            QCOMPARE(QByteArray(name), QByteArray("gfx90a"));
        }
    }

    void cpuAgentInfo() {
        const hsa_agent_t cpu = agents_.cpus.at(0);
        QCOMPARE(agent_info<hsa_device_type_t>(cpu, HSA_AGENT_INFO_DEVICE), HSA_DEVICE_TYPE_CPU);
        QCOMPARE(agent_info<uint32_t>(cpu, HSA_AGENT_INFO_NODE), 0u);
    }

    void systemTimestamps() {
        uint64_t freq = 0;
        QCOMPARE(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq), HSA_STATUS_SUCCESS);
        QCOMPARE(freq, uint64_t{1'000'000'000});
        uint64_t previous = system_timestamp();
        QVERIFY(previous != 0);
        for (int i = 0; i < 1000; ++i) {
            const uint64_t t = system_timestamp();
            QVERIFY(t >= previous);
            previous = t;
        }
        // Ticks are nanoseconds: a 20 ms sleep advances the clock by roughly 20e6 ticks.
        const uint64_t before = system_timestamp();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const uint64_t elapsed = system_timestamp() - before;
        QVERIFY2(elapsed >= 19'000'000 && elapsed < 2'000'000'000, qPrintable(QString::number(elapsed)));
        uint16_t major = 0;
        QCOMPARE(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS);
        QCOMPARE(major, uint16_t{1});
    }

    void iterationBreak() {
        int calls = 0;
        const hsa_status_t st = hsa_iterate_agents(
            [](hsa_agent_t, void* data) {
                ++*static_cast<int*>(data);
                return HSA_STATUS_INFO_BREAK;
            },
            &calls);
        QCOMPARE(st, HSA_STATUS_INFO_BREAK);
        QCOMPARE(calls, 1);
    }

    void gpuPools() {
        for (hsa_agent_t gpu : agents_.gpus) {
            const auto pools = list_pools(gpu);
            // Two global pools, then the GROUP (LDS) pool ROCr reports on every GPU agent.
            QCOMPARE(pools.size(), size_t{3});
            const uint32_t expected[2] = {HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
                                          HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED};
            for (size_t i = 0; i < 2; ++i) {
                checkPool(pools[i], expected[i]);
            }
            checkGroupPool(gpu, pools[2]);
        }
    }

    void cpuPools() {
        const auto pools = list_pools(agents_.cpus.at(0));
        QCOMPARE(pools.size(), size_t{2});
        checkPool(pools[0], HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        checkPool(pools[1], HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    }

    void poolsAreDistinctPerGpu() {
        std::vector<uint64_t> handles;
        for (hsa_agent_t a : agents_.all) {
            for (auto p : list_pools(a)) {
                handles.push_back(p.handle);
            }
        }
        std::sort(handles.begin(), handles.end());
        QVERIFY(std::adjacent_find(handles.begin(), handles.end()) == handles.end());
    }

    void regions() {
        for (hsa_agent_t gpu : agents_.gpus) {
            const auto regions = list_regions(gpu);
            // The coarse-grained global region and the GROUP region (the fine-grained pool is not a region).
            QCOMPARE(regions.size(), size_t{2});
            QCOMPARE(region_info<hsa_region_segment_t>(regions[1], HSA_REGION_INFO_SEGMENT),
                     HSA_REGION_SEGMENT_GROUP);
            QCOMPARE(region_info<uint32_t>(regions[1], HSA_REGION_INFO_GLOBAL_FLAGS), uint32_t{0});
            QVERIFY(!region_info<bool>(regions[1], HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED));
            QCOMPARE(region_info<size_t>(regions[1], HSA_REGION_INFO_SIZE), size_t{64 * 1024});
            void* lds = nullptr;
            QCOMPARE(hsa_memory_allocate(regions[1], 4096, &lds), HSA_STATUS_ERROR_INVALID_ALLOCATION);
            QCOMPARE(region_info<hsa_region_segment_t>(regions[0], HSA_REGION_INFO_SEGMENT),
                     HSA_REGION_SEGMENT_GLOBAL);
            QCOMPARE(region_info<uint32_t>(regions[0], HSA_REGION_INFO_GLOBAL_FLAGS),
                     uint32_t{HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED});
            QVERIFY(region_info<bool>(regions[0], HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED));
            QVERIFY(region_info<size_t>(regions[0], HSA_REGION_INFO_SIZE) > 0);
        }
        const auto cpu_regions = list_regions(agents_.cpus.at(0));
        QCOMPARE(cpu_regions.size(), size_t{2});
        int kernarg = 0;
        int system = 0;
        for (hsa_region_t r : cpu_regions) {
            QCOMPARE(region_info<hsa_region_segment_t>(r, HSA_REGION_INFO_SEGMENT),
                     HSA_REGION_SEGMENT_GLOBAL);
            QVERIFY(region_info<bool>(r, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED));
            const auto flags = region_info<uint32_t>(r, HSA_REGION_INFO_GLOBAL_FLAGS);
            kernarg += (flags & HSA_REGION_GLOBAL_FLAG_KERNARG) ? 1 : 0;
            system += (flags == HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) ? 1 : 0;
        }
        QCOMPARE(kernarg, 1);
        QCOMPARE(system, 1);
    }

    void regionAllocate() {
        for (hsa_agent_t a : agents_.all) {
            for (hsa_region_t r : list_regions(a)) {
                if (!region_info<bool>(r, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED)) {
                    continue; // the GROUP region (checked in regions())
                }
                void* p = nullptr;
                QCOMPARE(hsa_memory_allocate(r, 4096, &p), HSA_STATUS_SUCCESS);
                QVERIFY(p != nullptr);
                QCOMPARE(hsa_memory_free(p), HSA_STATUS_SUCCESS);
            }
        }
    }

    void initIsReferenceCounted() {
        // One reference is held by initTestCase; take a second and drop it again.
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
        QCOMPARE(list_agents().all.size(), size_t{4});
        // Drop the last reference: the runtime is no longer usable, a further shut-down is an error.
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_iterate_agents([](hsa_agent_t, void*) { return HSA_STATUS_SUCCESS; }, nullptr),
                 HSA_STATUS_ERROR_NOT_INITIALIZED);
        QCOMPARE(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
        // Re-initialising after a full shut-down works again.
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        agents_ = list_agents();
        QCOMPARE(agents_.all.size(), size_t{4});
    }

  private:
    /// The LDS pool as ROCr 5.2.3 reports it: GROUP, no flags, 64 KiB, not allocatable, granule and alignment
    /// 0, not accessible by all; only its owner reaches it.
    void checkGroupPool(hsa_agent_t owner, hsa_amd_memory_pool_t pool) {
        hsa_status_t st;
        QCOMPARE(pool_info<hsa_amd_segment_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &st),
                 HSA_AMD_SEGMENT_GROUP);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(pool_info<uint32_t>(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS), uint32_t{0});
        QCOMPARE(pool_info<size_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE), size_t{64 * 1024});
        QCOMPARE(pool_info<bool>(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED), false);
        QCOMPARE(pool_info<size_t>(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE), size_t{0});
        QCOMPARE(pool_info<size_t>(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT), size_t{0});
        QCOMPARE(pool_info<bool>(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL), false);
        void* p = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(pool, 4096, 0, &p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
        for (hsa_agent_t a : agents_.all) {
            hsa_amd_memory_pool_access_t access{};
            QCOMPARE(
                hsa_amd_agent_memory_pool_get_info(a, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access),
                HSA_STATUS_SUCCESS);
            QCOMPARE(access, a.handle == owner.handle ? HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
                                                      : HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
        }
    }

    void checkPool(hsa_amd_memory_pool_t pool, uint32_t flags) {
        hsa_status_t st;
        QCOMPARE(pool_info<hsa_amd_segment_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &st),
                 HSA_AMD_SEGMENT_GLOBAL);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(pool_info<uint32_t>(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS), flags);
        QVERIFY(pool_info<bool>(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED));
        const auto size = pool_info<size_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE);
        const auto granule = pool_info<size_t>(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QVERIFY(size > 0);
        QVERIFY(granule > 0);
        QVERIFY(granule <= size);
        void* p = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(pool, granule, 0, &p), HSA_STATUS_SUCCESS);
        QVERIFY(p != nullptr);
        QCOMPARE(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
    }
};

QTEST_GUILESS_MAIN(AgentsPoolsTest)
#include "tst_agents_pools.moc"
