// SPDX-License-Identifier: MIT
// What both libFuzzer targets share: decoding the next frame of a byte stream (docs/reliability.md).
#pragma once

#include "replayscope/ipc/frame_decoder.h"

#include <cstddef>
#include <cstdint>

namespace rs::fuzz {

/// One decode_frame call's results.
struct DecodedFrame {
    rs::ipc::FrameError error = rs::ipc::FrameError::none;
    rs::ipc::Record record{};
    rs::ipc::FrameHeader header{};
    std::size_t bytes = 0; ///< bytes the frame takes (header + payload) when `error` is none
};

/// Decodes the frame at offset `at` of the `size` bytes at `data` (at <= size) with the wire limit
/// kMaxPayloadBytes, as the collector and the spool importer do.
inline DecodedFrame decode_frame_at(const std::uint8_t* data, std::size_t size, std::size_t at) {
    DecodedFrame d;
    d.error =
        rs::ipc::decode_frame(data + at, size - at, rs::ipc::kMaxPayloadBytes, d.record, d.header, d.bytes);
    return d;
}

} // namespace rs::fuzz
