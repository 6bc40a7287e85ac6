// SPDX-License-Identifier: MIT
/*
 * What HIP (ROCclr 5.2.x) and rocminfo 5.2.3 ask of the runtime beyond the basics: the agent attributes
 * device creation needs (values of an MI210, docs/sim-fidelity.md), SVM system attributes, pool link
 * info, ISA attributes and wavefronts, queue priority and CU masks, coherency, the signal value pointer
 * (a waiter notices stores through it), rectangular async copies with copy timestamps, pinning to a
 * pool, the entry points exported only so that HIP loads, and AMD BARRIER_VALUE vendor packets; the
 * image extension's attributes (no image can be made), SVM attributes and prefetch over host memory.
 */
#include "sim_test_util.h"

#include <QTest>

#include <atomic>
#include <cstdlib>
#include <thread>

using namespace rs_test;

namespace {

/** Waits until `signal` reaches `value` or about 2 s pass; true when it did. */
bool waitFor(hsa_signal_t signal, hsa_signal_value_t value) {
    return hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_EQ, value, 2'000'000'000ull,
                                     HSA_WAIT_STATE_BLOCKED) == value;
}

/** Writes an AMD BARRIER_VALUE packet: completes `completion` once (value(signal) & mask) cond value. */
uint64_t submitBarrierValue(hsa_queue_t* queue, hsa_signal_t signal, hsa_signal_condition_t cond,
                            hsa_signal_value_t value, hsa_signal_value_t mask, hsa_signal_t completion) {
    const uint64_t index = reserve_slot(queue);
    auto* p = slot<hsa_amd_barrier_value_packet_t>(queue, index);
    std::memset(reinterpret_cast<char*>(p) + 4, 0, sizeof(*p) - 4);
    p->signal = signal;
    p->value = value;
    p->mask = mask;
    p->cond = static_cast<hsa_signal_condition32_t>(cond);
    p->completion_signal = completion;
    // Header (vendor-specific type, barrier bit) and the AMD format byte go in one release store.
    const uint16_t header = packet_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, true);
    publish(queue, index, header, static_cast<uint16_t>(HSA_AMD_PACKET_TYPE_BARRIER_VALUE));
    return index;
}

} // namespace

class HipRuntimeTest : public QObject {
    Q_OBJECT

