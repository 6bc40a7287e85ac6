#include "replayscope/ipc/frame.hpp"

#include "session_events_generated.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <type_traits>

namespace rs::ipc {

std::uint64_t monotonicNs() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t wallClockNs() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

namespace {

template <typename E>
std::uint8_t u8(E e) {
    return static_cast<std::uint8_t>(e);
}

/// Builds the FlatBuffers payload of `r` into `b` (finished).
void encodePayload(const Record& r, flatbuffers::FlatBufferBuilder& b) {
    const std::uint64_t ts = r.timestamp_ns;
    switch (r.type) {
    case EventType::hello: {
        const auto& h = r.hello;
        auto token = b.CreateString(h.token, strnlen(h.token, HelloRecord::kTokenBytes));
        b.Finish(fb::CreateHello(b, token, h.pid, h.protocol_version, h.ppid, h.instance));
        break;
    }
    case EventType::session_start: {
        const auto& s = r.session_start;
        b.Finish(fb::CreateSessionStart(b, ts, s.pid, s.protocol_version, s.wall_clock_ns, s.executable,
                                        s.argv, s.hostname, s.engine_version, s.configuration));
        break;
    }
    case EventType::string: {
        const auto& s = r.string;
        auto text = b.CreateString(s.text, std::min<std::size_t>(s.length, kMaxStringBytes));
        b.Finish(fb::CreateInternedString(b, ts, s.id, s.original_length, text));
        break;
    }
    case EventType::agent: {
        const auto& a = r.agent;
        b.Finish(fb::CreateAgent(b, ts, a.handle, a.name, a.isa, u8(a.device_type), a.node));
        break;
    }
    case EventType::allocation: {
        const auto& a = r.allocation;
        b.Finish(fb::CreateAllocation(b, ts, a.id, a.address, a.size, a.agent, a.pool_flags, u8(a.api),
                                      u8(a.pointer_type), u8(a.classification)));
        break;
    }
    case EventType::free:
        b.Finish(fb::CreateFree(b, ts, r.free.allocation_id, r.free.address));
        break;
    case EventType::executable_loaded: {
        const auto& e = r.executable;
        b.Finish(fb::CreateExecutableLoaded(b, ts, e.executable, e.code_object, e.agent, e.uri));
        break;
    }
    case EventType::module_variable: {
        const auto& v = r.module_variable;
        b.Finish(fb::CreateModuleVariable(b, ts, v.executable, v.agent, v.address, v.size, v.symbol,
                                          u8(v.status)));
        break;
    }
    case EventType::dispatch: {
        const auto& d = r.dispatch;
        b.Finish(fb::CreateDispatch(b, ts, d.id, d.agent, d.queue, d.kernel_object, d.kernel_name, d.grid[0],
                                    d.grid[1], d.grid[2], d.workgroup[0], d.workgroup[1], d.workgroup[2],
                                    u8(d.decision)));
        break;
    }
    case EventType::inventory: {
        const auto& i = r.inventory;
        b.Finish(fb::CreateInventory(b, ts, i.agent, i.generation, i.bytes, i.regions));
        break;
    }
    case EventType::inventory_region: {
        const auto& g = r.inventory_region;
        b.Finish(fb::CreateInventoryRegion(b, ts, g.agent, g.generation, g.address, g.size, g.allocation_id,
                                           g.index, u8(g.kind)));
        break;
    }
    case EventType::snapshot: {
        const auto& s = r.snapshot;
        b.Finish(fb::CreateSnapshot(b, ts, s.dispatch_id, s.agent, s.generation, s.bytes, s.duration_ns,
                                    s.regions, s.failures, s.ok, s.host_bytes, s.device_bytes, s.hash_ns,
                                    s.total_chunks, u8(s.store), u8(s.hash_path), s.host_pinned));
        break;
    }
    case EventType::snapshot_placement: {
        const auto& s = r.snapshot_placement;
        b.Finish(fb::CreateSnapshotPlacement(b, ts, s.dispatch_id, s.address, s.size, u8(s.store)));
        break;
    }
    case EventType::restore: {
        const auto& s = r.restore;
        b.Finish(fb::CreateRestore(b, ts, s.dispatch_id, s.restored_bytes_host, s.restored_bytes_device,
                                   s.hash_ns, s.restore_ns, s.pass_index, s.regions_restored, s.dirty_chunks,
                                   s.total_chunks, s.missed_chunks, s.final_restore));
        break;
    }
    case EventType::restore_miss: {
        const auto& m = r.restore_miss;
        b.Finish(
            fb::CreateRestoreMiss(b, ts, m.dispatch_id, m.address, m.size, m.allocation_id, m.pass_index));
        break;
    }
    case EventType::snapshot_failure: {
        const auto& f = r.snapshot_failure;
        b.Finish(fb::CreateSnapshotFailure(b, ts, f.dispatch_id, f.address, f.size, f.allocation_id,
                                           u8(f.reason)));
        break;
    }
    case EventType::pass: {
        const auto& p = r.pass;
        b.Finish(fb::CreatePass(b, ts, p.dispatch_id, p.start_tick, p.end_tick, p.restore_ns,
                                p.bytes_restored, p.index, p.regions_restored, p.skips, p.fidelity));
        break;
    }
    case EventType::fidelity_mismatch: {
        const auto& f = r.fidelity_mismatch;
        b.Finish(fb::CreateFidelityMismatch(b, ts, f.dispatch_id, f.pass_index, f.address, f.size,
                                            f.allocation_id));
        break;
    }
    case EventType::async_copy: {
        const auto& c = r.async_copy;
        b.Finish(fb::CreateAsyncCopy(b, ts, c.agent, c.dst, c.src, c.size, c.dispatch_id, c.waited_ns,
                                     u8(c.outcome)));
        break;
    }
    case EventType::restore_failure: {
        const auto& f = r.restore_failure;
        b.Finish(fb::CreateRestoreFailure(b, ts, f.dispatch_id, f.address, f.size, f.allocation_id,
                                          f.pass_index, f.holds_pass_index, f.attempts, f.status,
                                          u8(f.kind)));
        break;
    }
    case EventType::restore_skip: {
        const auto& s = r.restore_skip;
        b.Finish(fb::CreateRestoreSkip(b, ts, s.dispatch_id, s.address, s.size, s.allocation_id, s.pass_index,
                                       u8(s.reason)));
        break;
    }
    case EventType::warning: {
        const auto& w = r.warning;
        b.Finish(fb::CreateWarning(b, ts, w.dispatch_id, w.text, static_cast<std::uint16_t>(w.code)));
        break;
    }
    case EventType::session_end: {
        const auto& e = r.session_end;
        auto counts = b.CreateVector(e.counts, kEventTypeSlots);
        b.Finish(fb::CreateSessionEnd(b, ts, counts, e.spooled, e.last_sequence, e.internal_errors,
                                      e.exit_status));
        break;
    }
    }
}

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
void copyScalars(const flatbuffers::Vector<T>& vector, T* out) {
    // FlatBuffers stores scalars little-endian, which is this machine's layout (as for the frame header).
    static_assert(std::is_arithmetic_v<T> && FLATBUFFERS_LITTLEENDIAN);
    if (vector.size() > 0) {
        std::memcpy(out, vector.Data(), vector.size() * sizeof(T));
    }
}

/// Decodes a wire value into E, rejecting values above E's list (vocabulary.hpp).
template <typename E>
bool toEnum(std::uint32_t value, E& out) {
    if (value > enumMax<E>()) {
        return false;
    }
    out = static_cast<E>(value);
    return true;
}

/// Verifies and decodes a payload of `type` into `r`; false when invalid.
bool decodePayload(EventType type, const std::uint8_t* p, std::size_t n, Record& r) {
    r.type = type;
    switch (type) {
    case EventType::hello: {
        const auto* t = verified<fb::Hello>(p, n);
        if (t == nullptr || t->token() == nullptr || t->token()->size() != HelloRecord::kTokenBytes) {
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
    case EventType::session_start: {
        const auto* t = verified<fb::SessionStart>(p, n);
        if (t == nullptr) {
            return false;
        }
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
    case EventType::string: {
        const auto* t = verified<fb::InternedString>(p, n);
        if (t == nullptr || (t->text() != nullptr && t->text()->size() > kMaxStringBytes)) {
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
    case EventType::agent: {
        const auto* t = verified<fb::Agent>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& a = r.agent;
        a.handle = t->handle();
        a.name = t->name();
        a.isa = t->isa();
        a.node = t->node();
        return toEnum(t->device_type(), a.device_type);
    }
    case EventType::allocation: {
        const auto* t = verified<fb::Allocation>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& a = r.allocation;
        a.id = t->id();
        a.address = t->address();
        a.size = t->size();
        a.agent = t->agent();
        a.pool_flags = t->pool_flags();
        return toEnum(t->api(), a.api) && toEnum(t->pointer_type(), a.pointer_type) &&
               toEnum(t->classification(), a.classification);
    }
    case EventType::free: {
        const auto* t = verified<fb::Free>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        r.free.allocation_id = t->allocation_id();
        r.free.address = t->address();
        return true;
    }
    case EventType::executable_loaded: {
        const auto* t = verified<fb::ExecutableLoaded>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& e = r.executable;
        e.executable = t->executable();
        e.code_object = t->code_object();
        e.agent = t->agent();
        e.uri = t->uri();
        return true;
    }
    case EventType::module_variable: {
        const auto* t = verified<fb::ModuleVariable>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& v = r.module_variable;
        v.executable = t->executable();
        v.agent = t->agent();
        v.address = t->address();
        v.size = t->size();
        v.symbol = t->symbol();
        return toEnum(t->status(), v.status);
    }
    case EventType::dispatch: {
        const auto* t = verified<fb::Dispatch>(p, n);
        if (t == nullptr) {
            return false;
        }
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
        return toEnum(t->decision(), d.decision);
    }
    case EventType::inventory: {
        const auto* t = verified<fb::Inventory>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& i = r.inventory;
        i.agent = t->agent();
        i.generation = t->generation();
        i.bytes = t->bytes();
        i.regions = t->regions();
        return true;
    }
    case EventType::inventory_region: {
        const auto* t = verified<fb::InventoryRegion>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& g = r.inventory_region;
        g.agent = t->agent();
        g.generation = t->generation();
        g.address = t->address();
        g.size = t->size();
        g.allocation_id = t->allocation_id();
        g.index = t->index();
        return toEnum(t->kind(), g.kind);
    }
    case EventType::snapshot: {
        const auto* t = verified<fb::Snapshot>(p, n);
        if (t == nullptr) {
            return false;
        }
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
        return toEnum(t->store(), s.store) && toEnum(t->hash_path(), s.hash_path);
    }
    case EventType::snapshot_placement: {
        const auto* t = verified<fb::SnapshotPlacement>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& s = r.snapshot_placement;
        s.dispatch_id = t->dispatch_id();
        s.address = t->address();
        s.size = t->size();
        // A region is in one store: host or device, never mixed.
        return toEnum(t->store(), s.store) && s.store != SnapshotStore::mixed;
    }
    case EventType::restore: {
        const auto* t = verified<fb::Restore>(p, n);
        if (t == nullptr) {
            return false;
        }
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
    case EventType::restore_miss: {
        const auto* t = verified<fb::RestoreMiss>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& m = r.restore_miss;
        m.dispatch_id = t->dispatch_id();
        m.address = t->address();
        m.size = t->size();
        m.allocation_id = t->allocation_id();
        m.pass_index = t->pass_index();
        return m.pass_index >= 1;
    }
    case EventType::snapshot_failure: {
        const auto* t = verified<fb::SnapshotFailure>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& f = r.snapshot_failure;
        f.dispatch_id = t->dispatch_id();
        f.address = t->address();
        f.size = t->size();
        f.allocation_id = t->allocation_id();
        return toEnum(t->reason(), f.reason);
    }
    case EventType::pass: {
        const auto* t = verified<fb::Pass>(p, n);
        if (t == nullptr) {
            return false;
        }
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
    case EventType::fidelity_mismatch: {
        const auto* t = verified<fb::FidelityMismatch>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& f = r.fidelity_mismatch;
        f.dispatch_id = t->dispatch_id();
        f.pass_index = t->pass_index();
        f.address = t->address();
        f.size = t->size();
        f.allocation_id = t->allocation_id();
        return true;
    }
    case EventType::async_copy: {
        const auto* t = verified<fb::AsyncCopy>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& c = r.async_copy;
        c.agent = t->agent();
        c.dst = t->dst();
        c.src = t->src();
        c.size = t->size();
        c.dispatch_id = t->dispatch_id();
        c.waited_ns = t->waited_ns();
        return toEnum(t->outcome(), c.outcome);
    }
    case EventType::restore_failure: {
        const auto* t = verified<fb::RestoreFailure>(p, n);
        if (t == nullptr) {
            return false;
        }
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
               toEnum(t->kind(), f.kind);
    }
    case EventType::restore_skip: {
        const auto* t = verified<fb::RestoreSkip>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        auto& s = r.restore_skip;
        s.dispatch_id = t->dispatch_id();
        s.address = t->address();
        s.size = t->size();
        s.allocation_id = t->allocation_id();
        s.pass_index = t->pass_index();
        return toEnum(t->reason(), s.reason);
    }
    case EventType::warning: {
        const auto* t = verified<fb::Warning>(p, n);
        if (t == nullptr) {
            return false;
        }
        r.timestamp_ns = t->ts();
        r.warning.dispatch_id = t->dispatch_id();
        r.warning.text = t->text();
        return toEnum(t->code(), r.warning.code);
    }
    case EventType::session_end: {
        const auto* t = verified<fb::SessionEnd>(p, n);
        if (t == nullptr) {
            return false;
        }
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
            copyScalars(*t->counts(), e.counts);
        }
        e.spooled = t->spooled();
        e.last_sequence = t->last_sequence();
        e.internal_errors = t->internal_errors();
        e.exit_status = t->exit_status();
        return true;
    }
    }
    return false;
}

} // namespace

void appendFrame(const Record& record, flatbuffers::FlatBufferBuilder& builder,
                 std::vector<std::uint8_t>& out) {
    builder.Clear();
    encodePayload(record, builder);
    const std::size_t padded = (builder.GetSize() + 7) & ~std::size_t{7}; // keeps the next frame 8-aligned
    FrameHeader header{kFrameMagic,
                       kProtocolVersion,
                       static_cast<std::uint16_t>(record.type),
                       static_cast<std::uint32_t>(padded),
                       0,
                       record.sequence};
    const std::size_t at = out.size();
    out.resize(at + kFrameHeaderBytes + padded, 0);
    std::memcpy(out.data() + at, &header, kFrameHeaderBytes);
    std::memcpy(out.data() + at + kFrameHeaderBytes, builder.GetBufferPointer(), builder.GetSize());
}

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
        std::snprintf(text, sizeof text,
                      "bad frame header: %s frame with sequence %llu, reserved 0x%08x (want reserved 0, "
                      "sequence 0 for hello, 1 to 2^48-1 otherwise)",
                      std::string(eventTypeName(static_cast<EventType>(header.type))).c_str(),
                      static_cast<unsigned long long>(header.sequence), header.reserved);
        return text;
    case FrameError::invalid_payload:
        std::snprintf(text, sizeof text,
                      "invalid %s payload (%u bytes, sequence %llu) rejected by the verifier",
                      std::string(eventTypeName(static_cast<EventType>(header.type))).c_str(), header.length,
                      static_cast<unsigned long long>(header.sequence));
        return text;
    }
    return "unknown frame error";
}

FrameError decodeFrame(const std::uint8_t* data, std::size_t size, std::uint32_t max_payload, Record& record,
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
    // Header rules (every version; senders never wrote anything else): reserved 0, sequence 0 for Hello
    // and only for Hello, every other sequence in [1, kMaxSequence). Checked before any of them is used,
    // so a receiver never sizes anything after a number a frame merely claims.
    const bool hello = header.type == static_cast<std::uint16_t>(EventType::hello);
    if (header.reserved != 0 || (hello && header.sequence != 0) ||
        (!hello && (header.sequence == 0 || header.sequence >= kMaxSequence))) {
        return FrameError::bad_header;
    }
    if (size < kFrameHeaderBytes + header.length) {
        return FrameError::incomplete;
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
    if (!decodePayload(static_cast<EventType>(header.type), payload, header.length, record)) {
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

bool recordsEqual(const Record& a, const Record& b) noexcept {
    if (a.type != b.type || a.sequence != b.sequence || a.timestamp_ns != b.timestamp_ns) {
        return false;
    }
    switch (a.type) {
    case EventType::hello:
        return std::memcmp(a.hello.token, b.hello.token, HelloRecord::kTokenBytes) == 0 &&
               a.hello.pid == b.hello.pid && a.hello.protocol_version == b.hello.protocol_version &&
               a.hello.ppid == b.hello.ppid && a.hello.instance == b.hello.instance;
    case EventType::session_start: {
        const auto &x = a.session_start, &y = b.session_start;
        return x.pid == y.pid && x.protocol_version == y.protocol_version &&
               x.wall_clock_ns == y.wall_clock_ns && x.executable == y.executable && x.argv == y.argv &&
               x.hostname == y.hostname && x.engine_version == y.engine_version &&
               x.configuration == y.configuration;
    }
    case EventType::string:
        return a.string.id == b.string.id && a.string.original_length == b.string.original_length &&
               a.string.view() == b.string.view();
    case EventType::agent: {
        const auto &x = a.agent, &y = b.agent;
        return x.handle == y.handle && x.name == y.name && x.isa == y.isa && x.device_type == y.device_type &&
               x.node == y.node;
    }
    case EventType::allocation: {
        const auto &x = a.allocation, &y = b.allocation;
        return x.id == y.id && x.address == y.address && x.size == y.size && x.agent == y.agent &&
               x.pool_flags == y.pool_flags && x.api == y.api && x.pointer_type == y.pointer_type &&
               x.classification == y.classification;
    }
    case EventType::free:
        return a.free.allocation_id == b.free.allocation_id && a.free.address == b.free.address;
    case EventType::executable_loaded: {
        const auto &x = a.executable, &y = b.executable;
        return x.executable == y.executable && x.code_object == y.code_object && x.agent == y.agent &&
               x.uri == y.uri;
    }
    case EventType::module_variable: {
        const auto &x = a.module_variable, &y = b.module_variable;
        return x.executable == y.executable && x.agent == y.agent && x.address == y.address &&
               x.size == y.size && x.symbol == y.symbol && x.status == y.status;
    }
    case EventType::dispatch: {
        const auto &x = a.dispatch, &y = b.dispatch;
        return x.id == y.id && x.agent == y.agent && x.queue == y.queue &&
               x.kernel_object == y.kernel_object && x.kernel_name == y.kernel_name &&
               std::equal(x.grid, x.grid + 3, y.grid) &&
               std::equal(x.workgroup, x.workgroup + 3, y.workgroup) && x.decision == y.decision;
    }
    case EventType::inventory: {
        const auto &x = a.inventory, &y = b.inventory;
        return x.agent == y.agent && x.generation == y.generation && x.bytes == y.bytes &&
               x.regions == y.regions;
    }
    case EventType::inventory_region: {
        const auto &x = a.inventory_region, &y = b.inventory_region;
        return x.agent == y.agent && x.generation == y.generation && x.address == y.address &&
               x.size == y.size && x.allocation_id == y.allocation_id && x.index == y.index &&
               x.kind == y.kind;
    }
    case EventType::snapshot: {
        const auto &x = a.snapshot, &y = b.snapshot;
        return x.dispatch_id == y.dispatch_id && x.agent == y.agent && x.generation == y.generation &&
               x.bytes == y.bytes && x.duration_ns == y.duration_ns && x.regions == y.regions &&
               x.failures == y.failures && x.ok == y.ok && x.host_bytes == y.host_bytes &&
               x.device_bytes == y.device_bytes && x.hash_ns == y.hash_ns &&
               x.total_chunks == y.total_chunks && x.store == y.store && x.hash_path == y.hash_path &&
               x.host_pinned == y.host_pinned;
    }
    case EventType::snapshot_placement: {
        const auto &x = a.snapshot_placement, &y = b.snapshot_placement;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.store == y.store;
    }
    case EventType::restore: {
        const auto &x = a.restore, &y = b.restore;
        return x.dispatch_id == y.dispatch_id && x.restored_bytes_host == y.restored_bytes_host &&
               x.restored_bytes_device == y.restored_bytes_device && x.hash_ns == y.hash_ns &&
               x.restore_ns == y.restore_ns && x.pass_index == y.pass_index &&
               x.regions_restored == y.regions_restored && x.dirty_chunks == y.dirty_chunks &&
               x.total_chunks == y.total_chunks && x.missed_chunks == y.missed_chunks &&
               x.final_restore == y.final_restore;
    }
    case EventType::restore_miss: {
        const auto &x = a.restore_miss, &y = b.restore_miss;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.pass_index == y.pass_index;
    }
    case EventType::snapshot_failure: {
        const auto &x = a.snapshot_failure, &y = b.snapshot_failure;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.reason == y.reason;
    }
    case EventType::pass: {
        const auto &x = a.pass, &y = b.pass;
        return x.dispatch_id == y.dispatch_id && x.start_tick == y.start_tick && x.end_tick == y.end_tick &&
               x.restore_ns == y.restore_ns && x.bytes_restored == y.bytes_restored && x.index == y.index &&
               x.regions_restored == y.regions_restored && x.skips == y.skips && x.fidelity == y.fidelity;
    }
    case EventType::fidelity_mismatch: {
        const auto &x = a.fidelity_mismatch, &y = b.fidelity_mismatch;
        return x.dispatch_id == y.dispatch_id && x.pass_index == y.pass_index && x.address == y.address &&
               x.size == y.size && x.allocation_id == y.allocation_id;
    }
    case EventType::async_copy: {
        const auto &x = a.async_copy, &y = b.async_copy;
        return x.agent == y.agent && x.dst == y.dst && x.src == y.src && x.size == y.size &&
               x.dispatch_id == y.dispatch_id && x.waited_ns == y.waited_ns && x.outcome == y.outcome;
    }
    case EventType::restore_failure: {
        const auto &x = a.restore_failure, &y = b.restore_failure;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.pass_index == y.pass_index &&
               x.holds_pass_index == y.holds_pass_index && x.attempts == y.attempts && x.status == y.status &&
               x.kind == y.kind;
    }
    case EventType::restore_skip: {
        const auto &x = a.restore_skip, &y = b.restore_skip;
        return x.dispatch_id == y.dispatch_id && x.address == y.address && x.size == y.size &&
               x.allocation_id == y.allocation_id && x.pass_index == y.pass_index && x.reason == y.reason;
    }
    case EventType::warning:
        return a.warning.dispatch_id == b.warning.dispatch_id && a.warning.text == b.warning.text &&
               a.warning.code == b.warning.code;
    case EventType::session_end: {
        const auto &x = a.session_end, &y = b.session_end;
        return std::equal(x.counts, x.counts + kEventTypeSlots, y.counts) && x.spooled == y.spooled &&
               x.last_sequence == y.last_sequence && x.internal_errors == y.internal_errors &&
               x.exit_status == y.exit_status;
    }
    }
    return false;
}

} // namespace rs::ipc
