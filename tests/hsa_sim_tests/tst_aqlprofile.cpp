// SPDX-License-Identifier: MIT
// The aqlprofile extension of the simulated runtime, used as a profiler uses AMD's library: the table
// from hsa_system_get_major_extension_table, events validated, command and output buffers sized with
// get_info and allocated in the kernarg pool, START / STOP / READ vendor packets submitted around the
// dispatches, values read with iterate_data. The kernels come from aqlprofile/counters.s; every expected
// count is derived here, from that source text (instruction classes, loop trips), from the grid (waves),
// from the bytes copied and from the LDS bank formula, never from the simulator.
#include "sim_test_util.h"

#include <hsa_ven_amd_aqlprofile.h>

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <vector>

using namespace rs_test;

namespace {

using Event = hsa_ven_amd_aqlprofile_event_t;

// gfx90a select values (ROCm rocprofiler-sdk counter_defs.yaml).
constexpr uint32_t kSqWaves = 4, kSqInstsValu = 26, kSqInstsVmemWr = 53, kSqInstsVmemRd = 54,
                   kSqInstsSalu = 56, kSqInstsSmem = 57, kSqInstsLds = 60, kSqInstsBranch = 64,
                   kSqLdsBankConflict = 121;
constexpr uint32_t kGrbmCount = 0, kGrbmGuiActive = 2, kSpiCsnNumThreadgroups = 49, kSpiCsnWave = 52;
constexpr uint32_t kTcpTotalCacheAccesses = 60, kTccRead = 12, kTccWrite = 13, kTccEaWrreq = 26,
                   kTccEaWrreq64b = 27, kTccEaRdreq = 38, kTccEaRdreq32b = 39;
constexpr uint32_t kComputeUnits = 104, kTccChannels = 16;

Event ev(hsa_ven_amd_aqlprofile_block_name_t block, uint32_t counter, uint32_t instance = 0) {
    return Event{block, instance, counter};
}
Event sq(uint32_t counter) {
    return ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQ, counter);
}

/// Counts of one kernel of counters.s, read from its text: instruction classes and cycles of one wave
/// whose loop makes `trips` trips. Cycle model (docs/sim-fidelity.md): vector instructions 4, scalar and
/// program-control instructions 1.
struct SourceCounts {
    uint64_t valu = 0, salu = 0, smem = 0, branch = 0, vmem_rd = 0, vmem_wr = 0, lds = 0, cycles = 0;
};

SourceCounts counts_from_source(const QString& kernel, uint64_t trips) {
    QFile file(QStringLiteral(RS_COUNTERS_S));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        qFatal("cannot read %s", RS_COUNTERS_S);
    }
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    SourceCounts c;
    bool inside = false, loop = false;
    for (QString line : lines) {
        line = line.section(QStringLiteral("//"), 0, 0).trimmed();
        if (!inside) {
            inside = line == kernel + QLatin1Char(':');
            continue;
        }
        if (line == QStringLiteral(".L") + kernel + QStringLiteral("_body:")) {
            loop = true;
            continue;
        }
        if (line.isEmpty() || line.startsWith(QLatin1Char('.'))) {
            continue;
        }
        const QString op = line.section(QLatin1Char(' '), 0, 0);
        const uint64_t n = loop ? trips : 1;
        uint64_t cycles = 1;
        if (op.startsWith(QStringLiteral("v_"))) {
            c.valu += n;
            cycles = 4;
        } else if (op.startsWith(QStringLiteral("global_load"))) {
            c.vmem_rd += n;
            cycles = 4;
        } else if (op.startsWith(QStringLiteral("global_store"))) {
            c.vmem_wr += n;
            cycles = 4;
        } else if (op.startsWith(QStringLiteral("ds_"))) {
            c.lds += n;
            cycles = 4;
        } else if (op.startsWith(QStringLiteral("s_load")) || op.startsWith(QStringLiteral("s_store"))) {
            c.smem += n;
        } else if (op.startsWith(QStringLiteral("s_branch")) || op.startsWith(QStringLiteral("s_cbranch"))) {
            c.branch += n;
        } else if (op == QStringLiteral("s_waitcnt") || op == QStringLiteral("s_endpgm") ||
                   op == QStringLiteral("s_nop")) {
            // program control: issued, counted in no SQ_INSTS_* class
        } else if (op.startsWith(QStringLiteral("s_"))) {
            c.salu += n;
        } else {
            qFatal("unclassified instruction %s", qPrintable(op));
        }
        c.cycles += n * cycles;
        if (op.startsWith(QStringLiteral("s_cbranch"))) {
            loop = false;
        }
        if (op == QStringLiteral("s_endpgm")) {
            return c;
        }
    }
    qFatal("kernel %s not found in counters.s", qPrintable(kernel));
    return c;
}

