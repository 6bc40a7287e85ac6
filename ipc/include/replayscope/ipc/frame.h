// SPDX-License-Identifier: MIT
// Wire framing of the ReplayScope session protocol: the frame header and its limits, shared by both sides.
//
// A frame is a fixed 24-byte little-endian header followed by `length` bytes of FlatBuffers payload
// (schema: ipc/schema/session_events.fbs, one root table per EventType). The same frames make up the
// socket stream and the spool file. Writing frames: frame_encoder.h (linked into the engine); reading and
// verifying them: frame_decoder.h (collector side only).
#pragma once

#include "replayscope/ipc/records.h"

#include <cstddef>
#include <cstdint>

namespace rs::ipc {

/// "RSFB" read as a little-endian uint32.
inline constexpr std::uint32_t kFrameMagic = 0x42465352u;
/// Largest payload accepted by the collector, in bytes. Any legal record encodes far below it.
inline constexpr std::uint32_t kMaxPayloadBytes = 64 * 1024;

/// The fixed frame header (24 bytes on the wire, little-endian; this machine's layout).
struct FrameHeader {
    std::uint32_t magic;
    std::uint16_t version;  ///< kProtocolVersion of the sender
    std::uint16_t type;     ///< EventType
    std::uint32_t length;   ///< payload bytes following the header
    std::uint32_t reserved; ///< 0
    std::uint64_t sequence; ///< per-process event sequence number (0 for Hello, else 1 .. kMaxSequence - 1)
};
static_assert(sizeof(FrameHeader) == 24);
inline constexpr std::size_t kFrameHeaderBytes = sizeof(FrameHeader);

} // namespace rs::ipc
