// SPDX-License-Identifier: MIT
// hip_unrestorable_args: kernels whose arguments reach memory no snapshot restores, each launched once,
// each result checked against one execution computed on the host. A replaying tool must not replay the
// ones that write such memory (every extra pass would apply its writes again) and may replay the one that
// only reads it:
//   packed_bump      a packed by-value struct {int n; int* p;}: p, pinned host memory, at kernarg offset 4;
//   end_bump         a pointer one past the end of pinned host memory, indexed backwards;
//   managed_bump     hipMallocManaged memory, updated in place;
//   registered_bump  malloc'ed memory registered with hipHostRegister, updated in place;
//   read_only_add    reads pinned host memory through a const __restrict__ pointer and adds it into
//                    hipMalloc memory (restored between passes).
// Prints "<kernel>: N execution(s)" for each, then PASS when every one shows exactly one.
#include "hip_check.h"

#include <cstdlib>
#include <vector>

// At namespace scope: a stand-in library names kernels by their mangled names, which must not involve an
// anonymous namespace.
struct __attribute__((packed)) PackedArgs {
    int n;
    int* p; // at byte offset 4 of the struct, and of the kernarg segment
};
static_assert(sizeof(PackedArgs) == 12, "packed: the pointer is at offset 4");

namespace {
constexpr const char* kProgram = "hip_unrestorable_args";
constexpr int kCount = 1024;
constexpr int kBlock = 256;

/// How many executions of "+= 1" `values` show against `initial` (-1 when they disagree).
int executions(const int* values, const std::vector<int>& initial) {
    const int first = values[0] - initial[0];
    for (int i = 1; i < kCount; ++i) {
        if (values[i] - initial[i] != first) {
            return -1;
        }
    }
    return first;
}

std::vector<int> initial_values(int seed) {
    std::vector<int> v(kCount);
    for (int i = 0; i < kCount; ++i) {
        v[i] = seed + 3 * i;
    }
    return v;
}

} // namespace

__global__ void packed_bump(PackedArgs args) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < args.n) {
        args.p[i] += 1;
    }
}

__global__ void end_bump(int* end, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        end[-1 - i] += 1;
    }
}

__global__ void managed_bump(int* values, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        values[i] += 1;
    }
}

__global__ void registered_bump(int* values, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        values[i] += 1;
    }
}

__global__ void read_only_add(const int* __restrict__ addend, int* __restrict__ sum, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        sum[i] += addend[i];
    }
}

int main() {
    const dim3 grid(kCount / kBlock), block(kBlock);
    int failures = 0;
    const auto report = [&](const char* kernel, int n) {
        std::printf("%s: %d execution(s)\n", kernel, n);
        failures += n == 1 ? 0 : 1;
    };

    // Pinned host memory reached through a pointer at kernarg offset 4.
    const std::vector<int> packed_initial = initial_values(100);
    int* packed = nullptr;
    HIP_CHECK(hipHostMalloc(&packed, kCount * sizeof(int)));
    std::copy(packed_initial.begin(), packed_initial.end(), packed);
    hipLaunchKernelGGL(packed_bump, grid, block, 0, 0, PackedArgs{kCount, packed});
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    report("packed_bump", executions(packed, packed_initial));

    // Pinned host memory reached through its end pointer only.
    const std::vector<int> end_initial = initial_values(200);
    int* ended = nullptr;
    HIP_CHECK(hipHostMalloc(&ended, kCount * sizeof(int)));
    std::copy(end_initial.begin(), end_initial.end(), ended);
    hipLaunchKernelGGL(end_bump, grid, block, 0, 0, ended + kCount, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    report("end_bump", executions(ended, end_initial));

    // Managed memory, updated in place.
    const std::vector<int> managed_initial = initial_values(300);
    int* managed = nullptr;
    HIP_CHECK(hipMallocManaged(&managed, kCount * sizeof(int)));
    std::copy(managed_initial.begin(), managed_initial.end(), managed);
    hipLaunchKernelGGL(managed_bump, grid, block, 0, 0, managed, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    report("managed_bump", executions(managed, managed_initial));

    // Ordinary host memory registered with the runtime, updated in place through its device pointer.
    const std::vector<int> registered_initial = initial_values(400);
    auto* registered = static_cast<int*>(std::aligned_alloc(4096, kCount * sizeof(int)));
    if (!registered) {
        rs_hip::fail(kProgram, "aligned_alloc failed");
    }
    std::copy(registered_initial.begin(), registered_initial.end(), registered);
    HIP_CHECK(hipHostRegister(registered, kCount * sizeof(int), hipHostRegisterDefault));
    int* registered_device = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(reinterpret_cast<void**>(&registered_device), registered, 0));
    std::printf("alloc registered %lld %zu\n", rs_hip::address_of(registered), kCount * sizeof(int));
    hipLaunchKernelGGL(registered_bump, grid, block, 0, 0, registered_device, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    report("registered_bump", executions(registered, registered_initial));
    // Left registered until the process ends: HIP 5.2.3's hipHostUnregister removes the memory object
    // once for the host address and again for each device's address, which on an agent that maps the
    // memory at its host address (the simulator's) is the same key, and aborts ("Memobj map does not have
    // ptr").

    // Pinned host memory only read (const __restrict__), device memory updated in place.
    const std::vector<int> sum_initial = initial_values(500);
    int* addend = nullptr;
    int* sum = nullptr;
    HIP_CHECK(hipHostMalloc(&addend, kCount * sizeof(int)));
    for (int i = 0; i < kCount; ++i) {
        addend[i] = 1;
    }
    HIP_CHECK(hipMalloc(&sum, kCount * sizeof(int)));
    HIP_CHECK(hipMemcpy(sum, sum_initial.data(), kCount * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(read_only_add, grid, block, 0, 0, addend, sum, kCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<int> sums(kCount);
    HIP_CHECK(hipMemcpy(sums.data(), sum, kCount * sizeof(int), hipMemcpyDeviceToHost));
    report("read_only_add", executions(sums.data(), sum_initial));
    bool addend_intact = true;
    for (int i = 0; i < kCount; ++i) {
        addend_intact = addend_intact && addend[i] == 1;
    }
    if (!addend_intact) {
        rs_hip::fail(kProgram, "read_only_add changed the memory it only reads");
    }

    HIP_CHECK(hipHostFree(packed));
    HIP_CHECK(hipHostFree(ended));
    HIP_CHECK(hipFree(managed));
    HIP_CHECK(hipHostFree(addend));
    HIP_CHECK(hipFree(sum));
    if (failures > 0) {
        rs_hip::fail(kProgram, "%d kernel(s) did not show exactly one execution", failures);
    }
    std::printf("hip_unrestorable_args: every kernel shows one execution\nPASS\n");
    return 0;
}
