// SPDX-License-Identifier: MIT
// The chunk hash of dirty-chunk restore: one 64-bit value per chunk, the same math in the AMDGPU kernel
// (chunk_hash.hip, compiled with clang -x hip for amdgcn-amd-amdhsa) and on the host (docs/mechanism.md,
// "Dirty-chunk hashing"). Usable from HIP device code and from plain host C++: no includes beyond
// <stdint.h>.
//
// The chunk's bytes are read as little-endian 64-bit words, the last partial word zero-padded. Lane l
// (0 <= l < kChunkHashLanes) folds words l, l + 64, l + 128, ... in order with an xxh64-style round,
// seeded by l. The chunk hash combines the 64 lane values in lane order and the chunk length, then
// avalanches (xxh64-style). It is never 0, so 0 can mean "not hashed". 64 lanes are part of the
// algorithm, not the wave size: a wave32 target computes the same value.
#pragma once

#include <stdint.h>

#if defined(__HIP__) || defined(__HIP_DEVICE_COMPILE__)
#define RS_CHUNK_HASH_FN __attribute__((host, device)) inline
#else
#define RS_CHUNK_HASH_FN inline
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "chunk_hash_math.h reads words in the target's byte order and assumes it is little-endian"
#endif

/// Lanes of the hash (fixed by the algorithm).
inline constexpr uint32_t kChunkHashLanes = 64;

namespace rs_chunk_hash_detail {
inline constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
inline constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
inline constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;
inline constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
inline constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ull;

RS_CHUNK_HASH_FN uint64_t rotl(uint64_t value, unsigned bits) {
    return (value << bits) | (value >> (64u - bits));
}
} // namespace rs_chunk_hash_detail

/// The lane's starting value (seeded by `lane`).
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_lane_seed(uint32_t lane) {
    using namespace rs_chunk_hash_detail;
    return kPrime5 + (static_cast<uint64_t>(lane) + 1u) * kPrime1;
}

/// One order-dependent step: folds `word` into `acc` (the xxh64 round).
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_round(uint64_t acc, uint64_t word) {
    using namespace rs_chunk_hash_detail;
    acc += word * kPrime2;
    acc = rotl(acc, 31);
    return acc * kPrime1;
}

/// Word `index` of the chunk `data` of `bytes` bytes: little-endian, bytes past the end read as zero.
/// An aligned whole word is one 64-bit load; otherwise it is assembled byte by byte.
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_word(const unsigned char* data, uint64_t bytes, uint64_t index) {
    const uint64_t offset = index * 8u;
    const unsigned char* p = data + offset;
    uint64_t word = 0;
    if (offset + 8u <= bytes && (reinterpret_cast<uintptr_t>(p) & 7u) == 0) {
        __builtin_memcpy(&word, __builtin_assume_aligned(p, 8), 8);
        return word;
    }
    const uint64_t available = bytes - offset < 8u ? bytes - offset : 8u;
    for (uint64_t b = 0; b < available; ++b) {
        word |= static_cast<uint64_t>(p[b]) << (8u * b);
    }
    return word;
}

/// Number of 64-bit words of a chunk of `bytes` bytes (the last one possibly partial).
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_words(uint64_t bytes) {
    return (bytes + 7u) / 8u;
}

/// Lane `lane`'s value over the chunk `data` of `bytes` bytes (words lane, lane + 64, ...).
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_lane(const unsigned char* data, uint64_t bytes, uint32_t lane) {
    uint64_t acc = rs_chunk_hash_lane_seed(lane);
    const uint64_t words = rs_chunk_hash_words(bytes);
    for (uint64_t index = lane; index < words; index += kChunkHashLanes) {
        acc = rs_chunk_hash_round(acc, rs_chunk_hash_word(data, bytes, index));
    }
    return acc;
}

/// The chunk hash from the kChunkHashLanes lane values (in lane order) and the chunk length in bytes.
/// Never 0.
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_combine(const uint64_t* lanes, uint64_t bytes) {
    using namespace rs_chunk_hash_detail;
    uint64_t h = kPrime5 + bytes;
    for (uint32_t lane = 0; lane < kChunkHashLanes; ++lane) {
        h ^= rs_chunk_hash_round(0, lanes[lane]);
        h = rotl(h, 27) * kPrime1 + kPrime4;
    }
    h ^= h >> 33;
    h *= kPrime2;
    h ^= h >> 29;
    h *= kPrime3;
    h ^= h >> 32;
    return h == 0 ? 1 : h;
}

/// The whole chunk hash of `bytes` bytes at `data` (host memory), equal to what the kernel computes
/// for the same bytes. `bytes` may be 0 (the hash of the empty chunk). Walks the words in address order
/// (word i goes to lane i % 64: each lane still folds its words in order), which reads memory once,
/// sequentially, instead of 64 strided passes.
RS_CHUNK_HASH_FN uint64_t rs_chunk_hash_host(const void* data, uint64_t bytes) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    uint64_t lanes[kChunkHashLanes];
    for (uint32_t lane = 0; lane < kChunkHashLanes; ++lane) {
        lanes[lane] = rs_chunk_hash_lane_seed(lane);
    }
    const uint64_t whole_blocks = bytes / (8u * kChunkHashLanes);
    for (uint64_t block = 0; block < whole_blocks; ++block) {
        const unsigned char* b = p + block * 8u * kChunkHashLanes;
        for (uint32_t lane = 0; lane < kChunkHashLanes; ++lane) {
            uint64_t word;
            __builtin_memcpy(&word, b + 8u * lane, 8);
            lanes[lane] = rs_chunk_hash_round(lanes[lane], word);
        }
    }
    const uint64_t words = rs_chunk_hash_words(bytes);
    for (uint64_t index = whole_blocks * kChunkHashLanes; index < words; ++index) {
        lanes[index % kChunkHashLanes] =
            rs_chunk_hash_round(lanes[index % kChunkHashLanes], rs_chunk_hash_word(p, bytes, index));
    }
    return rs_chunk_hash_combine(lanes, bytes);
}
