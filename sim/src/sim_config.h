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
/// | HSA_SIM_INTERCEPT_SEMANTICS=5\|6 | one writer call per intercept invocation (ROCr 5.2.3) or several (6.x); default: the generation of the headers |
/// | HSA_SIM_FAIL_D2H_COPY=k[,k...] | the k-th device-to-host hsa_memory_copy fails (1-based) |
/// | HSA_SIM_FAIL_H2D_COPY=k[,k...] | the k-th host-to-device hsa_memory_copy fails |
/// | HSA_SIM_FAIL_ALLOC=k[,k...] | the k-th pool/region allocation fails with OUT_OF_RESOURCES |
/// | HSA_SIM_REFUSE_SYMBOL_ITERATION=SUBSTR | symbol iteration fails for executables whose code-object URI contains SUBSTR ("*": all) |
/// | HSA_SIM_KERNEL_TIME_NS=NAME=NS[,...] | the kernel with that symbol name ("*": any) runs at least NS ns |
class SimConfig {
public:
    /// Reads the environment; malformed values are reported on stderr and ignored.
    void load_from_environment();

    uint32_t gpu_agent_count = 1;
    bool multiple_writer_calls = false;
    std::string refuse_symbol_iteration;

    /// True when this device-to-host copy (counted from 1) is to fail.
    bool next_d2h_copy_fails();
    /// True when this host-to-device copy (counted from 1) is to fail.
    bool next_h2d_copy_fails();
    /// True when this allocation (counted from 1) is to fail.
    bool next_allocation_fails();
    /// Minimum run time of a kernel in ns (0: as fast as it runs).
    uint64_t kernel_min_time_ns(const std::string& kernel_name) const;
    /// True when symbol iteration must be refused for a code object with this URI.
    bool refuses_symbol_iteration(const std::string& uri) const;

private:
    static bool hits(const std::vector<uint64_t>& list, std::atomic<uint64_t>& counter);
    std::vector<uint64_t> fail_d2h_, fail_h2d_, fail_alloc_;
    std::atomic<uint64_t> d2h_count_{0}, h2d_count_{0}, alloc_count_{0};
    std::vector<std::pair<std::string, uint64_t>> kernel_times_;
};

} // namespace sim
