// SPDX-License-Identifier: MIT
// HSA_SIM_DISPATCH_DIGEST: after each kernel dispatch, one line with a digest of the device memory, so that
// runs of one program with the two executors (interpreter and stand-ins) can be compared dispatch by
// dispatch (tests/hip, hip.<program>.executors_agree).
#pragma once

#include <hsa.h>

#include <cstdint>
#include <mutex>
#include <string>

namespace sim {

struct Agent;

/// True when HSA_SIM_DISPATCH_DIGEST names a file.
bool dispatch_digest_enabled();

/// Held by a queue around a kernel's execution and its digest line while HSA_SIM_DISPATCH_DIGEST is set:
/// dispatches of all queues then run one at a time, so a line shows the memory as the dispatches completed
/// before it left it, not a concurrent dispatch's partial results. Only kernels take it (never copies,
/// barrier packets or the allocation registry), so it orders nothing else.
std::mutex& dispatch_digest_mutex();

/// True when a dispatch of `kernel` (symbol name without ".kd") runs holding dispatch_digest_mutex(); it
/// takes the mutex only for its digest line otherwise. False for kernels that wait for memory another
/// dispatch writes and write no device memory themselves: ROCclr's __amd_rocclr_streamOpsWait
/// (hipStreamWaitValue32/64 polls a value, rocclr/device/blitcl.cpp), which would otherwise hold the
/// mutex while the __amd_rocclr_streamOpsWrite it waits for could not start.
bool dispatch_digest_serialises(const std::string& kernel);

/// Appends the line of one completed dispatch of `kernel` (its symbol name without ".kd") with the
/// geometry of `packet` on a queue of GPU agent `agent` to the file named by HSA_SIM_DISPATCH_DIGEST
/// (nothing when unset). The line is
///
///     digest process=<16 hex> agent=<i> seq=<n> kernel=<symbol> grid=<x>,<y>,<z> workgroup=<x>,<y>,<z>
///     allocations=<count> bytes=<total> memory=<16 hex> each=<bytes>:<16 hex>,...
///
/// on one line: `process` a 64-bit FNV-1a hash of /proc/self/cmdline (the same for a program run twice
/// with the same arguments, different for children started with other arguments); `agent` the 0-based GPU
/// index; `seq` the dispatch's number among this process's dispatches on that agent, from 1, in completion
/// order; grid and work-group sizes in work-items as the packet gives them; then the live allocations of
/// that agent's global device pools (coarse- and fine-grained; not host, kernarg, code-object or
/// virtual-memory mappings): their count, their requested sizes summed (bytes), a 64-bit digest of them
/// all, and each one's requested size and digest (digest_bytes seeded with the size) in allocation order
/// (`each=-` when there are none), which names the allocation where two runs part. Per agent, because a
/// program with a host thread per device (the demo) orders one device's dispatches against the other's
/// differently from run to run. The caller holds dispatch_digest_mutex() and calls this before
/// decrementing the completion signal. The line is written with one write(2) to a file opened O_APPEND,
/// under a process-wide mutex. Open or write errors are reported once on stderr and otherwise ignored.
void append_dispatch_digest(const std::string& kernel, const hsa_kernel_dispatch_packet_t& packet,
                            const Agent* agent);

/// 64-bit digest of `bytes` bytes at `data`, chained from `seed`: eight-byte words in four independent
/// multiply-xorshift lanes (about 1 byte per cycle per lane on x86-64), the tail zero-padded and mixed
/// with the length. Not cryptographic; equal inputs give equal digests on every run and host.
uint64_t digest_bytes(const void* data, size_t bytes, uint64_t seed);

/// Closes the digest file (the last hsa_shut_down); the next line reopens it. The count goes on.
void close_dispatch_digest();

} // namespace sim
