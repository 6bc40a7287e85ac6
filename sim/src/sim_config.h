// SPDX-License-Identifier: MIT
// What the simulator reads from the environment at the first hsa_init.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sim {

/// Environment-driven configuration and fault injection. Read once per hsa_init (reference count 0 → 1).
///
/// | variable | meaning |
/// |---|---|
/// | HSA_SIM_GPU_AGENTS=N | simulated GPU agents (default 1, 1..8) |
/// | HSA_SIM_INTERCEPT_SEMANTICS=5\|6 | one writer call per intercept invocation (ROCr 5.2.3) or several
/// (6.x); default: the generation of the headers | | HSA_SIM_FAIL_D2H_COPY=k[,k...] | the k-th device-to-host
/// hsa_memory_copy fails (1-based) | | HSA_SIM_FAIL_H2D_COPY=k[,k...] | the k-th host-to-device
/// hsa_memory_copy fails | | HSA_SIM_FAIL_H2D_COPY_BYTES=B[:N] | host-to-device hsa_memory_copy calls of
/// exactly B bytes fail: the first N of them (default: every one); counted apart from HSA_SIM_FAIL_H2D_COPY
/// (either makes a copy fail) | | HSA_SIM_FAIL_ASYNC_COPY_BYTES=B[:N] | hsa_amd_memory_async_copy calls of
/// exactly B bytes return HSA_STATUS_ERROR and copy nothing: the first N of them (default: every one) | |
/// HSA_SIM_FAIL_D2D_COPY=k[,k...] | the k-th device-to-device
/// hsa_memory_copy (source and destination both device memory) fails | | HSA_SIM_FAIL_ALLOC=k[,k...] | the
/// k-th pool/region allocation fails with OUT_OF_RESOURCES | | HSA_SIM_FAIL_QUEUE_CREATE=k[,k...] | the k-th
/// queue creation fails with OUT_OF_RESOURCES; counted: every hsa_queue_create and every
/// hsa_amd_queue_intercept_create (once, for its lower queue) whose arguments are valid, whoever calls it
/// (application, HIP, a tool's private queue) | | HSA_SIM_FAIL_SIGNAL_CREATE=k[,k...] | the k-th
/// hsa_signal_create / hsa_amd_signal_create (counted together, whoever calls) fails with OUT_OF_RESOURCES |
/// | HSA_SIM_DISPATCH_LOG=FILE | appends one line per completed kernel dispatch packet to FILE (format:
/// dispatch_log.h) |
/// | HSA_SIM_DISPATCH_DIGEST=FILE | appends one line per completed kernel dispatch to FILE with a digest of
/// the device memory (format: dispatch_digest.h); dispatches then run one at a time and new device-pool
/// blocks are zero-filled, so that runs with the two executors compare line for line |
///
/// Every k list also takes ranges: `3-5` is `3,4,5`.
/// | HSA_SIM_DEVICE_MEMORY=BYTES | device memory of each GPU agent (K/M/G or KiB/MiB/GiB suffix, powers of
/// 1024; at least 4096; default 16 GiB): each global device pool reports it as its size and the agent's
/// live allocations together never exceed it |
/// | HSA_SIM_EXECUTOR=isa\|standin | what runs the kernels of real code objects: the gfx90a interpreter
/// (isa; the default when HSA_SIM_STANDINS is unset) or their stand-ins, the interpreter running the code
/// objects no stand-in library covers (standin; the default when HSA_SIM_STANDINS is set) |
/// | HSA_SIM_REFUSE_SYMBOL_ITERATION=SUBSTR | symbol iteration fails for executables whose code-object URI
/// contains SUBSTR ("*": all) | | HSA_SIM_KERNEL_TIME_NS=NAME=NS[,...] | the kernel with that symbol name
/// ("*": any) runs at least NS ns |
/// | HSA_SIM_NO_AQLPROFILE=1 | the aqlprofile extension is not offered, as by ROCr on a machine without
/// AMD's aqlprofile library: no extension bit, hsa_system_get_major_extension_table refuses its table |
/// | HSA_SIM_POINTER_INFO_UNKNOWN_BYTES=B | hsa_amd_pointer_info answers HSA_EXT_POINTER_TYPE_UNKNOWN for
/// every address of a GPU agent's allocation of exactly B bytes, so that a tool classifying memory by it
/// leaves that allocation out of its snapshot |
/// What executes the kernels of AMDGPU ELF code objects.
enum class Executor { isa, standin };

