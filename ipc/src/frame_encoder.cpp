// SPDX-License-Identifier: MIT
// Frame encoding (frame_encoder.h): a record into its FlatBuffers payload behind the frame header, then the
// frame's checksum (frame.h) into the header.
#include "replayscope/ipc/frame_encoder.h"

#include "session_events_generated.h"

#include <algorithm>
#include <cstring>

namespace rs::ipc {

namespace {

template <typename E>
std::uint8_t u8(E e) {
    return static_cast<std::uint8_t>(e);
}

/// Builds the FlatBuffers payload of `r` into `b` (finished).
void encode_payload(const Record& r, flatbuffers::FlatBufferBuilder& b) {
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
                                    s.total_chunks, u8(s.store), u8(s.hash_path), s.host_pinned,
                                    s.fence_wait_ns < 0 ? std::int64_t{-1} : s.fence_wait_ns));
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
    case EventType::counter_value: {
        const auto& c = r.counter_value;
        b.Finish(fb::CreateCounterValue(b, ts, c.dispatch_id, c.value, c.pass_index, c.counter));
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

} // namespace

void append_frame(const Record& record, flatbuffers::FlatBufferBuilder& builder,
                  std::vector<std::uint8_t>& out) {
    builder.Clear();
    encode_payload(record, builder);
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
    // Header (checksum 0 so far) and payload, padding included, are contiguous: checksum them in place.
    seal_frame(out.data() + at, kFrameHeaderBytes + padded);
}

} // namespace rs::ipc
