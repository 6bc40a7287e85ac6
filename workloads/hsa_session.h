// SPDX-License-Identifier: MIT
// HsaSession: the HSA plumbing every ReplayScope test workload shares.
//
// Workloads are ordinary HSA programs (they link -lhsa-runtime64 and run on the simulated runtime). This
// header gathers what each of them would otherwise repeat: runtime start-up and shutdown with status
// checks, agent and memory-pool discovery, loading a code object that sits next to the program, queue
// creation, writing AQL kernel-dispatch packets, ringing the doorbell and waiting for completion.
//
// Failure policy: the `HsaSession`, `Executable` and `Queue` members report any HSA error with `fail()`,
// which prints "FAIL: ..." and exits with status 1, so workloads read as straight-line code. The
// free functions `reserve_packets`, `write_dispatch_packet`, `ring_doorbell`, `submit_dispatch` and
// `write_barrier_and` never fail and never exit, so libraries (the libamdhip64 stand-in) can use them too.
#ifndef RS_WORKLOADS_HSA_SESSION_H
#define RS_WORKLOADS_HSA_SESSION_H

#include <hsa.h>
#include <hsa_ext_amd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace rs::workloads {

/** Prints "FAIL: <message>" (printf-style) to stderr and exits the process with status 1. */
[[noreturn]] void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

/** Calls `fail()` naming `what` and the status string unless `status` is HSA_STATUS_SUCCESS (or INFO_BREAK).
 */
void check(hsa_status_t status, const char* what);

struct Kernel;

/** Launch geometry and arguments of one kernel dispatch. */
struct KernelDispatch {
    uint64_t kernel_object = 0;          ///< from HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT
    void* kernarg = nullptr;             ///< kernarg segment (kernarg-pool memory), or null
    uint32_t grid_size = 1;              ///< work-items, 1-D
    uint16_t workgroup_size = 64;        ///< work-items per workgroup, 1-D
    uint32_t group_segment_size = 0;     ///< bytes of LDS per workgroup
    uint32_t private_segment_size = 0;   ///< bytes of scratch per work-item
    hsa_signal_t completion_signal = {}; ///< decremented by the packet processor at completion; 0 = none
};

/**
 * A dispatch of `kernel` over `grid_size` work-items with kernarg segment `kernarg`; the other fields keep
 * their defaults (workgroup 64, no group or private segment, no completion signal).
 */
KernelDispatch make_dispatch(const Kernel& kernel, void* kernarg, uint32_t grid_size);

/**
 * Reserves `count` consecutive packet slots in `queue` by advancing its write index (scacq_screl) and
 * waits until the packet processor has consumed enough packets for all of them to be free.
 * Returns the index of the first reserved slot.
 */
uint64_t reserve_packets(hsa_queue_t* queue, uint32_t count);

/**
 * Writes an AQL kernel-dispatch packet into slot `index` of `queue`: the body first, then the 32-bit
 * header+setup word with a release store, so the packet processor never sees a half-written packet.
 * Uses barrier=1 and system-scope acquire/release fences. Does not ring the doorbell.
 */
void write_dispatch_packet(hsa_queue_t* queue, uint64_t index, const KernelDispatch& dispatch);

/** Publishes every packet up to and including `last_index` by storing it to the queue's doorbell. */
void ring_doorbell(hsa_queue_t* queue, uint64_t last_index);

/** Waits (blocked) until `signal` drops below 1. */
void wait_for_completion(hsa_signal_t signal);

/** Submits `dispatch` alone to `queue` (reserve, write, own doorbell) without waiting; returns its slot
 * index. */
uint64_t submit_dispatch(hsa_queue_t* queue, const KernelDispatch& dispatch);

/**
 * Writes an AQL barrier-AND packet waiting on `dependency` (no completion signal) into slot `index` of
 * `queue`, header stored last with a release store; barrier=1, system-scope fences. Does not ring the
 * doorbell.
 */
void write_barrier_and(hsa_queue_t* queue, uint64_t index, hsa_signal_t dependency);

/** main's arguments after the program name, in order, without `--code-object-dir DIR`. */
std::vector<const char*> program_arguments(int argc, char** argv);

