// SPDX-License-Identifier: MIT
#include "replay_options.h"

#include "byte_size.h"

namespace rs::runner {

bool parse_store_options(const StoreOptionText& text, ReplayOptions& options, std::string& error) {
    static constexpr const char* kSizeForm =
        "bytes with an optional K, M, G or T suffix, or KiB, MiB, GiB, TiB: powers of 1024; e.g. 64K";
    if (text.snapshot_store != "auto" && text.snapshot_store != "host" && text.snapshot_store != "device") {
        error = "--snapshot-store: '" + text.snapshot_store + "' is not one of auto, host, device";
        return false;
    }
    if (text.restore != "full" && text.restore != "dirty" && text.restore != "dirty-host") {
        error = "--restore: '" + text.restore + "' is not one of full, dirty, dirty-host";
        return false;
    }
    std::optional<std::uint64_t> reserve, chunk;
    if (!text.device_store_reserve.empty()) {
        reserve = parse_bytes(text.device_store_reserve);
        if (!reserve) {
            error = "--device-store-reserve: '" + text.device_store_reserve + "' is not a size (" +
                    kSizeForm + ")";
            return false;
        }
    }
    if (!text.restore_chunk_size.empty()) {
        chunk = parse_bytes(text.restore_chunk_size);
        if (!chunk) {
            error =
                "--restore-chunk-size: '" + text.restore_chunk_size + "' is not a size (" + kSizeForm + ")";
            return false;
        }
        if (*chunk < kMinRestoreChunk || *chunk > kMaxRestoreChunk || (*chunk & (*chunk - 1)) != 0) {
            const std::string bytes = std::to_string(*chunk);
            error = "--restore-chunk-size: " + text.restore_chunk_size +
                    (bytes == text.restore_chunk_size ? "" : " (" + bytes + " bytes)") +
                    " is not a power of two from 4K (4096) to 1G (1073741824)";
            return false;
        }
    }
    options.snapshot_store = text.snapshot_store;
    options.restore = text.restore;
    options.device_store_reserve = reserve;
    options.restore_chunk_size = chunk;
    return true;
}

bool parse_iteration_ranges(const std::string& text, std::vector<IterationRange>& ranges,
                            std::string& error) {
    std::string problem;
    if (!rs::ipc::parse_iteration_ranges(text, ranges, problem)) {
        error = "--kernel-iteration-range: " + problem;
        return false;
    }
    return true;
}

} // namespace rs::runner
