// SPDX-License-Identifier: MIT
/*
 * Helpers shared by the simulator suites: agent/pool discovery, typed info queries, loading the test
 * kernel library, and writing AQL packets the way an application does (reserve a slot, fill the body,
 * publish the header atomically, ring the doorbell).
 */
#ifndef RS_SIM_TEST_UTIL_H
#define RS_SIM_TEST_UTIL_H

#include <hsa.h>
#include <hsa_ext_amd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace rs_test {

/** HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY (uint64_t, Hz); newer headers than ROCr 5.2.3 name it. */
inline constexpr auto kAgentInfoTimestampFrequency = static_cast<hsa_agent_info_t>(0xA016);

struct Agents {
    std::vector<hsa_agent_t> all; // in iteration order
    std::vector<hsa_agent_t> cpus;
    std::vector<hsa_agent_t> gpus;
};

template <typename T>
T agent_info(hsa_agent_t agent, hsa_agent_info_t attribute, hsa_status_t* status = nullptr) {
    T value{};
    const hsa_status_t st = hsa_agent_get_info(agent, attribute, &value);
    if (status) {
        *status = st;
    }
    return value;
}

template <typename T>
T amd_agent_info(hsa_agent_t agent, hsa_amd_agent_info_t attribute, hsa_status_t* status = nullptr) {
    return agent_info<T>(agent, static_cast<hsa_agent_info_t>(attribute), status);
}

template <typename T>
T pool_info(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute,
            hsa_status_t* status = nullptr) {
    T value{};
    const hsa_status_t st = hsa_amd_memory_pool_get_info(pool, attribute, &value);
    if (status) {
        *status = st;
    }
    return value;
}

template <typename T>
T region_info(hsa_region_t region, hsa_region_info_t attribute, hsa_status_t* status = nullptr) {
    T value{};
    const hsa_status_t st = hsa_region_get_info(region, attribute, &value);
    if (status) {
        *status = st;
    }
    return value;
}

inline Agents list_agents() {
    Agents out;
    hsa_iterate_agents(
        [](hsa_agent_t agent, void* data) {
            auto* a = static_cast<Agents*>(data);
            a->all.push_back(agent);
            const auto type = agent_info<hsa_device_type_t>(agent, HSA_AGENT_INFO_DEVICE);
            if (type == HSA_DEVICE_TYPE_CPU) {
                a->cpus.push_back(agent);
            } else if (type == HSA_DEVICE_TYPE_GPU) {
                a->gpus.push_back(agent);
            }
            return HSA_STATUS_SUCCESS;
        },
        &out);
    return out;
}

/** Every handle an HSA iteration call `iterate(agent, callback, data)` reports for `agent`, in order. */
template <typename Handle>
std::vector<Handle> collect(hsa_status_t (*iterate)(hsa_agent_t, hsa_status_t (*)(Handle, void*), void*),
                            hsa_agent_t agent) {
    std::vector<Handle> out;
    iterate(
        agent,
        [](Handle h, void* data) {
            static_cast<std::vector<Handle>*>(data)->push_back(h);
            return HSA_STATUS_SUCCESS;
        },
        &out);
    return out;
}

inline std::vector<hsa_amd_memory_pool_t> list_pools(hsa_agent_t agent) {
    return collect<hsa_amd_memory_pool_t>(&hsa_amd_agent_iterate_memory_pools, agent);
}

inline std::vector<hsa_region_t> list_regions(hsa_agent_t agent) {
    return collect<hsa_region_t>(&hsa_agent_iterate_regions, agent);
}

/** First pool of `agent` whose global flags equal `flags` exactly (handle 0 if none). */
inline hsa_amd_memory_pool_t find_pool(hsa_agent_t agent, uint32_t flags) {
    for (hsa_amd_memory_pool_t pool : list_pools(agent)) {
        if (pool_info<uint32_t>(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS) == flags) {
            return pool;
        }
    }
    return hsa_amd_memory_pool_t{0};
}

