// SPDX-License-Identifier: MIT
#include "device_hasher.h"

#include "chunk_hash_code_objects.h"
#include "hsa_api.h"

#include <hsa_ext_amd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace rs::engine {

namespace {

constexpr const char* kKernelSymbol = "replayscope_chunk_hash.kd";
/// Chunks per dispatch: the chunk table (16 bytes each) and the hashes (8 bytes each) of one batch.
constexpr size_t kBatchChunks = 16384;
/// How many more batch timeouts a batch that missed its timeout is waited for (as a late pass is,
/// replay_window.cpp kLatePassBound) before the hasher counts as stuck.
constexpr int kLateBatchBound = 10;
/// How often a wait for a batch checks the queue's error flag.
constexpr auto kWaitSlice = std::chrono::milliseconds(20);

uint64_t elapsed_since(Clock::time_point start) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

std::string status_text(hsa_status_t status) {
    const char* text = nullptr;
    if (hsa().core.hsa_status_string_fn &&
        hsa().core.hsa_status_string_fn(status, &text) == HSA_STATUS_SUCCESS && text) {
        return text;
    }
    return "status " + hex(static_cast<uint64_t>(status));
}

struct PoolSearch {
    uint32_t want_flags;  ///< every one of these global flags
    uint32_t avoid_flags; ///< none of these
    hsa_amd_memory_pool_t pool{};
    bool found = false;
};

hsa_status_t find_pool(hsa_amd_memory_pool_t pool, void* data) {
    auto* search = static_cast<PoolSearch*>(data);
    uint32_t flags = 0;
    if (!allocatable_global_pool(pool, flags)) {
        return HSA_STATUS_SUCCESS;
    }
    if ((flags & search->want_flags) == search->want_flags && (flags & search->avoid_flags) == 0) {
        search->pool = pool;
        search->found = true;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

bool agent_pool(hsa_agent_t agent, uint32_t want, uint32_t avoid, hsa_amd_memory_pool_t& pool) {
    PoolSearch search{want, avoid};
    hsa().amd.hsa_amd_agent_iterate_memory_pools_fn(agent, find_pool, &search);
    pool = search.pool;
    return search.found;
}

hsa_status_t find_cpu(hsa_agent_t agent, void* data) {
    if (device_type(agent) == HSA_DEVICE_TYPE_CPU) {
        *static_cast<hsa_agent_t*>(data) = agent;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t first_isa(hsa_isa_t isa, void* data) {
    *static_cast<hsa_isa_t*>(data) = isa;
    return HSA_STATUS_INFO_BREAK;
}

/// HSA_ISA_INFO_NAME of the agent's first ISA ("" on error).
std::string agent_isa_name(hsa_agent_t agent) {
    const auto& core = hsa().core;
    hsa_isa_t isa{0};
    core.hsa_agent_iterate_isas_fn(agent, first_isa, &isa);
    uint32_t length = 0;
    if (isa.handle == 0 ||
        core.hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME_LENGTH, &length) != HSA_STATUS_SUCCESS ||
        length == 0 || length > 1024) {
        return {};
    }
    std::string name(length, '\0');
    if (core.hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME, name.data()) != HSA_STATUS_SUCCESS) {
        return {};
    }
    name.resize(std::strlen(name.c_str())); // the length counts the terminating NUL
    return name;
}

} // namespace

/// The loaded kernel, its queue and buffers. Lives from the first available() to release().
struct DeviceHasher::Impl {
    enum class State { ready, unavailable };
    State state = State::unavailable;
    std::string why;

    hsa_code_object_reader_t reader{0};
    hsa_executable_t executable{0};
    hsa_queue_t* queue = nullptr;
    hsa_signal_t signal{0};
    bool has_signal = false;
    uint64_t kernel_object = 0;
    uint32_t kernarg_size = 0;
    uint32_t group_size = 0;
    uint32_t private_size = 0;
    void* kernarg = nullptr;     ///< CPU kernarg pool
    uint64_t* table = nullptr;   ///< CPU fine-grained pool: 2 * kBatchChunks (address, bytes)...
    uint64_t* outputs = nullptr; ///< ...then kBatchChunks hashes, in the same block

    /// Set by the queue's error callback (a runtime thread).
    std::atomic<bool> queue_failed{false};
    std::chrono::milliseconds batch_timeout{10000};
    /// A batch was still running after its late bound: the queue, code and buffers stay (leaked).
    bool stuck = false;
    std::atomic<uint32_t> queue_status{0};

    static void on_queue_error(hsa_status_t status, hsa_queue_t*, void* data) {
        auto* self = static_cast<Impl*>(data);
        self->queue_status.store(static_cast<uint32_t>(status), std::memory_order_relaxed);
        self->queue_failed.store(true, std::memory_order_release);
    }

    bool fail(std::string text) {
        state = State::unavailable;
        why = std::move(text);
        return false;
    }

    bool load(hsa_agent_t agent);
    bool allocate(hsa_agent_t agent);
    bool dispatch(const ChunkSpan* chunks, size_t count, uint64_t* hashes);
    bool probe();
    /// The rest of a wait for a batch that missed its timeout (always false: the batch failed).
    bool late();
    void destroy() noexcept;
};

bool DeviceHasher::Impl::load(hsa_agent_t agent) {
    const auto& core = hsa().core;
    const std::string isa = agent_isa_name(agent);
    if (isa.empty()) {
        return fail("the agent reports no ISA name");
    }
    const std::string processor(isa_processor(isa));
    const ChunkHashCodeObject* object = find_chunk_hash_code_object(processor);
    if (!object) {
        if (chunk_hash_code_objects().empty()) {
            return fail("no chunk-hash code object for " + processor +
                        " (the engine was built without an AMDGPU-capable clang)");
        }
        return fail("no chunk-hash code object for " + processor + " (built for " +
                    std::string(chunk_hash_processors()) + ")");
    }
    hsa_status_t s = core.hsa_code_object_reader_create_from_memory_fn(object->data, object->size, &reader);
    if (s != HSA_STATUS_SUCCESS) {
        reader.handle = 0;
        return fail("chunk-hash code object for " + processor +
                    " refused by the code object reader: " + status_text(s));
    }
    hsa_profile_t profile = HSA_PROFILE_BASE;
    core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_PROFILE, &profile);
    s = core.hsa_executable_create_alt_fn(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                          &executable);
    if (s != HSA_STATUS_SUCCESS) {
        executable.handle = 0;
        return fail("cannot create the chunk-hash executable: " + status_text(s));
    }
    s = core.hsa_executable_load_agent_code_object_fn(executable, agent, reader, nullptr, nullptr);
    if (s != HSA_STATUS_SUCCESS) {
        return fail("cannot load the chunk-hash code object for " + processor + ": " + status_text(s));
    }
    s = core.hsa_executable_freeze_fn(executable, nullptr);
    if (s != HSA_STATUS_SUCCESS) {
        return fail("cannot freeze the chunk-hash executable: " + status_text(s));
    }
    hsa_executable_symbol_t symbol{0};
    s = core.hsa_executable_get_symbol_by_name_fn(executable, kKernelSymbol, &agent, &symbol);
    if (s != HSA_STATUS_SUCCESS) {
        return fail(std::string("no ") + kKernelSymbol + " in the chunk-hash executable: " + status_text(s));
    }
    if (core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                               &kernel_object) != HSA_STATUS_SUCCESS ||
        core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                               &kernarg_size) != HSA_STATUS_SUCCESS ||
        core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                               &group_size) != HSA_STATUS_SUCCESS ||
        core.hsa_executable_symbol_get_info_fn(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
                                               &private_size) != HSA_STATUS_SUCCESS ||
        kernel_object == 0) {
        return fail("the chunk-hash kernel symbol answers no kernel object");
    }
    if (kernarg_size < 20) {
        return fail("the chunk-hash kernel reports a kernarg segment of " + std::to_string(kernarg_size) +
                    " bytes (expected at least 20)");
    }
    uint32_t queue_size = 0;
    core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &queue_size);
    queue_size = std::max<uint32_t>(queue_size, 64);
    s = core.hsa_queue_create_fn(agent, queue_size, HSA_QUEUE_TYPE_SINGLE, &Impl::on_queue_error, this,
                                 UINT32_MAX, UINT32_MAX, &queue);
    if (s != HSA_STATUS_SUCCESS) {
        queue = nullptr;
        return fail("cannot create the chunk-hash queue: " + status_text(s));
    }
    bool ok = false;
    signal = create_signal(0, ok);
    has_signal = ok;
    if (!ok) {
        return fail("cannot create the chunk-hash completion signal");
    }
    return allocate(agent);
}