/** The last of main's arguments that is not `--code-object-dir DIR`, or `fallback` if there is none. */
const char* program_argument(int argc, char** argv, const char* fallback);

/** `count` values first, first + step, first + 2 * step, ... (uint32_t arithmetic). */
std::vector<uint32_t> linear_values(uint32_t count, uint32_t first, uint32_t step);

/**
 * Fails the workload at the first `result[i] != initial[i] + times` (uint32_t arithmetic), naming buffer
 * `name` and saying that `what` (an in-place +1, e.g. "the dispatch", meant to run `times` times) ran more
 * often or fewer times than that ("more than once" / "not at all" when `times` is 1).
 */
void expect_added(const std::vector<uint32_t>& result, const std::vector<uint32_t>& initial, uint32_t times,
                  const char* name, const char* what);

/** expect_added with `times` = 1: `what` (e.g. "the dispatch") ran more than once or not at all. */
void expect_incremented(const std::vector<uint32_t>& result, const std::vector<uint32_t>& initial,
                        const char* name, const char* what);

/** A kernel symbol's properties for one agent. */
struct Kernel {
    uint64_t object = 0;               ///< kernel object handle (goes into the dispatch packet)
    uint32_t kernarg_segment_size = 0; ///< bytes
    uint32_t group_segment_size = 0;   ///< bytes
    uint32_t private_segment_size = 0; ///< bytes
};

/** A module-scope variable's storage for one agent. */
struct Variable {
    void* address = nullptr; ///< HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS (device memory)
    uint32_t size = 0;       ///< bytes
};

/** A frozen executable holding one code object loaded for one or more agents. Move-only. */
class Executable {
  public:
    /**
     * Reads the code object at `path` with hsa_code_object_reader_create_from_file, loads it for every
     * agent of `agents` into a new executable (hsa_executable_create_alt) and freezes it.
     */
    Executable(const std::filesystem::path& path, std::span<const hsa_agent_t> agents);
    ~Executable();
    Executable(Executable&& other) noexcept;
    Executable& operator=(Executable&&) = delete;
    Executable(const Executable&) = delete;
    Executable& operator=(const Executable&) = delete;

    /** Looks up kernel symbol `name` (e.g. "vector_add.kd") for `agent`. */
    Kernel kernel(const char* name, hsa_agent_t agent) const;
    /** Looks up variable symbol `name` for `agent`: its per-agent address and size. */
    Variable variable(const char* name, hsa_agent_t agent) const;

    /** The underlying hsa_executable_t. */
    hsa_executable_t handle() const { return executable_; }

  private:
    hsa_executable_t executable_{};
    hsa_code_object_reader_t reader_{};
    int fd_ = -1;
};

/** A user-mode AQL queue on one GPU agent. Move-only. */
class Queue {
  public:
    /** Creates a multi-producer queue of `size` packets (a power of two) on `agent`. */
    explicit Queue(hsa_agent_t agent, uint32_t size = 64);
    ~Queue();
    Queue(Queue&& other) noexcept;
    Queue& operator=(Queue&&) = delete;
    Queue(const Queue&) = delete;
    Queue& operator=(const Queue&) = delete;

    /** The underlying hsa_queue_t (for reserve_packets / write_dispatch_packet / ring_doorbell). */
    hsa_queue_t* get() const { return queue_; }

    /**
     * Submits one dispatch (own doorbell) with a fresh completion signal and waits for it. Any
     * `dispatch.completion_signal` is replaced.
     */
    void dispatch_and_wait(KernelDispatch dispatch);

  private:
    hsa_queue_t* queue_ = nullptr;
};

/** Memory pools of one GPU agent. */
struct GpuPools {
    hsa_amd_memory_pool_t coarse{}; ///< device memory, global flags COARSE_GRAINED
    hsa_amd_memory_pool_t fine{};   ///< device memory, global flags FINE_GRAINED
};