inline uint64_t system_timestamp() {
    uint64_t t = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t);
    return t;
}

/** Waits (blocking, in slices) until `signal` < 1 or `timeout_ms` elapsed; returns the last value seen. */
inline hsa_signal_value_t wait_below_one(hsa_signal_t signal, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    hsa_signal_value_t v = hsa_signal_load_scacquire(signal);
    while (v >= 1 && std::chrono::steady_clock::now() < deadline) {
        v = hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_LT, 1, 10'000'000, HSA_WAIT_STATE_BLOCKED);
    }
    return v;
}

/** A code object loaded into an executable for one agent. */
struct LoadedCode {
    int fd = -1;
    std::vector<char> bytes;
    hsa_code_object_reader_t reader{0};
    hsa_executable_t exe{0};
    hsa_loaded_code_object_t loaded{0};
};

/** Loads the library at `path` (from its fd, or from its bytes) for `agent`; freezes if asked. */
inline hsa_status_t load_code(const char* path, hsa_agent_t agent, bool from_memory, bool freeze,
                              LoadedCode* out) {
    hsa_status_t st;
    if (from_memory) {
        if (FILE* f = std::fopen(path, "rb")) {
            char chunk[65536];
            size_t n;
            while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) {
                out->bytes.insert(out->bytes.end(), chunk, chunk + n);
            }
            std::fclose(f);
        }
        if (out->bytes.empty()) {
            return HSA_STATUS_ERROR_INVALID_FILE;
        }
        st = hsa_code_object_reader_create_from_memory(out->bytes.data(), out->bytes.size(), &out->reader);
    } else {
        out->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (out->fd < 0) {
            return HSA_STATUS_ERROR_INVALID_FILE;
        }
        st = hsa_code_object_reader_create_from_file(out->fd, &out->reader);
    }
    if (st != HSA_STATUS_SUCCESS) {
        return st;
    }
    st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                   &out->exe);
    if (st != HSA_STATUS_SUCCESS) {
        return st;
    }
    st = hsa_executable_load_agent_code_object(out->exe, agent, out->reader, nullptr, &out->loaded);
    if (st != HSA_STATUS_SUCCESS || !freeze) {
        return st;
    }
    return hsa_executable_freeze(out->exe, nullptr);
}

inline void unload_code(LoadedCode* code) {
    if (code->exe.handle) {
        hsa_executable_destroy(code->exe);
    }
    if (code->reader.handle) {
        hsa_code_object_reader_destroy(code->reader);
    }
    if (code->fd >= 0) {
        close(code->fd);
    }
    *code = LoadedCode{};
}

inline hsa_executable_symbol_t find_symbol(hsa_executable_t exe, hsa_agent_t agent, const char* name) {
    hsa_executable_symbol_t sym{0};
    if (hsa_executable_get_symbol_by_name(exe, name, &agent, &sym) != HSA_STATUS_SUCCESS) {
        sym.handle = 0;
    }
    return sym;
}

inline uint64_t kernel_object(hsa_executable_t exe, hsa_agent_t agent, const char* name) {
    const hsa_executable_symbol_t sym = find_symbol(exe, agent, name);
    uint64_t object = 0;
    if (sym.handle) {
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object);
    }
    return object;
}

/** Allocates kernarg memory for a T from the CPU agent's kernarg pool; aborts the test program on failure. */
template <typename T>
T* alloc_kernarg(hsa_agent_t cpu) {
    const hsa_amd_memory_pool_t pool = find_pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                                          HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    void* p = nullptr;
    if (pool.handle == 0 || hsa_amd_memory_pool_allocate(pool, sizeof(T), 0, &p) != HSA_STATUS_SUCCESS ||
        !p) {
        std::fprintf(stderr, "kernarg allocation failed\n");
        std::abort();
    }
    return static_cast<T*>(p);
}

