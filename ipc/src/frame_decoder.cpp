// SPDX-License-Identifier: MIT
// Frame decoding and verification (frame_decoder.h): the header rules, then the FlatBuffers verifier, then
// one small function per event type that copies the verified table into the record and checks the
// fields' ranges. Collector side only.
#include "replayscope/ipc/frame_decoder.h"

#include "session_events_generated.h"

#include <replayscope/counters/catalogue.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

namespace rs::ipc {

namespace {

template <typename T>
const T* verified(const std::uint8_t* payload, std::size_t length) {
    flatbuffers::Verifier verifier(payload, length, 16, 4096);
    if (!verifier.VerifyBuffer<T>(nullptr)) {
        return nullptr;
    }
    return flatbuffers::GetRoot<T>(payload);
}

/// Copies the elements of a verified vector of 8-byte scalars into `out` (room for `vector.size()`
/// elements) byte-wise: no aligned load of the elements, which the verifier does not guarantee.
template <typename T>
void copy_scalars(const flatbuffers::Vector<T>& vector, T* out) {
    // FlatBuffers stores scalars little-endian, which is this machine's layout (as for the frame header).
    static_assert(std::is_arithmetic_v<T> && FLATBUFFERS_LITTLEENDIAN);
    if (vector.size() > 0) {
        std::memcpy(out, vector.Data(), vector.size() * sizeof(T));
    }
}

/// Decodes a wire value into E, rejecting values above E's list (vocabulary.h).
template <typename E>
bool to_enum(std::uint32_t value, E& out) {
    if (value > enum_max<E>()) {
        return false;
    }
    out = static_cast<E>(value);
    return true;
}

// One function per event type: `t` is the payload's root table, already verified (never null); fills the
// record's timestamp and fields from it and returns false when a field is out of range (an enum value
// outside its list, a pass index below 1, ...), which makes the frame invalid_payload.

bool decode_hello(const fb::Hello* t, Record& r) {
    if (t->token() == nullptr || t->token()->size() != HelloRecord::kTokenBytes) {
        return false;
    }
    std::memcpy(r.hello.token, t->token()->data(), HelloRecord::kTokenBytes);
    r.hello.pid = t->pid();
    r.hello.protocol_version = t->protocol_version();
    r.hello.ppid = t->ppid();
    r.hello.instance = t->instance();
    r.timestamp_ns = 0;
    return true;
}

bool decode_session_start(const fb::SessionStart* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& s = r.session_start;
    s.pid = t->pid();
    s.protocol_version = t->protocol_version();
    s.wall_clock_ns = t->wall_clock_ns();
    s.executable = t->executable();
    s.argv = t->argv();
    s.hostname = t->hostname();
    s.engine_version = t->engine_version();
    s.configuration = t->configuration();
    return true;
}

bool decode_string(const fb::InternedString* t, Record& r) {
    if (t->text() != nullptr && t->text()->size() > kMaxStringBytes) {
        return false;
    }
    r.timestamp_ns = t->ts();
    auto& s = r.string;
    s.id = t->id();
    s.original_length = t->original_length();
    s.length = static_cast<std::uint16_t>(t->text() ? t->text()->size() : 0);
    if (s.length > 0) {
        std::memcpy(s.text, t->text()->data(), s.length);
    }
    return true;
}

bool decode_agent(const fb::Agent* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& a = r.agent;
    a.handle = t->handle();
    a.name = t->name();
    a.isa = t->isa();
    a.node = t->node();
    return to_enum(t->device_type(), a.device_type);
}

bool decode_allocation(const fb::Allocation* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& a = r.allocation;
    a.id = t->id();
    a.address = t->address();
    a.size = t->size();
    a.agent = t->agent();
    a.pool_flags = t->pool_flags();
    return to_enum(t->api(), a.api) && to_enum(t->pointer_type(), a.pointer_type) &&
           to_enum(t->classification(), a.classification);
}

bool decode_free(const fb::Free* t, Record& r) {
    r.timestamp_ns = t->ts();
    r.free.allocation_id = t->allocation_id();
    r.free.address = t->address();
    return true;
}

bool decode_executable_loaded(const fb::ExecutableLoaded* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& e = r.executable;
    e.executable = t->executable();
    e.code_object = t->code_object();
    e.agent = t->agent();
    e.uri = t->uri();
    return true;
}

bool decode_module_variable(const fb::ModuleVariable* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& v = r.module_variable;
    v.executable = t->executable();
    v.agent = t->agent();
    v.address = t->address();
    v.size = t->size();
    v.symbol = t->symbol();
    return to_enum(t->status(), v.status);
}

bool decode_dispatch(const fb::Dispatch* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& d = r.dispatch;
    d.id = t->id();
    d.agent = t->agent();
    d.queue = t->queue();
    d.kernel_object = t->kernel_object();
    d.kernel_name = t->kernel_name();
    d.grid[0] = t->grid_x();
    d.grid[1] = t->grid_y();
    d.grid[2] = t->grid_z();
    d.workgroup[0] = t->workgroup_x();
    d.workgroup[1] = t->workgroup_y();
    d.workgroup[2] = t->workgroup_z();
    return to_enum(t->decision(), d.decision);
}

bool decode_inventory(const fb::Inventory* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& i = r.inventory;
    i.agent = t->agent();
    i.generation = t->generation();
    i.bytes = t->bytes();
    i.regions = t->regions();
    return true;
}

bool decode_inventory_region(const fb::InventoryRegion* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& g = r.inventory_region;
    g.agent = t->agent();
    g.generation = t->generation();
    g.address = t->address();
    g.size = t->size();
    g.allocation_id = t->allocation_id();
    g.index = t->index();
    return to_enum(t->kind(), g.kind);
}

bool decode_snapshot(const fb::Snapshot* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& s = r.snapshot;
    s.dispatch_id = t->dispatch_id();
    s.agent = t->agent();
    s.generation = t->generation();
    s.bytes = t->bytes();
    s.duration_ns = t->duration_ns();
    s.regions = t->regions();
    s.failures = t->failures();
    s.ok = t->ok();
    s.host_bytes = t->host_bytes();
    s.device_bytes = t->device_bytes();
    s.hash_ns = t->hash_ns();
    s.total_chunks = t->total_chunks();
    s.host_pinned = t->host_pinned();
    // Absent (older engines) reads as the schema's default -1; any other negative value as that too.
    s.fence_wait_ns = std::max<std::int64_t>(t->fence_wait_ns(), -1);
    return to_enum(t->store(), s.store) && to_enum(t->hash_path(), s.hash_path);
}

bool decode_snapshot_placement(const fb::SnapshotPlacement* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& s = r.snapshot_placement;
    s.dispatch_id = t->dispatch_id();
    s.address = t->address();
    s.size = t->size();
    // A region is in one store: host or device, never mixed.
    return to_enum(t->store(), s.store) && s.store != SnapshotStore::mixed;
}

bool decode_restore(const fb::Restore* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& s = r.restore;
    s.dispatch_id = t->dispatch_id();
    s.restored_bytes_host = t->restored_bytes_host();
    s.restored_bytes_device = t->restored_bytes_device();
    s.hash_ns = t->hash_ns();
    s.restore_ns = t->restore_ns();
    s.pass_index = t->pass_index();
    s.regions_restored = t->regions_restored();
    s.dirty_chunks = t->dirty_chunks();
    s.total_chunks = t->total_chunks();
    s.missed_chunks = t->missed_chunks();
    s.final_restore = t->final_restore();
    // A restore follows a pass (pass_index >= 1).
    return s.pass_index >= 1;
}

bool decode_restore_miss(const fb::RestoreMiss* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& m = r.restore_miss;
    m.dispatch_id = t->dispatch_id();
    m.address = t->address();
    m.size = t->size();
    m.allocation_id = t->allocation_id();
    m.pass_index = t->pass_index();
    return m.pass_index >= 1;
}

bool decode_counter_value(const fb::CounterValue* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& c = r.counter_value;
    c.dispatch_id = t->dispatch_id();
    c.value = t->value();
    c.pass_index = t->pass_index();
    c.counter = t->counter();
    // A counter this build's catalogue does not have is refused, like an enum value beyond its list.
    return c.counter < rs::counters::gfx90a_counters().size();
}

bool decode_snapshot_failure(const fb::SnapshotFailure* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& f = r.snapshot_failure;
    f.dispatch_id = t->dispatch_id();
    f.address = t->address();
    f.size = t->size();
    f.allocation_id = t->allocation_id();
    return to_enum(t->reason(), f.reason);
}

bool decode_pass(const fb::Pass* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& s = r.pass;
    s.dispatch_id = t->dispatch_id();
    s.start_tick = t->start_tick();
    s.end_tick = t->end_tick();
    s.restore_ns = t->restore_ns();
    s.bytes_restored = t->bytes_restored();
    s.index = t->index();
    s.regions_restored = t->regions_restored();
    s.skips = t->skips();
    s.fidelity = t->fidelity();
    return s.fidelity >= kFidelityNotChecked && s.fidelity <= kFidelityMatched;
}

bool decode_fidelity_mismatch(const fb::FidelityMismatch* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& f = r.fidelity_mismatch;
    f.dispatch_id = t->dispatch_id();
    f.pass_index = t->pass_index();
    f.address = t->address();
    f.size = t->size();
    f.allocation_id = t->allocation_id();
    return true;
}

bool decode_async_copy(const fb::AsyncCopy* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& c = r.async_copy;
    c.agent = t->agent();
    c.dst = t->dst();
    c.src = t->src();
    c.size = t->size();
    c.dispatch_id = t->dispatch_id();
    c.waited_ns = t->waited_ns();
    return to_enum(t->outcome(), c.outcome);
}

bool decode_restore_failure(const fb::RestoreFailure* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& f = r.restore_failure;
    f.dispatch_id = t->dispatch_id();
    f.address = t->address();
    f.size = t->size();
    f.allocation_id = t->allocation_id();
    f.pass_index = t->pass_index();
    f.holds_pass_index = t->holds_pass_index();
    f.attempts = t->attempts();
    f.status = t->status();
    // A restore follows a pass (pass_index >= 1), the region holds the pass before it, and a failure
    // took at least one copy.
    return f.pass_index >= 1 && f.holds_pass_index == f.pass_index - 1 && f.attempts >= 1 &&
           to_enum(t->kind(), f.kind);
}

bool decode_restore_skip(const fb::RestoreSkip* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& s = r.restore_skip;
    s.dispatch_id = t->dispatch_id();
    s.address = t->address();
    s.size = t->size();
    s.allocation_id = t->allocation_id();
    s.pass_index = t->pass_index();
    return to_enum(t->reason(), s.reason);
}

bool decode_warning(const fb::Warning* t, Record& r) {
    r.timestamp_ns = t->ts();
    r.warning.dispatch_id = t->dispatch_id();
    r.warning.text = t->text();
    return to_enum(t->code(), r.warning.code);
}

bool decode_session_end(const fb::SessionEnd* t, Record& r) {
    r.timestamp_ns = t->ts();
    auto& e = r.session_end;
    std::memset(e.counts, 0, sizeof e.counts);
    if (t->counts() != nullptr) {
        if (t->counts()->size() > kEventTypeSlots) {
            return false;
        }
        // The verifier checks a vector's alignment to 4 bytes only (FlatBuffers 2.0 Verifier::
        // VerifyVectorOrString aligns the length field), so 8-byte elements may sit at 4 mod 8: copy
        // their bytes instead of reading them as uint64 (Vector::Get would be a misaligned load).
        copy_scalars(*t->counts(), e.counts);
    }
    e.spooled = t->spooled();
    e.last_sequence = t->last_sequence();
    e.internal_errors = t->internal_errors();
    e.exit_status = t->exit_status();
    return true;
}

/// Decoder of one event type's payload (`length` bytes at `payload`, 8-aligned) into `record`; false when
/// the payload is invalid.
using PayloadDecoder = bool (*)(const std::uint8_t* payload, std::size_t length, Record& record);

/// Verifies the payload as root table T, then fills the record from it with `fill`.
template <typename T, bool (*fill)(const T*, Record&)>
bool decode_as(const std::uint8_t* payload, std::size_t length, Record& record) {
    const T* table = verified<T>(payload, length);
    return table != nullptr && fill(table, record);
}

struct PayloadDecoderEntry {
    EventType type;
    PayloadDecoder decode;
};

/// Every event type with its payload's root table and decoder.
constexpr PayloadDecoderEntry kPayloadDecoderList[] = {
    {EventType::hello, decode_as<fb::Hello, decode_hello>},
    {EventType::session_start, decode_as<fb::SessionStart, decode_session_start>},
    {EventType::string, decode_as<fb::InternedString, decode_string>},
    {EventType::agent, decode_as<fb::Agent, decode_agent>},
    {EventType::allocation, decode_as<fb::Allocation, decode_allocation>},
    {EventType::free, decode_as<fb::Free, decode_free>},
    {EventType::executable_loaded, decode_as<fb::ExecutableLoaded, decode_executable_loaded>},
    {EventType::module_variable, decode_as<fb::ModuleVariable, decode_module_variable>},
    {EventType::dispatch, decode_as<fb::Dispatch, decode_dispatch>},
    {EventType::inventory, decode_as<fb::Inventory, decode_inventory>},
    {EventType::inventory_region, decode_as<fb::InventoryRegion, decode_inventory_region>},
    {EventType::snapshot, decode_as<fb::Snapshot, decode_snapshot>},
    {EventType::snapshot_placement, decode_as<fb::SnapshotPlacement, decode_snapshot_placement>},
    {EventType::restore, decode_as<fb::Restore, decode_restore>},
    {EventType::restore_miss, decode_as<fb::RestoreMiss, decode_restore_miss>},
    {EventType::counter_value, decode_as<fb::CounterValue, decode_counter_value>},
    {EventType::snapshot_failure, decode_as<fb::SnapshotFailure, decode_snapshot_failure>},
    {EventType::pass, decode_as<fb::Pass, decode_pass>},
    {EventType::fidelity_mismatch, decode_as<fb::FidelityMismatch, decode_fidelity_mismatch>},
    {EventType::async_copy, decode_as<fb::AsyncCopy, decode_async_copy>},
    {EventType::restore_failure, decode_as<fb::RestoreFailure, decode_restore_failure>},
    {EventType::restore_skip, decode_as<fb::RestoreSkip, decode_restore_skip>},
    {EventType::warning, decode_as<fb::Warning, decode_warning>},
    {EventType::session_end, decode_as<fb::SessionEnd, decode_session_end>},
};

/// kPayloadDecoders[value]: the decoder of the EventType of that value (null at 0, which is no type).
constexpr std::array<PayloadDecoder, kEventTypeSlots> kPayloadDecoders = [] {
    std::array<PayloadDecoder, kEventTypeSlots> table{};
    for (const PayloadDecoderEntry& entry : kPayloadDecoderList) {
        table[static_cast<std::size_t>(entry.type)] = entry.decode;
    }
    return table;
}();
// Every type once (checked on the types, not the pointers: GCC's UndefinedBehaviorSanitizer makes a
// function-pointer comparison non-constant).
static_assert(
    [] {
        std::array<bool, kEventTypeSlots> seen{};
        for (const PayloadDecoderEntry& entry : kPayloadDecoderList) {
            const auto value = static_cast<std::size_t>(entry.type);
            if (value == 0 || value >= kEventTypeSlots || seen[value]) {
                return false;
            }
            seen[value] = true;
        }
        return std::size(kPayloadDecoderList) == kEventTypeSlots - 1;
    }(),
    "kPayloadDecoderList: one decoder per EventType");

/// Verifies and decodes a payload of `type` into `r`; false when invalid.
bool decode_payload(EventType type, const std::uint8_t* p, std::size_t n, Record& r) {
    r.type = type;
    const auto value = static_cast<std::size_t>(type);
    if (value >= kEventTypeSlots || kPayloadDecoders[value] == nullptr) {
        return false;
    }
    return kPayloadDecoders[value](p, n, r);
}

} // namespace

std::string describe(FrameError error, const FrameHeader& header) {
    char text[200];
    switch (error) {
    case FrameError::none:
        return "valid frame";
    case FrameError::incomplete:
        return "truncated frame (stream ended inside a frame)";
    case FrameError::bad_magic:
        std::snprintf(text, sizeof text, "wrong magic 0x%08x (not a ReplayScope frame)", header.magic);
        return text;
    case FrameError::bad_version:
        std::snprintf(text, sizeof text, "unsupported protocol version %u (this collector speaks %u to %u)",
                      header.version, kMinProtocolVersion, kProtocolVersion);
        return text;
    case FrameError::oversized:
        std::snprintf(text, sizeof text, "oversized frame: length %u above the maximum of %u bytes",
                      header.length, kMaxPayloadBytes);
        return text;
    case FrameError::unknown_type:
        std::snprintf(text, sizeof text, "unknown frame type %u", header.type);
        return text;
    case FrameError::bad_header:
        std::snprintf(
            text, sizeof text,
            "bad frame header: %s frame with sequence %llu, protocol %u, checksum word 0x%08x (want "
            "sequence 0 for hello, 1 to 2^48-1 otherwise; checksum word 0 before protocol %u)",
            std::string(event_type_name(static_cast<EventType>(header.type))).c_str(),
            static_cast<unsigned long long>(header.sequence), header.version, header.checksum,
            kFirstChecksumVersion);
        return text;
    case FrameError::bad_checksum:
        std::snprintf(text, sizeof text,
                      "checksum mismatch: %s frame (protocol %u, %u payload bytes, sequence %llu) carries "
                      "checksum 0x%08x (damaged)",
                      std::string(event_type_name(static_cast<EventType>(header.type))).c_str(),
                      header.version, header.length, static_cast<unsigned long long>(header.sequence),
                      header.checksum);
        return text;
    case FrameError::invalid_payload:
        std::snprintf(text, sizeof text,
                      "invalid %s payload (%u bytes, sequence %llu) rejected by the verifier",
                      std::string(event_type_name(static_cast<EventType>(header.type))).c_str(),
                      header.length, static_cast<unsigned long long>(header.sequence));
        return text;
    }
    return "unknown frame error";
}

bool frame_bounds_trusted(FrameError error, const FrameHeader& header) noexcept {
    // Only invalid_payload is decided after the checksum matched (decode_frame's order); every earlier
    // error, and every frame without a checksum, may carry a damaged length.
    return error == FrameError::invalid_payload && header.version >= kFirstChecksumVersion;
}

FrameError decode_frame(const std::uint8_t* data, std::size_t size, std::uint32_t max_payload, Record& record,
                        FrameHeader& header, std::size_t& frame_bytes) noexcept {
    if (size < kFrameHeaderBytes) {
        return FrameError::incomplete;
    }
    std::memcpy(&header, data, kFrameHeaderBytes);
    if (header.magic != kFrameMagic) {
        return FrameError::bad_magic;
    }
    if (header.version < kMinProtocolVersion || header.version > kProtocolVersion) {
        return FrameError::bad_version;
    }
    if (header.length > max_payload) {
        return FrameError::oversized;
    }
    if (header.type == 0 || header.type >= kEventTypeSlots ||
        (header.version < 2 && header.type > static_cast<std::uint16_t>(EventType::session_end)) ||
        (header.version < 3 && header.type > static_cast<std::uint16_t>(EventType::async_copy)) ||
        (header.version < 5 && header.type > static_cast<std::uint16_t>(EventType::restore_failure))) {
        return FrameError::unknown_type;
    }
    // Header rules (every version; senders never wrote anything else): sequence 0 for Hello and only for
    // Hello, every other sequence in [1, kMaxSequence); before protocol 6 the checksum word is 0. Checked
    // from the header alone, before any of them is used, so a receiver never sizes anything after a
    // number a frame merely claims and refuses such a frame before its payload arrives.
    const bool hello = header.type == static_cast<std::uint16_t>(EventType::hello);
    if ((header.version < kFirstChecksumVersion && header.checksum != 0) || (hello && header.sequence != 0) ||
        (!hello && (header.sequence == 0 || header.sequence >= kMaxSequence))) {
        return FrameError::bad_header;
    }
    if (size < kFrameHeaderBytes + header.length) {
        return FrameError::incomplete;
    }
    // The checksum covers the header (its checksum field as 0) and the payload: a frame damaged anywhere,
    // its length or sequence included, stops here, before its payload is read.
    if (header.version >= kFirstChecksumVersion &&
        frame_checksum(header, data + kFrameHeaderBytes, header.length) != header.checksum) {
        return FrameError::bad_checksum;
    }
    // An empty payload holds no FlatBuffers root: refused here, before anything is copied or verified.
    if (header.length == 0) {
        return FrameError::invalid_payload;
    }
    // FlatBuffers wants its root aligned. Senders pad every payload to a multiple of 8 bytes, so frames
    // in an 8-aligned buffer stay aligned; anything else is copied to an aligned heap buffer first.
    const std::uint8_t* payload = data + kFrameHeaderBytes;
    std::vector<std::uint64_t> aligned;
    if (reinterpret_cast<std::uintptr_t>(payload) % 8 != 0) {
        try {
            aligned.resize((header.length + 7) / 8);
        } catch (...) {
            return FrameError::invalid_payload;
        }
        std::memcpy(aligned.data(), payload, header.length);
        payload = reinterpret_cast<const std::uint8_t*>(aligned.data());
    }
    record.sequence = header.sequence;
    if (!decode_payload(static_cast<EventType>(header.type), payload, header.length, record)) {
        return FrameError::invalid_payload;
    }
    // Engines before protocol 5 copied every snapshot into (pageable) host memory and hashed nothing.
    if (header.version < 5 && record.type == EventType::snapshot) {
        record.snapshot.host_bytes = record.snapshot.bytes;
        record.snapshot.device_bytes = 0;
        record.snapshot.store = SnapshotStore::host;
        record.snapshot.hash_path = ChunkHashPath::none;
        record.snapshot.host_pinned = false;
    }
    frame_bytes = kFrameHeaderBytes + header.length;
    return FrameError::none;
}

FrameScan find_frame(const std::uint8_t* data, std::size_t size, std::size_t from, bool end_of_stream,
                     std::uint32_t max_payload) noexcept {
    FrameScan scan;
    for (std::size_t at = from; at < size; ++at) {
        if (size - at < sizeof kFrameMagic) {
            // Too short for a magic: undecidable until more bytes come, nothing at the end of the stream.
            scan.offset = end_of_stream ? size : at;
            scan.need_more = !end_of_stream;
            return scan;
        }
        std::uint32_t magic = 0;
        std::memcpy(&magic, data + at, sizeof magic);
        if (magic != kFrameMagic) {
            continue;
        }
        if (size - at < kFrameHeaderBytes) {
            if (end_of_stream) {
                continue;
            }
            scan.offset = at;
            scan.need_more = true;
            return scan;
        }
        FrameHeader header{};
        std::memcpy(&header, data + at, kFrameHeaderBytes);
        if (header.version < kMinProtocolVersion || header.version > kProtocolVersion ||
            header.length > max_payload) {
            continue;
        }
        if (size - at < kFrameHeaderBytes + header.length) {
            if (end_of_stream) {
                continue; // runs past the end: not a frame (a whole frame may still start inside it)
            }
            scan.offset = at;
            scan.need_more = true;
            return scan;
        }
        bool starts = false;
        if (header.version >= kFirstChecksumVersion) {
            // Magic and checksum: the frame is as its sender wrote it (its header rules and payload are for
            // the reader to judge, and the frame delimits itself).
            starts = frame_checksum(header, data + at + kFrameHeaderBytes, header.length) == header.checksum;
        } else {
            // No checksum before protocol 6: only a frame that decodes whole counts.
            Record record;
            FrameHeader decoded{};
            std::size_t bytes = 0;
            starts =
                decode_frame(data + at, size - at, max_payload, record, decoded, bytes) == FrameError::none;
        }
        if (starts) {
            scan.offset = at;
            scan.found = true;
            return scan;
        }
    }
    scan.offset = std::max(from, size);
    return scan;
}

} // namespace rs::ipc
