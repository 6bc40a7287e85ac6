// SPDX-License-Identifier: MIT
// The chunk hashes of dirty-chunk restore, on the device (the replayscope_chunk_hash kernel, embedded as
// AMDGPU code objects) or on the host (the same math over a copy). docs/mechanism.md, "Dirty-chunk
// hashing".
#pragma once

#include "../device/chunk_hash_math.h"

#include <hsa.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace rs::engine {

/// One chunk: device address and length in bytes.
struct ChunkSpan {
    uint64_t address;
    uint64_t bytes;
};

/// Runs the chunk-hash kernel for one GPU agent. Worker thread of that agent only. Everything goes
/// through the saved originals (hsa()): its executable, queue, signal and memory are invisible to the
/// application and never tracked.
class DeviceHasher {
  public:
    /// `batch_timeout`: how long one batch may run before it counts as failed (tests shorten it).
    explicit DeviceHasher(hsa_agent_t agent,
                          std::chrono::milliseconds batch_timeout = std::chrono::seconds(10));
    ~DeviceHasher(); ///< calls release()
    DeviceHasher(const DeviceHasher&) = delete;
    DeviceHasher& operator=(const DeviceHasher&) = delete;

    /// First call: picks the code object whose processor equals the agent's ISA processor (the part of
    /// HSA_ISA_INFO_NAME after "amdgcn-amd-amdhsa--" up to ':'), loads it (code object reader from
    /// memory, executable, load_agent_code_object, freeze), looks up the kernel, creates its own queue
    /// (with an error callback: a queue error never aborts) and probe-checks one small buffer against
    /// rs_chunk_hash_host. Later calls return the cached answer. false + `why` (user-facing text, e.g.
    /// "no chunk-hash code object for gfx1201") when device hashing cannot be used.
    bool available(std::string& why);

    /// Hashes `count` chunks into `hashes` (`count` entries); batches internally. false on any failure
    /// (queue error, timeout of `batch_timeout` per batch, allocation failure): the caller falls back;
    /// after a failure available() answers false. A batch that timed out is still waited for, up to ten
    /// more batch timeouts (the late-pass rule of docs/replay-failures.md, "Timeouts"), so that when this
    /// returns no kernel of the hasher reads the memory the caller goes on to restore. A batch still
    /// running after that leaves the hasher stuck: its queue, code and buffers are never freed (the
    /// kernel may still read and write them) and it is never used again. `elapsed_ns` receives the wall
    /// time in nanoseconds.
    bool hash(const ChunkSpan* chunks, size_t count, uint64_t* hashes, uint64_t& elapsed_ns);

    /// Destroys executable, reader, queue, signal and buffers (OnUnload while the runtime is up); a
    /// stuck hasher's are left alone (leaked). Idempotent; available() starts over afterwards, except on
    /// a stuck hasher, which stays unavailable.
    void release() noexcept;

  private:
    struct Impl;
    /// Copies the Impl's stuck state into stuck_ (after each dispatching call).
    void note_stuck();
    hsa_agent_t agent_;
    std::chrono::milliseconds batch_timeout_;
    Impl* impl_ = nullptr;
    bool stuck_ = false;    ///< a batch never completed: never used again
    std::string stuck_why_; ///< available()'s answer once stuck
};

/// The host side: hashes the same chunks by reading device memory (hsa_memory_copy through the saved
/// original into a scratch buffer, always a copy) with the same math. false when a copy fails;
/// `elapsed_ns` receives the wall time in nanoseconds.
bool hash_chunks_on_host(const ChunkSpan* chunks, size_t count, uint64_t* hashes, uint64_t& elapsed_ns);

/// Hashes a host buffer (the host store's copy of a chunk).
inline uint64_t hash_host_chunk(const void* data, uint64_t bytes) {
    return rs_chunk_hash_host(data, bytes);
}

} // namespace rs::engine
