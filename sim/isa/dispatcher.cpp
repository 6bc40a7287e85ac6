// SPDX-License-Identifier: MIT
#include "dispatcher.h"

#include "gws.h"
#include "memory_access.h"
#include "perf_counters.h"
#include "perf_events.h"
#include "wave.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sim::isa {

namespace {

constexpr uint32_t kScratchWaveAlign = 1024;
constexpr uint32_t kRegistersPerFile = 256;
constexpr uint32_t kInstructionsBetweenPolls = 65536;
// A gfx90a compute unit (CDNA2 ISA chapter 2; HIP's occupancy calculator uses the same figures): 4 SIMDs
// of at most 8 waves, 512 VGPRs per SIMD lane in granules of 8, 64 KiB of LDS.
constexpr uint32_t kSimdsPerComputeUnit = 4;
constexpr uint32_t kWavesPerSimd = 8;
constexpr uint32_t kVgprsPerSimd = 512;
constexpr uint32_t kLdsPerComputeUnit = 64 * 1024;
/// How long a host thread whose waves all wait at GWS sleeps before it polls for cancellation.
constexpr std::chrono::milliseconds kGwsPoll{50};

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
    bool cooperative = false;
    unsigned threads = 1;
    uint32_t vgprs = kRegistersPerFile; ///< registers per wave of a cooperative dispatch
    uint32_t agprs = kRegistersPerFile;
    std::atomic<bool> stop{false};
    std::mutex error_mutex;
    DispatchStats stats; ///< summed by the slots as they finish (under error_mutex)
    /// Cycle model, while counting: cycles of the work-groups each compute unit ran, summed.
    std::unique_ptr<std::atomic<uint64_t>[]> cu_cycles;
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
    std::vector<WaveCounts> counts; ///< one per wave while counting
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

// ---- Wild addresses ----
//
// A global or flat address outside every mapping faults on the host as on the GPU. Checking each lane's
// address against the runtime's allocations would cost every memory instruction a search, and would have
// to know every region a kernel may reach (pool and locked memory, code objects, kernargs, queues,
// signals, SVM ranges); the host's memory management unit checks for free. So a thread running a wave
// keeps where to resume, and a SIGSEGV or SIGBUS raised while it executes an instruction ends that wave
// (a fault of the dispatch, which the queue reports naming kernel, wave, instruction and lane) instead of
// the process. A signal of any other thread, or outside a wave, goes to the handler installed before.

/// Where this thread resumes when an instruction of the wave it runs touches unmapped memory.
struct WildAccess {
    sigjmp_buf resume;
    volatile sig_atomic_t armed = 0;
    void* volatile address = nullptr; ///< si_addr of the fault
};
thread_local WildAccess t_wild;

std::mutex g_fault_handler_mutex;
struct sigaction g_previous_segv = {}, g_previous_bus = {};

void on_memory_fault(int number, siginfo_t* info, void* context) {
    WildAccess& wild = t_wild;
    if (wild.armed) {
        wild.armed = 0;
        wild.address = info->si_addr;
        siglongjmp(wild.resume, 1);
    }
    const struct sigaction& previous = number == SIGSEGV ? g_previous_segv : g_previous_bus;
    if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction) {
        previous.sa_sigaction(number, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(number);
    } else {
        // Returning re-executes the access, which faults again with the default action.
        struct sigaction fallback = {};
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        sigaction(number, &fallback, nullptr);
    }
}

/// Installs on_memory_fault for SIGSEGV and SIGBUS unless it is installed (a program may have replaced it
/// since the last dispatch: test frameworks install their own handlers around each test and restore the
/// ones they found afterwards), and unblocks both in the calling thread, whose wave threads inherit its
/// mask: a fault raised while its signal is blocked kills the process (the thread running the queue may
/// descend from a runtime thread that blocks every signal). Once per dispatch.
void install_fault_handler() {
    sigset_t faults;
    sigemptyset(&faults);
    sigaddset(&faults, SIGSEGV);
    sigaddset(&faults, SIGBUS);
    pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
    std::lock_guard lock(g_fault_handler_mutex);
    for (const int number : {SIGSEGV, SIGBUS}) {
        struct sigaction current = {};
        if (sigaction(number, nullptr, &current) != 0 ||
            ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == on_memory_fault)) {
            continue;
        }
        struct sigaction handler = {};
        handler.sa_sigaction = on_memory_fault;
        // SA_NODEFER: the handler leaves by siglongjmp without restoring the signal mask (sigsetjmp(.., 0)
        // saves none, which keeps arming a wave free of system calls).
        handler.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
        sigemptyset(&handler.sa_mask);
        sigaction(number, &handler, number == SIGSEGV ? &g_previous_segv : &g_previous_bus);
    }
}