class SimConfig {
  public:
    /// Reads the environment; malformed values are reported on stderr and ignored.
    void load_from_environment();

    uint32_t gpu_agent_count = 1;
    /// HSA_SIM_DEVICE_MEMORY in bytes.
    uint64_t device_memory_bytes = kDefaultDeviceMemoryBytes;
    static constexpr uint64_t kDefaultDeviceMemoryBytes = 16ull << 30;
    bool multiple_writer_calls = false;
    std::string refuse_symbol_iteration;
    /// HSA_SIM_EXECUTOR.
    Executor executor = Executor::isa;
    /// False with HSA_SIM_NO_AQLPROFILE=1: the aqlprofile extension is not offered.
    bool aqlprofile = true;
    /// HSA_SIM_POINTER_INFO_UNKNOWN_BYTES (0: unset).
    uint64_t pointer_info_unknown_bytes = 0;

    /// True when this device-to-host copy (counted from 1) is to fail.
    bool next_d2h_copy_fails();
    /// True when this host-to-device copy of `bytes` bytes (counted from 1) is to fail.
    bool next_h2d_copy_fails(uint64_t bytes);
    /// True when this hsa_amd_memory_async_copy of `bytes` bytes is to fail (HSA_SIM_FAIL_ASYNC_COPY_BYTES).
    bool next_async_copy_fails(uint64_t bytes);
    /// True when this device-to-device copy (counted from 1) is to fail.
    bool next_d2d_copy_fails();
    /// True when this allocation (counted from 1) is to fail.
    bool next_allocation_fails();
    /// True when this queue creation (counted from 1, see HSA_SIM_FAIL_QUEUE_CREATE) is to fail.
    bool next_queue_create_fails();
    /// True when this signal creation (counted from 1) is to fail.
    bool next_signal_create_fails();
    /// HSA_SIM_DISPATCH_LOG, empty when unset.
    std::string dispatch_log_path;
    /// HSA_SIM_DISPATCH_DIGEST, empty when unset.
    std::string dispatch_digest_path;
    /// Minimum run time of a kernel in ns (0: as fast as it runs): HSA_SIM_KERNEL_TIME_NS, whose names match
    /// with or without the descriptor's ".kd" on either side ("*": every kernel).
    uint64_t kernel_min_time_ns(const std::string& kernel_name) const;
    /// True when symbol iteration must be refused for a code object with this URI.
    bool refuses_symbol_iteration(const std::string& uri) const;

  private:
    static bool hits(const std::vector<uint64_t>& list, std::atomic<uint64_t>& counter);
    std::vector<uint64_t> fail_d2h_, fail_h2d_, fail_d2d_, fail_alloc_, fail_queue_create_,
        fail_signal_create_;
    std::atomic<uint64_t> d2h_count_{0}, h2d_count_{0}, d2d_count_{0}, alloc_count_{0},
        queue_create_count_{0}, signal_create_count_{0};
    std::vector<std::pair<std::string, uint64_t>> kernel_times_;
    uint64_t fail_h2d_bytes_ = 0, fail_h2d_bytes_limit_ = 0; ///< 0 bytes: unset; 0 limit: every copy
    std::atomic<uint64_t> h2d_bytes_count_{0};
    uint64_t fail_async_bytes_ = 0, fail_async_bytes_limit_ = 0; ///< as fail_h2d_bytes_
    std::atomic<uint64_t> async_bytes_count_{0};
};

} // namespace sim