bool DeviceHasher::Impl::allocate(hsa_agent_t agent) {
    const auto& amd = hsa().amd;
    hsa_agent_t cpu{0};
    hsa().core.hsa_iterate_agents_fn(find_cpu, &cpu);
    hsa_amd_memory_pool_t kernarg_pool{}, fine_pool{};
    if (cpu.handle == 0 || !agent_pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, 0, kernarg_pool) ||
        !agent_pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
                    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, fine_pool)) {
        return fail("no CPU kernarg or fine-grained memory pool for the chunk-hash kernel");
    }
    const size_t kernarg_bytes = std::max<size_t>(kernarg_size, 64);
    if (amd.hsa_amd_memory_pool_allocate_fn(kernarg_pool, kernarg_bytes, 0, &kernarg) != HSA_STATUS_SUCCESS) {
        kernarg = nullptr;
        return fail("cannot allocate the chunk-hash kernarg segment");
    }
    // One block: the table (16 bytes per chunk), then the hashes (8 bytes per chunk).
    void* block = nullptr;
    if (amd.hsa_amd_memory_pool_allocate_fn(fine_pool, kBatchChunks * 24, 0, &block) != HSA_STATUS_SUCCESS) {
        return fail("cannot allocate the chunk-hash table and outputs");
    }
    table = static_cast<uint64_t*>(block);
    outputs = table + 2 * kBatchChunks;
    for (void* p : {kernarg, block}) {
        if (amd.hsa_amd_agents_allow_access_fn(1, &agent, nullptr, p) != HSA_STATUS_SUCCESS) {
            return fail("the agent cannot be given access to the chunk-hash buffers");
        }
    }
    return true;
}

