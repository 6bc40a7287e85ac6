// SPDX-License-Identifier: MIT
// Wire framing of the ReplayScope session protocol: the frame header, its checksum and its limits, shared
// by both sides.
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
/// First protocol version whose frames carry a checksum (FrameHeader::checksum). Frames of older versions
/// have 0 there and are decoded without one (spools of older builds).
inline constexpr std::uint16_t kFirstChecksumVersion = 6;

/// The fixed frame header (24 bytes on the wire, little-endian; this machine's layout).
struct FrameHeader {
    std::uint32_t magic;
    std::uint16_t version;  ///< kProtocolVersion of the sender
    std::uint16_t type;     ///< EventType
    std::uint32_t length;   ///< payload bytes following the header
    std::uint32_t checksum; ///< frame_checksum() from version 6 (kFirstChecksumVersion); 0 before
    std::uint64_t sequence; ///< per-process event sequence number (0 for Hello, else 1 .. kMaxSequence - 1)
};
static_assert(sizeof(FrameHeader) == 24);
inline constexpr std::size_t kFrameHeaderBytes = sizeof(FrameHeader);
/// Offset of FrameHeader::checksum in the 24 header bytes.
inline constexpr std::size_t kFrameChecksumOffset = offsetof(FrameHeader, checksum);

/// Checksum of a frame: the low 32 bits of XXH3-64 (xxHash 0.8, seed 0) over its 24 header bytes, with
/// the checksum field taken as 0, followed by its `length` payload bytes at `payload`. `header.checksum`
/// itself is ignored. Linked into the engine (rs_ipc_encoder) and used by the decoder. Never throws.
std::uint32_t frame_checksum(const FrameHeader& header, const std::uint8_t* payload,
                             std::size_t length) noexcept;

/// Writes the checksum of the complete frame at `frame` (`bytes` = 24 + payload length, contiguous, its
/// checksum field 0) into its checksum field: the value frame_checksum() gives for it, computed in one
/// pass over the contiguous bytes (the encoder's path). Never throws.
void seal_frame(std::uint8_t* frame, std::size_t bytes) noexcept;

} // namespace rs::ipc
