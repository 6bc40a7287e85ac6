// SPDX-License-Identifier: MIT
// Workload alloc_classes: one buffer of every allocation class a ROCm program can make, each described
// with hsa_amd_pointer_info and checked against what ROCr reports:
//   coarse device pool          -> HSA,     owner GPU, COARSE_GRAINED (4)
//   fine-grained device pool    -> HSA,     owner GPU, FINE_GRAINED (2)
//   kernarg pool                -> HSA,     owner CPU, KERNARG_INIT|FINE_GRAINED (3)
//   fine-grained system pool    -> HSA,     owner CPU, FINE_GRAINED (2)
//   coarse pool, executable flag-> HSA,     owner GPU, COARSE_GRAINED (4)
//   hsa_memory_allocate(region) -> HSA,     owner = the region's agent, the region's global flags
//   hsa_amd_memory_lock'ed host -> LOCKED
//   plain malloc                -> UNKNOWN
// Then runs accumulate.kd on the coarse buffer, frees everything and checks a freed pointer is UNKNOWN.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace rs::workloads;

namespace {

/** The hsa_amd_memory_pool_allocate flag asking for executable device memory (ROCr's 1 << 2). */
constexpr uint32_t kExecutableFlag = 1u << 2;

constexpr uint32_t kFine = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
constexpr uint32_t kCoarse = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
constexpr uint32_t kKernarg = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;

const char* type_name(hsa_amd_pointer_type_t type) {
    switch (type) {
    case HSA_EXT_POINTER_TYPE_UNKNOWN:
        return "UNKNOWN";
    case HSA_EXT_POINTER_TYPE_HSA:
        return "HSA";
    case HSA_EXT_POINTER_TYPE_LOCKED:
        return "LOCKED";
    case HSA_EXT_POINTER_TYPE_GRAPHICS:
        return "GRAPHICS";
    case HSA_EXT_POINTER_TYPE_IPC:
        return "IPC";
    }
    return "?";
}

/** One allocation and what hsa_amd_pointer_info must say about it. */
struct Expectation {
    std::string label;
    void* ptr = nullptr;
    std::size_t bytes = 0;
    hsa_amd_pointer_type_t type = HSA_EXT_POINTER_TYPE_UNKNOWN;
    bool check_owner = false;
    hsa_agent_t owner{};
    bool check_flags = false;
    uint32_t flags = 0;
};

hsa_amd_pointer_info_t pointer_info(const void* ptr) {
    hsa_amd_pointer_info_t info{};
    info.size = sizeof(info);
    check(hsa_amd_pointer_info(ptr, &info, nullptr, nullptr, nullptr), "hsa_amd_pointer_info");
    return info;
}

/** Prints the pointer info of `e.ptr` and returns the number of mismatches (each reported on stderr). */
int describe_and_check(const HsaSession& session, const Expectation& e) {
    const hsa_amd_pointer_info_t info = pointer_info(e.ptr);
    std::printf(
        "  %-30s %p: type=%-7s owner=%-5s size=%-7zu global_flags=%u\n", e.label.c_str(), e.ptr,
        type_name(info.type),
        info.type == HSA_EXT_POINTER_TYPE_UNKNOWN ? "-" : agent_label(session, info.agentOwner).c_str(),
        info.type == HSA_EXT_POINTER_TYPE_UNKNOWN ? std::size_t{0} : info.sizeInBytes, info.global_flags);
    int errors = 0;
    if (info.type != e.type) {
        std::fprintf(stderr, "FAIL: %s: type %s, expected %s\n", e.label.c_str(), type_name(info.type),
                     type_name(e.type));
        ++errors;
    }
    if (e.type == HSA_EXT_POINTER_TYPE_UNKNOWN) {
        return errors;
    }
    if (info.sizeInBytes < e.bytes) {
        std::fprintf(stderr, "FAIL: %s: size %zu, expected at least %zu\n", e.label.c_str(), info.sizeInBytes,
                     e.bytes);
        ++errors;
    }
    if (e.check_owner && info.agentOwner.handle != e.owner.handle) {
        std::fprintf(stderr, "FAIL: %s: owner %s, expected %s\n", e.label.c_str(),
                     agent_label(session, info.agentOwner).c_str(), agent_label(session, e.owner).c_str());
        ++errors;
    }
    if (e.check_flags && info.global_flags != e.flags) {
        std::fprintf(stderr, "FAIL: %s: global_flags %u, expected %u\n", e.label.c_str(), info.global_flags,
                     e.flags);
        ++errors;
    }
    return errors;
}

/** A global region allowing runtime allocation, preferring coarse-grained. */
struct RegionSearch {
    bool found = false;
    hsa_region_t region{};
    uint32_t flags = 0;
};

hsa_status_t match_region(hsa_region_t region, void* data) {
    auto* search = static_cast<RegionSearch*>(data);
    hsa_region_segment_t segment{};
    hsa_status_t status = hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    bool alloc_allowed = false;
    status = hsa_region_get_info(region, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_allowed);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    uint32_t flags = 0;
    status = hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    if (segment != HSA_REGION_SEGMENT_GLOBAL || !alloc_allowed) {
        return HSA_STATUS_SUCCESS;
    }
    if (!search->found || (flags & HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED) != 0) {
        search->found = true;
        search->region = region;
        search->flags = flags;
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace

int main(int argc, char** argv) {
    constexpr std::size_t kBytes = 64 * 1024;
    constexpr uint32_t kCount = kBytes / sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t cpu = session.cpu();
    hsa_agent_t gpu = session.gpu();
    const GpuPools& pools = session.gpu_pools();
    int errors = 0;
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);

        std::vector<Expectation> expectations;
        auto expect = [&](std::string label, void* ptr, std::size_t bytes, hsa_agent_t owner,
                          uint32_t flags) {
            Expectation e;
            e.label = std::move(label);
            e.ptr = ptr;
            e.bytes = bytes;
            e.type = HSA_EXT_POINTER_TYPE_HSA;
            e.check_owner = true;
            e.owner = owner;
            e.check_flags = true;
            e.flags = flags;
            expectations.push_back(e);
        };

        void* coarse = session.allocate(pools.coarse, kBytes);
        expect("coarse device pool", coarse, kBytes, gpu, kCoarse);
        void* fine = session.allocate(pools.fine, 16 * 1024);
        expect("fine-grained device pool", fine, 16 * 1024, gpu, kFine);
        void* kernarg = session.allocate(session.kernarg_pool(), 4096);
        expect("kernarg pool", kernarg, 4096, cpu, kKernarg | kFine);
        void* system = session.allocate(session.system_pool(), 8 * 1024);
        expect("fine-grained system pool", system, 8 * 1024, cpu, kFine);
        void* executable_memory = session.allocate(pools.coarse, 8 * 1024, kExecutableFlag);
        expect("coarse pool, executable flag", executable_memory, 8 * 1024, gpu, kCoarse);

        RegionSearch search;
        hsa_agent_t region_agent = gpu;
        check(hsa_agent_iterate_regions(gpu, match_region, &search), "hsa_agent_iterate_regions(GPU)");
        if (!search.found) {
            std::printf("alloc_classes: GPU0 has no allocatable global region; using the CPU's\n");
            region_agent = cpu;
            check(hsa_agent_iterate_regions(cpu, match_region, &search), "hsa_agent_iterate_regions(CPU)");
        }
        if (!search.found) {
            fail("no allocatable global region on the GPU or CPU agent (hsa_agent_iterate_regions)");
        }
        void* region_memory = nullptr;
        check(hsa_memory_allocate(search.region, 12 * 1024, &region_memory), "hsa_memory_allocate");
        expect("hsa_memory_allocate(region)", region_memory, 12 * 1024, region_agent, search.flags);

        constexpr std::size_t kLockedBytes = 32 * 1024;
        void* host = std::aligned_alloc(4096, kLockedBytes);
        if (host == nullptr) {
            fail("aligned_alloc(%zu) failed", kLockedBytes);
        }
        void* host_agent_ptr = nullptr;
        check(hsa_amd_memory_lock(host, kLockedBytes, &gpu, 1, &host_agent_ptr), "hsa_amd_memory_lock");
        Expectation locked;
        locked.label = "hsa_amd_memory_lock'ed host";
        locked.ptr = host;
        locked.bytes = kLockedBytes;
        locked.type = HSA_EXT_POINTER_TYPE_LOCKED;
        expectations.push_back(locked);

        void* unknown = std::malloc(256);
        if (unknown == nullptr) {
            fail("malloc(256) failed");
        }
        Expectation unregistered;
        unregistered.label = "plain malloc";
        unregistered.ptr = unknown;
        unregistered.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
        expectations.push_back(unregistered);

        std::printf("alloc_classes: hsa_amd_pointer_info of every allocation class:\n");
        for (const Expectation& e : expectations) {
            errors += describe_and_check(session, e);
        }

        // A kernel touching the coarse buffer.
        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i) {
            initial[i] = i ^ 0x55u;
        }
        session.copy_to_device(coarse, initial.data(), kBytes);
        Queue queue(gpu);
        void* args = session.kernarg(AccumulateArgs{static_cast<uint32_t*>(coarse), kCount},
                                     kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, args, kCount);
        queue.dispatch_and_wait(dispatch);
        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), coarse, kBytes);
        for (uint32_t i = 0; i < kCount; ++i) {
            if (result[i] != initial[i] + 1) {
                fail("accumulate.kd on the coarse buffer: a[%u] = %u, expected %u", i, result[i],
                     initial[i] + 1);
            }
        }
        std::printf("alloc_classes: accumulate.kd on the coarse buffer correct\n");

        session.free(args);
        session.free(coarse);
        session.free(fine);
        session.free(kernarg);
        session.free(system);
        session.free(executable_memory);
        check(hsa_memory_free(region_memory), "hsa_memory_free");
        check(hsa_amd_memory_unlock(host), "hsa_amd_memory_unlock");
        std::free(host);
        std::free(unknown);

        const hsa_amd_pointer_info_t after = pointer_info(coarse);
        std::printf("alloc_classes: freed coarse buffer %p now has type %s\n", coarse, type_name(after.type));
        if (after.type != HSA_EXT_POINTER_TYPE_UNKNOWN) {
            std::fprintf(stderr, "FAIL: freed coarse buffer still has type %s\n", type_name(after.type));
            ++errors;
        }
    }
    if (errors != 0) {
        fail("%d pointer-info mismatch(es)", errors);
    }
    std::printf("PASS\n");
    return 0;
}