bool DeviceHasher::Impl::dispatch(const ChunkSpan* chunks, size_t count, uint64_t* hashes) {
    const auto& core = hsa().core;
    for (size_t i = 0; i < count; ++i) {
        table[2 * i] = chunks[i].address;
        table[2 * i + 1] = chunks[i].bytes;
        outputs[i] = 0; // 0 is never a hash: a chunk the kernel did not write is detected
    }
    unsigned char args[24] = {};
    const uint64_t table_address = reinterpret_cast<uintptr_t>(table);
    const uint64_t outputs_address = reinterpret_cast<uintptr_t>(outputs);
    const auto n = static_cast<uint32_t>(count);
    std::memcpy(args, &table_address, 8);
    std::memcpy(args + 8, &outputs_address, 8);
    std::memcpy(args + 16, &n, 4);
    std::memset(kernarg, 0, kernarg_size); // hidden arguments the kernel does not use
    std::memcpy(kernarg, args, sizeof(args));
    core.hsa_signal_store_screlease_fn(signal, 1);

    hsa_kernel_dispatch_packet_t packet{};
    packet.setup = 1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    packet.workgroup_size_x = kChunkHashLanes;
    packet.workgroup_size_y = 1;
    packet.workgroup_size_z = 1;
    packet.grid_size_x = n * kChunkHashLanes;
    packet.grid_size_y = 1;
    packet.grid_size_z = 1;
    packet.private_segment_size = private_size;
    packet.group_segment_size = group_size;
    packet.kernel_object = kernel_object;
    packet.kernarg_address = kernarg;
    packet.completion_signal = signal;
    const uint16_t header = static_cast<uint16_t>(
        (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));

    const auto deadline = Clock::now() + batch_timeout;
    // The hasher is the queue's only producer and waits for every batch: the slot is free (checked before
    // it is reserved, so a slot is never reserved without being written).
    const uint64_t index = core.hsa_queue_load_write_index_relaxed_fn(queue);
    while (index - core.hsa_queue_load_read_index_scacquire_fn(queue) >= queue->size) {
        if (Clock::now() >= deadline || queue_failed.load(std::memory_order_acquire)) {
            return fail("the chunk-hash queue has no free slot");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    core.hsa_queue_store_write_index_screlease_fn(queue, index + 1);
    auto* slot = static_cast<unsigned char*>(queue->base_address) + (index % queue->size) * 64;
    std::memcpy(slot + 4, reinterpret_cast<const unsigned char*>(&packet) + 4, 60);
    const uint32_t word = header | (static_cast<uint32_t>(packet.setup) << 16);
    __atomic_store_n(reinterpret_cast<uint32_t*>(slot), word, __ATOMIC_RELEASE);
    core.hsa_signal_store_screlease_fn(queue->doorbell_signal, static_cast<hsa_signal_value_t>(index));

    for (;;) {
        if (queue_failed.load(std::memory_order_acquire)) {
            return fail("the chunk-hash kernel failed on its queue: " +
                        status_text(static_cast<hsa_status_t>(queue_status.load(std::memory_order_relaxed))));
        }
        if (wait_signal_eq(signal, 0, std::min(deadline, Clock::now() + kWaitSlice))) {
            break;
        }
        if (Clock::now() >= deadline) {
            return late();
        }
    }
    for (size_t i = 0; i < count; ++i) {
        if (outputs[i] == 0) {
            return fail("the chunk-hash kernel completed without writing chunk " + std::to_string(i));
        }
        hashes[i] = outputs[i];
    }
    return true;
}

bool DeviceHasher::Impl::late() {
    // The kernel still reads the chunks (application memory the caller is about to restore) and writes
    // the outputs: wait on, bounded like a late pass; the batch counts as failed either way.
    const std::string timeout = std::to_string(batch_timeout.count()) + " ms";
    const auto late_deadline = Clock::now() + kLateBatchBound * batch_timeout;
    for (;;) {
        if (queue_failed.load(std::memory_order_acquire)) {
            return fail("the chunk-hash kernel did not complete within " + timeout +
                        " and then failed on its queue");
        }
        if (wait_signal_eq(signal, 0, std::min(late_deadline, Clock::now() + kWaitSlice))) {
            return fail("the chunk-hash kernel did not complete within " + timeout + " (it completed later)");
        }
        if (Clock::now() >= late_deadline) {
            stuck = true;
            return fail("the chunk-hash kernel did not complete within " + timeout +
                        " nor ten times that after; its queue and buffers are left to it");
        }
    }
}

bool DeviceHasher::Impl::probe() {
    // Chunks a restore meets: a whole aligned one, an unaligned start, a short tail, an empty one. The
    // bytes lie in the unused second half of the chunk table (GPU-accessible system memory), so the
    // probe needs no allocation and no copy of its own (fault injection counts those).
    constexpr size_t kProbeBytes = 4096 + 64;
    static_assert(kProbeBytes + 64 <= kBatchChunks * 8, "the probe fits in the table's second half");
    auto* bytes = reinterpret_cast<unsigned char*>(table + kBatchChunks);
    for (size_t i = 0; i < kProbeBytes; ++i) {
        bytes[i] = static_cast<unsigned char>((i * 131u + 7u) ^ (i >> 8));
    }
    const auto base = reinterpret_cast<uintptr_t>(bytes);
    const ChunkSpan spans[] = {{base, 4096}, {base + 3, 1021}, {base + 4096, 5}, {base + 64, 0}};
    uint64_t expected[4];
    for (size_t i = 0; i < 4; ++i) {
        expected[i] = rs_chunk_hash_host(reinterpret_cast<const void*>(spans[i].address), spans[i].bytes);
    }
    uint64_t got[4] = {};
    if (!dispatch(spans, 4, got)) {
        return false;
    }
    for (size_t i = 0; i < 4; ++i) {
        if (got[i] != expected[i]) {
            return fail("the chunk-hash kernel's probe result differs from the host hash (chunk " +
                        std::to_string(i) + ": " + hex(got[i]) + " instead of " + hex(expected[i]) + ")");
        }
    }
    return true;
}

void DeviceHasher::Impl::destroy() noexcept {
    const auto& core = hsa().core;
    const auto& amd = hsa().amd;
    // The queue first: nothing of ours runs once it is gone.
    if (queue) {
        core.hsa_queue_destroy_fn(queue);
    }
    queue = nullptr;
    if (executable.handle) {
        core.hsa_executable_destroy_fn(executable);
    }
    executable.handle = 0;
    if (reader.handle) {
        core.hsa_code_object_reader_destroy_fn(reader);
    }
    reader.handle = 0;
    if (has_signal) {
        destroy_signal(signal);
    }
    has_signal = false;
    for (void* p : {kernarg, static_cast<void*>(table)}) { // outputs are part of the table's block
        if (p) {
            amd.hsa_amd_memory_pool_free_fn(p);
        }
    }
    kernarg = nullptr;
    table = nullptr;
    outputs = nullptr;
}

DeviceHasher::DeviceHasher(hsa_agent_t agent, std::chrono::milliseconds batch_timeout)
    : agent_(agent), batch_timeout_(batch_timeout) {}

DeviceHasher::~DeviceHasher() {
    release();
}

bool DeviceHasher::available(std::string& why) {
    if (stuck_) {
        why = stuck_why_;
        return false;
    }
    if (!impl_) {
        impl_ = new Impl;
        impl_->batch_timeout = batch_timeout_;
        impl_->state = Impl::State::ready;
        if (impl_->load(agent_)) {
            impl_->probe();
        }
        note_stuck();
    }
    if (impl_->state == Impl::State::ready) {
        return true;
    }
    why = impl_->why;
    return false;
}

bool DeviceHasher::hash(const ChunkSpan* chunks, size_t count, uint64_t* hashes, uint64_t& elapsed_ns) {
    const auto start = Clock::now();
    elapsed_ns = 0;
    if (!impl_ || impl_->state != Impl::State::ready) {
        return false;
    }
    for (size_t done = 0; done < count;) {
        const size_t n = std::min(kBatchChunks, count - done);
        if (!impl_->dispatch(chunks + done, n, hashes + done)) {
            note_stuck();
            elapsed_ns = elapsed_since(start);
            return false;
        }
        done += n;
    }
    elapsed_ns = elapsed_since(start);
    return true;
}

void DeviceHasher::note_stuck() {
    if (impl_ && impl_->stuck && !stuck_) {
        stuck_ = true;
        stuck_why_ = impl_->why;
    }
}

void DeviceHasher::release() noexcept {
    if (!impl_) {
        return;
    }
    if (stuck_) {
        // A kernel of ours may still run on the queue, from the code object, into the buffers: destroying
        // any of them could fault it or hand its memory to someone else. Leaked (kept reachable from a
        // process-wide list), once per agent at most.
        static std::mutex mutex;
        static auto* stuck = new std::vector<Impl*>;
        std::lock_guard lock(mutex);
        try {
            stuck->push_back(impl_);
        } catch (...) {
            // Unlisted: a leak report at exit, nothing worse.
        }
        impl_ = nullptr;
        return;
    }
    impl_->destroy();
    delete impl_;
    impl_ = nullptr;
}

bool hash_chunks_on_host(const ChunkSpan* chunks, size_t count, uint64_t* hashes, uint64_t& elapsed_ns) {
    // Adjacent chunks are read with one copy of up to kCopyBytes (a region's chunks are adjacent).
    constexpr uint64_t kCopyBytes = 8ull << 20;
    const auto start = Clock::now();
    std::vector<unsigned char> scratch;
    bool ok = true;
    for (size_t first = 0; first < count && ok;) {
        size_t last = first + 1;
        uint64_t bytes = chunks[first].bytes;
        while (last < count && chunks[last].address == chunks[last - 1].address + chunks[last - 1].bytes &&
               bytes + chunks[last].bytes <= kCopyBytes) {
            bytes += chunks[last].bytes;
            ++last;
        }
        if (scratch.size() < bytes) {
            scratch.resize(bytes);
        }
        if (bytes > 0 &&
            hsa().core.hsa_memory_copy_fn(scratch.data(), reinterpret_cast<void*>(chunks[first].address),
                                          bytes) != HSA_STATUS_SUCCESS) {
            ok = false;
            break;
        }
        uint64_t offset = 0;
        for (size_t i = first; i < last; ++i) {
            hashes[i] = rs_chunk_hash_host(scratch.data() + offset, chunks[i].bytes);
            offset += chunks[i].bytes;
        }
        first = last;
    }
    elapsed_ns = elapsed_since(start);
    return ok;
}

} // namespace rs::engine
