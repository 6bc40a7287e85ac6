// SPDX-License-Identifier: MIT
// Reading and verifying frames of the session protocol: collector side only (CMake target rs_ipc_decoder,
// linked by the collector, the spool importer, the tests and the fuzzers; never by the engine, which CTest
// test engine.no_decoder checks). Writing frames is frame_encoder.h.
#pragma once

#include "replayscope/ipc/frame.h"
#include "replayscope/ipc/records.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace rs::ipc {

/// Result of checking and decoding one frame.
enum class FrameError {
    none,
    incomplete,      ///< fewer bytes than header + length: wait for more (or truncated at end of stream)
    bad_magic,       ///< not a ReplayScope frame
    bad_version,     ///< protocol version this build does not speak
    oversized,       ///< length above the maximum payload size
    unknown_type,    ///< type outside EventType
    invalid_payload, ///< FlatBuffers verifier rejected the payload (or it is empty), or a field is out of
                     ///< range
    /// A sequence number breaking the rule: 0 for Hello and only for Hello, otherwise 1 <= sequence <
    /// kMaxSequence (records.h); or, before protocol 6, a checksum word that is not 0. Decided from the
    /// header alone, before the payload has arrived.
    bad_header,
    /// Protocol 6 on: the frame's checksum (frame.h) does not match its header and payload. The frame is
    /// damaged anywhere, its length included. Checked once the whole frame is there, before the payload
    /// is read.
    bad_checksum,
};
/// Human-readable description of a FrameError ("wrong magic 0x... (not a ReplayScope frame)" ...).
std::string describe(FrameError error, const FrameHeader& header);

/// Checks and decodes the frame starting at `data` (`size` bytes available). On success fills `record`
/// (including sequence and timestamp) and `frame_bytes` (header + payload) and returns none. Order of the
/// checks: magic, version (kMinProtocolVersion .. kProtocolVersion), length (at most `max_payload`
/// bytes), type and header rules (from the header alone), completeness (`incomplete` until header and
/// payload are all there), the checksum (protocol 6 on), then the payload with the FlatBuffers verifier
/// before any field is read. `header` is filled whenever 24 bytes were there. Never throws.
FrameError decode_frame(const std::uint8_t* data, std::size_t size, std::uint32_t max_payload, Record& record,
                        FrameHeader& header, std::size_t& frame_bytes) noexcept;

/// True when a frame that decode_frame refused with `error` still delimits itself, i.e. the next frame
/// starts `header.length` bytes after its header: only a protocol-6 frame whose checksum matched
/// (`invalid_payload`: written so by its sender). For every other error the length may be damaged and a
/// reader that goes on resynchronises with find_frame instead of skipping `header.length` bytes.
bool frame_bounds_trusted(FrameError error, const FrameHeader& header) noexcept;

/// Where find_frame stopped.
struct FrameScan {
    /// Offset of the frame found; with `need_more`, the first offset it could not judge yet; otherwise
    /// `size` (no frame starts in the bytes scanned).
    std::size_t offset = 0;
    bool found = false;     ///< a frame starts at `offset`
    bool need_more = false; ///< the bytes from `offset` on are too few to judge: scan again with more
};

/// Resynchronisation after a bad frame: scans `data` byte by byte from offset `from` for the first offset
/// at which a frame starts, i.e. valid magic and version, a length of at most `max_payload` bytes, the
/// whole frame within the `size` bytes, and (protocol 6 on) a matching checksum over header and payload;
/// a frame of protocol 1-5, which has no checksum, must decode whole (decode_frame). Never trusts a
/// length it has not verified: a candidate that runs past the end is passed over when `end_of_stream`
/// (more bytes will not come), else the scan stops there with `need_more`. Bytes before the offset
/// returned belong to no frame. Never throws.
FrameScan find_frame(const std::uint8_t* data, std::size_t size, std::size_t from, bool end_of_stream,
                     std::uint32_t max_payload) noexcept;

} // namespace rs::ipc