/// Wavefronts of a 1-D grid: every work-group (the last one partial) in 64-lane waves.
uint64_t waves_of(uint32_t grid, uint32_t workgroup) {
    uint64_t waves = 0;
    for (uint32_t first = 0; first < grid; first += workgroup) {
        waves += (std::min(workgroup, grid - first) + 63) / 64;
    }
    return waves;
}

/// LDS bank-conflict cycles of one wave64 access of 4 bytes at lane * stride, from the bank formula:
/// 32 banks of 4 bytes, bank = (address / 4) mod 32, 32 lanes served per cycle; a cycle whose lanes put n
/// different dwords into one bank costs n - 1 extra cycles.
uint64_t bank_conflicts(uint32_t stride) {
    uint64_t extra = 0;
    for (uint32_t half = 0; half < 2; ++half) {
        std::map<uint32_t, std::set<uint32_t>> bank;
        for (uint32_t lane = half * 32; lane < half * 32 + 32; ++lane) {
            const uint32_t dword = lane * stride / 4;
            bank[dword % 32].insert(dword);
        }
        size_t most = 0;
        for (const auto& [b, dwords] : bank) {
            most = std::max(most, dwords.size());
        }
        extra += most - 1;
    }
    return extra;
}

} // namespace

class TstAqlProfile : public QObject {
    Q_OBJECT

    hsa_ven_amd_aqlprofile_1_00_pfn_t api_{};
    hsa_agent_t gpu_{0}, cpu_{0};
    hsa_queue_t* queue_ = nullptr;
    hsa_amd_memory_pool_t kernarg_pool_{0}, device_pool_{0};
    LoadedCode code_;
    uint64_t count_loop_ = 0, copy_floats_ = 0, lds_strided_ = 0;

    /// A profile with its buffers, allocated as rocprofiler allocates them (host-accessible kernarg pool).
    struct Profile {
        std::vector<Event> events;
        hsa_ven_amd_aqlprofile_profile_t p{};
        hsa_ext_amd_aql_pm4_packet_t start{}, stop{}, read{};
    };