/// Why the wave faulted at `in` on an access to unmapped `address`: the lane whose access contains it,
/// when `in` is a global or flat instruction (its addresses computed again: a faulting lane wrote
/// nothing yet).
std::string describe_wild_access(const Wave& w, const Instruction& in, const void* address) {
    const auto at = reinterpret_cast<uint64_t>(address);
    char text[96];
    std::snprintf(text, sizeof(text), "memory access at 0x%llx, which no allocation maps",
                  static_cast<unsigned long long>(at));
    std::string why = text;
    const Program& p = *w.program;
    const auto index = static_cast<size_t>(&in - p.code.data());
    const std::string& mnemonic = index < p.text.size() ? p.text[index] : std::string();
    const bool global = mnemonic.rfind("global_", 0) == 0, flat = mnemonic.rfind("flat_", 0) == 0;
    if (!global && !flat) {
        return why;
    }
    VectorAccess a;
    compute_addresses(w, in, global ? Segment::global : Segment::flat, a);
    const uint64_t exec = w.exec();
    for (int lane = 0; lane < kLanes; ++lane) {
        if (((exec >> lane) & 1) != 0 && at >= a.address[lane] && at - a.address[lane] < 16) {
            return why + " (lane " + std::to_string(lane) + ")";
        }
    }
    return why;
}

