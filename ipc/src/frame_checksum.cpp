// SPDX-License-Identifier: MIT
// Frame checksums (frame.h): XXH3-64 of Debian's libxxhash-dev 0.8, compiled in (XXH_INLINE_ALL, as the
// engine's other users of it), so the engine, which links this file through rs_ipc_encoder, gains no
// shared-library dependency. XXH3 rather than XXH32: faster on every frame size (frames are 56 bytes to a
// few KiB; XXH3 has dedicated paths for inputs up to 240 bytes), and every bit of its 64-bit result is
// well mixed, so its low 32 bits serve as a 32-bit checksum.
#include "replayscope/ipc/frame.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstring>

namespace rs::ipc {

std::uint32_t frame_checksum(const FrameHeader& header, const std::uint8_t* payload,
                             std::size_t length) noexcept {
    FrameHeader zeroed = header;
    zeroed.checksum = 0;
    // Most frames are small: copied behind the header copy, they are hashed in one pass, which costs less
    // than streaming's state handling.
    constexpr std::size_t kOnePassBytes = 1024;
    if (length <= kOnePassBytes - kFrameHeaderBytes) {
        alignas(8) std::uint8_t frame[kOnePassBytes];
        std::memcpy(frame, &zeroed, kFrameHeaderBytes);
        if (length > 0) {
            std::memcpy(frame + kFrameHeaderBytes, payload, length);
        }
        return static_cast<std::uint32_t>(XXH3_64bits(frame, kFrameHeaderBytes + length));
    }
    // Streaming gives the same value as one pass over the contiguous bytes (XXH3's definition); the
    // header is hashed from a copy with its checksum field 0, the payload where it lies.
    XXH3_state_t state;
    XXH3_INITSTATE(&state);
    XXH3_64bits_reset(&state);
    XXH3_64bits_update(&state, &zeroed, kFrameHeaderBytes);
    if (length > 0) {
        XXH3_64bits_update(&state, payload, length);
    }
    return static_cast<std::uint32_t>(XXH3_64bits_digest(&state));
}

void seal_frame(std::uint8_t* frame, std::size_t bytes) noexcept {
    const auto sum = static_cast<std::uint32_t>(XXH3_64bits(frame, bytes));
    std::memcpy(frame + kFrameChecksumOffset, &sum, sizeof sum);
}

} // namespace rs::ipc
