// SPDX-License-Identifier: MIT
#include "aqlprofile_commands.h"

#include "agent.h"
#include "aqlprofile_counters.h"

#include <cstddef>
#include <cstring>

namespace sim {

namespace {

// The body of an AMD PM4-IB vendor packet, bytes 2-55 (ROCr's amd_aql_pm4_ib: ven_hdr, ib_jump_cmd[4],
// dw_cnt_remain, reserved[8]); the header and the completion signal surround it.
struct Pm4IbBody {
    uint16_t ven_hdr;
    uint32_t ib_jump_cmd[4];
    uint32_t dw_cnt_remain;
    uint32_t reserved[8];
} __attribute__((packed));
static_assert(sizeof(Pm4IbBody) == sizeof(hsa_ext_amd_aql_pm4_packet_t::pm4_command));

// PM4 type-3 INDIRECT_BUFFER (opcode 0x3F) as ROCr writes it for gfx9: header with the body's dword count
// minus one, the buffer address in dwords 1-2 (low bits 31:2, high 16 bits), its size in dwords (bits
// 19:0) with the VALID bit (23).
constexpr uint32_t kPm4IndirectBuffer = 0x3f;
constexpr uint32_t kPm4Type3 = 3u << 30;
constexpr uint32_t pm4_header(uint32_t opcode, uint32_t dwords) {
    return kPm4Type3 | ((dwords - 2) << 16) | (opcode << 8);
}
constexpr uint32_t kIbValid = 1u << 23;
constexpr uint32_t kIbSizeMask = (1u << 20) - 1;
constexpr uint32_t kDwordsRemaining = 0xa;

// The simulator's command buffer encoding.
constexpr uint32_t kRecordMagic = 0x46505352; // "RSPF"
constexpr uint32_t kRecordVersion = 1;
constexpr uint32_t kRecordDwords = 8;
constexpr uint32_t kRecordBytes = kRecordDwords * 4;
constexpr uint32_t kEventsOffset = 3 * kRecordBytes;
constexpr uint32_t kEventDwords = 3;

struct Record {
    uint32_t magic;
    uint32_t op_version; ///< op | version << 16
    uint32_t event_count;
    uint32_t output_bytes;
    uint64_t events; ///< address of event_count (block, index, counter) dword triples
    uint64_t output; ///< address of the output buffer
};
static_assert(sizeof(Record) == kRecordBytes);

uint32_t record_offset(ProfileOp op) {
    return (static_cast<uint32_t>(op) - 1) * kRecordBytes;
}

} // namespace

uint32_t profile_command_bytes(uint32_t event_count) {
    return kEventsOffset + event_count * kEventDwords * 4;
}

void write_profile_commands(const hsa_ven_amd_aqlprofile_profile_t& profile) {
    auto* base = static_cast<uint8_t*>(profile.command_buffer.ptr);
    auto* events = reinterpret_cast<uint32_t*>(base + kEventsOffset);
    for (uint32_t i = 0; i < profile.event_count; ++i) {
        events[i * kEventDwords] = static_cast<uint32_t>(profile.events[i].block_name);
        events[i * kEventDwords + 1] = profile.events[i].block_index;
        events[i * kEventDwords + 2] = profile.events[i].counter_id;
    }
    for (const ProfileOp op : {ProfileOp::start, ProfileOp::stop, ProfileOp::read}) {
        Record r{};
        r.magic = kRecordMagic;
        r.op_version = static_cast<uint32_t>(op) | kRecordVersion << 16;
        r.event_count = profile.event_count;
        r.output_bytes = profile.output_buffer.size;
        r.events = reinterpret_cast<uint64_t>(events);
        r.output = reinterpret_cast<uint64_t>(profile.output_buffer.ptr);
        std::memcpy(base + record_offset(op), &r, sizeof(r));
    }
}

bool profile_commands_written(const hsa_ven_amd_aqlprofile_profile_t& profile) {
    if (!profile.command_buffer.ptr ||
        profile.command_buffer.size < profile_command_bytes(profile.event_count)) {
        return false;
    }
    Record r;
    std::memcpy(&r, profile.command_buffer.ptr, sizeof(r));
    return r.magic == kRecordMagic && r.event_count == profile.event_count;
}

void fill_profile_packet(const hsa_ven_amd_aqlprofile_profile_t& profile, ProfileOp op,
                         hsa_ext_amd_aql_pm4_packet_t* packet) {
    const auto ib =
        reinterpret_cast<uint64_t>(static_cast<uint8_t*>(profile.command_buffer.ptr) + record_offset(op));
    Pm4IbBody body{};
    body.ven_hdr = kAmdAqlFormatPm4Ib;
    body.ib_jump_cmd[0] = pm4_header(kPm4IndirectBuffer, 4);
    body.ib_jump_cmd[1] = static_cast<uint32_t>(ib) & ~3u;
    body.ib_jump_cmd[2] = static_cast<uint32_t>(ib >> 32) & 0xffff;
    body.ib_jump_cmd[3] = kRecordDwords | kIbValid;
    body.dw_cnt_remain = kDwordsRemaining;
    std::memcpy(packet->pm4_command, &body, sizeof(body));
}

bool execute_profile_packet(const void* packet, Agent& agent, std::string& error) {
    Pm4IbBody body;
    std::memcpy(&body, static_cast<const uint8_t*>(packet) + 2, sizeof(body));
    if (body.ib_jump_cmd[0] != pm4_header(kPm4IndirectBuffer, 4) || (body.ib_jump_cmd[3] & kIbValid) == 0) {
        error = "PM4-IB packet without a valid INDIRECT_BUFFER command";
        return false;
    }
    const uint64_t ib = (body.ib_jump_cmd[1] & ~3u) | static_cast<uint64_t>(body.ib_jump_cmd[2] & 0xffff)
                                                          << 32;
    if (ib == 0 || (body.ib_jump_cmd[3] & kIbSizeMask) < kRecordDwords) {
        error = "PM4-IB packet whose indirect buffer is not an aqlprofile command of the simulator";
        return false;
    }
    Record r;
    std::memcpy(&r, reinterpret_cast<const void*>(ib), sizeof(r));
    const uint32_t op = r.op_version & 0xffff;
    if (r.magic != kRecordMagic || r.op_version >> 16 != kRecordVersion || op < 1 || op > 3) {
        error = "PM4-IB packet whose indirect buffer is not an aqlprofile command of the simulator";
        return false;
    }
    switch (static_cast<ProfileOp>(op)) {
    case ProfileOp::start:
        agent.perf_counters.start();
        return true;
    case ProfileOp::stop:
        agent.perf_counters.stop();
        return true;
    case ProfileOp::read:
        break;
    }
    if (r.output == 0 || r.output_bytes < profile_output_bytes(r.event_count)) {
        error = "aqlprofile READ with an output buffer too small for its events";
        return false;
    }
    const auto* events = reinterpret_cast<const uint32_t*>(r.events);
    auto* out = reinterpret_cast<uint64_t*>(r.output);
    for (uint32_t i = 0; i < r.event_count; ++i) {
        hsa_ven_amd_aqlprofile_event_t e{};
        e.block_name = static_cast<hsa_ven_amd_aqlprofile_block_name_t>(events[i * kEventDwords]);
        e.block_index = events[i * kEventDwords + 1];
        e.counter_id = events[i * kEventDwords + 2];
        const uint64_t value = read_counter_event(agent.perf_counters, e);
        std::memcpy(out + i, &value, sizeof(value));
    }
    return true;
}

} // namespace sim