/**
 * An initialised HSA runtime plus what workloads need from it: the CPU agent, the GPU agents, their
 * pools and where the workload's code objects live. Constructing it calls hsa_init and discovers
 * everything (failing if a CPU agent, a GPU agent or any expected pool is missing); destroying it calls
 * hsa_shutdown. Create exactly one, in main, after any objects that must outlive it.
 */
class HsaSession {
  public:
    /**
     * `argc`/`argv` are main's: `--code-object-dir DIR` overrides the directory code objects are loaded
     * from; otherwise the environment variable RS_WORKLOAD_CODE_OBJECT_DIR; otherwise the directory of
     * the running program (/proc/self/exe).
     */
    HsaSession(int argc, char** argv);
    ~HsaSession();
    HsaSession(const HsaSession&) = delete;
    HsaSession& operator=(const HsaSession&) = delete;

    /** The CPU agent (the first one hsa_iterate_agents reports). */
    hsa_agent_t cpu() const { return cpu_; }
    /** GPU agents in hsa_iterate_agents order (at least one). */
    const std::vector<hsa_agent_t>& gpus() const { return gpus_; }
    /** GPU agent `index`; fails the workload if there is no such agent. */
    hsa_agent_t gpu(std::size_t index = 0) const;
    /** Pools of GPU agent `index`. */
    const GpuPools& gpu_pools(std::size_t index = 0) const;
    /** CPU kernarg pool (KERNARG_INIT | FINE_GRAINED). */
    hsa_amd_memory_pool_t kernarg_pool() const { return kernarg_pool_; }
    /** CPU fine-grained system pool (FINE_GRAINED without KERNARG_INIT). */
    hsa_amd_memory_pool_t system_pool() const { return system_pool_; }

    /** Full path of code object `file_name` in the code-object directory. */
    std::filesystem::path code_object_path(const std::string& file_name) const;
    /** Loads code object `file_name` (see code_object_path) for `agents` (default: GPU 0). */
    Executable load(const std::string& file_name, std::span<const hsa_agent_t> agents = {}) const;

    /** hsa_amd_memory_pool_allocate of `bytes` with `flags`; fails the workload on error. */
    void* allocate(hsa_amd_memory_pool_t pool, std::size_t bytes, uint32_t flags = 0) const;
    /** hsa_amd_memory_pool_free; fails the workload on error. */
    void free(void* ptr) const;
    /** A new buffer in GPU 0's coarse-grained pool holding a copy of `contents` (see copy_to_device). */
    template <typename T>
    T* device_copy(const std::vector<T>& contents) const {
        auto* buffer = static_cast<T*>(allocate(gpu_pools().coarse, contents.size() * sizeof(T)));
        copy_to_device(buffer, contents.data(), contents.size() * sizeof(T));
        return buffer;
    }
    /** Kernarg memory for `bytes` holding a copy of `args` (`bytes` may exceed sizeof(args)). */
    template <typename Args>
    void* kernarg(const Args& args, std::size_t bytes = sizeof(Args)) const {
        return make_kernarg(&args, sizeof(Args), bytes);
    }

    /**
     * Copies `bytes` from host memory `src` to device memory `dst` as a ROCm program would: through a
     * staging buffer from the system pool and hsa_memory_copy.
     */
    void copy_to_device(void* dst, const void* src, std::size_t bytes) const;
    /** Copies `bytes` from device memory `src` to host memory `dst` (staging + hsa_memory_copy). */
    void copy_to_host(void* dst, const void* src, std::size_t bytes) const;

  private:
    void* make_kernarg(const void* args, std::size_t args_bytes, std::size_t bytes) const;

    hsa_agent_t cpu_{};
    std::vector<hsa_agent_t> gpus_;
    std::vector<GpuPools> gpu_pools_;
    hsa_amd_memory_pool_t kernarg_pool_{};
    hsa_amd_memory_pool_t system_pool_{};
    std::filesystem::path code_object_dir_;
};

/** Name of `agent` for messages: "CPU", "GPU<n>" (n = index in `session.gpus()`) or its handle. */
std::string agent_label(const HsaSession& session, hsa_agent_t agent);

} // namespace rs::workloads

#endif // RS_WORKLOADS_HSA_SESSION_H
