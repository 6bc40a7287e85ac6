// Wire framing and payload codec of the ReplayScope session protocol.
//
// A frame is a fixed 24-byte little-endian header followed by `length` bytes of FlatBuffers payload
// (schema: ipc/schema/session_events.fbs, one root table per EventType). The same frames make up the
// socket stream and the spool file.
#pragma once

#include "replayscope/ipc/records.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flatbuffers {
class FlatBufferBuilder;
} // namespace flatbuffers

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

/// Appends one complete frame (header + FlatBuffers payload) for `record` to `out`, using `builder` as
/// scratch (cleared first). Throws std::bad_alloc only.
void appendFrame(const Record& record, flatbuffers::FlatBufferBuilder& builder,
                 std::vector<std::uint8_t>& out);

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
    /// 1 <= sequence < kMaxSequence (records.hpp). Checked before the payload is read.
    bad_header,
};
/// Human-readable description of a FrameError ("wrong magic 0x... (not a ReplayScope frame)" ...).
std::string describe(FrameError error, const FrameHeader& header);

/// Checks and decodes the frame starting at `data` (`size` bytes available). On success fills `record`
/// (including sequence and timestamp) and `frame_bytes` (header + payload) and returns none. The
/// payload is verified with the FlatBuffers verifier before any field is read; `max_payload` bounds
/// the accepted length. Never throws.
FrameError decodeFrame(const std::uint8_t* data, std::size_t size, std::uint32_t max_payload, Record& record,
                       FrameHeader& header, std::size_t& frame_bytes) noexcept;

/// Field-by-field equality of two records of the same type (payload fields, sequence, timestamp).
bool recordsEqual(const Record& a, const Record& b) noexcept;

} // namespace rs::ipc
