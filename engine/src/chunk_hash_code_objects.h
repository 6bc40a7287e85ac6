// SPDX-License-Identifier: MIT
// The chunk-hash kernel's AMDGPU code objects embedded in the engine (built from engine/device/chunk_hash.hip
// at build time; docs/mechanism.md, "Dirty-chunk hashing").
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace rs::engine {

/// One embedded code object: ELF (code object v4) for one AMDGPU processor.
struct ChunkHashCodeObject {
    const char* processor; ///< e.g. "gfx90a"
    const unsigned char* data;
    size_t size; ///< bytes
};

/// Every built code object (possibly none when no AMDGPU-capable clang was found at build time).
/// Defined in the generated table (engine/device/embed_code_objects.cmake).
std::span<const ChunkHashCodeObject> chunk_hash_code_objects();

/// The processor part of an ISA name: "gfx90a" for "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" (the text
/// after the "amdgcn-amd-amdhsa--" prefix up to the first ':'; a name without the prefix is taken as
/// starting with the processor). Empty for an empty name.
std::string_view isa_processor(std::string_view isa_name);

/// The embedded code object for `processor`, or nullptr.
const ChunkHashCodeObject* find_chunk_hash_code_object(std::string_view processor);

/// The processors of the embedded code objects, space-separated ("" when there are none).
std::string_view chunk_hash_processors();

} // namespace rs::engine
