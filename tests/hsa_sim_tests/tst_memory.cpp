// SPDX-License-Identifier: MIT
/*
 * Memory: pool and region allocation, hsa_amd_pointer_info for every pool kind, locked host memory,
 * interior/unknown/freed pointers, device-pool block reuse, hsa_memory_copy in every direction and
 * hsa_amd_memory_async_copy with dependency and completion signals; with ROCr 6.x headers, what
 * hsa_amd_pointer_info answers for hsa_amd_vmem_* reservations and mappings (as ROCr 6.1.2: unknown).
 */
#include "sim_test_util.h"

#include <QTest>

#include <hsa_api_trace.h>

#include <cstdlib>
#include <cstring>
#include <numeric>

using namespace rs_test;

namespace {

hsa_amd_pointer_info_t pointer_info(const void* p, hsa_status_t* status) {
    hsa_amd_pointer_info_t info{};
    info.size = sizeof(info);
    *status = hsa_amd_pointer_info(const_cast<void*>(p), &info, nullptr, nullptr, nullptr);
    return info;
}

} // namespace

class MemoryTest : public QObject {
    Q_OBJECT

    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};
    hsa_amd_memory_pool_t coarse_{0}, fine_device_{0}, kernarg_{0}, system_{0};

    void checkPoolPointer(hsa_amd_memory_pool_t pool, hsa_agent_t owner, uint32_t flags,
                          uint32_t alloc_flags = 0) {
        constexpr size_t size = 12345;
        void* p = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(pool, size, alloc_flags, &p), HSA_STATUS_SUCCESS);
        QVERIFY(p != nullptr);
        hsa_status_t st;
        const hsa_amd_pointer_info_t info = pointer_info(p, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(info.size, uint32_t{sizeof(hsa_amd_pointer_info_t)});
        QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_HSA);
        QCOMPARE(info.agentOwner.handle, owner.handle);
        QCOMPARE(info.global_flags, flags);
        QCOMPARE(info.sizeInBytes, size);
        QCOMPARE(info.agentBaseAddress, p);
        QCOMPARE(info.hostBaseAddress, p);
        // An interior pointer resolves to its allocation.
        const hsa_amd_pointer_info_t inner = pointer_info(static_cast<char*>(p) + size - 1, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(inner.type, HSA_EXT_POINTER_TYPE_HSA);
        QCOMPARE(inner.agentBaseAddress, p);
        QCOMPARE(inner.sizeInBytes, size);
        QCOMPARE(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
    }

  private Q_SLOTS:
    void initTestCase() {
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.cpus.empty() && !agents.gpus.empty());
        cpu_ = agents.cpus[0];
        gpu_ = agents.gpus[0];
        coarse_ = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        fine_device_ = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        kernarg_ = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                       HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        system_ = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        QVERIFY(coarse_.handle && fine_device_.handle && kernarg_.handle && system_.handle);
    }
    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }

    void pointerInfoCoarse() {
        checkPoolPointer(coarse_, gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    }
    void pointerInfoFineDevice() {
        checkPoolPointer(fine_device_, gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    }
    void pointerInfoKernarg() {
        checkPoolPointer(kernarg_, cpu_,
                         HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                             HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    }
    void pointerInfoSystem() {
        checkPoolPointer(system_, cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    }
    void executableAllocation() {
        // Flag 1 << 2 (executable memory) is accepted; the allocation is otherwise an ordinary one.
        checkPoolPointer(coarse_, gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, 1u << 2);
    }

    void pointerInfoRegionAllocation() {
        for (hsa_region_t r : list_regions(gpu_)) {
            bool allocatable = false;
            QCOMPARE(hsa_region_get_info(r, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, &allocatable),
                     HSA_STATUS_SUCCESS);
            if (!allocatable) {
                continue; // the GROUP (LDS) region
            }
            void* p = nullptr;
            QCOMPARE(hsa_memory_allocate(r, 8192, &p), HSA_STATUS_SUCCESS);
            hsa_status_t st;
            const auto info = pointer_info(p, &st);
            QCOMPARE(st, HSA_STATUS_SUCCESS);
            QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_HSA);
            QCOMPARE(info.agentOwner.handle, gpu_.handle);
            QCOMPARE(info.global_flags, uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED});
            QCOMPARE(info.sizeInBytes, size_t{8192});
            QCOMPARE(hsa_memory_free(p), HSA_STATUS_SUCCESS);
        }
    }

    void pointerInfoUnknownAndFreed() {
        int on_stack = 0;
        hsa_status_t st;
        QCOMPARE(pointer_info(&on_stack, &st).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        void* p = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(system_, 4096, 0, &p), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
        QCOMPARE(pointer_info(p, &st).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
    }

    void lockedHostMemory() {
        constexpr size_t size = 3 * 4096;
        void* host = std::aligned_alloc(4096, size);
        QVERIFY(host);
        void* agent_ptr = nullptr;
        QCOMPARE(hsa_amd_memory_lock(host, size, nullptr, 0, &agent_ptr), HSA_STATUS_SUCCESS);
        QVERIFY(agent_ptr != nullptr);
        hsa_status_t st;
        auto info = pointer_info(host, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
        QCOMPARE(info.hostBaseAddress, host);
        QCOMPARE(info.agentBaseAddress, agent_ptr);
        QCOMPARE(info.sizeInBytes, size);
        info = pointer_info(static_cast<char*>(host) + 5000, &st);
        QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
        QCOMPARE(info.hostBaseAddress, host);
        QCOMPARE(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
        QCOMPARE(pointer_info(host, &st).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        std::free(host);
    }

    void deviceBlockReuse() {
        constexpr size_t big = 1 << 20;
        void* a = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, big, 0, &a), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
        // Fits and is at least half the freed block: same address, reported with the new size.
        void* b = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, big * 3 / 4, 0, &b), HSA_STATUS_SUCCESS);
        QCOMPARE(b, a);
        hsa_status_t st;
        QCOMPARE(pointer_info(b, &st).sizeInBytes, big * 3 / 4);
        QCOMPARE(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
        // Less than half of the most recently freed block: not placed there.
        void* c = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, big / 8, 0, &c), HSA_STATUS_SUCCESS);
        QVERIFY(c != a);
        // Larger than the freed block: cannot be placed there either.
        void* d = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, big * 2, 0, &d), HSA_STATUS_SUCCESS);
        QVERIFY(d != a);
        QCOMPARE(hsa_amd_memory_pool_free(c), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(d), HSA_STATUS_SUCCESS);
        // The same rule on the fine-grained device pool.
        void* e = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_device_, 64 * 1024, 0, &e), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(e), HSA_STATUS_SUCCESS);
        void* f = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(fine_device_, 32 * 1024, 0, &f), HSA_STATUS_SUCCESS);
        QCOMPARE(f, e);
        QCOMPARE(hsa_amd_memory_pool_free(f), HSA_STATUS_SUCCESS);
    }

    void memoryCopyAllDirections() {
        constexpr size_t n = 4096;
        std::vector<uint32_t> src(n), back(n, 0);
        std::iota(src.begin(), src.end(), 7u);
        void* dev1 = nullptr;
        void* dev2 = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, n * 4, 0, &dev1), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, n * 4, 0, &dev2), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_memory_copy(dev1, src.data(), n * 4), HSA_STATUS_SUCCESS);  // H2D
        QCOMPARE(hsa_memory_copy(dev2, dev1, n * 4), HSA_STATUS_SUCCESS);        // D2D
        QCOMPARE(hsa_memory_copy(back.data(), dev2, n * 4), HSA_STATUS_SUCCESS); // D2H
        QCOMPARE(back, src);
        // Partial copy at an offset.
        std::vector<uint32_t> part(16, 0);
        QCOMPARE(hsa_memory_copy(part.data(), static_cast<uint32_t*>(dev2) + 100, 16 * 4),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(part[0], src[100]);
        QCOMPARE(part[15], src[115]);
        QCOMPARE(hsa_amd_memory_pool_free(dev1), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(dev2), HSA_STATUS_SUCCESS);
    }

    void allowAccess() {
        void* host = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(system_, 4096, 0, &host), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_agents_allow_access(1, &gpu_, nullptr, host), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);
    }

    void asyncCopyWaitsForDependencies() {
        constexpr size_t n = 1024;
        void* host = nullptr;
        void* dev = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(system_, n * 4, 0, &host), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, n * 4, 0, &dev), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_agents_allow_access(1, &gpu_, nullptr, host), HSA_STATUS_SUCCESS);
        auto* h = static_cast<uint32_t*>(host);
        std::iota(h, h + n, 1u);
        std::vector<uint32_t> zeros(n, 0);
        QCOMPARE(hsa_memory_copy(dev, zeros.data(), n * 4), HSA_STATUS_SUCCESS);

        hsa_signal_t dep1, dep2, done;
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &dep1), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &dep2), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        const hsa_signal_t deps[2] = {dep1, dep2};
        QCOMPARE(hsa_amd_memory_async_copy(dev, gpu_, host, cpu_, n * 4, 2, deps, done), HSA_STATUS_SUCCESS);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_store_screlease(dep1, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_store_screlease(dep2, 0);
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        std::vector<uint32_t> back(n, 0);
        QCOMPARE(hsa_memory_copy(back.data(), dev, n * 4), HSA_STATUS_SUCCESS);
        QVERIFY(std::equal(back.begin(), back.end(), h));

        // Completion is a decrement: a signal starting at 2 ends at 1 after one copy, 0 after another.
        hsa_signal_store_relaxed(done, 2);
        QCOMPARE(hsa_amd_memory_async_copy(host, cpu_, dev, gpu_, n * 4, 0, nullptr, done),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(
            hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 2, UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
            hsa_signal_value_t{1});
        QCOMPARE(hsa_amd_memory_async_copy(host, cpu_, dev, gpu_, n * 4, 0, nullptr, done),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});

        hsa_signal_destroy(dep1);
        hsa_signal_destroy(dep2);
        hsa_signal_destroy(done);
        QCOMPARE(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_free(dev), HSA_STATUS_SUCCESS);
    }

    void allocationErrors() {
        void* p = nullptr;
        uint64_t size = pool_info<size_t>(coarse_, HSA_AMD_MEMORY_POOL_INFO_SIZE);
        // Larger than the whole pool: refused, per the spec (HSA_STATUS_ERROR_INVALID_ALLOCATION).
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, size + (uint64_t{1} << 40), 0, &p),
                 HSA_STATUS_ERROR_INVALID_ALLOCATION);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, 64, 0, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }

    /// ROCr 6.1.2 Runtime::PtrInfo: a vmem reservation is an address-only thunk block of node 0 that the
    /// runtime's allocation map does not know, so pointer info says UNKNOWN with the reservation's base
    /// and size, fine-grained, owned by the CPU agent, no agent listed: mapped or not, whatever the handle's
    /// pool. The handle still says which pool it came from.
    void vmemPointerInfoAsRocr612() {
#if HSA_API_TABLE_MAJOR_VERSION < 3
        QSKIP("hsa_amd_vmem_* exist from ROCr 6.x on (this build uses ROCr 5.2.3 headers)");
#else
        constexpr size_t kReserved = 4 * 65536, kMapped = 65536;
        void* va = nullptr;
        QCOMPARE(hsa_amd_vmem_address_reserve(&va, kReserved, 0, 0), HSA_STATUS_SUCCESS);
        hsa_amd_vmem_alloc_handle_t handle{};
        QCOMPARE(hsa_amd_vmem_handle_create(coarse_, kMapped, MEMORY_TYPE_NONE, 0, &handle),
                 HSA_STATUS_SUCCESS);
        char* mapped = static_cast<char*>(va) + kMapped; // the second 64 KiB of the reservation
        QCOMPARE(hsa_amd_vmem_map(mapped, kMapped, 0, handle, 0), HSA_STATUS_SUCCESS);
        hsa_amd_memory_access_desc_t access[2] = {{HSA_ACCESS_PERMISSION_RW, gpu_},
                                                  {HSA_ACCESS_PERMISSION_RW, cpu_}};
        QCOMPARE(hsa_amd_vmem_set_access(mapped, kMapped, access, 2), HSA_STATUS_SUCCESS);
        for (const void* p : {static_cast<const void*>(mapped), static_cast<const void*>(mapped + 100),
                              static_cast<const void*>(va), static_cast<const void*>(mapped + kMapped)}) {
            hsa_status_t st;
            const hsa_amd_pointer_info_t info = pointer_info(p, &st);
            QCOMPARE(st, HSA_STATUS_SUCCESS);
            QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
            QCOMPARE(info.agentBaseAddress, va);
            QCOMPARE(info.hostBaseAddress, va);
            QCOMPARE(info.sizeInBytes, kReserved);
            QCOMPARE(info.agentOwner.handle, cpu_.handle);
            QCOMPARE(info.global_flags, uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED});
        }
        uint32_t count = 99;
        hsa_agent_t* agents = nullptr;
        hsa_amd_pointer_info_t info{};
        info.size = sizeof(info);
        QCOMPARE(hsa_amd_pointer_info(mapped, &info, std::malloc, &count, &agents), HSA_STATUS_SUCCESS);
        QCOMPARE(count, 0u);
        std::free(agents);
        // User data lives on the reservation (the thunk's block), set at its first byte only.
        int tag = 0;
        QCOMPARE(hsa_amd_pointer_info_set_userdata(mapped, &tag), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        QCOMPARE(hsa_amd_pointer_info_set_userdata(va, &tag), HSA_STATUS_SUCCESS);
        hsa_status_t st;
        QCOMPARE(pointer_info(mapped + 8, &st).userData, static_cast<void*>(&tag));
        // The mapping is usable memory of the handle's pool all the same.
        hsa_amd_memory_pool_t pool{};
        hsa_amd_memory_type_t type{};
        QCOMPARE(hsa_amd_vmem_get_alloc_properties_from_handle(handle, &pool, &type), HSA_STATUS_SUCCESS);
        QCOMPARE(pool.handle, coarse_.handle);
        const uint32_t value = 0x12345678;
        QCOMPARE(hsa_memory_copy(mapped + 4, &value, sizeof value), HSA_STATUS_SUCCESS);
        uint32_t back = 0;
        std::memcpy(&back, mapped + 4, sizeof back);
        QCOMPARE(back, value);
        QCOMPARE(hsa_amd_vmem_unmap(mapped, kMapped), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_vmem_handle_release(handle), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_vmem_address_free(va, kReserved), HSA_STATUS_SUCCESS);
        // Freed: nothing there any more.
        QCOMPARE(pointer_info(mapped, &st).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
        QCOMPARE(pointer_info(mapped, &st).sizeInBytes, size_t{0});
#endif
    }
};

QTEST_GUILESS_MAIN(MemoryTest)
#include "tst_memory.moc"
