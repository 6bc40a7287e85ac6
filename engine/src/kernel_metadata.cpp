// SPDX-License-Identifier: MIT
#include "kernel_metadata.h"

#include <elf.h>

#define MSGPACK_NO_BOOST
#include <msgpack.hpp>

#include <algorithm>
#include <cstring>
#include <new>
#include <string_view>

namespace rs::engine {

namespace {

constexpr uint16_t kMachineAmdgpu = 0xe0;    // EM_AMDGPU
constexpr uint32_t kNoteAmdgpuMetadata = 32; // NT_AMDGPU_METADATA
constexpr std::string_view kNoteOwner{"AMDGPU\0", 7};
constexpr uint32_t kPointerBytes = 8;

bool in_range(uint64_t offset, uint64_t length, uint64_t limit) {
    return offset <= limit && length <= limit - offset;
}

template <typename T>
T load(const unsigned char* bytes) {
    T v;
    std::memcpy(&v, bytes, sizeof v);
    return v;
}

const msgpack::object* find_key(const msgpack::object& map, std::string_view key) {
    if (map.type != msgpack::type::MAP) {
        return nullptr;
    }
    for (uint32_t i = 0; i < map.via.map.size; ++i) {
        const msgpack::object_kv& kv = map.via.map.ptr[i];
        if (kv.key.type == msgpack::type::STR &&
            std::string_view(kv.key.via.str.ptr, kv.key.via.str.size) == key) {
            return &kv.val;
        }
    }
    return nullptr;
}

bool string_is(const msgpack::object& map, std::string_view key, std::string_view value) {
    const msgpack::object* v = find_key(map, key);
    return v && v->type == msgpack::type::STR && std::string_view(v->via.str.ptr, v->via.str.size) == value;
}

bool read_only_pointer(const msgpack::object& arg) {
    const msgpack::object* size = find_key(arg, ".size");
    if (!string_is(arg, ".value_kind", "global_buffer") || !size ||
        size->type != msgpack::type::POSITIVE_INTEGER || size->via.u64 != kPointerBytes) {
        return false;
    }
    if (string_is(arg, ".address_space", "constant")) {
        return true;
    }
    if (find_key(arg, ".actual_access")) {
        return string_is(arg, ".actual_access", "read_only");
    }
    const msgpack::object* is_const = find_key(arg, ".is_const");
    return string_is(arg, ".access", "read_only") ||
           (is_const && is_const->type == msgpack::type::BOOLEAN && is_const->via.boolean);
}

void parse_note(const char* data, size_t size, ReadOnlyArguments& out) {
    try {
        // Limits keep a hostile note from asking for huge containers.
        const msgpack::unpack_limit limit(1u << 16, 1u << 16, 1u << 20, 1u << 20, 1u << 20, 64);
        const msgpack::object_handle handle = msgpack::unpack(data, size, nullptr, nullptr, limit);
        const msgpack::object* kernels = find_key(handle.get(), "amdhsa.kernels");
        if (!kernels || kernels->type != msgpack::type::ARRAY) {
            return;
        }
        for (uint32_t k = 0; k < kernels->via.array.size; ++k) {
            const msgpack::object& kernel = kernels->via.array.ptr[k];
            const msgpack::object* symbol = find_key(kernel, ".symbol");
            const msgpack::object* args = find_key(kernel, ".args");
            if (!symbol || symbol->type != msgpack::type::STR || !args ||
                args->type != msgpack::type::ARRAY) {
                continue;
            }
            std::string_view name(symbol->via.str.ptr, symbol->via.str.size);
            if (name.size() > 3 && name.substr(name.size() - 3) == ".kd") {
                name.remove_suffix(3);
            }
            std::vector<uint32_t> offsets;
            for (uint32_t a = 0; a < args->via.array.size; ++a) {
                const msgpack::object& arg = args->via.array.ptr[a];
                const msgpack::object* offset = find_key(arg, ".offset");
                if (offset && offset->type == msgpack::type::POSITIVE_INTEGER &&
                    offset->via.u64 <= UINT32_MAX && read_only_pointer(arg)) {
                    offsets.push_back(static_cast<uint32_t>(offset->via.u64));
                }
            }
            if (!offsets.empty()) {
                std::sort(offsets.begin(), offsets.end());
                out[std::string(name)] = std::move(offsets);
            }
        }
    } catch (const std::bad_alloc&) {
        throw;
    } catch (...) {
        out.clear(); // undecodable: nothing is known to be read-only
    }
}

/// Walks the notes of `[begin, begin + length)` (inside the image, checked by the caller) for the AMDGPU
/// metadata note; `align` is the note entries' alignment (4, or 8 for a segment aligned so).
void scan_notes(const unsigned char* image, uint64_t begin, uint64_t length, uint64_t align,
                ReadOnlyArguments& out) {
    const auto pad = [align](uint64_t v) { return (v + align - 1) & ~(align - 1); };
    uint64_t at = begin;
    const uint64_t end = begin + length;
    while (in_range(at, sizeof(Elf64_Nhdr), end)) {
        const auto header = load<Elf64_Nhdr>(image + at);
        const uint64_t name_at = at + sizeof(Elf64_Nhdr);
        if (!in_range(name_at, pad(header.n_namesz), end)) {
            return;
        }
        const uint64_t desc_at = name_at + pad(header.n_namesz);
        if (!in_range(desc_at, header.n_descsz, end)) {
            return;
        }
        if (header.n_type == kNoteAmdgpuMetadata &&
            std::string_view(reinterpret_cast<const char*>(image + name_at), header.n_namesz) == kNoteOwner) {
            parse_note(reinterpret_cast<const char*>(image + desc_at), header.n_descsz, out);
            return;
        }
        at = desc_at + pad(header.n_descsz);
    }
}

} // namespace

ReadOnlyArguments read_only_arguments(const void* data, size_t size) {
    ReadOnlyArguments out;
    const auto* image = static_cast<const unsigned char*>(data);
    if (!image || size < sizeof(Elf64_Ehdr) || std::memcmp(image, ELFMAG, SELFMAG) != 0 ||
        image[EI_CLASS] != ELFCLASS64 || image[EI_DATA] != ELFDATA2LSB) {
        return out;
    }
    const auto eh = load<Elf64_Ehdr>(image);
    if (eh.e_machine != kMachineAmdgpu || eh.e_phentsize != sizeof(Elf64_Phdr) ||
        !in_range(eh.e_phoff, uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), size)) {
        return out;
    }
    for (uint16_t i = 0; i < eh.e_phnum; ++i) {
        const auto ph = load<Elf64_Phdr>(image + eh.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr));
        if (ph.p_type == PT_NOTE && in_range(ph.p_offset, ph.p_filesz, size)) {
            scan_notes(image, ph.p_offset, ph.p_filesz, ph.p_align == 8 ? 8 : 4, out);
            if (!out.empty()) {
                break;
            }
        }
    }
    return out;
}

} // namespace rs::engine
