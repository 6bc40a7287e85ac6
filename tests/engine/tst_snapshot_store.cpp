// SPDX-License-Identifier: MIT
// The snapshot stores (engine/src/snapshot_store.h, docs/mechanism.md "Snapshot stores"), in process on
// the simulated runtime: the host store is page-locked system memory of the CPU agent the GPU may access,
// falls back to hsa_amd_memory_lock and then to pageable memory (reported) when the pool allocation and
// the lock fail; the device store is coarse-grained memory of the agent whose available() honours the
// reserve with and without the free-memory query; reclaim_device gives the store back so that an
// allocation the runtime refused succeeds when retried, waits for a window holding the store at most as
// long as it is told, and never frees a store a window holds.
//
// The saved API tables come from a test tool (rs_simtest_table_tool, loaded through HSA_TOOLS_LIB), as
// the engine gets them in OnLoad. Each test starts its own runtime (hsa_init reads the simulator's
// environment and resets its fault counters), so every test can be run alone.
#include "hsa_api.h"
#include "sim_in_process.h"
#include "snapshot_store.h"

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>

#include <QTest>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace rs::engine;
using namespace std::chrono_literals;

namespace {

constexpr uint64_t MiB = 1ull << 20;

hsa_status_t find_agents(hsa_agent_t agent, void* data) {
    auto* agents = static_cast<std::pair<hsa_agent_t, hsa_agent_t>*>(data);
    hsa_device_type_t type{};
    hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
    if (type == HSA_DEVICE_TYPE_CPU && agents->first.handle == 0) {
        agents->first = agent;
    }
    if (type == HSA_DEVICE_TYPE_GPU && agents->second.handle == 0) {
        agents->second = agent;
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t refuse_lock(void*, size_t, hsa_agent_t*, int, void**) {
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

/// What hsa_amd_pointer_info says about `p`.
struct PointerFacts {
    hsa_amd_pointer_type_t type = HSA_EXT_POINTER_TYPE_UNKNOWN;
    hsa_agent_t owner{0};
    uint32_t global_flags = 0;
    std::vector<uint64_t> accessible;
};

PointerFacts pointer_facts(const void* p) {
    PointerFacts facts;
    hsa_amd_pointer_info_t info{};
    info.size = sizeof(info);
    uint32_t count = 0;
    hsa_agent_t* agents = nullptr;
    if (hsa_amd_pointer_info(p, &info, std::malloc, &count, &agents) != HSA_STATUS_SUCCESS) {
        return facts;
    }
    facts.type = info.type;
    facts.owner = info.agentOwner;
    facts.global_flags = info.global_flags;
    for (uint32_t i = 0; i < count; ++i) {
        facts.accessible.push_back(agents[i].handle);
    }
    std::free(agents);
    return facts;
}

} // namespace

class TestSnapshotStore : public QObject {
    Q_OBJECT

    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};
    hsa_amd_memory_pool_t coarse_{0};
    bool running_ = false;

    /// A fresh runtime with the simulator's environment `env` (name, value pairs; every other HSA_SIM_
    /// variable this suite uses unset) and the saved tables in hsa().
    void start(std::initializer_list<std::pair<const char*, const char*>> env) {
        stop();
        for (const char* name : {"HSA_SIM_FAIL_ALLOC", "HSA_SIM_DEVICE_MEMORY"}) {
            qunsetenv(name);
        }
        for (const auto& [name, value] : env) {
            qputenv(name, value);
        }
        qputenv("HSA_TOOLS_LIB", RS_TABLE_TOOL);
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        running_ = true;
        QVERIFY(rs::test::take_saved_tables(RS_TABLE_TOOL));
        std::pair<hsa_agent_t, hsa_agent_t> agents{};
        hsa_iterate_agents(find_agents, &agents);
        cpu_ = agents.first;
        gpu_ = agents.second;
        QVERIFY(cpu_.handle != 0 && gpu_.handle != 0);
        coarse_ = {0};
        hsa_amd_agent_iterate_memory_pools(gpu_, rs::test::find_coarse_pool, &coarse_);
        QVERIFY(coarse_.handle != 0);
    }
    void stop() {
        if (running_) {
            hsa_shut_down();
        }
        running_ = false;
    }

    /// The device can read what the CPU wrote into the host block and write it back: hsa_memory_copy
    /// host -> device -> host through `agent_side` gives the same bytes.
    void check_round_trip(std::byte* cpu_side, std::byte* agent_side, size_t bytes) {
        for (size_t i = 0; i < bytes; ++i) {
            cpu_side[i] = static_cast<std::byte>(i * 7 + 3);
        }
        void* device = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, bytes, 0, &device), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_memory_copy(device, agent_side, bytes), HSA_STATUS_SUCCESS);
        std::memset(cpu_side, 0, bytes);
        QCOMPARE(hsa_memory_copy(agent_side, device, bytes), HSA_STATUS_SUCCESS);
        for (size_t i = 0; i < bytes; ++i) {
            if (cpu_side[i] != static_cast<std::byte>(i * 7 + 3)) {
                QFAIL(qPrintable(QStringLiteral("byte %1 differs after the round trip").arg(i)));
            }
        }
        QCOMPARE(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
    }

    /// True with ROCr 6.x headers, whose runtime (and the simulator built with them) answers
    /// HSA_AMD_AGENT_INFO_MEMORY_AVAIL; ROCr 5.2.3 refuses it.
    static bool has_memory_avail_query() { return HSA_AMD_EXT_API_TABLE_MAJOR_VERSION >= 2; }

  private Q_SLOTS:
    void cleanup() { stop(); }

    /// The host store's block is system memory of the CPU agent, allocated from a pool (not locked
    /// pageable memory), accessible to the GPU, the same address for the agent, and reused while it fits.
    void host_store_is_pinned_system_memory() {
        start({});
        HostStore store(gpu_);
        QCOMPARE(store.capacity(), uint64_t(0));
        std::byte* block = store.reserve(1 * MiB);
        QVERIFY(block);
        QVERIFY(store.pinned());
        QCOMPARE(store.pin_failure(), std::string_view());
        QCOMPARE(store.capacity(), 1 * MiB);
        QCOMPARE(store.agent_block(), block);
        const PointerFacts facts = pointer_facts(block);
        QCOMPARE(facts.type, HSA_EXT_POINTER_TYPE_HSA);
        QCOMPARE(facts.owner.handle, cpu_.handle);
        QVERIFY((facts.global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) == 0);
        QVERIFY(std::find(facts.accessible.begin(), facts.accessible.end(), gpu_.handle) !=
                facts.accessible.end());
        check_round_trip(block, store.agent_block(), 64 * 1024);

        // Reused while it fits; a larger request gets a new, larger block and the old one is freed.
        QCOMPARE(store.reserve(512 * 1024), block);
        QCOMPARE(store.capacity(), 1 * MiB);
        std::byte* larger = store.reserve(80 * MiB);
        QVERIFY(larger);
        QCOMPARE(store.capacity(), 80 * MiB);
        QVERIFY(store.pinned());
        if (block < larger || block >= larger + 80 * MiB) { // else the new block covers the old address
            QCOMPARE(pointer_facts(block).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        }
        // More than four times too large above 64 MiB: memory goes back.
        std::byte* smaller = store.reserve(1 * MiB);
        QVERIFY(smaller);
        QCOMPARE(store.capacity(), 1 * MiB);
        store.release();
        QCOMPARE(store.capacity(), uint64_t(0));
        QCOMPARE(pointer_facts(smaller).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
    }

    /// The system pool's allocation fails (HSA_SIM_FAIL_ALLOC=1): the block is host memory registered
    /// with hsa_amd_memory_lock for the GPU, still pinned.
    void host_store_falls_back_to_locked_memory() {
        start({{"HSA_SIM_FAIL_ALLOC", "1"}});
        HostStore store(gpu_);
        std::byte* block = store.reserve(3 * MiB + 5);
        QVERIFY(block);
        QVERIFY(store.pinned());
        QCOMPARE(store.pin_failure(), std::string_view());
        QCOMPARE(reinterpret_cast<uintptr_t>(block) % 4096, uintptr_t(0));
        const PointerFacts facts = pointer_facts(block);
        QCOMPARE(facts.type, HSA_EXT_POINTER_TYPE_LOCKED);
        QCOMPARE(facts.owner.handle, cpu_.handle);
        QVERIFY(std::find(facts.accessible.begin(), facts.accessible.end(), gpu_.handle) !=
                facts.accessible.end());
        QVERIFY(store.agent_block() != nullptr);
        check_round_trip(block, store.agent_block(), 3 * MiB + 5);
        // Released: unlocked and freed.
        store.release();
        QCOMPARE(pointer_facts(block).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QVERIFY(!store.pinned());
    }

    /// pool allocation and lock both refused: pageable memory, pinned() false, and the reason names both
    /// refused calls. The next block, once the pool allocates again, is pinned and the reason cleared.
    void host_store_falls_back_to_pageable_memory() {
        start({{"HSA_SIM_FAIL_ALLOC", "1"}});
        const auto real_lock = hsa().amd.hsa_amd_memory_lock_fn;
        hsa().amd.hsa_amd_memory_lock_fn = refuse_lock;
        HostStore store(gpu_);
        std::byte* block = store.reserve(2 * MiB);
        hsa().amd.hsa_amd_memory_lock_fn = real_lock;
        QVERIFY(block);
        QVERIFY(!store.pinned());
        const std::string why(store.pin_failure());
        QVERIFY2(why.find("hsa_amd_memory_pool_allocate") != std::string::npos, why.c_str());
        QVERIFY2(why.find("hsa_amd_memory_lock") != std::string::npos, why.c_str());
        QVERIFY2(why.find("OUT_OF_RESOURCES") != std::string::npos ||
                     why.find("resources") != std::string::npos,
                 why.c_str());
        QCOMPARE(pointer_facts(block).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QCOMPARE(store.agent_block(), block);
        std::memset(block, 0x5a, 2 * MiB); // plain memory the CPU can write
        // The copy still works (the runtime pins such memory per call).
        check_round_trip(block, store.agent_block(), 4096);

        std::byte* pinned = store.reserve(4 * MiB);
        QVERIFY(pinned);
        QVERIFY(store.pinned());
        QCOMPARE(store.pin_failure(), std::string_view());
        QCOMPARE(pointer_facts(pinned).type, HSA_EXT_POINTER_TYPE_HSA);
    }

    /// The page-locked blocks of all host stores stay within pin_limit() (default: a quarter of physical
    /// memory): with the cap at 2 MiB a 1 MiB block is pinned, a second store's 4 MiB block is pageable
    /// from the start (neither pool allocation nor lock: the reason names the cap), and once the first
    /// store lets go a block within the cap is pinned again.
    void host_store_pins_at_most_the_cap() {
        start({});
        const uint64_t physical =
            static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
        QCOMPARE(HostStore::pin_limit(), physical / 4);
        // Blocks of earlier tests' stores that were destroyed without release() stay pinned and counted
        // (freed with the process).
        const uint64_t base = HostStore::pinned_total();
        HostStore::set_pin_limit(base + 2 * MiB);
        HostStore first(gpu_);
        HostStore second(gpu_);
        QVERIFY(first.reserve(1 * MiB));
        QVERIFY(first.pinned());
        QCOMPARE(HostStore::pinned_total(), base + 1 * MiB);
        std::byte* block = second.reserve(4 * MiB);
        QVERIFY(block);
        QVERIFY(!second.pinned());
        const std::string why(second.pin_failure());
        const std::string cap = "cap of " + std::to_string(base + 2 * MiB) + " bytes";
        const std::string now = "(" + std::to_string(base + 1 * MiB) + " bytes now)";
        QVERIFY2(why.find(cap) != std::string::npos, why.c_str());
        QVERIFY2(why.find(now) != std::string::npos, why.c_str());
        QCOMPARE(pointer_facts(block).type, HSA_EXT_POINTER_TYPE_UNKNOWN); // neither pool nor locked
        QCOMPARE(reinterpret_cast<uintptr_t>(block) % 4096, uintptr_t(0));
        check_round_trip(block, second.agent_block(), 4096);
        QCOMPARE(HostStore::pinned_total(), base + 1 * MiB);
        // Exactly the cap is allowed.
        second.release();
        QVERIFY(second.reserve(1 * MiB));
        QVERIFY(second.pinned());
        QCOMPARE(HostStore::pinned_total(), base + 2 * MiB);
        first.release();
        second.release();
        QCOMPARE(HostStore::pinned_total(), base);
        QVERIFY(second.reserve(2 * MiB));
        QVERIFY(second.pinned());
        second.release();
        HostStore::set_pin_limit(0);
        QCOMPARE(HostStore::pin_limit(), physical / 4);
    }

    /// available() is the free device memory plus the store's own block minus the reserve, with the
    /// free-memory query (ROCr 6.x headers) or from the pool's size less the tracked bytes (5.2.3).
    void device_store_available_honours_the_reserve() {
        start({{"HSA_SIM_DEVICE_MEMORY", "64M"}});
        DeviceStore store(gpu_);
        QCOMPARE(store.available(16 * MiB, 0), 48 * MiB);
        QCOMPARE(store.available(64 * MiB, 0), uint64_t(0));
        QCOMPARE(store.available(100 * MiB, 0), uint64_t(0));
        // The application holds 20 MiB (tracked).
        void* application = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 20 * MiB, 0, &application), HSA_STATUS_SUCCESS);
        QCOMPARE(store.available(16 * MiB, 20 * MiB), 28 * MiB);
        // The store takes what is available: its own block counts as available to it.
        std::byte* block = store.reserve(28 * MiB);
        QVERIFY(block);
        QCOMPARE(store.capacity(), 28 * MiB);
        QCOMPARE(store.available(16 * MiB, 20 * MiB), 28 * MiB);
        QCOMPARE(store.available(0, 20 * MiB), 44 * MiB);
        // The block is coarse-grained memory of the GPU, allocated outside the wrappers.
        const PointerFacts facts = pointer_facts(block);
        QCOMPARE(facts.type, HSA_EXT_POINTER_TYPE_HSA);
        QCOMPARE(facts.owner.handle, gpu_.handle);
        QVERIFY((facts.global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) != 0);
        // Device to device: copies into and out of the store work.
        std::vector<unsigned char> data(1 * MiB), back(1 * MiB);
        for (size_t i = 0; i < data.size(); ++i) {
            data[i] = static_cast<unsigned char>(i * 13);
        }
        QCOMPARE(hsa_memory_copy(application, data.data(), data.size()), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_memory_copy(block + 4096, application, data.size()), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_memory_copy(back.data(), block + 4096, back.size()), HSA_STATUS_SUCCESS);
        QVERIFY(data == back);
        if (has_memory_avail_query()) {
            // The query sees memory the tracked bytes do not name (a fine-grained allocation, say): the
            // store's estimate follows the runtime's answer.
            uint64_t free_bytes = 0;
            QCOMPARE(hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(0xA015), &free_bytes),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(free_bytes, 16 * MiB);
            QCOMPARE(store.available(16 * MiB, 0), 28 * MiB);
        } else {
            uint64_t free_bytes = 0;
            QVERIFY(hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(0xA015), &free_bytes) !=
                    HSA_STATUS_SUCCESS);
            QCOMPARE(store.available(16 * MiB, 0), 48 * MiB); // only the tracked bytes are known
        }
        store.release();
        QCOMPARE(store.capacity(), uint64_t(0));
        QCOMPARE(pointer_facts(block).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QCOMPARE(hsa_amd_memory_pool_free(application), HSA_STATUS_SUCCESS);
    }

    /// A block the pool cannot give: reserve() answers nullptr and the store holds nothing.
    void device_store_reserve_fails_cleanly() {
        start({{"HSA_SIM_DEVICE_MEMORY", "64M"}});
        DeviceStore store(gpu_);
        QVERIFY(store.reserve(8 * MiB));
        QVERIFY(!store.reserve(65 * MiB));
        QCOMPARE(store.capacity(), uint64_t(0));
        QVERIFY(store.reserve(8 * MiB));
        QCOMPARE(store.capacity(), 8 * MiB);
    }

    /// The application's allocation fails because the store holds the memory; reclaim_device frees the
    /// store and the retried allocation succeeds. With nothing held, reclaim answers false at once.
    void reclaim_lets_the_retried_allocation_succeed() {
        start({{"HSA_SIM_DEVICE_MEMORY", "64M"}});
        AgentStores stores(gpu_);
        {
            std::lock_guard window(stores.lock());
            QVERIFY(stores.device().reserve(40 * MiB));
        }
        void* application = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 30 * MiB, 0, &application),
                 HSA_STATUS_ERROR_OUT_OF_RESOURCES);
        QVERIFY(stores.reclaim_device(1000ms));
        QCOMPARE(stores.device().capacity(), uint64_t(0));
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 30 * MiB, 0, &application), HSA_STATUS_SUCCESS);
        const auto t0 = std::chrono::steady_clock::now();
        QVERIFY(!stores.reclaim_device(1000ms));
        QVERIFY(std::chrono::steady_clock::now() - t0 < 100ms);
        QCOMPARE(hsa_amd_memory_pool_free(application), HSA_STATUS_SUCCESS);
    }

    /// A window holds the store: reclaim waits at most as long as it is told and leaves the store alone;
    /// once the window ends within the wait, the store is freed.
    void reclaim_waits_for_the_window_bounded() {
        start({{"HSA_SIM_DEVICE_MEMORY", "64M"}});
        AgentStores stores(gpu_);
        std::unique_lock window(stores.lock());
        QVERIFY(stores.device().reserve(16 * MiB));
        bool freed = true;
        auto t0 = std::chrono::steady_clock::now();
        std::thread allocator([&] { freed = stores.reclaim_device(150ms); });
        allocator.join();
        const auto waited = std::chrono::steady_clock::now() - t0;
        QVERIFY(!freed);
        QVERIFY(waited >= 140ms);
        QVERIFY2(waited < 1000ms, "the wait is bounded by the caller's limit");
        QCOMPARE(stores.device().capacity(), 16 * MiB);

        // The window ends 100 ms into a 2 s wait: the store goes back then.
        t0 = std::chrono::steady_clock::now();
        std::thread late([&] { freed = stores.reclaim_device(2000ms); });
        std::this_thread::sleep_for(100ms);
        window.unlock();
        late.join();
        QVERIFY(freed);
        QVERIFY(std::chrono::steady_clock::now() - t0 < 1500ms);
        QCOMPARE(stores.device().capacity(), uint64_t(0));
    }

    /// release() frees both stores.
    void release_frees_both_stores() {
        start({{"HSA_SIM_DEVICE_MEMORY", "64M"}});
        AgentStores stores(gpu_);
        std::byte* host = nullptr;
        std::byte* device = nullptr;
        {
            std::lock_guard window(stores.lock());
            host = stores.host().reserve(1 * MiB);
            device = stores.device().reserve(1 * MiB);
        }
        QVERIFY(host && device);
        QCOMPARE(pointer_facts(host).type, HSA_EXT_POINTER_TYPE_HSA);
        stores.release();
        QCOMPARE(pointer_facts(host).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QCOMPARE(pointer_facts(device).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QCOMPARE(stores.host().capacity(), uint64_t(0));
        QCOMPARE(stores.device().capacity(), uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotStore)
#include "tst_snapshot_store.moc"
