// SPDX-License-Identifier: MIT
#include "dispatch_digest.h"

#include "agent.h"
#include "line_file.h"
#include "runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <unistd.h>
#include <vector>

namespace sim {

namespace {

LineFile g_file("HSA_SIM_DISPATCH_DIGEST");
/// Dispatches digested in this process per GPU index (under dispatch_digest_mutex()).
std::map<uint32_t, uint64_t> g_sequence;

constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull; // 2^64 / golden ratio, odd
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;  // FNV-1a 64 (Fowler, Noll, Vo)
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

/// The finaliser of MurmurHash3 (fmix64): every input bit reaches every output bit.
uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

uint64_t load_word(const unsigned char* p) {
    uint64_t w = 0;
    std::memcpy(&w, p, sizeof w);
    return w;
}

/// FNV-1a of /proc/self/cmdline (program and arguments, NUL-separated); 0 when it cannot be read.
uint64_t process_tag() {
    static const uint64_t kTag = [] {
        const int fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            return uint64_t{0};
        }
        uint64_t h = kFnvOffset;
        unsigned char buffer[4096];
        for (ssize_t n = 0; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
            for (ssize_t i = 0; i < n; ++i) {
                h = (h ^ buffer[i]) * kFnvPrime;
            }
        }
        ::close(fd);
        return h;
    }();
    return kTag;
}

/// True for memory the digest of `agent` covers: an allocation from one of its global device pools.
bool is_device_pool_memory(const Allocation& a, const Agent* agent) {
    return a.source == Allocation::Source::pool && a.pool && a.pool->device && a.owner == agent &&
           a.pool->segment == HSA_AMD_SEGMENT_GLOBAL && a.size > 0;
}

} // namespace

bool dispatch_digest_enabled() {
    return !Runtime::instance().config().dispatch_digest_path.empty();
}

std::mutex& dispatch_digest_mutex() {
    static std::mutex m;
    return m;
}

bool dispatch_digest_serialises(const std::string& kernel) {
    return kernel != "__amd_rocclr_streamOpsWait";
}

uint64_t digest_bytes(const void* data, size_t bytes, uint64_t seed) {
    const auto* p = static_cast<const unsigned char*>(data);
    uint64_t lane[4] = {seed ^ 0x243f6a8885a308d3ull, seed ^ 0x13198a2e03707344ull,
                        seed ^ 0xa4093822299f31d0ull, seed ^ 0x082efa98ec4e6c89ull};
    size_t i = 0;
    for (; i + 32 <= bytes; i += 32) {
        for (int k = 0; k < 4; ++k) {
            const uint64_t x = (lane[k] ^ load_word(p + i + 8 * static_cast<size_t>(k))) * kMultiplier;
            lane[k] = x ^ (x >> 29);
        }
    }
    for (int k = 0; i + 8 <= bytes; i += 8, k = (k + 1) & 3) {
        const uint64_t x = (lane[k] ^ load_word(p + i)) * kMultiplier;
        lane[k] = x ^ (x >> 29);
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p + i, bytes - i);
    uint64_t h = mix(lane[0]) ^ mix(lane[1] + 1) ^ mix(lane[2] + 2) ^ mix(lane[3] + 3);
    return mix(h ^ mix(tail ^ (static_cast<uint64_t>(bytes) * kMultiplier)));
}

void append_dispatch_digest(const std::string& kernel, const hsa_kernel_dispatch_packet_t& packet,
                            const Agent* agent) {
    const std::string path = Runtime::instance().config().dispatch_digest_path;
    if (path.empty()) {
        return;
    }
    struct Region {
        uint64_t serial;
        uintptr_t base;
        size_t size;
    };
    uint64_t digest = kFnvOffset;
    uint64_t count = 0, total = 0;
    std::string each;
    // Hashed under the registry's shared lock, so nothing is freed meanwhile; in allocation order, not
    // address order, so that runs with different address layouts compare.
    Runtime::instance().allocations().inspect([&](const auto& by_base) {
        std::vector<Region> regions;
        for (const auto& [base, a] : by_base) {
            if (is_device_pool_memory(a, agent)) {
                regions.push_back({a.serial, base, a.size});
            }
        }
        std::sort(regions.begin(), regions.end(),
                  [](const Region& x, const Region& y) { return x.serial < y.serial; });
        for (const Region& r : regions) {
            const uint64_t d = digest_bytes(reinterpret_cast<const void*>(r.base), r.size, r.size);
            digest = mix(digest ^ d) + kMultiplier;
            char item[48];
            std::snprintf(item, sizeof item, "%s%llu:%016llx", count ? "," : "",
                          static_cast<unsigned long long>(r.size), static_cast<unsigned long long>(d));
            each += item;
            ++count;
            total += r.size;
        }
    });
    const uint32_t index = agent ? agent->gpu_index : 0;
    char head[128];
    std::snprintf(head, sizeof head, "digest process=%016llx agent=%u seq=%llu kernel=",
                  static_cast<unsigned long long>(process_tag()), index,
                  static_cast<unsigned long long>(++g_sequence[index]));
    char tail[256];
    std::snprintf(tail, sizeof tail,
                  " grid=%u,%u,%u workgroup=%u,%u,%u allocations=%llu bytes=%llu memory=%016llx each=",
                  packet.grid_size_x, packet.grid_size_y, packet.grid_size_z,
                  unsigned{packet.workgroup_size_x}, unsigned{packet.workgroup_size_y},
                  unsigned{packet.workgroup_size_z}, static_cast<unsigned long long>(count),
                  static_cast<unsigned long long>(total), static_cast<unsigned long long>(digest));
    g_file.append(path, head + (kernel.empty() ? std::string("?") : kernel) + tail +
                            (each.empty() ? "-" : each) + "\n");
}

void close_dispatch_digest() {
    g_file.close();
}

} // namespace sim
