// SPDX-License-Identifier: MIT
// libFuzzer target: the frame decoder over arbitrary bytes (docs/reliability.md).
//
// The input is read as a frame stream, the way the collector and the spool importer read theirs: each
// frame is decoded (decode_frame), a decoded record is encoded again (append_frame) and must decode to an
// equal record (records_equal), an error is described (describe) and followed by resynchronisation
// (find_frame: the next frame with magic and checksum; a frame it finds must pass those checks again). The
// stream is decoded three times: in place (8-aligned, libFuzzer's copy of the input), shifted by 4 bytes,
// which takes the decoder's copy-to-an-aligned-buffer path, and with the checksum of every protocol-6
// frame its headers delimit recomputed, so that mutated payloads still reach the payload decoders. Any
// sanitizer report or broken round trip is a finding.
#include "frame_stream.h"

#include "records_equal.h"
#include "replayscope/ipc/frame_decoder.h"
#include "replayscope/ipc/frame_encoder.h"

#include <flatbuffers/flatbuffers.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using namespace rs::ipc;

/// A Hello whose token holds a NUL is legal on the wire but encodes back shorter (the encoder writes the
/// token up to its first NUL), so it is exempt from the round trip.
bool round_trips(const Record& record) {
    return record.type != EventType::hello ||
           std::memchr(record.hello.token, 0, HelloRecord::kTokenBytes) == nullptr;
}

void decode_stream(const std::uint8_t* data, std::size_t size, flatbuffers::FlatBufferBuilder& builder) {
    std::size_t at = 0;
    while (at < size) {
        const rs::fuzz::DecodedFrame frame = rs::fuzz::decode_frame_at(data, size, at);
        if (frame.error != FrameError::none) {
            if (describe(frame.error, frame.header).empty()) {
                std::abort();
            }
            if (frame_bounds_trusted(frame.error, frame.header)) {
                at += kFrameHeaderBytes + frame.header.length; // its checksum matched: its sender's length
                continue;
            }
            const FrameScan scan = find_frame(data + at, size - at, 1, true, kMaxPayloadBytes);
            if (scan.need_more || scan.offset == 0 || scan.offset > size - at) {
                std::abort(); // the scan moves forward, inside the bytes given
            }
            if (!scan.found) {
                return;
            }
            const FrameError there = rs::fuzz::decode_frame_at(data, size, at + scan.offset).error;
            if (there == FrameError::bad_magic || there == FrameError::bad_version ||
                there == FrameError::oversized || there == FrameError::incomplete ||
                there == FrameError::bad_checksum) {
                std::abort(); // what the scan found is a whole frame with magic and checksum
            }
            at += scan.offset;
            continue;
        }
        if (frame.bytes < kFrameHeaderBytes || frame.bytes > size - at) {
            std::abort(); // a decoded frame must lie inside the bytes given
        }
        const Record& record = frame.record;
        if (record.sequence != frame.header.sequence ||
            static_cast<std::uint16_t>(record.type) != frame.header.type) {
            std::abort();
        }
        if (round_trips(record)) {
            std::vector<std::uint8_t> again;
            append_frame(record, builder, again);
            const rs::fuzz::DecodedFrame decoded = rs::fuzz::decode_frame_at(again.data(), again.size(), 0);
            if (decoded.error != FrameError::none || decoded.bytes != again.size() ||
                !records_equal(record, decoded.record)) {
                std::abort(); // what the decoder accepts, the encoder must reproduce
            }
        }
        at += frame.bytes;
    }
}

/// `bytes` with the checksum of every protocol-6 frame its headers delimit from the start recomputed.
void reseal(std::vector<std::uint8_t>& bytes) {
    std::size_t at = 0;
    while (bytes.size() - at >= kFrameHeaderBytes) {
        FrameHeader header{};
        std::memcpy(&header, bytes.data() + at, kFrameHeaderBytes);
        if (header.magic != kFrameMagic || header.version < kFirstChecksumVersion ||
            header.length > kMaxPayloadBytes || header.length > bytes.size() - at - kFrameHeaderBytes) {
            return;
        }
        std::memset(bytes.data() + at + kFrameChecksumOffset, 0, sizeof header.checksum);
        seal_frame(bytes.data() + at, kFrameHeaderBytes + header.length);
        at += kFrameHeaderBytes + header.length;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static flatbuffers::FlatBufferBuilder builder(1024);
    decode_stream(data, size, builder);
    // The same bytes at an address 4 mod 8: payloads are then copied to an aligned buffer before decoding.
    std::vector<std::uint64_t> storage(size / 8 + 2);
    auto* shifted = reinterpret_cast<std::uint8_t*>(storage.data()) + 4;
    if (size > 0) {
        std::memcpy(shifted, data, size);
    }
    decode_stream(shifted, size, builder);
    // Checksums made right (in an 8-aligned copy): the mutations reach the header rules and the payload.
    std::vector<std::uint8_t> resealed(data, data + size);
    reseal(resealed);
    decode_stream(resealed.data(), resealed.size(), builder);
    return 0;
}
