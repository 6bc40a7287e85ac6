// SPDX-License-Identifier: MIT
#include "dispatcher.h"

#include "wave.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sim::isa {

namespace {

constexpr uint32_t kScratchWaveAlign = 1024;
constexpr uint32_t kRegistersPerFile = 256;
constexpr uint32_t kInstructionsBetweenPolls = 65536;

unsigned host_threads(unsigned requested) {
    if (const char* env = std::getenv("HSA_SIM_ISA_THREADS")) {
        const long n = std::strtol(env, nullptr, 10);
        if (n > 0 && n <= 256) {
            return static_cast<unsigned>(n);
        }
    }
    if (requested) {
        return requested;
    }
    const unsigned cores = std::thread::hardware_concurrency();
    return cores ? cores : 1;
}

/// State shared by the host threads of one dispatch.
struct Shared {
    const DispatchContext* context = nullptr;
    const DispatchRequest* request = nullptr;
    uint32_t groups[3] = {1, 1, 1};
    uint64_t group_count = 0;
    uint32_t waves_per_group = 1;
    std::atomic<uint64_t> next_group{0};
    std::atomic<bool> stop{false};
    std::mutex error_mutex;
    DispatchStats stats; ///< summed by the slots as they finish (under error_mutex)
    DispatchResult result = DispatchResult::completed;
    std::string error;

    void fail(DispatchResult r, const std::string& why) {
        std::lock_guard lock(error_mutex);
        if (result == DispatchResult::completed) {
            result = r;
            error = why;
        }
        stop.store(true, std::memory_order_relaxed);
    }
};

/// One host thread's waves, registers and LDS, reused from work-group to work-group.
struct Slot {
    uint32_t index = 0;
    DispatchStats stats;
    std::vector<Wave> waves;
    std::unique_ptr<uint32_t[][kLanes]> registers;
    std::vector<uint8_t> lds;
};

bool cancelled(Shared& shared) {
    if (shared.stop.load(std::memory_order_relaxed)) {
        return true;
    }
    if (shared.request->cancelled && shared.request->cancelled()) {
        shared.fail(DispatchResult::cancelled, "the queue is being destroyed");
        return true;
    }
    return false;
}

void run_wave(Wave& w, Shared& shared) {
    const Instruction* code = w.program->code.data();
    const auto count = static_cast<uint32_t>(w.program->code.size());
    uint32_t budget = kInstructionsBetweenPolls;
    while (w.status == WaveStatus::running) {
        if (w.pc >= count) {
            w.status = WaveStatus::faulted;
            w.fault = "the program counter left the code object's code";
            return;
        }
        const Instruction& in = code[w.pc++];
        ++w.unit_counts[static_cast<int>(in.unit)];
        if (in.unit == Unit::valu) {
            const uint64_t exec = w.exec();
            w.valu_lanes += exec == ~0ull ? kLanes : static_cast<uint64_t>(__builtin_popcountll(exec));
        }
        in.execute(w, in);
        if (--budget == 0) {
            budget = kInstructionsBetweenPolls;
            if (cancelled(shared)) {
                return;
            }
        }
    }
}

void initialise_wave(Wave& w, const DispatchContext& ctx, const uint32_t group[3], const uint32_t size[3],
                     uint32_t wave_index, uint32_t items, uint64_t scratch_offset) {
    const Kernel& kernel = *ctx.kernel;
    const KernelDescriptor& kd = kernel.descriptor;
    std::fill(std::begin(w.sgpr), std::end(w.sgpr), 0u);
    w.scc = false;
    w.status = WaveStatus::running;
    w.pc = static_cast<uint32_t>(kernel.entry);
    w.fault.clear();
    std::fill(std::begin(w.unit_counts), std::end(w.unit_counts), uint64_t{0});
    w.valu_lanes = 0;
    w.dispatch = &ctx;
    w.program = kernel.program.get();
    w.wave_in_group = wave_index;
    w.scratch_offset = scratch_offset;
    w.mode = (kd.compute_pgm_rsrc1 >> 12 & 0xff) | (kd.dx10_clamp() ? 1u << 8 : 0) |
             (kd.ieee_mode() ? 1u << 9 : 0);
    w.trapsts = 0;
    const uint32_t lanes = std::min<uint32_t>(kLanes, items - wave_index * kLanes);
    w.set_exec(lanes == kLanes ? ~0ull : (1ull << lanes) - 1);

    // User SGPRs in their architected order (AMDGPUUsage, "Initial Kernel Execution State").
    uint32_t s = 0;
    const uint16_t props = kd.kernel_code_properties;
    const auto scratch = reinterpret_cast<uint64_t>(ctx.scratch);
    auto put64 = [&](uint64_t v) {
        w.sgpr[s++] = static_cast<uint32_t>(v);
        w.sgpr[s++] = static_cast<uint32_t>(v >> 32);
    };
    if (props & (1u << 0)) {
        // Private segment buffer: a swizzled V# over the scratch backing store (4-byte elements, index
        // stride 64, thread id added), the wave's offset in the system SGPR below.
        put64(scratch & 0x0000ffffffffffffull);
        w.sgpr[s - 1] |= 1u << 31;             // SWIZZLE_ENABLE
        w.sgpr[s++] = 0xffffffffu;             // NUM_RECORDS
        w.sgpr[s++] = (3u << 21) | (1u << 23); // INDEX_STRIDE 64, ADD_TID_ENABLE
    }
    if (props & (1u << 1)) {
        put64(ctx.packet_address);
    }
    if (props & (1u << 2)) {
        put64(ctx.queue_address);
    }
    if (props & (1u << 3)) {
        put64(ctx.kernarg_address);
    }
    if (props & (1u << 4)) {
        put64(ctx.dispatch_id);
    }
    if (props & (1u << 5)) {
        put64(scratch);
    }
    if (props & (1u << 6)) {
        w.sgpr[s++] = ctx.private_segment_size;
    }
    // System SGPRs follow the user SGPRs the descriptor counts.
    s = kd.user_sgpr_count();
    for (int d = 0; d < 3; ++d) {
        if (kd.workgroup_id_enabled(d)) {
            w.sgpr[s++] = group[d];
        }
    }
    if (kd.workgroup_info_enabled()) {
        w.sgpr[s++] = 0;
    }
    if (kd.private_segment_wave_offset_enabled()) {
        w.sgpr[s++] = static_cast<uint32_t>(scratch_offset);
    }
    // Work-item ids packed into v0 (GFX90A): x in bits 0-9, y in 10-19, z in 20-29.
    const uint32_t vgprs = std::min(kd.vgpr_count(), kRegistersPerFile);
    for (uint32_t r = 0; r < vgprs; ++r) {
        std::fill(std::begin(w.vgpr[r]), std::end(w.vgpr[r]), 0u);
    }
    const uint32_t agprs = kd.vgpr_count() > kd.accum_offset() ? kd.vgpr_count() - kd.accum_offset() : 0;
    for (uint32_t r = 0; r < std::min(agprs, kRegistersPerFile); ++r) {
        std::fill(std::begin(w.agpr[r]), std::end(w.agpr[r]), 0u);
    }
    const uint32_t id_dims = kd.workitem_id_vgprs();
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
        const uint32_t flat = wave_index * kLanes + lane;
        const uint32_t x = flat % size[0];
        const uint32_t y = id_dims >= 1 ? (flat / size[0]) % size[1] : 0;
        const uint32_t z = id_dims >= 2 ? flat / (size[0] * size[1]) : 0;
        w.vgpr[0][lane] = lane < lanes ? (x | y << 10 | z << 20) : 0;
    }
}

