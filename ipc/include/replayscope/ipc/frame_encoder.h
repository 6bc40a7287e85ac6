// SPDX-License-Identifier: MIT
// Writing frames of the session protocol: the only protocol code linked into the engine (CMake target
// rs_ipc_encoder, used by the emitter and its spool writer). Reading frames is frame_decoder.h.
#pragma once

#include "replayscope/ipc/frame.h"
#include "replayscope/ipc/records.h"

#include <cstdint>
#include <vector>

namespace flatbuffers {
class FlatBufferBuilder;
} // namespace flatbuffers

namespace rs::ipc {

/// Appends one complete frame (header + FlatBuffers payload, padded with zeros to a multiple of 8 bytes)
/// for `record` to `out`, using `builder` as scratch (cleared first). The header carries kProtocolVersion
/// and the frame's checksum (frame_checksum, frame.h). Throws std::bad_alloc only.
void append_frame(const Record& record, flatbuffers::FlatBufferBuilder& builder,
                  std::vector<std::uint8_t>& out);

} // namespace rs::ipc