void execute_wave(Wave& w, Shared& shared) {
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
        if (w.counts) {
            count_instruction(w, in);
        }
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

/// Runs the wave until it ends, waits or faults; an access to unmapped memory faults it (see above).
void run_wave(Wave& w, Shared& shared) {
    if (sigsetjmp(t_wild.resume, 0) != 0) {
        const Instruction& in = w.program->code[w.pc - 1];
        fault(w, in, describe_wild_access(w, in, t_wild.address));
        return;
    }
    t_wild.armed = 1;
    execute_wave(w, shared);
    t_wild.armed = 0;
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
    w.gws_wait = GwsWait::none;
    std::fill(std::begin(w.unit_counts), std::end(w.unit_counts), uint64_t{0});
    w.valu_lanes = 0;
    if (w.counts) {
        w.counts->clear();
    }
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

/// One work-group's waves while it runs.
struct Group {
    uint32_t id[3] = {0, 0, 0};
    uint32_t wave_count = 0;
    Wave* waves = nullptr;
    bool done = false;
};

/// Sets up work-group `linear`: its waves at `waves` with `vgprs` + `agprs` registers each from
/// `registers`, its LDS at `lds` (zeroed), its waves' scratch from wave slot `first_scratch_slot` on.
void setup_group(Shared& shared, uint64_t linear, Wave* waves, uint32_t (*registers)[kLanes], uint32_t vgprs,
                 uint32_t agprs, uint8_t* lds, uint64_t first_scratch_slot, Group& g, WaveCounts* counts) {
    const DispatchContext& ctx = *shared.context;
    g.id[0] = static_cast<uint32_t>(linear % shared.groups[0]);
    g.id[1] = static_cast<uint32_t>((linear / shared.groups[0]) % shared.groups[1]);
    g.id[2] = static_cast<uint32_t>(linear / (static_cast<uint64_t>(shared.groups[0]) * shared.groups[1]));
    uint32_t size[3];
    for (int d = 0; d < 3; ++d) {
        size[d] = std::min(ctx.workgroup[d], ctx.grid[d] - g.id[d] * ctx.workgroup[d]);
    }
    const uint32_t items = size[0] * size[1] * size[2];
    g.wave_count = (items + kLanes - 1) / kLanes;
    g.waves = waves;
    g.done = false;
    std::fill(lds, lds + ctx.group_segment_size, uint8_t{0});
    for (uint32_t i = 0; i < g.wave_count; ++i) {
        Wave& w = waves[i];
        w.vgpr = &registers[static_cast<size_t>(i) * (vgprs + agprs)];
        w.agpr = w.vgpr + vgprs;
        w.vgpr_count = vgprs;
        w.lds = lds;
        w.lds_size = ctx.group_segment_size;
        w.counts = counts ? &counts[i] : nullptr;
        w.compute_unit = static_cast<uint32_t>(linear % kPerfComputeUnits);
        initialise_wave(w, ctx, g.id, size, i, items, (first_scratch_slot + i) * ctx.scratch_wave_bytes);
    }
}

/// True when the GWS wait of `w` is over (its barrier completed, or its semaphore gave it a count).
bool gws_released(Wave& w) {
    GwsState& gws = *w.dispatch->gws;
    return w.gws_wait == GwsWait::barrier ? gws.barrier_released(w.gws_resource, w.gws_generation)
                                          : gws.sema_retry(w.gws_resource);
}

enum class Step { progressed, blocked, ended, stopped };

/// Runs each wave of the group that can run until it waits or ends, releases an s_barrier every wave
/// left reached, and resumes waves whose GWS wait is over. Adds an ended group's counts to `stats`.
Step step_group(Shared& shared, Group& g, DispatchStats& stats) {
    bool progressed = false;
    uint32_t ended = 0, waiting = 0;
    for (uint32_t i = 0; i < g.wave_count; ++i) {
        Wave& w = g.waves[i];
        if (w.status == WaveStatus::gws && gws_released(w)) {
            w.status = WaveStatus::running;
            w.gws_wait = GwsWait::none;
        }
        if (w.status == WaveStatus::running) {
            run_wave(w, shared);
            progressed = true;
        }
        if (shared.stop.load(std::memory_order_relaxed)) {
            return Step::stopped;
        }
        if (w.status == WaveStatus::faulted) {
            char where[160];
            std::snprintf(where, sizeof(where), "wave %u of work-group (%u, %u, %u)", i, g.id[0], g.id[1],
                          g.id[2]);
            shared.fail(DispatchResult::faulted,
                        "kernel " + shared.context->kernel->name + ": " + where + ": " + w.fault);
            return Step::stopped;
        }
        ended += w.status == WaveStatus::ended ? 1 : 0;
        waiting += w.status == WaveStatus::barrier ? 1 : 0;
    }
    if (ended == g.wave_count) {
        g.done = true;
        if (shared.cu_cycles && g.wave_count > 0) {
            // The waves of a work-group run side by side on their compute unit's SIMDs: the group takes
            // as long as its longest wave.
            const DispatchContext& ctx = *shared.context;
            uint64_t longest = 0;
            for (uint32_t i = 0; i < g.wave_count; ++i) {
                longest = std::max(longest, g.waves[i].counts->cycles);
                ctx.counters->add_wave(ctx.counter_session, *g.waves[i].counts, g.waves[i].compute_unit);
            }
            shared.cu_cycles[g.waves[0].compute_unit].fetch_add(longest, std::memory_order_relaxed);
        }
        stats.work_groups += 1;
        stats.waves += g.wave_count;
        for (uint32_t i = 0; i < g.wave_count; ++i) {
            for (int u = 0; u < kUnitCount; ++u) {
                stats.unit_counts[u] += g.waves[i].unit_counts[u];
            }
            stats.valu_lanes += g.waves[i].valu_lanes;
        }
        return Step::ended;
    }
    if (waiting + ended == g.wave_count) {
        // Every wave still running reached s_barrier: release them all.
        for (uint32_t i = 0; i < g.wave_count; ++i) {
            if (g.waves[i].status == WaveStatus::barrier) {
                g.waves[i].status = WaveStatus::running;
            }
        }
        return Step::progressed;
    }
    return progressed ? Step::progressed : Step::blocked;
}

void run_group(Shared& shared, Slot& slot, uint64_t linear) {
    Group g;
    setup_group(shared, linear, slot.waves.data(), slot.registers.get(), kRegistersPerFile, kRegistersPerFile,
                slot.lds.data(), static_cast<uint64_t>(slot.index) * shared.waves_per_group, g,
                slot.counts.empty() ? nullptr : slot.counts.data());
    for (;;) {
        switch (step_group(shared, g, slot.stats)) {
        case Step::progressed:
            break;
        case Step::ended:
        case Step::stopped:
            return;
        case Step::blocked:
            // Only a cooperative dispatch lets a wave wait at GWS (ops_lds.cpp faults it otherwise).
            shared.fail(DispatchResult::faulted,
                        "kernel " + shared.context->kernel->name + ": no wave of a work-group can run");
            return;
        }
    }
}

void add_stats(Shared& shared, const DispatchStats& stats) {
    std::lock_guard lock(shared.error_mutex);
    for (int u = 0; u < kUnitCount; ++u) {
        shared.stats.unit_counts[u] += stats.unit_counts[u];
    }
    shared.stats.valu_lanes += stats.valu_lanes;
    shared.stats.waves += stats.waves;
    shared.stats.work_groups += stats.work_groups;
}

/// Why nothing can release the waves of `groups` still waiting: the first GWS wait found.
std::string deadlock_message(Shared& shared, const std::vector<Group>& groups) {
    uint32_t waiting = 0;
    const Wave* first = nullptr;
    for (const Group& g : groups) {
        for (uint32_t i = 0; i < g.wave_count && !g.done; ++i) {
            if (g.waves[i].status == WaveStatus::gws) {
                ++waiting;
                first = first ? first : &g.waves[i];
            }
        }
    }
    std::string why = "kernel " + shared.context->kernel->name + ": ";
    if (!first) {
        return why + "no wave can run and none waits at GWS";
    }
    const uint32_t counter = shared.context->gws->counter(first->gws_resource);
    if (first->gws_wait == GwsWait::barrier) {
        return why + "a grid barrier that can never complete: " + std::to_string(waiting) +
               " waves wait at ds_gws_barrier on GWS resource " + std::to_string(first->gws_resource) +
               ", which needs " + std::to_string(counter + 1) +
               " more arriving waves, and no other wave of the queue can arrive (was the resource "
               "initialised for this grid?)";
    }
    return why + "a semaphore that can never be signalled: " + std::to_string(waiting) +
           " waves wait at ds_gws_sema_p on GWS resource " + std::to_string(first->gws_resource) +
           " and no other wave of the queue can signal it";
}

/// One host thread of a cooperative dispatch: work-groups index, index + threads, ... all resident,
/// their waves run in turn until each waits or ends.
void run_cooperative(Shared& shared, uint32_t index) {
    const DispatchContext& ctx = *shared.context;
    GwsState& gws = *ctx.gws;
    std::vector<uint64_t> ids;
    for (uint64_t g = index; g < shared.group_count; g += shared.threads) {
        ids.push_back(g);
    }
    const size_t wave_slots = ids.size() * shared.waves_per_group;
    const uint32_t per_wave = shared.vgprs + shared.agprs;
    std::vector<Wave> waves(wave_slots);
    std::unique_ptr<uint32_t[][kLanes]> registers(new uint32_t[wave_slots * per_wave][kLanes]);
    std::vector<uint8_t> lds(ids.size() * ctx.group_segment_size);
    std::vector<Group> groups(ids.size());
    std::vector<WaveCounts> counts(shared.cu_cycles ? wave_slots : 0);
    for (size_t k = 0; k < ids.size(); ++k) {
        const size_t first = k * shared.waves_per_group;
        setup_group(shared, ids[k], &waves[first], &registers[first * per_wave], shared.vgprs, shared.agprs,
                    lds.data() + k * ctx.group_segment_size, ids[k] * shared.waves_per_group, groups[k],
                    counts.empty() ? nullptr : &counts[first]);
    }
    DispatchStats stats;
    size_t left = groups.size();
    while (left > 0) {
        const uint64_t epoch = gws.epoch();
        bool progressed = false;
        for (Group& g : groups) {
            if (g.done) {
                continue;
            }
            const Step step = step_group(shared, g, stats);
            if (step == Step::stopped) {
                gws.leave();
                return;
            }
            left -= step == Step::ended ? 1 : 0;
            progressed = progressed || step != Step::blocked;
        }
        if (progressed || left == 0) {
            continue;
        }
        // Every wave of this thread waits at GWS (or at s_barrier behind one): only another wave's GWS
        // instruction can release them.
        if (cancelled(shared)) {
            gws.leave();
            return;
        }
        if (gws.wait_for_change(epoch, kGwsPoll) == GwsState::Wait::deadlock) {
            shared.fail(DispatchResult::faulted, deadlock_message(shared, groups));
            gws.leave();
            return;
        }
    }
    gws.leave();
    add_stats(shared, stats);
}

/// Work-groups of the dispatch the device can hold at once, or 0 when not even one fits.
uint64_t resident_groups(const Shared& shared, const Kernel& kernel, uint32_t compute_units) {
    const uint32_t vgprs = std::max<uint32_t>(kernel.descriptor.vgpr_count(), 8);
    const uint32_t waves_per_cu = kSimdsPerComputeUnit * std::min(kWavesPerSimd, kVgprsPerSimd / vgprs);
    uint64_t per_cu = waves_per_cu / shared.waves_per_group;
    if (shared.context->group_segment_size) {
        per_cu = std::min<uint64_t>(per_cu, kLdsPerComputeUnit / shared.context->group_segment_size);
    }
    return per_cu * compute_units;
}

void run_slot(Shared& shared, uint32_t index) {
    Slot slot;
    slot.index = index;
    slot.waves.resize(shared.waves_per_group);
    if (shared.cu_cycles) {
        slot.counts.resize(shared.waves_per_group);
    }
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
    add_stats(shared, slot.stats);
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
    install_fault_handler();
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
    ctx.gws = request.gws;
    ctx.counters = request.counters;
    ctx.counter_session = request.counters ? request.counters->session() : 0;
    if (ctx.counter_session) {
        shared.cu_cycles.reset(new std::atomic<uint64_t>[kPerfComputeUnits]);
        for (uint32_t c = 0; c < kPerfComputeUnits; ++c) {
            shared.cu_cycles[c].store(0, std::memory_order_relaxed);
        }
    }
    // A kernel that waits at GWS needs every work-group resident; without GWS resources its ds_gws_*
    // instructions fail the dispatch when they execute.
    ctx.cooperative = kernel.grid_sync && request.gws;
    shared.cooperative = ctx.cooperative;
    shared.threads =
        static_cast<unsigned>(std::min<uint64_t>(host_threads(request.threads), shared.group_count));
    if (shared.cooperative) {
        const uint64_t resident = resident_groups(shared, kernel, request.compute_units);
        if (shared.group_count > resident) {
            error = "kernel " + kernel.name + ": its grid of " + std::to_string(shared.group_count) +
                    " work-groups waits at a grid barrier (ds_gws_barrier), which needs them all resident at "
                    "once, but the device holds at most " +
                    std::to_string(resident) + " of them (" + std::to_string(request.compute_units) +
                    " compute units; " + std::to_string(shared.waves_per_group) + " waves, " +
                    std::to_string(kernel.descriptor.vgpr_count()) + " VGPRs and " +
                    std::to_string(ctx.group_segment_size) + " bytes of LDS per work-group)";
            return DispatchResult::faulted;
        }
        shared.vgprs = std::min(kernel.vgprs, kRegistersPerFile);
        shared.agprs = std::min(kernel.agprs, kRegistersPerFile);
    }
    const uint64_t scratch_slots = shared.cooperative
                                       ? shared.group_count * shared.waves_per_group
                                       : static_cast<uint64_t>(shared.waves_per_group) * shared.threads;
    // Zeroed pages come from the kernel on first touch: a cooperative grid's scratch costs what it uses.
    std::unique_ptr<uint8_t, decltype(&std::free)> scratch(nullptr, &std::free);
    if (ctx.scratch_wave_bytes) {
        scratch.reset(static_cast<uint8_t*>(std::calloc(scratch_slots, ctx.scratch_wave_bytes)));
        if (!scratch) {
            error = "kernel " + kernel.name + ": no host memory for " + std::to_string(scratch_slots) +
                    " waves' scratch";
            return DispatchResult::faulted;
        }
        ctx.scratch = scratch.get();
    }
    // Participants of the GWS state join before any of them runs, so none finds itself the only one.
    const bool gws_participant = request.gws && kernel.uses_gws;
    if (gws_participant) {
        for (unsigned t = 0; t < (shared.cooperative ? shared.threads : 1u); ++t) {
            request.gws->join();
        }
    }
    void (*run)(Shared&, uint32_t) = shared.cooperative ? run_cooperative : run_slot;
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < shared.threads; ++t) {
        pool.emplace_back(run, std::ref(shared), t);
    }
    run(shared, 0);
    for (auto& t : pool) {
        t.join();
    }
    if (gws_participant && !shared.cooperative) {
        request.gws->leave();
    }
    error = shared.error;
    if (shared.cu_cycles && shared.result == DispatchResult::completed) {
        // The dispatch lasts as long as its busiest compute unit.
        uint64_t busiest = 0;
        for (uint32_t c = 0; c < kPerfComputeUnits; ++c) {
            busiest = std::max(busiest, shared.cu_cycles[c].load(std::memory_order_relaxed));
        }
        ctx.counters->add_dispatch(ctx.counter_session, shared.stats.waves, shared.stats.work_groups,
                                   busiest);
    }
    if (request.stats) {
        *request.stats = shared.stats;
    }
    return shared.result;
}

} // namespace sim::isa