void run_group(Shared& shared, Slot& slot, uint64_t linear) {
    const DispatchContext& ctx = *shared.context;
    uint32_t group[3];
    group[0] = static_cast<uint32_t>(linear % shared.groups[0]);
    group[1] = static_cast<uint32_t>((linear / shared.groups[0]) % shared.groups[1]);
    group[2] = static_cast<uint32_t>(linear / (static_cast<uint64_t>(shared.groups[0]) * shared.groups[1]));
    uint32_t size[3];
    for (int d = 0; d < 3; ++d) {
        size[d] = std::min(ctx.workgroup[d], ctx.grid[d] - group[d] * ctx.workgroup[d]);
    }
    const uint32_t items = size[0] * size[1] * size[2];
    const uint32_t waves = (items + kLanes - 1) / kLanes;
    std::fill(slot.lds.begin(), slot.lds.end(), uint8_t{0});
    for (uint32_t i = 0; i < waves; ++i) {
        Wave& w = slot.waves[i];
        w.vgpr = &slot.registers[static_cast<size_t>(i) * 2 * kRegistersPerFile];
        w.agpr = w.vgpr + kRegistersPerFile;
        w.vgpr_count = kRegistersPerFile;
        w.lds = slot.lds.data();
        w.lds_size = static_cast<uint32_t>(slot.lds.size());
        const uint64_t offset =
            (static_cast<uint64_t>(slot.index) * shared.waves_per_group + i) * ctx.scratch_wave_bytes;
        initialise_wave(w, ctx, group, size, i, items, offset);
    }
    for (;;) {
        uint32_t ended = 0, waiting = 0;
        for (uint32_t i = 0; i < waves; ++i) {
            Wave& w = slot.waves[i];
            if (w.status == WaveStatus::running) {
                run_wave(w, shared);
            }
            if (shared.stop.load(std::memory_order_relaxed)) {
                return;
            }
            if (w.status == WaveStatus::faulted) {
                char where[160];
                std::snprintf(where, sizeof(where), "wave %u of work-group (%u, %u, %u)", i, group[0],
                              group[1], group[2]);
                shared.fail(DispatchResult::faulted,
                            "kernel " + ctx.kernel->name + ": " + where + ": " + w.fault);
                return;
            }
            ended += w.status == WaveStatus::ended ? 1 : 0;
            waiting += w.status == WaveStatus::barrier ? 1 : 0;
        }
        if (ended == waves) {
            slot.stats.work_groups += 1;
            slot.stats.waves += waves;
            for (uint32_t i = 0; i < waves; ++i) {
                for (int u = 0; u < kUnitCount; ++u) {
                    slot.stats.unit_counts[u] += slot.waves[i].unit_counts[u];
                }
                slot.stats.valu_lanes += slot.waves[i].valu_lanes;
            }
            return;
        }
        if (waiting + ended == waves) {
            // Every wave still running reached s_barrier: release them all.
            for (uint32_t i = 0; i < waves; ++i) {
                if (slot.waves[i].status == WaveStatus::barrier) {
                    slot.waves[i].status = WaveStatus::running;
                }
            }
        }
    }
}

