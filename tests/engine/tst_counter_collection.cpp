// SPDX-License-Identifier: MIT
// The engine's counter collection (engine/src/counter_collection.h) in process against fake runtime
// entries: the aqlprofile table missing (one counters-unavailable warning, no collection), and a fake
// aqlprofile that accepts some events and reports a register count per block: events per block instance,
// groups planned with the reported registers, buffers of the sizes it asks for in a kernarg pool made
// accessible to the agent, START/STOP/READ packets with vendor headers, and iterate_data's results
// summed per counter over the instances.
#include "configuration.h"
#include "counter_check.h"
#include "counter_collection.h"
#include "hsa_api.h"

#include <replayscope/counters/catalogue.h>

#include <QTest>

#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace rs::engine;

namespace {

struct Warning {
    WarningCode code;
    uint64_t dispatch;
    std::string text;
};

class RecordingSink final : public EventSink {
  public:
    std::vector<Warning> warnings;
    void session_start(std::string_view) noexcept override {}
    void allocation(const AllocationEvent&) noexcept override {}
    void free(const FreeEvent&) noexcept override {}
    void agent(const AgentEvent&) noexcept override {}
    void inventory(const InventoryEvent&) noexcept override {}
    void executable(const ExecutableEvent&) noexcept override {}
    void module_variable(const ModuleVariableEvent&) noexcept override {}
    void dispatch(const DispatchEvent&) noexcept override {}
    void snapshot(const SnapshotEvent&) noexcept override {}
    void snapshot_failure(const SnapshotFailureEvent&) noexcept override {}
    void pass(const PassEvent&) noexcept override {}
    void restore_skip(const RestoreSkipEvent&) noexcept override {}
    void warning(WarningCode c, uint64_t d, std::string_view t) noexcept override {
        warnings.push_back({c, d, std::string(t)});
    }
    void finish(uint64_t, int32_t) noexcept override {}
};

// ---- the fake runtime ----
constexpr uint64_t kGpu = 0x100, kCpu = 0x200, kKernargPool = 0x300, kDevicePool = 0x400;
struct Fake {
    bool table = true;                      ///< hsa_system_get_major_extension_table answers
    std::map<uint32_t, uint32_t> instances; ///< block -> instances (BLOCK_ID)
    std::map<uint32_t, uint32_t> registers; ///< block -> registers (BLOCK_COUNTERS)
    uint32_t refused_event = 0xffffffff;    ///< select value validate_event refuses
    std::map<void*, size_t> allocations;    ///< live pool allocations
    std::vector<hsa_agent_t> granted;       ///< agents given access
    uint64_t per_instance_value = 0;        ///< result = value * (block_index + 1) per record
    int samples = 1;                        ///< records per event (aqlprofile: per shader engine)
    const char* gpu_name = "gfx90a";        ///< HSA_AGENT_INFO_NAME of the GPU
};
Fake g_fake;

hsa_status_t fake_validate(hsa_agent_t agent, const hsa_ven_amd_aqlprofile_event_t* e, bool* result) {
    *result = agent.handle == kGpu && e->counter_id != g_fake.refused_event &&
              e->block_index < g_fake.instances[static_cast<uint32_t>(e->block_name)];
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_get_info(const hsa_ven_amd_aqlprofile_profile_t* p, hsa_ven_amd_aqlprofile_info_type_t what,
                           void* value) {
    switch (what) {
    case HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE:
        *static_cast<uint32_t*>(value) = 256;
        return HSA_STATUS_SUCCESS;
    case HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA_SIZE:
        *static_cast<uint32_t*>(value) = 16 * p->event_count;
        return HSA_STATUS_SUCCESS;
    case HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_COUNTERS:
        *static_cast<uint32_t*>(value) = g_fake.registers[static_cast<uint32_t>(p->events[0].block_name)];
        return HSA_STATUS_SUCCESS;
    case HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID: {
        auto* q = static_cast<hsa_ven_amd_aqlprofile_id_query_t*>(value);
        const std::string name = q->name;
        const uint32_t block = name == "SQ" ? 6 : name == "GRBM" ? 3 : name == "TCC" ? 12 : 13;
        q->id = block;
        q->instance_count = g_fake.instances[block];
        return HSA_STATUS_SUCCESS;
    }
    default:
        return HSA_STATUS_ERROR;
    }
}
hsa_status_t fake_packet(const hsa_ven_amd_aqlprofile_profile_t* p, hsa_ext_amd_aql_pm4_packet_t* packet) {
    if (p->command_buffer.ptr == nullptr || p->output_buffer.ptr == nullptr) {
        return HSA_STATUS_ERROR;
    }
    packet->pm4_command[0] = 0xabcd;
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_start(hsa_ven_amd_aqlprofile_profile_t* p, hsa_ext_amd_aql_pm4_packet_t* packet) {
    return fake_packet(p, packet);
}
hsa_status_t fake_iterate(const hsa_ven_amd_aqlprofile_profile_t* p,
                          hsa_ven_amd_aqlprofile_data_callback_t cb, void* data) {
    for (uint32_t i = 0; i < p->event_count; ++i) {
        for (int s = 0; s < g_fake.samples; ++s) {
            hsa_ven_amd_aqlprofile_info_data_t d{};
            d.sample_id = static_cast<uint32_t>(s);
            d.pmc_data.event = p->events[i];
            d.pmc_data.result = g_fake.per_instance_value * (p->events[i].block_index + 1);
            if (cb(HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA, &d, data) != HSA_STATUS_SUCCESS) {
                return HSA_STATUS_ERROR;
            }
        }
    }
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_agent_info(hsa_agent_t agent, hsa_agent_info_t what, void* value) {
    if (what != HSA_AGENT_INFO_NAME) {
        return HSA_STATUS_ERROR;
    }
    const char* name = agent.handle == kGpu ? g_fake.gpu_name : "cpu";
    std::memset(value, 0, 64);
    std::memcpy(value, name, std::strlen(name));
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_extension_table(uint16_t extension, uint16_t major, size_t size, void* table) {
    if (!g_fake.table || extension != HSA_EXTENSION_AMD_AQLPROFILE || major != 1 ||
        size != sizeof(hsa_ven_amd_aqlprofile_1_00_pfn_t)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    hsa_ven_amd_aqlprofile_1_00_pfn_t t{};
    t.hsa_ven_amd_aqlprofile_validate_event = fake_validate;
    t.hsa_ven_amd_aqlprofile_start = fake_start;
    t.hsa_ven_amd_aqlprofile_stop = fake_packet;
    t.hsa_ven_amd_aqlprofile_read = fake_packet;
    t.hsa_ven_amd_aqlprofile_get_info = fake_get_info;
    t.hsa_ven_amd_aqlprofile_iterate_data = fake_iterate;
    std::memcpy(table, &t, sizeof t);
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_iterate_pools(hsa_agent_t agent, hsa_status_t (*cb)(hsa_amd_memory_pool_t, void*),
                                void* data) {
    if (agent.handle != kCpu) {
        return HSA_STATUS_ERROR;
    }
    for (uint64_t pool : {kDevicePool, kKernargPool}) {
        if (cb({pool}, data) != HSA_STATUS_SUCCESS) {
            break;
        }
    }
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_pool_info(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t what, void* value) {
    switch (what) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
        *static_cast<hsa_amd_segment_t*>(value) = HSA_AMD_SEGMENT_GLOBAL;
        return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
        *static_cast<bool*>(value) = true;
        return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
        *static_cast<uint32_t*>(value) =
            pool.handle == kKernargPool
                ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
                : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
        return HSA_STATUS_SUCCESS;
    default:
        return HSA_STATUS_ERROR;
    }
}
hsa_status_t fake_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t, void** ptr) {
    if (pool.handle != kKernargPool) {
        return HSA_STATUS_ERROR; // the profile buffers belong in host memory
    }
    *ptr = std::calloc(1, size);
    g_fake.allocations[*ptr] = size;
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_free(void* ptr) {
    g_fake.allocations.erase(ptr);
    std::free(ptr);
    return HSA_STATUS_SUCCESS;
}
hsa_status_t fake_allow(uint32_t count, const hsa_agent_t* agents, const uint32_t*, const void*) {
    g_fake.granted.insert(g_fake.granted.end(), agents, agents + count);
    return HSA_STATUS_SUCCESS;
}

void install_fakes() {
    HsaApi& api = hsa();
    api.core.hsa_system_get_major_extension_table_fn = fake_extension_table;
    api.core.hsa_agent_get_info_fn = fake_agent_info;
    api.amd.hsa_amd_agent_iterate_memory_pools_fn = fake_iterate_pools;
    api.amd.hsa_amd_memory_pool_get_info_fn = fake_pool_info;
    api.amd.hsa_amd_memory_pool_allocate_fn = fake_allocate;
    api.amd.hsa_amd_memory_pool_free_fn = fake_free;
    api.amd.hsa_amd_agents_allow_access_fn = fake_allow;
}

Configuration with_counters(rs::counters::CounterRequest request, bool fidelity = false) {
    Configuration c;
    c.counters = std::move(request);
    c.fidelity_check = fidelity;
    return c;
}

std::vector<std::string> group_names(const CounterCollection& c) {
    std::vector<std::string> out;
    for (uint32_t g = 0; g < c.groups(); ++g) {
        out.push_back(c.group_text(g));
    }
    return out;
}

} // namespace

class TstCounterCollection : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    void init() {
        g_fake = Fake{};
        g_fake.instances = {{6, 8}, {3, 1}, {12, 16}, {13, 4}};
        g_fake.registers = {{6, 8}, {3, 2}, {12, 4}, {13, 4}};
        install_fakes();
    }

    /// No aqlprofile table: one counters-unavailable warning at OnLoad when counters were asked for
    /// (none when not), and an agent plans no group, so its passes are timed only.
    void extensionAbsent() {
        g_fake.table = false;
        load_aqlprofile_extension();
        QVERIFY(!hsa().has_aqlprofile);
        RecordingSink sink;
        report_counter_extension(Configuration{}, sink);
        QVERIFY(sink.warnings.empty());
        const Configuration config = with_counters({{"SQ_WAVES", "GRBM_COUNT"}});
        report_counter_extension(config, sink);
        QCOMPARE(sink.warnings.size(), size_t{1});
        // The fidelity check alone compares a counter between passes: said once too.
        RecordingSink checked;
        report_counter_extension(with_counters({}, true), checked);
        QCOMPARE(checked.warnings.size(), size_t{1});
        QVERIFY2(checked.warnings[0].text.find("--fidelity-check") != std::string::npos,
                 checked.warnings[0].text.c_str());
        QCOMPARE(sink.warnings[0].code, WarningCode::counters_unavailable);
        QCOMPARE(sink.warnings[0].dispatch, uint64_t{0});
        QVERIFY2(sink.warnings[0].text.find("aqlprofile") != std::string::npos,
                 sink.warnings[0].text.c_str());
        CounterCollection c;
        c.prepare(config, sink, {kGpu}, {kCpu}, 7);
        QCOMPARE(c.groups(), 0u);
        QCOMPARE(sink.warnings.size(), size_t{1});
        QVERIFY(g_fake.allocations.empty());
    }

    /// The table present: groups follow the registers the runtime reports (SQ 2 here), buffers of the
    /// sizes it asks for come from the kernarg pool with the agent granted access, and one SQ register is
    /// kept with the fidelity check.
    void plansWithTheRuntimesRegisters() {
        load_aqlprofile_extension();
        QVERIFY(hsa().has_aqlprofile);
        g_fake.registers[6] = 2;
        RecordingSink sink;
        CounterCollection c;
        c.prepare(with_counters({{"SQ_WAVES", "SQ_INSTS_VALU", "SQ_INSTS_SALU", "GRBM_COUNT"}}), sink, {kGpu},
                  {kCpu}, 1);
        QVERIFY(sink.warnings.empty());
        QCOMPARE(group_names(c),
                 (std::vector<std::string>{"SQ_WAVES SQ_INSTS_VALU GRBM_COUNT", "SQ_INSTS_SALU"}));
        // Two groups, a command and an output buffer each: 256 bytes and 16 per event (SQ: 8 instances).
        QCOMPARE(g_fake.allocations.size(), size_t{4});
        size_t output_bytes = 0;
        for (const auto& [ptr, size] : g_fake.allocations) {
            output_bytes += size == 256 ? 0 : size;
        }
        QCOMPARE(output_bytes, size_t{16 * (8 + 8 + 1) + 16 * 8});
        QCOMPARE(g_fake.granted.size(), size_t{4});
        for (hsa_agent_t a : g_fake.granted) {
            QCOMPARE(a.handle, kGpu);
        }
        c.prepare(with_counters({{"TCC_REQ"}}), sink, {kGpu}, {kCpu}, 2); // once per agent
        QCOMPARE(c.groups(), 2u);
        c.release();
        QVERIFY(g_fake.allocations.empty());

        CounterCollection checked;
        checked.prepare(with_counters({{"SQ_WAVES", "SQ_INSTS_VALU"}}, true), sink, {kGpu}, {kCpu}, 1);
        QCOMPARE(group_names(checked),
                 (std::vector<std::string>{"SQ_WAVES + SQ_INSTS_VALU (fidelity check)", "SQ_INSTS_VALU"}));
        checked.release();
    }

    /// With the fidelity check SQ_INSTS_VALU is counted in every pass, without any request too: each
    /// requested group adds it in the SQ register the plan keeps (a group that requested it counts it once),
    /// and one more group counts it alone for the passes after the requested ones. Its value comes back
    /// apart from the requested values, which alone are reported per pass.
    void fidelityCounterInEveryPass() {
        load_aqlprofile_extension();
        g_fake.per_instance_value = 3;
        const uint32_t valu = *rs::counters::find_counter("SQ_INSTS_VALU");
        const uint32_t waves = *rs::counters::find_counter("SQ_WAVES");
        const uint64_t sq_sum = 3 * 8 * 9 / 2; // instances i = 0..7 of SQ, 3 * (i + 1) each
        RecordingSink sink;
        CounterCollection alone;
        alone.prepare(with_counters({}, true), sink, {kGpu}, {kCpu}, 1);
        QVERIFY(sink.warnings.empty());
        QCOMPARE(alone.groups(), 0u);
        QCOMPARE(alone.fidelity_counter(), std::optional<uint32_t>(valu));
        hsa_ext_amd_aql_pm4_packet_t start{}, stop{}, read{};
        std::vector<std::pair<uint32_t, uint64_t>> values;
        std::optional<uint64_t> counted;
        for (uint32_t pass : {0u, 1u, 5u}) {
            QVERIFY(alone.collects(pass));
            QCOMPARE(alone.group_text(pass), std::string("SQ_INSTS_VALU (fidelity check)"));
            QVERIFY(alone.make_packets(pass, hsa_signal_t{0x77}, start, stop, read));
            QVERIFY(alone.read(pass, values, counted));
            QVERIFY(values.empty());
            QCOMPARE(counted, std::optional<uint64_t>(sq_sum));
        }
        alone.release();
        // One command and one output buffer: the fidelity counter's own group.
        QVERIFY(g_fake.allocations.empty());

        CounterCollection both;
        both.prepare(with_counters({{"SQ_WAVES"}, {"SQ_INSTS_VALU"}}, true), sink, {kGpu}, {kCpu}, 1);
        QVERIFY(sink.warnings.empty());
        QCOMPARE(group_names(both),
                 (std::vector<std::string>{"SQ_WAVES + SQ_INSTS_VALU (fidelity check)", "SQ_INSTS_VALU"}));
        QCOMPARE(g_fake.allocations.size(), size_t{6}); // two requested groups and the fidelity group
        QVERIFY(both.read(0, values, counted));
        QCOMPARE(values, (std::vector<std::pair<uint32_t, uint64_t>>{{waves, sq_sum}}));
        QCOMPARE(counted, std::optional<uint64_t>(sq_sum));
        QVERIFY(both.read(1, values, counted));
        QCOMPARE(values, (std::vector<std::pair<uint32_t, uint64_t>>{{valu, sq_sum}}));
        QCOMPARE(counted, std::optional<uint64_t>(sq_sum));
        QCOMPARE(both.group_text(2), std::string("SQ_INSTS_VALU (fidelity check)"));
        both.abandon();
        QVERIFY(!both.collects(2));
        QCOMPARE(both.fidelity_counter(), std::optional<uint32_t>());
    }

    /// The agent refusing the fidelity counter: a warning says no counter is compared; requested counters
    /// are still collected.
    void fidelityCounterRefused() {
        load_aqlprofile_extension();
        g_fake.refused_event = rs::counters::counter(*rs::counters::find_counter("SQ_INSTS_VALU"))->event;
        RecordingSink sink;
        CounterCollection c;
        c.prepare(with_counters({{"GRBM_COUNT"}}, true), sink, {kGpu}, {kCpu}, 4);
        QCOMPARE(group_names(c), (std::vector<std::string>{"GRBM_COUNT"}));
        QCOMPARE(c.fidelity_counter(), std::optional<uint32_t>());
        QVERIFY(!c.collects(1));
        QCOMPARE(sink.warnings.size(), size_t{1});
        QCOMPARE(sink.warnings[0].code, WarningCode::counters_unavailable);
        QVERIFY2(sink.warnings[0].text.find("--fidelity-check compares no counter") != std::string::npos,
                 sink.warnings[0].text.c_str());
        c.release();
    }

    /// The counter check's verdicts: pass 0 is the reference (1 once read), a pass counting otherwise is 0
    /// and named, a pass whose count is missing (or any pass while pass 0's is) is -1 and shown as "-".
    void counterCheckVerdicts() {
        const uint32_t valu = *rs::counters::find_counter("SQ_INSTS_VALU");
        rs::engine::CounterCheck same(valu);
        QCOMPARE(same.after_pass(0, 13), int8_t{1});
        QCOMPARE(same.after_pass(1, 13), int8_t{1});
        QCOMPARE(same.after_pass(2, std::nullopt), int8_t{-1});
        QCOMPARE(same.mismatch_text(3, "k.kd"), std::string());

        rs::engine::CounterCheck differ(valu);
        QCOMPARE(differ.after_pass(0, 13), int8_t{1});
        QCOMPARE(differ.after_pass(1, 15), int8_t{0});
        QCOMPARE(differ.after_pass(2, std::nullopt), int8_t{-1});
        QCOMPARE(differ.after_pass(3, 13), int8_t{1});
        QCOMPARE(differ.after_pass(4, 11), int8_t{0});
        QCOMPARE(
            differ.mismatch_text(7, ""),
            std::string("counter-mismatch: dispatch 7 (unknown kernel): SQ_INSTS_VALU per pass: 13, 15, -, "
                        "13, 11; passes differing from pass 0: 1, 4; those passes did not execute the "
                        "kernel as pass 0 did: they read other inputs (state the snapshot does not hold) "
                        "or the kernel is not deterministic"));

        rs::engine::CounterCheck no_reference(valu);
        QCOMPARE(no_reference.after_pass(0, std::nullopt), int8_t{-1});
        QCOMPARE(no_reference.after_pass(1, 15), int8_t{-1});
        QCOMPARE(no_reference.mismatch_text(1, "k.kd"), std::string());
    }

    /// Another GPU than gfx90a collects nothing: the catalogue's select values would name other events.
    void otherGpuCollectsNothing() {
        load_aqlprofile_extension();
        g_fake.gpu_name = "gfx908";
        RecordingSink sink;
        CounterCollection c;
        c.prepare(with_counters({{"SQ_WAVES"}}), sink, {kGpu}, {kCpu}, 3);
        QCOMPARE(c.groups(), 0u);
        QCOMPARE(sink.warnings.size(), size_t{1});
        QCOMPARE(sink.warnings[0].code, WarningCode::counters_unavailable);
        QVERIFY2(sink.warnings[0].text.find("gfx908") != std::string::npos, sink.warnings[0].text.c_str());
        QVERIFY(g_fake.allocations.empty());
    }

    /// A counter the agent refuses is left out with a warning naming it; the rest is collected.
    void refusedCounterIsLeftOut() {
        load_aqlprofile_extension();
        g_fake.refused_event = rs::counters::counter(*rs::counters::find_counter("TCC_EA_RDREQ"))->event;
        RecordingSink sink;
        CounterCollection c;
        c.prepare(with_counters({{"TCC_EA_RDREQ", "TCC_REQ"}}), sink, {kGpu}, {kCpu}, 9);
        QCOMPARE(group_names(c), (std::vector<std::string>{"TCC_REQ"}));
        QCOMPARE(sink.warnings.size(), size_t{1});
        QCOMPARE(sink.warnings[0].code, WarningCode::counters_unavailable);
        QCOMPARE(sink.warnings[0].dispatch, uint64_t{9});
        QVERIFY2(sink.warnings[0].text.find("TCC_EA_RDREQ") != std::string::npos,
                 sink.warnings[0].text.c_str());
        c.release();
    }

    /// The packets carry vendor-specific headers with the barrier bit, the READ alone the signal; read()
    /// sums every record of a counter: instances and samples.
    void packetsAndSums() {
        load_aqlprofile_extension();
        g_fake.per_instance_value = 10;
        g_fake.samples = 2;
        RecordingSink sink;
        CounterCollection c;
        c.prepare(with_counters({{"SQ_WAVES", "GRBM_COUNT", "TCC_REQ"}}), sink, {kGpu}, {kCpu}, 1);
        QCOMPARE(c.groups(), 1u);
        hsa_ext_amd_aql_pm4_packet_t start{}, stop{}, read{};
        QVERIFY(c.make_packets(0, hsa_signal_t{0x77}, start, stop, read));
        for (const auto* p : {&start, &stop, &read}) {
            QCOMPARE((p->header >> HSA_PACKET_HEADER_TYPE) & 0xff, unsigned{HSA_PACKET_TYPE_VENDOR_SPECIFIC});
            QVERIFY(p->header & (1u << HSA_PACKET_HEADER_BARRIER));
            QCOMPARE(p->pm4_command[0], uint16_t{0xabcd});
        }
        QCOMPARE(start.completion_signal.handle, uint64_t{0});
        QCOMPARE(stop.completion_signal.handle, uint64_t{0});
        QCOMPARE(read.completion_signal.handle, uint64_t{0x77});
        std::vector<std::pair<uint32_t, uint64_t>> values;
        std::optional<uint64_t> counted;
        QVERIFY(c.read(0, values, counted));
        QVERIFY(!counted); // no fidelity check
        // Sum over instances i of 10 * (i + 1), twice (two samples): SQ 8 instances, GRBM 1, TCC 16.
        const auto expected = [](uint64_t n) { return 2 * 10 * n * (n + 1) / 2; };
        QCOMPARE(values, (std::vector<std::pair<uint32_t, uint64_t>>{
                             {*rs::counters::find_counter("SQ_WAVES"), expected(8)},
                             {*rs::counters::find_counter("GRBM_COUNT"), expected(1)},
                             {*rs::counters::find_counter("TCC_REQ"), expected(16)}}));
        c.abandon();
        QCOMPARE(c.groups(), 0u);
        QVERIFY(!c.make_packets(0, hsa_signal_t{0x77}, start, stop, read));
        c.release(); // abandoned: buffers stay
        QCOMPARE(g_fake.allocations.size(), size_t{2});
    }
};

QTEST_GUILESS_MAIN(TstCounterCollection)
#include "tst_counter_collection.moc"