inline uint16_t packet_header(hsa_packet_type_t type, bool barrier) {
    uint32_t h = static_cast<uint32_t>(type) << HSA_PACKET_HEADER_TYPE;
    h |= (barrier ? 1u : 0u) << HSA_PACKET_HEADER_BARRIER;
    h |= static_cast<uint32_t>(HSA_FENCE_SCOPE_SYSTEM) << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE;
    h |= static_cast<uint32_t>(HSA_FENCE_SCOPE_SYSTEM) << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
    return static_cast<uint16_t>(h);
}

/** Reserves the next slot of `queue`, waiting while the queue is full. */
inline uint64_t reserve_slot(hsa_queue_t* queue) {
    const uint64_t index = hsa_queue_add_write_index_screlease(queue, 1);
    while (index - hsa_queue_load_read_index_scacquire(queue) >= queue->size) {
        std::this_thread::yield();
    }
    return index;
}

template <typename Packet>
Packet* slot(hsa_queue_t* queue, uint64_t index) {
    return static_cast<Packet*>(queue->base_address) + (index & (queue->size - 1));
}

/** Makes the packet at `index` valid (header and setup stored together, release) and rings the doorbell. */
inline void publish(hsa_queue_t* queue, uint64_t index, uint16_t header, uint16_t setup, bool ring = true) {
    auto* word = reinterpret_cast<uint32_t*>(slot<hsa_kernel_dispatch_packet_t>(queue, index));
    __atomic_store_n(word, static_cast<uint32_t>(header) | (static_cast<uint32_t>(setup) << 16),
                     __ATOMIC_RELEASE);
    if (ring) {
        hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(index));
    }
}

/** Fills (without publishing) a 1-D kernel-dispatch packet body at `index`. */
inline void fill_dispatch(hsa_queue_t* queue, uint64_t index, uint64_t object, void* kernarg, uint32_t grid,
                          uint16_t workgroup, hsa_signal_t completion) {
    hsa_kernel_dispatch_packet_t* p = slot<hsa_kernel_dispatch_packet_t>(queue, index);
    std::memset(reinterpret_cast<char*>(p) + 4, 0, sizeof(*p) - 4);
    p->workgroup_size_x = workgroup;
    p->workgroup_size_y = 1;
    p->workgroup_size_z = 1;
    p->grid_size_x = grid;
    p->grid_size_y = 1;
    p->grid_size_z = 1;
    p->kernel_object = object;
    p->kernarg_address = kernarg;
    p->completion_signal = completion;
}

/** Submits a 1-D kernel dispatch; returns its packet index. */
inline uint64_t dispatch(hsa_queue_t* queue, uint64_t object, void* kernarg, uint32_t grid,
                         uint16_t workgroup, hsa_signal_t completion, bool barrier) {
    const uint64_t index = reserve_slot(queue);
    fill_dispatch(queue, index, object, kernarg, grid, workgroup, completion);
    publish(queue, index, packet_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier),
            1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
    return index;
}

/** Fills (without publishing) a barrier packet body (AND and OR share the layout). */
inline void fill_barrier(hsa_queue_t* queue, uint64_t index, const std::vector<hsa_signal_t>& deps,
                         hsa_signal_t completion) {
    auto* p = slot<hsa_barrier_and_packet_t>(queue, index);
    std::memset(reinterpret_cast<char*>(p) + 4, 0, sizeof(*p) - 4);
    for (size_t i = 0; i < deps.size() && i < 5; ++i) {
        p->dep_signal[i] = deps[i];
    }
    p->completion_signal = completion;
}

/** Submits a barrier-AND or barrier-OR packet; returns its index. */
inline uint64_t submit_barrier(hsa_queue_t* queue, hsa_packet_type_t type,
                               const std::vector<hsa_signal_t>& deps, hsa_signal_t completion,
                               bool barrier_bit = false) {
    const uint64_t index = reserve_slot(queue);
    fill_barrier(queue, index, deps, completion);
    publish(queue, index, packet_header(type, barrier_bit), 0);
    return index;
}

} // namespace rs_test

#endif // RS_SIM_TEST_UTIL_H