void run_slot(Shared& shared, uint32_t index) {
    Slot slot;
    slot.index = index;
    slot.waves.resize(shared.waves_per_group);
    slot.registers.reset(
        new uint32_t[static_cast<size_t>(shared.waves_per_group) * 2 * kRegistersPerFile][kLanes]);
    slot.lds.resize(shared.context->group_segment_size);
    for (;;) {
        if (cancelled(shared)) {
            return;
        }
        const uint64_t g = shared.next_group.fetch_add(1, std::memory_order_relaxed);
        if (g >= shared.group_count) {
            break;
        }
        run_group(shared, slot, g);
    }
    std::lock_guard lock(shared.error_mutex);
    for (int u = 0; u < kUnitCount; ++u) {
        shared.stats.unit_counts[u] += slot.stats.unit_counts[u];
    }
    shared.stats.valu_lanes += slot.stats.valu_lanes;
    shared.stats.waves += slot.stats.waves;
    shared.stats.work_groups += slot.stats.work_groups;
}

} // namespace

void fault(Wave& wave, const Instruction& instruction, const std::string& why) {
    wave.status = WaveStatus::faulted;
    const Program* p = wave.program;
    const auto index = static_cast<size_t>(&instruction - p->code.data());
    char pc[64];
    std::snprintf(pc, sizeof(pc), "pc 0x%llx",
                  static_cast<unsigned long long>(p->base_address + instruction.address));
    wave.fault =
        std::string(pc) + " (" + (index < p->text.size() ? p->text[index] : std::string("?")) + "): " + why;
}

DispatchResult run_dispatch(const Kernel& kernel, const DispatchRequest& request, std::string& error) {
    const hsa_kernel_dispatch_packet_t& packet = *request.packet;
    if (!kernel.program || kernel.entry < 0) {
        error = "kernel " + kernel.name + ": its code could not be decoded";
        return DispatchResult::faulted;
    }
    DispatchContext ctx;
    ctx.kernel = &kernel;
    ctx.kernarg_address = reinterpret_cast<uint64_t>(packet.kernarg_address);
    ctx.packet_address = reinterpret_cast<uint64_t>(&packet);
    ctx.queue_address = request.queue_address;
    ctx.dispatch_id = request.dispatch_id;
    ctx.dimensions = (packet.setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) & 3;
    const uint32_t grid[3] = {packet.grid_size_x, packet.grid_size_y, packet.grid_size_z};
    const uint32_t wg[3] = {packet.workgroup_size_x, packet.workgroup_size_y, packet.workgroup_size_z};
    Shared shared;
    shared.context = &ctx;
    shared.request = &request;
    shared.group_count = 1;
    for (int d = 0; d < 3; ++d) {
        ctx.grid[d] = std::max<uint32_t>(grid[d], 1);
        ctx.workgroup[d] = std::max<uint16_t>(static_cast<uint16_t>(wg[d]), 1);
        shared.groups[d] = (ctx.grid[d] + ctx.workgroup[d] - 1) / ctx.workgroup[d];
        shared.group_count *= shared.groups[d];
    }
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) {
        return DispatchResult::completed; // an empty grid runs nothing
    }
    const uint32_t items = ctx.workgroup[0] * ctx.workgroup[1] * ctx.workgroup[2];
    shared.waves_per_group = (items + kLanes - 1) / kLanes;
    ctx.group_segment_size = std::max(kernel.descriptor.group_segment_fixed_size, packet.group_segment_size);
    ctx.private_segment_size =
        std::max(kernel.descriptor.private_segment_fixed_size, packet.private_segment_size);
    ctx.scratch_wave_bytes =
        (static_cast<uint64_t>(ctx.private_segment_size) * kLanes + kScratchWaveAlign - 1) /
        kScratchWaveAlign * kScratchWaveAlign;
    const unsigned threads =
        static_cast<unsigned>(std::min<uint64_t>(host_threads(request.threads), shared.group_count));
    std::unique_ptr<uint8_t[]> scratch;
    if (ctx.scratch_wave_bytes) {
        scratch.reset(new uint8_t[ctx.scratch_wave_bytes * shared.waves_per_group * threads]());
        ctx.scratch = scratch.get();
    }
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) {
        pool.emplace_back(run_slot, std::ref(shared), t);
    }
    run_slot(shared, 0);
    for (auto& t : pool) {
        t.join();
    }
    error = shared.error;
    if (request.stats) {
        *request.stats = shared.stats;
    }
    return shared.result;
}

} // namespace sim::isa
