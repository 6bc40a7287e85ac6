// SPDX-License-Identifier: MIT
#include "restore_summary.h"

#include "byte_size.h"

#include "replayscope/ipc/session_store.h"

#include <cstdio>
#include <utility>

namespace rs::runner {

std::string restore_summary(const rs::ipc::RestoreTotals& t) {
    if (t.snapshots == 0) {
        return {};
    }
    using ull = unsigned long long;
    char line[512];
    std::string stores;
    for (const auto& [count, name] :
         {std::pair{t.device_snapshots, "device"}, std::pair{t.host_snapshots, "host"},
          std::pair{t.mixed_snapshots, "mixed"}}) {
        if (count > 0) {
            stores += (stores.empty() ? "" : ", ") + std::to_string(count) + " " + name;
        }
    }
    std::snprintf(line, sizeof line, "snapshots: %llu, footprint %s; stores: %s%s\n", ull(t.snapshots),
                  format_bytes(t.footprint_bytes).c_str(), stores.empty() ? "none" : stores.c_str(),
                  t.pageable_snapshots > 0 ? (", " + std::to_string(t.pageable_snapshots) +
                                              " with a pageable (not page-locked) host store")
                                                 .c_str()
                                           : "");
    std::string out = line;
    if (t.restores == 0) {
        return out + "restores: none\n";
    }
    const std::uint64_t moved = t.restored_bytes_host + t.restored_bytes_device;
    const double share = t.full_restore_bytes > 0
                             ? 100.0 * static_cast<double>(moved) / static_cast<double>(t.full_restore_bytes)
                             : 0.0;
    std::snprintf(
        line, sizeof line,
        "restores: %llu, footprint x restores %s, moved %s (%.1f%%): %s over the host link, %s inside "
        "the device\n",
        ull(t.restores), format_bytes(t.full_restore_bytes).c_str(), format_bytes(moved).c_str(), share,
        format_bytes(t.restored_bytes_host).c_str(), format_bytes(t.restored_bytes_device).c_str());
    out += line;
    if (t.total_chunks > 0) {
        std::snprintf(line, sizeof line,
                      "chunks: %llu of %llu dirty, %llu missed; hashing %.3f ms of %.3f ms restoring\n",
                      ull(t.dirty_chunks), ull(t.total_chunks), ull(t.missed_chunks),
                      static_cast<double>(t.hash_ns) / 1e6, static_cast<double>(t.restore_ns) / 1e6);
    } else {
        std::snprintf(line, sizeof line, "chunks: none hashed (full restores); %.3f ms restoring\n",
                      static_cast<double>(t.restore_ns) / 1e6);
    }
    out += line;
    if (t.windows > 0) {
        std::snprintf(line, sizeof line,
                      "windows: %llu held their dispatches %.3f ms in all, the longest %.3f ms (events the "
                      "application records around a replayed dispatch include its window)\n",
                      ull(t.windows), static_cast<double>(t.window_ns) / 1e6,
                      static_cast<double>(t.longest_window_ns) / 1e6);
        out += line;
    }
    return out;
}

} // namespace rs::runner
