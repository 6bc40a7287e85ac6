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
    /// reserved not 0, or a sequence number breaking the rule: 0 for Hello and only for Hello, otherwise
    /// 1 <= sequence < kMaxSequence (records.h). Checked before the payload is read.
    bad_header,
};
/// Human-readable description of a FrameError ("wrong magic 0x... (not a ReplayScope frame)" ...).
std::string describe(FrameError error, const FrameHeader& header);

/// Checks and decodes the frame starting at `data` (`size` bytes available). On success fills `record`
/// (including sequence and timestamp) and `frame_bytes` (header + payload) and returns none. The
/// payload is verified with the FlatBuffers verifier before any field is read; `max_payload` bounds
/// the accepted length. Never throws.
FrameError decode_frame(const std::uint8_t* data, std::size_t size, std::uint32_t max_payload, Record& record,
                        FrameHeader& header, std::size_t& frame_bytes) noexcept;

} // namespace rs::ipc
