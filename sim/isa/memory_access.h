// SPDX-License-Identifier: MIT
// Where a lane's memory access lands: global memory (host memory on the simulator), LDS through the
// shared aperture, or the wave's scratch through the private aperture and swizzled buffer addressing
// (CDNA2 ISA §9.1 "Vector Memory Buffer Instructions", §10 "Flat Memory Instructions").
#pragma once

#include "wave.h"

#include <cstdint>
#include <cstring>

namespace sim::isa {

enum class Segment : uint8_t { flat, global, scratch, buffer };

/// The per-lane addresses of one vector memory instruction, and how to turn them into host pointers.
struct VectorAccess {
    Segment segment = Segment::global;
    uint64_t address[kLanes] = {}; ///< flat/global: virtual address; scratch: private offset; buffer: below
    uint32_t buffer_index[kLanes] = {};
    // Buffer resource (V#) fields.
    uint64_t buffer_base = 0;
    uint32_t buffer_stride = 0, buffer_records = 0, index_stride = 0;
    bool swizzle = false;
};

/// Computes the addresses of `in` for every lane (its operands laid out as `segment` prints them).
void compute_addresses(const Wave& w, const Instruction& in, Segment segment, VectorAccess& access);

/// Host pointer to byte `offset` of lane `lane`'s access, or nullptr when the address is out of range
/// (buffer records, LDS size, scratch size) or in the null page. Accesses never cross a dword boundary
/// of a swizzled segment; callers split them by dword.
uint8_t* locate(Wave& w, const VectorAccess& access, int lane, uint32_t offset);

/// True when lane `lane`'s whole access is contiguous host memory (global memory, or LDS through the
/// shared aperture) rather than swizzled scratch or a buffer resource.
inline bool contiguous(const VectorAccess& a, int lane) {
    return a.segment == Segment::global ||
           (a.segment == Segment::flat && (a.address[lane] >> 32) != (kPrivateApertureBase >> 32));
}

/// Copies `bytes` from `from` to `to` where one side is memory other waves may touch at the same time:
/// naturally aligned 4- and 8-byte accesses are single-copy atomic, as on the GPU (relaxed host atomics).
inline void copy_shared(void* to, const void* from, uint32_t bytes, bool to_memory) {
    const auto address = reinterpret_cast<uintptr_t>(to_memory ? to : from);
    if (bytes == 8 && address % 8 == 0) {
        uint64_t v;
        if (to_memory) {
            std::memcpy(&v, from, 8);
            __atomic_store_n(static_cast<uint64_t*>(to), v, __ATOMIC_RELAXED);
        } else {
            v = __atomic_load_n(static_cast<const uint64_t*>(from), __ATOMIC_RELAXED);
            std::memcpy(to, &v, 8);
        }
    } else if (bytes == 4 && address % 4 == 0) {
        uint32_t v;
        if (to_memory) {
            std::memcpy(&v, from, 4);
            __atomic_store_n(static_cast<uint32_t*>(to), v, __ATOMIC_RELAXED);
        } else {
            v = __atomic_load_n(static_cast<const uint32_t*>(from), __ATOMIC_RELAXED);
            std::memcpy(to, &v, 4);
        }
    } else {
        std::memcpy(to, from, bytes);
    }
}

/// True when a memory fault at `address` should end the wave: the null page.
inline bool bad_global_address(uint64_t address) {
    return address < 4096;
}

} // namespace sim::isa
