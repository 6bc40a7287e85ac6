// SPDX-License-Identifier: MIT
// snap() and restore() hand hsa_memory_copy the host store's agent address (HostStore::agent_block()
// + offset), not the CPU's pointer: for memory registered with hsa_amd_memory_lock the two may differ
// (ROCr 5.2.3 core/runtime/amd_memory_region.cpp MemoryRegion::Lock returns the agent's address), and
// only the agent address lets the runtime find the locked range. In process on the simulated runtime,
// whose lock returns the host address: the saved hsa_amd_memory_lock is wrapped to return a separate
// shadow block as the agent address, so a copy that used the CPU's pointer misses the shadow.
#include "allocation_inventory.h"
#include "executable_registry.h"
#include "hsa_api.h"
#include "memory_snapshot.h"
#include "sim_in_process.h"

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>

#include <QTest>

#include <cstring>
#include <memory>
#include <vector>

using namespace rs::engine;

namespace {

decltype(AmdExtTable::hsa_amd_memory_lock_fn) real_lock = nullptr;
std::vector<std::unique_ptr<std::byte[]>> shadows;

/// The real lock, then a separate shadow block of the same size as the agent's address.
hsa_status_t lock_with_shadow(void* host, size_t size, hsa_agent_t* agents, int count, void** agent_ptr) {
    const hsa_status_t status = real_lock(host, size, agents, count, agent_ptr);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    shadows.emplace_back(new std::byte[size]);
    *agent_ptr = shadows.back().get();
    return status;
}

} // namespace

class TestSnapshotAgentAddress : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    /// The locked host store (its system-pool allocation refused): the snapshot's copy lands at the
    /// agent address (the shadow), and a full restore copies it back from there.
    void hostStoreCopiesUseTheAgentAddress() {
        // pool allocation 1: the program's buffer; 2: the host store's block (refused: locked memory).
        qputenv("HSA_SIM_FAIL_ALLOC", "2");
        qputenv("HSA_TOOLS_LIB", RS_TABLE_TOOL);
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        QVERIFY(rs::test::take_saved_tables(RS_TABLE_TOOL));
        real_lock = hsa().amd.hsa_amd_memory_lock_fn;
        hsa().amd.hsa_amd_memory_lock_fn = lock_with_shadow;
        hsa_agent_t gpu{0};
        hsa_iterate_agents(rs::test::find_gpu, &gpu);
        hsa_amd_memory_pool_t pool{0};
        hsa_amd_agent_iterate_memory_pools(gpu, rs::test::find_coarse_pool, &pool);
        QVERIFY(gpu.handle != 0 && pool.handle != 0);
        constexpr size_t bytes = 300000;
        void* buffer = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(pool, bytes, 0, &buffer), HSA_STATUS_SUCCESS);
        std::vector<std::byte> pattern(bytes);
        for (size_t i = 0; i < bytes; ++i) {
            pattern[i] = std::byte(i * 7 + 3);
        }
        QCOMPARE(hsa_memory_copy(buffer, pattern.data(), bytes), HSA_STATUS_SUCCESS);

        AllocationInventory inventory;
        inventory.add({inventory.next_id(), reinterpret_cast<uintptr_t>(buffer), bytes, gpu.handle, true});
        ExecutableRegistry executables;
        const auto sink = make_null_sink();
        MemorySnapshotter snapshotter(inventory, executables, *sink);
        AgentStores stores(gpu);
        DeviceHasher hasher(gpu);
        SnapshotOptions options;
        options.store = SnapshotStoreMode::host;
        options.restore = RestoreMode::full;
        {
            std::lock_guard hold(stores.lock());
            const DeviceSnapshot s = snapshotter.snap(gpu, 1, options, stores, hasher);
            QVERIFY(s.ok);
            QCOMPARE(s.host_bytes, uint64_t(bytes));
            QVERIFY(stores.host().pinned());
            QCOMPARE(shadows.size(), size_t(1));
            QCOMPARE(stores.host().agent_block(), shadows[0].get());
            QCOMPARE(s.regions.at(0).copy, shadows[0].get());
            // The copy went to the agent address.
            QVERIFY(std::memcmp(shadows[0].get(), pattern.data(), bytes) == 0);
            // The pass changes the buffer; the restore brings the snapshot back from the agent address.
            std::vector<std::byte> garbage(bytes, std::byte{0x5a});
            QCOMPARE(hsa_memory_copy(buffer, garbage.data(), bytes), HSA_STATUS_SUCCESS);
            const RestoreResult r = snapshotter.restore(s, 1, 1, hasher, false);
            QVERIFY(!r.failed);
            QCOMPARE(r.bytes_host, uint64_t(bytes));
            std::vector<std::byte> back(bytes);
            QCOMPARE(hsa_memory_copy(back.data(), buffer, bytes), HSA_STATUS_SUCCESS);
            QVERIFY(back == pattern);
        }
        stores.host().release();
        hsa().amd.hsa_amd_memory_lock_fn = real_lock;
        hsa_amd_memory_pool_free(buffer);
        hsa_shut_down();
    }
};

QTEST_GUILESS_MAIN(TestSnapshotAgentAddress)
#include "tst_snapshot_agent_address.moc"