    void make(Profile& profile) {
        auto& p = profile.p;
        p.agent = gpu_;
        p.type = HSA_VEN_AMD_AQLPROFILE_EVENT_TYPE_PMC;
        p.events = profile.events.data();
        p.event_count = static_cast<uint32_t>(profile.events.size());
        uint32_t command = 0, output = 0;
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE,
                                                      &command),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA_SIZE, &output),
                 HSA_STATUS_SUCCESS);
        QVERIFY(command > 0 && output >= 8 * p.event_count);
        QCOMPARE(hsa_amd_memory_pool_allocate(kernarg_pool_, command, 0, &p.command_buffer.ptr),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_allocate(kernarg_pool_, output, 0, &p.output_buffer.ptr),
                 HSA_STATUS_SUCCESS);
        p.command_buffer.size = command;
        p.output_buffer.size = output;
        std::memset(p.output_buffer.ptr, 0xee, output);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_start(&p, &profile.start), HSA_STATUS_SUCCESS);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_stop(&p, &profile.stop), HSA_STATUS_SUCCESS);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_read(&p, &profile.read), HSA_STATUS_SUCCESS);
    }

    void release(Profile& profile) {
        hsa_amd_memory_pool_free(profile.p.command_buffer.ptr);
        hsa_amd_memory_pool_free(profile.p.output_buffer.ptr);
    }

    /// Submits a filled vendor packet as a client does: the header (VENDOR_SPECIFIC) and the completion
    /// signal are the client's.
    void submit(hsa_ext_amd_aql_pm4_packet_t packet, hsa_signal_t completion) {
        packet.completion_signal = completion;
        const uint64_t index = reserve_slot(queue_);
        auto* slot_packet = slot<hsa_ext_amd_aql_pm4_packet_t>(queue_, index);
        std::memcpy(reinterpret_cast<char*>(slot_packet) + 4, reinterpret_cast<const char*>(&packet) + 4, 60);
        publish(queue_, index, packet_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false), packet.pm4_command[0]);
    }

    void wait(hsa_signal_t signal) { QCOMPARE(wait_below_one(signal, 60'000), hsa_signal_value_t{0}); }

    /// The values iterate_data reports, by sample id.
    std::vector<uint64_t> results(const Profile& profile) {
        std::vector<uint64_t> values(profile.events.size(), ~0ull);
        struct Out {
            std::vector<uint64_t>* values;
            const Profile* profile;
            int calls = 0;
            bool events_match = true;
        } out{&values, &profile};
        const hsa_status_t st = api_.hsa_ven_amd_aqlprofile_iterate_data(
            &profile.p,
            [](hsa_ven_amd_aqlprofile_info_type_t type, hsa_ven_amd_aqlprofile_info_data_t* info,
               void* data) {
                auto* o = static_cast<Out*>(data);
                ++o->calls;
                if (type != HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA || info->sample_id >= o->values->size()) {
                    return HSA_STATUS_ERROR;
                }
                const Event& e = o->profile->events[info->sample_id];
                o->events_match = o->events_match && e.block_name == info->pmc_data.event.block_name &&
                                  e.block_index == info->pmc_data.event.block_index &&
                                  e.counter_id == info->pmc_data.event.counter_id;
                (*o->values)[info->sample_id] = info->pmc_data.result;
                return HSA_STATUS_SUCCESS;
            },
            &out);
        if (st != HSA_STATUS_SUCCESS || out.calls != static_cast<int>(profile.events.size()) ||
            !out.events_match) {
            qWarning("iterate_data: status 0x%x, %d calls, events %s", st, out.calls,
                     out.events_match ? "match" : "differ");
            return {};
        }
        return values;
    }

    /// Collects `events` around what `dispatches` submits (on queue_), as START, ..., STOP, READ.
    std::vector<uint64_t> collect(const std::vector<Event>& events, const std::function<void()>& dispatches) {
        Profile profile;
        profile.events = events;
        make(profile);
        if (QTest::currentTestFailed()) {
            return {};
        }
        hsa_signal_t done;
        hsa_signal_create(1, 0, nullptr, &done);
        submit(profile.start, hsa_signal_t{0});
        dispatches();
        submit(profile.stop, hsa_signal_t{0});
        submit(profile.read, done);
        wait(done);
        hsa_signal_destroy(done);
        std::vector<uint64_t> values = results(profile);
        release(profile);
        return values;
    }

    void dispatch_loop(uint32_t grid, uint16_t workgroup, uint32_t trips) {
        auto* kernarg = alloc_kernarg<uint64_t>(cpu_);
        *kernarg = trips;
        dispatch(queue_, count_loop_, kernarg, grid, workgroup, hsa_signal_t{0}, false);
    }

  private Q_SLOTS:
    void initTestCase() {
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.gpus.empty() && !agents.cpus.empty());
        gpu_ = agents.gpus.front();
        cpu_ = agents.cpus.front();
        kernarg_pool_ = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                            HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        device_pool_ = find_pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
        QVERIFY(kernarg_pool_.handle && device_pool_.handle);
        QCOMPARE(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 1, sizeof(api_), &api_),
                 HSA_STATUS_SUCCESS);
        QVERIFY(api_.hsa_ven_amd_aqlprofile_start && api_.hsa_ven_amd_aqlprofile_iterate_data);
        QCOMPARE(hsa_queue_create(gpu_, 256, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX,
                                  &queue_),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(load_code(RS_COUNTERS_CO, gpu_, false, true, &code_), HSA_STATUS_SUCCESS);
        count_loop_ = kernel_object(code_.exe, gpu_, "count_loop.kd");
        copy_floats_ = kernel_object(code_.exe, gpu_, "copy_floats.kd");
        lds_strided_ = kernel_object(code_.exe, gpu_, "lds_strided.kd");
        QVERIFY(count_loop_ && copy_floats_ && lds_strided_);
    }

    void cleanupTestCase() {
        unload_code(&code_);
        if (queue_) {
            hsa_queue_destroy(queue_);
        }
        hsa_shut_down();
    }

    // The extension is reported as ROCr reports it with the aqlprofile library installed.
    void extensionAdvertised() {
        bool supported = false;
        QCOMPARE(hsa_system_extension_supported(HSA_EXTENSION_AMD_AQLPROFILE, 1, 0, &supported),
                 HSA_STATUS_SUCCESS);
        QVERIFY(supported);
        uint16_t minor = 99;
        supported = false;
        QCOMPARE(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_AQLPROFILE, 1, &minor, &supported),
                 HSA_STATUS_SUCCESS);
        QVERIFY(supported);
        uint8_t bits[128] = {};
        QCOMPARE(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_EXTENSIONS, bits), HSA_STATUS_SUCCESS);
        QVERIFY(bits[HSA_EXTENSION_AMD_AQLPROFILE / 8] & (1u << (HSA_EXTENSION_AMD_AQLPROFILE % 8)));
        std::memset(bits, 0, sizeof(bits));
        QCOMPARE(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, bits), HSA_STATUS_SUCCESS);
        QVERIFY(bits[HSA_EXTENSION_AMD_AQLPROFILE / 8] & (1u << (HSA_EXTENSION_AMD_AQLPROFILE % 8)));
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_version_major(), uint32_t{HSA_AQLPROFILE_VERSION_MAJOR});
    }

    void validateEvent() {
        bool valid = false;
        Event e = sq(kSqWaves);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_validate_event(gpu_, &e, &valid), HSA_STATUS_SUCCESS);
        QVERIFY(valid);
        e = sq(9999);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_validate_event(gpu_, &e, &valid), HSA_STATUS_SUCCESS);
        QVERIFY(!valid);
        e = ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC, kTccRead, kTccChannels); // one past the last channel
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_validate_event(gpu_, &e, &valid), HSA_STATUS_SUCCESS);
        QVERIFY(!valid);
        e = ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC, kTccRead, kTccChannels - 1);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_validate_event(gpu_, &e, &valid), HSA_STATUS_SUCCESS);
        QVERIFY(valid);
        e = ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GUS, 0); // a gfx10 block
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_validate_event(gpu_, &e, &valid), HSA_STATUS_SUCCESS);
        QVERIFY(!valid);
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_validate_event(cpu_, &e, &valid),
                 HSA_STATUS_ERROR_INVALID_AGENT);
    }

    // BLOCK_ID by name and BLOCK_COUNTERS of events[0]'s block, as profilers query them.
    void blockQueries() {
        hsa_ven_amd_aqlprofile_profile_t p{};
        p.agent = gpu_;
        hsa_ven_amd_aqlprofile_id_query_t query{"TCC", 0, 0};
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID, &query),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(query.id, uint32_t{HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC});
        QCOMPARE(query.instance_count, kTccChannels);
        query = {"TCP", 0, 0};
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID, &query),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(query.instance_count, kComputeUnits);
        query = {"NOSUCHBLOCK", 0, 0};
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID, &query),
                 HSA_STATUS_ERROR);
        const Event e = sq(kSqWaves);
        p.events = &e;
        p.event_count = 1;
        uint32_t counters = 0;
        QCOMPARE(
            api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_COUNTERS, &counters),
            HSA_STATUS_SUCCESS);
        QCOMPARE(counters, 8u);
    }

    // More events on one block instance than it has counter registers: the profile is refused.
    void tooManyCountersRefused() {
        std::vector<Event> events(9, sq(kSqWaves));
        hsa_ven_amd_aqlprofile_profile_t p{};
        p.agent = gpu_;
        p.type = HSA_VEN_AMD_AQLPROFILE_EVENT_TYPE_PMC;
        p.events = events.data();
        p.event_count = 9;
        uint32_t size = 0;
        QCOMPARE(
            api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE, &size),
            HSA_STATUS_ERROR);
        std::vector<uint8_t> command(4096);
        p.command_buffer = {command.data(), static_cast<uint32_t>(command.size())};
        hsa_ext_amd_aql_pm4_packet_t packet{};
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_start(&p, &packet), HSA_STATUS_ERROR);
        const char* why = nullptr;
        QCOMPARE(api_.hsa_ven_amd_aqlprofile_error_string(&why), HSA_STATUS_SUCCESS);
        QVERIFY(why && std::strstr(why, "SQ"));
        // Eight fit; GRBM has two counters, so three events on it do not.
        p.event_count = 8;
        QCOMPARE(
            api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE, &size),
            HSA_STATUS_SUCCESS);
        const std::vector<Event> grbm(3, ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM, kGrbmCount));
        p.events = grbm.data();
        p.event_count = 3;
        QCOMPARE(
            api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE, &size),
            HSA_STATUS_ERROR);
        // An unknown counter in a profile is refused the same way.
        const Event unknown = sq(9999);
        p.events = &unknown;
        p.event_count = 1;
        QCOMPARE(
            api_.hsa_ven_amd_aqlprofile_get_info(&p, HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE, &size),
            HSA_STATUS_ERROR);
    }

    // The packets start/stop/read fill are PM4-IB vendor packets: AmdFormat 1, an INDIRECT_BUFFER.
    void packetsArePm4IndirectBuffers() {
        Profile profile;
        profile.events = {sq(kSqWaves)};
        make(profile);
        for (const auto* packet : {&profile.start, &profile.stop, &profile.read}) {
            QCOMPARE(packet->pm4_command[0], uint16_t{1});
            uint32_t ib[4];
            std::memcpy(ib, reinterpret_cast<const char*>(packet) + 4, sizeof(ib));
            QCOMPARE(ib[0] >> 30, 3u);            // PM4 type 3
            QCOMPARE((ib[0] >> 8) & 0xff, 0x3fu); // INDIRECT_BUFFER
            const uint64_t address = (ib[1] & ~3u) | static_cast<uint64_t>(ib[2] & 0xffff) << 32;
            const auto base = reinterpret_cast<uint64_t>(profile.p.command_buffer.ptr);
            QVERIFY(address >= base && address < base + profile.p.command_buffer.size);
            QVERIFY(ib[3] & (1u << 23)); // valid
        }
        release(profile);
    }

    // SQ_WAVES (and the SPI's wave and work-group counts) are the grid's wavefronts.
    void wavesOfGrid() {
        const uint32_t grid = 1000, trips = 3;
        const uint16_t workgroup = 192;
        const auto values = collect({sq(kSqWaves), ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SPI, kSpiCsnWave),
                                     ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SPI, kSpiCsnNumThreadgroups)},
                                    [&] { dispatch_loop(grid, workgroup, trips); });
        QCOMPARE(values.size(), size_t{3});
        QCOMPARE(values[0], waves_of(grid, workgroup));
        QCOMPARE(values[1], waves_of(grid, workgroup));
        QCOMPARE(values[2], uint64_t{(grid + workgroup - 1) / workgroup});
    }

    // Instruction classes: the counts of count_loop's text, the loop counted `trips` times, per wave.
    void instructionClasses() {
        const uint32_t grid = 640, trips = 7;
        const uint16_t workgroup = 128;
        const auto values = collect({sq(kSqInstsValu), sq(kSqInstsSalu), sq(kSqInstsSmem), sq(kSqInstsBranch),
                                     sq(kSqInstsLds), sq(kSqInstsVmemRd), sq(kSqInstsVmemWr), sq(kSqWaves)},
                                    [&] { dispatch_loop(grid, workgroup, trips); });
        QCOMPARE(values.size(), size_t{8});
        const SourceCounts c = counts_from_source(QStringLiteral("count_loop"), trips);
        const uint64_t waves = waves_of(grid, workgroup);
        QCOMPARE(values[0], c.valu * waves);
        QCOMPARE(values[1], c.salu * waves);
        QCOMPARE(values[2], c.smem * waves);
        QCOMPARE(values[3], c.branch * waves);
        QCOMPARE(values[4], uint64_t{0});
        QCOMPARE(values[5], uint64_t{0});
        QCOMPARE(values[6], uint64_t{0});
        QCOMPARE(values[7], waves);
    }

    // A copy of N floats: FETCH_SIZE and WRITE_SIZE (rocprof's formulas over the TCC EA requests, summed
    // over the 16 channels) are N * 4 bytes each; the TCP lines, summed over the compute units, are the
    // 64-byte lines read plus those written, all on the compute units of the work-groups.
    void globalBytesOfCopy() {
        const uint32_t n = 4096, workgroup = 256;
        void *in = nullptr, *out = nullptr;
        QCOMPARE(hsa_amd_memory_pool_allocate(device_pool_, n * 4, 0, &in), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_amd_memory_pool_allocate(device_pool_, n * 4, 0, &out), HSA_STATUS_SUCCESS);
        for (uint32_t i = 0; i < n; ++i) {
            static_cast<float*>(in)[i] = static_cast<float>(i) * 0.5f;
        }
        struct Args {
            const void* in;
            void* out;
        };
        auto run = [&] {
            auto* args = alloc_kernarg<Args>(cpu_);
            *args = {in, out};
            dispatch(queue_, copy_floats_, args, n, workgroup, hsa_signal_t{0}, false);
        };
        std::vector<Event> tcc;
        for (uint32_t c = 0; c < kTccChannels; ++c) {
            for (const uint32_t id : {kTccEaRdreq, kTccEaRdreq32b, kTccEaWrreq, kTccEaWrreq64b}) {
                tcc.push_back(ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC, id, c));
            }
        }
        const auto values = collect(tcc, run);
        QCOMPARE(values.size(), tcc.size());
        QCOMPARE(std::memcmp(in, out, n * 4), 0);
        uint64_t fetch = 0, write = 0;
        for (uint32_t c = 0; c < kTccChannels; ++c) {
            const uint64_t rd = values[4 * c], rd32 = values[4 * c + 1], wr = values[4 * c + 2],
                           wr64 = values[4 * c + 3];
            fetch += 32 * rd32 + 64 * (rd - rd32);
            write += 64 * wr64 + 32 * (wr - wr64);
        }
        QCOMPARE(fetch, uint64_t{n} * 4);
        QCOMPARE(write, uint64_t{n} * 4);

        std::vector<Event> tcp;
        for (uint32_t cu = 0; cu < kComputeUnits; ++cu) {
            tcp.push_back(ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP, kTcpTotalCacheAccesses, cu));
        }
        tcp.push_back(sq(kSqInstsVmemRd));
        tcp.push_back(sq(kSqInstsVmemWr));
        tcp.push_back(ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC, kTccRead, 0));
        tcp.push_back(ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC, kTccWrite, 0));
        const auto lines = collect(tcp, run);
        QCOMPARE(lines.size(), tcp.size());
        const uint64_t groups = n / workgroup, lines_per_group = 2 * workgroup * 4 / 64;
        uint64_t total = 0;
        for (uint32_t cu = 0; cu < kComputeUnits; ++cu) {
            QCOMPARE(lines[cu], cu < groups ? lines_per_group : 0);
            total += lines[cu];
        }
        QCOMPARE(total, uint64_t{2} * n * 4 / 64);
        const SourceCounts c = counts_from_source(QStringLiteral("copy_floats"), 1);
        QCOMPARE(lines[kComputeUnits], c.vmem_rd * waves_of(n, workgroup));
        QCOMPARE(lines[kComputeUnits + 1], c.vmem_wr * waves_of(n, workgroup));
        // Channel 0 holds the 128-byte lines whose index is a multiple of 16: two 64-byte requests each.
        QCOMPARE(lines[kComputeUnits + 2], uint64_t{n} * 4 / 128 / kTccChannels * 2);
        QCOMPARE(lines[kComputeUnits + 3], uint64_t{n} * 4 / 128 / kTccChannels * 2);
        hsa_amd_memory_pool_free(in);
        hsa_amd_memory_pool_free(out);
    }

    void ldsBankConflicts_data() {
        QTest::addColumn<uint32_t>("stride");
        QTest::newRow("4 bytes: every lane its own bank") << 4u;
        QTest::newRow("8 bytes: two lanes per bank") << 8u;
        QTest::newRow("64 bytes: 16-way") << 64u;
        QTest::newRow("128 bytes: one bank") << 128u;
        QTest::newRow("132 bytes: 33 dwords, no conflict") << 132u;
        QTest::newRow("0: one address, broadcast") << 0u;
    }

    // A strided ds_write_b32 and ds_read_b32 of one wave: twice the bank formula's conflict cycles.
    void ldsBankConflicts() {
        QFETCH(uint32_t, stride);
        const auto values = collect({sq(kSqLdsBankConflict), sq(kSqInstsLds)}, [&] {
            auto* kernarg = alloc_kernarg<uint64_t>(cpu_);
            *kernarg = stride;
            dispatch(queue_, lds_strided_, kernarg, 64, 64, hsa_signal_t{0}, false);
        });
        QCOMPARE(values.size(), size_t{2});
        const SourceCounts c = counts_from_source(QStringLiteral("lds_strided"), 1);
        QCOMPARE(values[0], c.lds * bank_conflicts(stride));
        QCOMPARE(values[1], c.lds);
    }

    // GRBM_GUI_ACTIVE and GRBM_COUNT in the cycle model: 200 single-wave work-groups over 104 compute
    // units (work-group g on unit g mod 104), so the busiest units run two waves one after the other.
    void cycleModel() {
        const uint32_t groups = 200, trips = 5;
        const auto values = collect({ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM, kGrbmGuiActive),
                                     ev(HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM, kGrbmCount)},
                                    [&] { dispatch_loop(groups * 64, 64, trips); });
        QCOMPARE(values.size(), size_t{2});
        const uint64_t wave = counts_from_source(QStringLiteral("count_loop"), trips).cycles;
        const uint64_t per_unit = (groups + kComputeUnits - 1) / kComputeUnits;
        QCOMPARE(values[0], wave * per_unit);
        QCOMPARE(values[1], wave * per_unit);
    }

    // Two profiles over separate intervals each see only their own dispatches; a dispatch between them
    // (no profile running) counts in neither.
    void separateIntervals() {
        Profile a, b;
        a.events = {sq(kSqWaves)};
        b.events = {sq(kSqWaves), sq(kSqInstsSalu)};
        make(a);
        make(b);
        hsa_signal_t read_a, read_b;
        hsa_signal_create(1, 0, nullptr, &read_a);
        hsa_signal_create(1, 0, nullptr, &read_b);
        submit(a.start, hsa_signal_t{0});
        dispatch_loop(1000, 192, 2);
        submit(a.stop, hsa_signal_t{0});
        submit(a.read, read_a);
        dispatch_loop(64 * 10, 64, 2);
        submit(b.start, hsa_signal_t{0});
        dispatch_loop(64 * 5, 64, 4);
        submit(b.stop, hsa_signal_t{0});
        submit(b.read, read_b);
        wait(read_a);
        wait(read_b);
        const auto va = results(a), vb = results(b);
        QCOMPARE(va.size(), size_t{1});
        QCOMPARE(vb.size(), size_t{2});
        QCOMPARE(va[0], waves_of(1000, 192));
        QCOMPARE(vb[0], waves_of(64 * 5, 64));
        QCOMPARE(vb[1], counts_from_source(QStringLiteral("count_loop"), 4).salu * waves_of(64 * 5, 64));
        hsa_signal_destroy(read_a);
        hsa_signal_destroy(read_b);
        release(a);
        release(b);
    }
};

QTEST_GUILESS_MAIN(TstAqlProfile)
#include "tst_aqlprofile.moc"