    Agents agents_;
    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};

    template <typename T>
    T gpuInfo(int attribute) {
        hsa_status_t st;
        const T v = agent_info<T>(gpu_, static_cast<hsa_agent_info_t>(attribute), &st);
        [&] { QCOMPARE(st, HSA_STATUS_SUCCESS); }();
        return v;
    }

  private Q_SLOTS:
    void initTestCase() {
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        agents_ = list_agents();
        QVERIFY(!agents_.cpus.empty() && !agents_.gpus.empty());
        cpu_ = agents_.cpus[0];
        gpu_ = agents_.gpus[0];
    }
    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }

    void gpuDeviceAttributes() {
        QCOMPARE(gpuInfo<bool>(HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES), true);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_DOMAIN), 0u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT), 104u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 104u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY), 1600u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_MEMORY_WIDTH), 4096u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_ASIC_REVISION), 1u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS), 4u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES), 8u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE), 1u);
        QCOMPARE(gpuInfo<bool>(HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS), false);
        QCOMPARE(gpuInfo<bool>(HSA_AGENT_INFO_FAST_F16_OPERATION), true);
        QCOMPARE(gpuInfo<hsa_profile_t>(HSA_AGENT_INFO_PROFILE), HSA_PROFILE_BASE);
        // HDP flush: two distinct, writable words per GPU agent.
        const auto flush = gpuInfo<hsa_amd_hdp_flush_t>(HSA_AMD_AGENT_INFO_HDP_FLUSH);
        QVERIFY(flush.HDP_MEM_FLUSH_CNTL != nullptr && flush.HDP_REG_FLUSH_CNTL != nullptr);
        QVERIFY(flush.HDP_MEM_FLUSH_CNTL != flush.HDP_REG_FLUSH_CNTL);
        *flush.HDP_MEM_FLUSH_CNTL = 1;
        *flush.HDP_REG_FLUSH_CNTL = 1;
        if (agents_.gpus.size() > 1) {
            hsa_amd_hdp_flush_t other{};
            QCOMPARE(hsa_agent_get_info(agents_.gpus[1],
                                        static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_HDP_FLUSH), &other),
                     HSA_STATUS_SUCCESS);
            QVERIFY(other.HDP_MEM_FLUSH_CNTL != flush.HDP_MEM_FLUSH_CNTL);
        }
    }

    void cpuDeviceAttributes() {
        // ROCr's CPU agent answers these ...
        hsa_status_t st;
        QCOMPARE(amd_agent_info<uint32_t>(cpu_, HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS, &st), 1u);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(amd_agent_info<uint32_t>(cpu_, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, &st), 0u);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        const auto flush = amd_agent_info<hsa_amd_hdp_flush_t>(cpu_, HSA_AMD_AGENT_INFO_HDP_FLUSH, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QVERIFY(flush.HDP_MEM_FLUSH_CNTL == nullptr && flush.HDP_REG_FLUSH_CNTL == nullptr);
        QCOMPARE(agent_info<hsa_profile_t>(cpu_, HSA_AGENT_INFO_PROFILE), HSA_PROFILE_FULL);
        // ... and not these (INVALID_ARGUMENT, as ROCr 5.2.3's CpuAgent::GetInfo).
        for (auto attribute :
             {HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, HSA_AMD_AGENT_INFO_MEMORY_WIDTH,
              HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY, HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT}) {
            uint64_t value = 0;
            QCOMPARE(hsa_agent_get_info(cpu_, static_cast<hsa_agent_info_t>(attribute), &value),
                     HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
    }

    void systemSvmAttributes() {
        bool supported = false;
        QCOMPARE(hsa_system_get_info(static_cast<hsa_system_info_t>(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED),
                                     &supported),
                 HSA_STATUS_SUCCESS);
        QVERIFY(supported);
        bool by_default = true;
        QCOMPARE(
            hsa_system_get_info(static_cast<hsa_system_info_t>(HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT),
                                &by_default),
            HSA_STATUS_SUCCESS);
        QVERIFY(!by_default); // xnack-
        const char* build = nullptr;
        QCOMPARE(
            hsa_system_get_info(static_cast<hsa_system_info_t>(HSA_AMD_SYSTEM_INFO_BUILD_VERSION), &build),
            HSA_STATUS_SUCCESS);
        QVERIFY(build != nullptr && build[0] != '\0');
    }

    void poolLinkInfo() {
        const hsa_amd_memory_pool_t coarse = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        const hsa_amd_memory_pool_t system = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        QVERIFY(coarse.handle && system.handle);
        hsa_amd_memory_pool_link_info_t link{};
        // The owner: no hop, an all-zero record.
        std::memset(&link, 0x5a, sizeof(link));
        QCOMPARE(
            hsa_amd_agent_memory_pool_get_info(gpu_, coarse, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &link),
            HSA_STATUS_SUCCESS);
        QCOMPARE(link.link_type, hsa_amd_link_info_type_t{});
        QCOMPARE(link.numa_distance, 0u);
        // The GPU reaching system memory: one PCIe hop.
        QCOMPARE(
            hsa_amd_agent_memory_pool_get_info(gpu_, system, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &link),
            HSA_STATUS_SUCCESS);
        QCOMPARE(link.link_type, HSA_AMD_LINK_INFO_TYPE_PCIE);
        QVERIFY(link.atomic_support_64bit);
        uint32_t hops = 0;
        QCOMPARE(hsa_amd_agent_memory_pool_get_info(gpu_, system,
                                                    HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(hops, 1u);
    }

    void isaAttributes() {
        const auto isa = agent_info<hsa_isa_t>(gpu_, HSA_AGENT_INFO_ISA);
        bool models[2] = {true, false};
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_MACHINE_MODELS, models), HSA_STATUS_SUCCESS);
        QVERIFY(!models[HSA_MACHINE_MODEL_SMALL] && models[HSA_MACHINE_MODEL_LARGE]);
        bool profiles[2] = {false, true};
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_PROFILES, profiles), HSA_STATUS_SUCCESS);
        QVERIFY(profiles[HSA_PROFILE_BASE] && !profiles[HSA_PROFILE_FULL]);
        bool rounding[3] = {true, true, false};
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, rounding),
                 HSA_STATUS_SUCCESS);
        QVERIFY(!rounding[0] && !rounding[1] && rounding[HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR]);
        bool fast_f16 = false;
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FAST_F16_OPERATION, &fast_f16), HSA_STATUS_SUCCESS);
        QVERIFY(fast_f16);
        uint16_t dims[3] = {};
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_DIM, dims), HSA_STATUS_SUCCESS);
        QCOMPARE(dims[2], uint16_t{1024});
        hsa_dim3_t grid{};
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_DIM, &grid), HSA_STATUS_SUCCESS);
        QCOMPARE(grid.x, UINT32_MAX);
        // GRID_MAX_SIZE is 64-bit: the whole word is written.
        uint64_t grid_max = 0;
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_SIZE, &grid_max), HSA_STATUS_SUCCESS);
        QCOMPARE(grid_max, UINT64_MAX);
        uint32_t fbarrier = 0;
        QCOMPARE(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FBARRIER_MAX_SIZE, &fbarrier), HSA_STATUS_SUCCESS);
        QCOMPARE(fbarrier, 32u);
        // The deprecated form takes an index that must be 0.
        uint32_t wg = 0;
        QCOMPARE(hsa_isa_get_info(isa, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, 0, &wg), HSA_STATUS_SUCCESS);
        QCOMPARE(wg, 1024u);
        QCOMPARE(hsa_isa_get_info(isa, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, 1, &wg),
                 HSA_STATUS_ERROR_INVALID_INDEX);
        // One wavefront kind of 64 lanes.
        std::vector<hsa_wavefront_t> fronts;
        QCOMPARE(hsa_isa_iterate_wavefronts(
                     isa,
                     [](hsa_wavefront_t w, void* data) {
                         static_cast<std::vector<hsa_wavefront_t>*>(data)->push_back(w);
                         return HSA_STATUS_SUCCESS;
                     },
                     &fronts),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(fronts.size(), size_t{1});
        uint32_t lanes = 0;
        QCOMPARE(hsa_wavefront_get_info(fronts[0], HSA_WAVEFRONT_INFO_SIZE, &lanes), HSA_STATUS_SUCCESS);
        QCOMPARE(lanes, 64u);
        QCOMPARE(hsa_wavefront_get_info(hsa_wavefront_t{1}, HSA_WAVEFRONT_INFO_SIZE, &lanes),
                 HSA_STATUS_ERROR_INVALID_WAVEFRONT);
    }

    void isaNamesAndCompatibility() {
        const auto agent_isa = agent_info<hsa_isa_t>(gpu_, HSA_AGENT_INFO_ISA);
        hsa_isa_t featured{0}, plain{0};
        QCOMPARE(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", &featured),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(featured.handle, agent_isa.handle);
        QCOMPARE(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90a", &plain), HSA_STATUS_SUCCESS);
        QVERIFY(plain.handle != 0 && plain.handle != agent_isa.handle);
        hsa_isa_t other{0};
        QCOMPARE(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx908", &other), HSA_STATUS_ERROR_INVALID_ISA_NAME);
        char name[64] = {};
        QCOMPARE(hsa_isa_get_info_alt(plain, HSA_ISA_INFO_NAME, name), HSA_STATUS_SUCCESS);
        QCOMPARE(QByteArray(name), QByteArray("amdgcn-amd-amdhsa--gfx90a"));
        // A code object for plain gfx90a (features "any") runs on the sramecc+/xnack- agent.
        bool compatible = false;
        QCOMPARE(hsa_isa_compatible(plain, agent_isa, &compatible), HSA_STATUS_SUCCESS);
        QVERIFY(compatible);
        QCOMPARE(hsa_isa_compatible(featured, agent_isa, &compatible), HSA_STATUS_SUCCESS);
        QVERIFY(compatible);
        QCOMPARE(hsa_isa_compatible(hsa_isa_t{1}, agent_isa, &compatible), HSA_STATUS_ERROR_INVALID_ISA);
        uint16_t mask = 1;
        QCOMPARE(hsa_isa_get_exception_policies(agent_isa, HSA_PROFILE_BASE, &mask), HSA_STATUS_SUCCESS);
        QCOMPARE(mask, uint16_t{0});
        hsa_round_method_t method{};
        QCOMPARE(hsa_isa_get_round_method(agent_isa, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, &method),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(method, HSA_ROUND_METHOD_SINGLE);
    }

    void queuePriorityAndCuMask() {
        hsa_queue_t* q = nullptr;
        QCOMPARE(
            hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_queue_set_priority(q, static_cast<hsa_amd_queue_priority_t>(7)),
                 HSA_STATUS_ERROR_INVALID_ARGUMENT);
        uint32_t mask[4] = {};
        // Default: all 104 compute units.
        QCOMPARE(hsa_amd_queue_cu_get_mask(q, 128, mask), HSA_STATUS_SUCCESS);
        QCOMPARE(mask[0], 0xffffffffu);
        QCOMPARE(mask[3], 0xffu);
        const uint32_t half[2] = {0x0000ffffu, 0x0u};
        QCOMPARE(hsa_amd_queue_cu_set_mask(q, 64, half), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_queue_cu_get_mask(q, 128, mask), HSA_STATUS_SUCCESS);
        QCOMPARE(mask[0], 0x0000ffffu);
        QCOMPARE(mask[1], 0u);
        QCOMPARE(mask[2], 0u);
        QCOMPARE(hsa_amd_queue_cu_set_mask(q, 33, half), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        QCOMPARE(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
    }

    void coherency() {
        hsa_amd_coherency_type_t type{};
        QCOMPARE(hsa_amd_coherency_get_type(gpu_, &type), HSA_STATUS_SUCCESS);
        QCOMPARE(type, HSA_AMD_COHERENCY_TYPE_COHERENT);
        QCOMPARE(hsa_amd_coherency_set_type(gpu_, HSA_AMD_COHERENCY_TYPE_NONCOHERENT), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_coherency_get_type(gpu_, &type), HSA_STATUS_SUCCESS);
        QCOMPARE(type, HSA_AMD_COHERENCY_TYPE_NONCOHERENT);
        QCOMPARE(hsa_amd_coherency_set_type(gpu_, HSA_AMD_COHERENCY_TYPE_COHERENT), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_coherency_set_type(cpu_, HSA_AMD_COHERENCY_TYPE_COHERENT),
                 HSA_STATUS_ERROR_INVALID_AGENT);
    }

    void signalValuePointerWakesWaiters() {
        hsa_signal_t s;
        QCOMPARE(hsa_signal_create(0, 0, nullptr, &s), HSA_STATUS_SUCCESS);
        volatile hsa_signal_value_t* value = nullptr;
        QCOMPARE(hsa_amd_signal_value_pointer(s, &value), HSA_STATUS_SUCCESS);
        QVERIFY(value != nullptr);
        QCOMPARE(__atomic_load_n(value, __ATOMIC_ACQUIRE), hsa_signal_value_t{0});
        hsa_signal_store_screlease(s, 3);
        QCOMPARE(__atomic_load_n(value, __ATOMIC_ACQUIRE), hsa_signal_value_t{3});
        // A waiter blocked without a timeout notices a store through the pointer (atomic here, as a GPU's
        // store is; a plain store would be a data race for ThreadSanitizer).
        std::atomic<hsa_signal_value_t> seen{-1};
        std::thread waiter([&] {
            seen =
                hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 42, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QCOMPARE(seen.load(), hsa_signal_value_t{-1});
        __atomic_store_n(value, 42, __ATOMIC_RELEASE);
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (seen.load() != 42 && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (seen.load() != 42) {
            hsa_signal_store_screlease(s, 42); // let the thread end before failing
        }
        waiter.join();
        QCOMPARE(seen.load(), hsa_signal_value_t{42});
        // hsa_amd_signal_wait_any notices too.
        hsa_signal_condition_t cond = HSA_SIGNAL_CONDITION_LT;
        hsa_signal_value_t below = 0;
        std::thread writer([value] {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            __atomic_store_n(value, -5, __ATOMIC_RELEASE);
        });
        hsa_signal_value_t satisfying = 0;
        QCOMPARE(hsa_amd_signal_wait_any(1, &s, &cond, &below, 2'000'000'000ull, HSA_WAIT_STATE_BLOCKED,
                                         &satisfying),
                 0u);
        writer.join();
        QCOMPARE(satisfying, hsa_signal_value_t{-5});
        QCOMPARE(hsa_amd_signal_value_pointer(hsa_signal_t{0}, &value), HSA_STATUS_ERROR_INVALID_SIGNAL);
        QCOMPARE(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
    }

    void asyncCopyRect() {
        const hsa_amd_memory_pool_t coarse = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        // Source: 4 slices of 8 rows of 64 bytes (host); destination: a 3x5x40-byte box at (2,1,4) of a
        // device volume with pitch 128 and slice 2048.
        std::vector<unsigned char> host(4 * 8 * 64);
        for (size_t i = 0; i < host.size(); ++i) {
            host[i] = static_cast<unsigned char>(i * 7 + 1);
        }
        void* dev = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse, 4 * 2048, 0, &dev), HSA_STATUS_SUCCESS);
        std::memset(dev, 0, 4 * 2048);
        hsa_pitched_ptr_t src{host.data(), 64, 8 * 64};
        hsa_pitched_ptr_t dst{dev, 128, 2048};
        const hsa_dim3_t src_off{4, 1, 1}, dst_off{2, 1, 1}, range{40, 5, 3};
        QCOMPARE(hsa_amd_profiling_async_copy_enable(true), HSA_STATUS_SUCCESS);
        hsa_signal_t done;
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        hsa_amd_profiling_async_copy_time_t t{};
        QCOMPARE(hsa_amd_profiling_get_async_copy_time(done, &t), HSA_STATUS_ERROR); // nothing timed yet
        QCOMPARE(hsa_amd_memory_async_copy_rect(&dst, &dst_off, &src, &src_off, &range, gpu_, hsaHostToDevice,
                                                0, nullptr, done),
                 HSA_STATUS_SUCCESS);
        QVERIFY(waitFor(done, 0));
        const auto* out = static_cast<const unsigned char*>(dev);
        for (uint32_t z = 0; z < 4; ++z) {
            for (uint32_t y = 0; y < 16; ++y) {
                for (uint32_t x = 0; x < 128; ++x) {
                    const bool inside = z >= 1 && z < 4 && y >= 1 && y < 6 && x >= 2 && x < 42;
                    const unsigned char expected =
                        inside ? host[(z - 1 + 1) * 512 + (y - 1 + 1) * 64 + (x - 2 + 4)] : 0;
                    if (out[z * 2048 + y * 128 + x] != expected) {
                        QFAIL(qPrintable(QString("byte (%1,%2,%3) differs").arg(x).arg(y).arg(z)));
                    }
                }
            }
        }
        QCOMPARE(hsa_amd_profiling_get_async_copy_time(done, &t), HSA_STATUS_SUCCESS);
        QVERIFY(t.start != 0 && t.end >= t.start);
        // An empty range copies nothing and leaves the signal alone; host-to-host and a CPU copy agent fail.
        hsa_signal_store_screlease(done, 1);
        const hsa_dim3_t empty{0, 5, 3};
        QCOMPARE(hsa_amd_memory_async_copy_rect(&dst, &dst_off, &src, &src_off, &empty, gpu_, hsaHostToDevice,
                                                0, nullptr, done),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_async_copy_rect(&dst, &dst_off, &src, &src_off, &range, gpu_, hsaHostToHost,
                                                0, nullptr, done),
                 HSA_STATUS_ERROR_INVALID_ARGUMENT);
        QCOMPARE(hsa_amd_memory_async_copy_rect(&dst, &dst_off, &src, &src_off, &range, cpu_, hsaHostToDevice,
                                                0, nullptr, done),
                 HSA_STATUS_ERROR_INVALID_AGENT);
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        QCOMPARE(hsa_amd_profiling_async_copy_enable(false), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(dev), HSA_STATUS_SUCCESS);
    }

    void lockToPool() {
        const hsa_amd_memory_pool_t system = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        const hsa_amd_memory_pool_t coarse = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        std::vector<char> buffer(8192);
        void* agent_ptr = nullptr;
        QCOMPARE(hsa_amd_memory_lock_to_pool(buffer.data(), buffer.size(), &gpu_, 1, system, 0, &agent_ptr),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(agent_ptr, static_cast<void*>(buffer.data()));
        hsa_amd_pointer_info_t info{};
        info.size = sizeof(info);
        QCOMPARE(hsa_amd_pointer_info(buffer.data(), &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
        QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
        QCOMPARE(info.sizeInBytes, buffer.size());
        QCOMPARE(hsa_amd_memory_unlock(buffer.data()), HSA_STATUS_SUCCESS);
        // Only a CPU agent's pool may back a lock; flags are reserved.
        QCOMPARE(hsa_amd_memory_lock_to_pool(buffer.data(), buffer.size(), &gpu_, 1, coarse, 0, &agent_ptr),
                 static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL));
        QCOMPARE(hsa_amd_memory_lock_to_pool(buffer.data(), buffer.size(), &gpu_, 1, system, 1, &agent_ptr),
                 HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }

    void cpuAgentHasNoFeature() {
        // ROCr 5.2.3 CpuAgent::GetInfo: a CPU agent reports no dispatch feature; the GPU kernel dispatch.
        QCOMPARE(agent_info<uint32_t>(cpu_, HSA_AGENT_INFO_FEATURE), 0u);
        QCOMPARE(agent_info<uint32_t>(gpu_, HSA_AGENT_INFO_FEATURE),
                 static_cast<uint32_t>(HSA_AGENT_FEATURE_KERNEL_DISPATCH));
    }

    void imageExtensionAdvertised() {
        // What ROCclr reads to report image support (hipMallocPitch/hipMalloc3D need it).
        uint8_t bits[128] = {};
        QCOMPARE(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_EXTENSIONS, bits), HSA_STATUS_SUCCESS);
        QVERIFY(bits[HSA_EXTENSION_IMAGES / 8] & (1u << (HSA_EXTENSION_IMAGES % 8)));
        QCOMPARE(hsa_agent_get_info(cpu_, HSA_AGENT_INFO_EXTENSIONS, bits), HSA_STATUS_SUCCESS);
        QCOMPARE(bits[0], uint8_t{0});
        uint8_t system_bits[128] = {};
        QCOMPARE(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, system_bits), HSA_STATUS_SUCCESS);
        QVERIFY(system_bits[HSA_EXTENSION_IMAGES / 8] & (1u << (HSA_EXTENSION_IMAGES % 8)));
        bool supported = false;
        uint16_t minor = 7;
        QCOMPARE(hsa_system_major_extension_supported(HSA_EXTENSION_IMAGES, 1, &minor, &supported),
                 HSA_STATUS_SUCCESS);
        QVERIFY(supported);
        QCOMPARE(minor, uint16_t{0});
        // gfx9 limits (ROCr 5.2.3 image_lut_kv.cpp) and handle counts (GpuAgent::GetInfo).
        QCOMPARE(gpuInfo<uint32_t>(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS), 16384u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS), UINT32_MAX);
        uint32_t dims[3] = {};
        QCOMPARE(hsa_agent_get_info(
                     gpu_, static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS), dims),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(dims[0], 16384u);
        QCOMPARE(dims[1], 16384u);
        QCOMPARE(dims[2], 8192u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS), 8192u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES), 128u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES), 64u);
        QCOMPARE(gpuInfo<uint32_t>(HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS), 16u);
        QCOMPARE(agent_info<uint32_t>(
                     cpu_, static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES)),
                 0u);
        // The table: no format is supported and no image can be made.
        hsa_ext_images_1_pfn_t table{};
        QCOMPARE(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(table), &table),
                 HSA_STATUS_SUCCESS);
        QVERIFY(table.hsa_ext_image_get_capability && table.hsa_ext_image_create_with_layout &&
                table.hsa_ext_sampler_destroy);
        hsa_ext_image_format_t format{HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
                                      HSA_EXT_IMAGE_CHANNEL_ORDER_R};
        uint32_t mask = 0xffu;
        QCOMPARE(table.hsa_ext_image_get_capability(gpu_, HSA_EXT_IMAGE_GEOMETRY_2D, &format, &mask),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(mask, 0u);
        hsa_ext_image_descriptor_t desc{HSA_EXT_IMAGE_GEOMETRY_2D, 16, 16, 0, 0, format};
        hsa_ext_image_t image{};
        QCOMPARE(table.hsa_ext_image_create(gpu_, &desc, nullptr, HSA_ACCESS_PERMISSION_RW, &image),
                 HSA_STATUS_ERROR);
        hsa_ext_image_data_info_t data_info{};
        QCOMPARE(hsa_ext_image_data_get_info(gpu_, &desc, HSA_ACCESS_PERMISSION_RW, &data_info),
                 HSA_STATUS_ERROR);
    }

    void svmAttributesRecorded() {
        // A managed allocation as ROCclr 5.2.x makes it: plain host pages, then SET_ACCESSED_BY every GPU.
        constexpr size_t kBytes = 5 * 4096;
        void* p = std::aligned_alloc(4096, kBytes);
        QVERIFY(p);
        hsa_amd_svm_attribute_pair_t get[3] = {{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpu_.handle},
                                               {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, cpu_.handle},
                                               {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 99}};
        QCOMPARE(hsa_amd_svm_attributes_get(p, kBytes, get, 3), HSA_STATUS_SUCCESS);
        QCOMPARE(get[0].attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS}); // xnack-: none by default
        QCOMPARE(get[0].value, gpu_.handle);
        QCOMPARE(get[1].attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE});
        QCOMPARE(get[2].value, uint64_t{HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED});
        hsa_amd_svm_attribute_pair_t set[2] = {{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu_.handle},
                                               {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1}};
        QCOMPARE(hsa_amd_svm_attributes_set(p, kBytes, set, 2), HSA_STATUS_SUCCESS);
        // Coarse grain on the middle page only: the whole range becomes indeterminate, the page is coarse.
        char* middle = static_cast<char*>(p) + 2 * 4096;
        hsa_amd_svm_attribute_pair_t coarse{HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG,
                                            HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED};
        QCOMPARE(hsa_amd_svm_attributes_set(middle + 100, 10, &coarse, 1), HSA_STATUS_SUCCESS);
        hsa_amd_svm_attribute_pair_t all[3] = {{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpu_.handle},
                                               {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0},
                                               {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0}};
        QCOMPARE(hsa_amd_svm_attributes_get(p, kBytes, all, 3), HSA_STATUS_SUCCESS);
        QCOMPARE(all[0].attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE});
        QCOMPARE(all[1].value, uint64_t{1});
        QCOMPARE(all[2].value, uint64_t{HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE});
        hsa_amd_svm_attribute_pair_t one{HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0};
        QCOMPARE(hsa_amd_svm_attributes_get(middle, 4096, &one, 1), HSA_STATUS_SUCCESS);
        QCOMPARE(one.value, uint64_t{HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED});
        // Pages past the recorded range still have the defaults.
        hsa_amd_svm_attribute_pair_t beyond{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpu_.handle};
        QCOMPARE(hsa_amd_svm_attributes_get(static_cast<char*>(p) + kBytes, 4096, &beyond, 1),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(beyond.attribute, uint64_t{HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS});
        // ROCr's argument checks: get-only attributes, unknown agents, repeats.
        hsa_amd_svm_attribute_pair_t query{HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpu_.handle};
        QCOMPARE(hsa_amd_svm_attributes_set(p, kBytes, &query, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        hsa_amd_svm_attribute_pair_t stranger{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, 12345};
        QCOMPARE(hsa_amd_svm_attributes_set(p, kBytes, &stranger, 1), HSA_STATUS_ERROR_INVALID_AGENT);
        hsa_amd_svm_attribute_pair_t twice[2] = {{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu_.handle},
                                                 {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, gpu_.handle}};
        QCOMPARE(hsa_amd_svm_attributes_set(p, kBytes, twice, 2), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
        hsa_amd_svm_attribute_pair_t setter{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu_.handle};
        QCOMPARE(hsa_amd_svm_attributes_get(p, kBytes, &setter, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        QCOMPARE(hsa_amd_svm_attributes_set(nullptr, kBytes, set, 2), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        std::free(p);
    }

    void svmPrefetchCompletes() {
        constexpr size_t kBytes = 2 * 4096;
        void* p = std::aligned_alloc(4096, kBytes);
        QVERIFY(p);
        hsa_signal_t dep, done;
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &dep), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_svm_prefetch_async(p, kBytes, gpu_, 1, &dep, done), HSA_STATUS_SUCCESS);
        // Held back by its dependency ...
        QCOMPARE(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 50'000'000ull,
                                           HSA_WAIT_STATE_BLOCKED),
                 hsa_signal_value_t{1});
        hsa_amd_svm_attribute_pair_t where{HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 99};
        QCOMPARE(hsa_amd_svm_attributes_get(p, kBytes, &where, 1), HSA_STATUS_SUCCESS);
        QCOMPARE(where.value, uint64_t{0});
        // ... then completes and records where the range was sent.
        hsa_signal_store_screlease(dep, 0);
        QVERIFY(waitFor(done, 0));
        QCOMPARE(hsa_amd_svm_attributes_get(p, kBytes, &where, 1), HSA_STATUS_SUCCESS);
        QCOMPARE(where.value, gpu_.handle);
        QCOMPARE(hsa_amd_svm_prefetch_async(p, kBytes, hsa_agent_t{12345}, 0, nullptr, done),
                 HSA_STATUS_ERROR_INVALID_AGENT);
        QCOMPARE(hsa_amd_svm_prefetch_async(p, kBytes, gpu_, 0, nullptr, hsa_signal_t{0}),
                 HSA_STATUS_ERROR_INVALID_SIGNAL);
        QCOMPARE(hsa_signal_destroy(dep), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
        std::free(p);
    }

    void unsupportedEntriesFail() {
        void* p = nullptr;
        hsa_amd_ipc_memory_t handle{};
        QCOMPARE(hsa_amd_ipc_memory_create(&handle, 64, &handle), HSA_STATUS_ERROR);
        QCOMPARE(hsa_amd_ipc_memory_attach(&handle, 64, 1, &gpu_, &p), HSA_STATUS_ERROR);
        QCOMPARE(hsa_amd_ipc_memory_detach(&handle), HSA_STATUS_ERROR);
        hsa_ext_sampler_t sampler{};
        hsa_ext_sampler_descriptor_t desc{};
        QCOMPARE(hsa_ext_sampler_create(gpu_, &desc, &sampler), HSA_STATUS_ERROR);
        QCOMPARE(hsa_ext_image_destroy(gpu_, hsa_ext_image_t{1}), HSA_STATUS_ERROR);
        QCOMPARE(hsa_amd_interop_unmap_buffer(&handle), HSA_STATUS_ERROR);
    }

    void barrierValuePacket() {
        hsa_queue_t* q = nullptr;
        QCOMPARE(
            hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
        hsa_signal_t watched, done, after;
        QCOMPARE(hsa_signal_create(0x10, 0, nullptr, &watched), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &after), HSA_STATUS_SUCCESS);
        // Waits until (value & 0x0f) == 5; a barrier-AND behind it completes only afterwards.
        submitBarrierValue(q, watched, HSA_SIGNAL_CONDITION_EQ, 5, 0x0f, done);
        submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, after);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_store_screlease(watched, 0x25); // masked: 5 (bits above the mask are ignored)
        QVERIFY(waitFor(done, 0));
        QVERIFY(waitFor(after, 0));
        // Through the value pointer, with GTE on the masked value.
        volatile hsa_signal_value_t* value = nullptr;
        QCOMPARE(hsa_amd_signal_value_pointer(watched, &value), HSA_STATUS_SUCCESS);
        __atomic_store_n(value, 0, __ATOMIC_RELEASE);
        hsa_signal_store_screlease(done, 1);
        submitBarrierValue(q, watched, HSA_SIGNAL_CONDITION_GTE, 3, 0xff, done);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        __atomic_store_n(value, 0x103, __ATOMIC_RELEASE); // masked: 3
        QVERIFY(waitFor(done, 0));
        QCOMPARE(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
        for (hsa_signal_t s : {watched, done, after}) {
            QCOMPARE(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
        }
    }

    void barrierValuePendingAtDestroy() {
        // A queue destroyed while a BARRIER_VALUE packet still waits is torn down without hanging.
        hsa_queue_t* q = nullptr;
        QCOMPARE(
            hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
        hsa_signal_t watched, done;
        QCOMPARE(hsa_signal_create(0, 0, nullptr, &watched), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        submitBarrierValue(q, watched, HSA_SIGNAL_CONDITION_NE, 0, -1, done);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QCOMPARE(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        QCOMPARE(hsa_signal_destroy(watched), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
    }
};

QTEST_GUILESS_MAIN(HipRuntimeTest)
#include "tst_hip_runtime.moc"
