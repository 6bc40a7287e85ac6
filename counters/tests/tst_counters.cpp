// SPDX-License-Identifier: MIT
// The counter catalogue, the packing of requested counters into one group per pass, and rocprofv3's text
// input file.
#include "replayscope/counters/catalogue.h"
#include "replayscope/counters/counter_plan.h"
#include "replayscope/counters/derived.h"
#include "replayscope/counters/input_file.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>
#include <map>
#include <set>

using namespace rs::counters;

namespace {

std::vector<std::string> names(const CounterGroup& group) {
    std::vector<std::string> out;
    for (uint32_t id : group.counters) {
        out.emplace_back(counter(id)->name);
    }
    return out;
}

std::vector<std::string> sq_names(int n) {
    static const char* kSq[] = {"SQ_WAVES",         "SQ_INSTS_VALU",    "SQ_INSTS_SALU", "SQ_INSTS_SMEM",
                                "SQ_INSTS_VMEM_RD", "SQ_INSTS_VMEM_WR", "SQ_INSTS_LDS",  "SQ_INSTS_BRANCH",
                                "SQ_INSTS_FLAT",    "SQ_INSTS_MFMA",    "SQ_INSTS_VMEM"};
    return {kSq, kSq + n};
}

} // namespace

class TstCounters : public QObject {
    Q_OBJECT
  private slots:
    void catalogueHasTheRequiredCounters();
    void catalogueNamesAreUnique();
    void unknownNameIsAnError();
    void oneGroupWhenEverythingFits();
    void sqOverflowMakesASecondGroup();
    void fidelityCheckKeepsOneSqSlot();
    void linesAreNeverMerged();
    void duplicatesAreCollectedOnce();
    void blockWithoutSlotsIsAnError();
    void planText();
    void requestRoundTrip();
    void inputTextLines();
    void inputTextErrors();
    void inputFileExtension();
    void derivedInputsAreCatalogueCounters();
    void derivedValuesExact();
    void derivedNoValue();
    void derivedExpansion();
};

void TstCounters::catalogueHasTheRequiredCounters() {
    // Select values as rocprofiler-sdk's counter_defs.yaml gives them for gfx90a.
    const struct {
        const char* name;
        CounterBlock block;
        uint32_t event;
    } expected[] = {{"SQ_WAVES", CounterBlock::sq, 4},
                    {"SQ_INSTS_VALU", CounterBlock::sq, 26},
                    {"SQ_INSTS_SALU", CounterBlock::sq, 56},
                    {"SQ_INSTS_SMEM", CounterBlock::sq, 57},
                    {"SQ_INSTS_VMEM_RD", CounterBlock::sq, 54},
                    {"SQ_INSTS_VMEM_WR", CounterBlock::sq, 53},
                    {"SQ_INSTS_LDS", CounterBlock::sq, 60},
                    {"SQ_INSTS_BRANCH", CounterBlock::sq, 64},
                    {"SQ_INSTS_FLAT", CounterBlock::sq, 58},
                    {"SQ_INSTS_MFMA", CounterBlock::sq, 52},
                    {"SQ_INSTS_VALU_MFMA_F32", CounterBlock::sq, 45},
                    {"SQ_LDS_BANK_CONFLICT", CounterBlock::sq, 121},
                    {"GRBM_COUNT", CounterBlock::grbm, 0},
                    {"GRBM_GUI_ACTIVE", CounterBlock::grbm, 2},
                    {"TCC_REQ", CounterBlock::tcc, 3},
                    {"TCC_READ", CounterBlock::tcc, 12},
                    {"TCC_WRITE", CounterBlock::tcc, 13},
                    {"TCC_EA_RDREQ", CounterBlock::tcc, 38},
                    {"TCC_EA_WRREQ", CounterBlock::tcc, 26},
                    {"TCP_TOTAL_CACHE_ACCESSES", CounterBlock::tcp, 60}};
    for (const auto& e : expected) {
        const auto id = find_counter(e.name);
        QVERIFY2(id.has_value(), e.name);
        const CounterDef* def = counter(*id);
        QCOMPARE(def->name, std::string_view(e.name));
        QCOMPARE(static_cast<uint32_t>(def->block), static_cast<uint32_t>(e.block));
        QCOMPARE(def->event, e.event);
        QVERIFY(def->instances >= 1);
        QVERIFY(!def->unit.empty());
        QVERIFY(!def->description.empty());
    }
    QVERIFY(!find_counter("sq_waves").has_value()); // case-sensitive, as rocprofv3
    QVERIFY(counter(static_cast<uint32_t>(gfx90a_counters().size())) == nullptr);
    // The aqlprofile block enumerators (hsa_ven_amd_aqlprofile.h).
    QCOMPARE(static_cast<uint32_t>(CounterBlock::grbm), 3u);
    QCOMPARE(static_cast<uint32_t>(CounterBlock::sq), 6u);
    QCOMPARE(static_cast<uint32_t>(CounterBlock::tcc), 12u);
    QCOMPARE(static_cast<uint32_t>(CounterBlock::tcp), 13u);
}

void TstCounters::catalogueNamesAreUnique() {
    std::set<std::string_view> seen;
    std::set<std::pair<uint32_t, uint32_t>> selects;
    for (const CounterDef& def : gfx90a_counters()) {
        QVERIFY2(seen.insert(def.name).second, std::string(def.name).c_str());
        QVERIFY2(selects.insert({static_cast<uint32_t>(def.block), def.event}).second,
                 std::string(def.name).c_str());
    }
}

void TstCounters::unknownNameIsAnError() {
    const CounterPlan plan = plan_groups({{"SQ_WAVES", "NOT_A_COUNTER"}}, nullptr, false);
    QVERIFY(plan.groups.empty());
    QVERIFY2(plan.error.find("'NOT_A_COUNTER'") != std::string::npos, plan.error.c_str());
}

void TstCounters::oneGroupWhenEverythingFits() {
    const CounterPlan plan =
        plan_groups({{"SQ_WAVES", "GRBM_COUNT", "GRBM_GUI_ACTIVE", "TCC_REQ", "TCP_TOTAL_CACHE_ACCESSES"}},
                    nullptr, false);
    QVERIFY2(plan.error.empty(), plan.error.c_str());
    QCOMPARE(plan.groups.size(), size_t{1});
    QCOMPARE(names(plan.groups[0]), (std::vector<std::string>{"SQ_WAVES", "GRBM_COUNT", "GRBM_GUI_ACTIVE",
                                                              "TCC_REQ", "TCP_TOTAL_CACHE_ACCESSES"}));
}

void TstCounters::sqOverflowMakesASecondGroup() {
    // 9 SQ counters and 3 GRBM ones with SQ 8 slots, GRBM 2: the ninth SQ counter and the third GRBM one
    // go to a second group, in request order.
    std::vector<std::string> line = sq_names(9);
    line.insert(line.begin() + 1, {"GRBM_COUNT", "GRBM_GUI_ACTIVE"});
    line.push_back("TCC_REQ");
    const CounterPlan plan = plan_groups({line}, nullptr, false);
    QVERIFY2(plan.error.empty(), plan.error.c_str());
    QCOMPARE(plan.groups.size(), size_t{2});
    QCOMPARE(plan.groups[0].counters.size(), size_t{11}); // 8 SQ + 2 GRBM + TCC
    QCOMPARE(names(plan.groups[1]), (std::vector<std::string>{"SQ_INSTS_FLAT"}));
    // Slots asked of the query (the engine's get_info BLOCK_COUNTERS): SQ 2 -> 9 SQ counters in 5 groups.
    const CounterPlan small =
        plan_groups({sq_names(9)}, [](CounterBlock b) { return b == CounterBlock::sq ? 2u : 4u; }, false);
    QCOMPARE(small.groups.size(), size_t{5});
    QCOMPARE(names(small.groups[4]), (std::vector<std::string>{"SQ_INSTS_FLAT"}));
}

void TstCounters::fidelityCheckKeepsOneSqSlot() {
    QCOMPARE(plan_groups({sq_names(8)}, nullptr, false).groups.size(), size_t{1});
    const CounterPlan plan = plan_groups({sq_names(8)}, nullptr, true);
    QCOMPARE(plan.groups.size(), size_t{2});
    QCOMPARE(plan.groups[0].counters.size(), size_t{7});
    QCOMPARE(names(plan.groups[1]), (std::vector<std::string>{"SQ_INSTS_BRANCH"}));
}

void TstCounters::linesAreNeverMerged() {
    const CounterPlan plan = plan_groups({{"SQ_WAVES"}, {"GRBM_COUNT"}}, nullptr, false);
    QCOMPARE(plan.groups.size(), size_t{2});
    QCOMPARE(names(plan.groups[0]), (std::vector<std::string>{"SQ_WAVES"}));
    QCOMPARE(names(plan.groups[1]), (std::vector<std::string>{"GRBM_COUNT"}));
}

void TstCounters::duplicatesAreCollectedOnce() {
    const CounterPlan plan = plan_groups({{"SQ_WAVES", "SQ_WAVES"}, {"SQ_WAVES", "TCC_REQ"}}, nullptr, false);
    QCOMPARE(plan.groups.size(), size_t{2});
    QCOMPARE(names(plan.groups[0]), (std::vector<std::string>{"SQ_WAVES"}));
    QCOMPARE(names(plan.groups[1]), (std::vector<std::string>{"TCC_REQ"}));
    // A line whose every counter was collected earlier makes no group.
    QCOMPARE(plan_groups({{"SQ_WAVES"}, {"SQ_WAVES"}}, nullptr, false).groups.size(), size_t{1});
}

void TstCounters::blockWithoutSlotsIsAnError() {
    const CounterPlan plan = plan_groups(
        {{"SQ_WAVES", "TCC_REQ"}}, [](CounterBlock b) { return b == CounterBlock::tcc ? 0u : 8u; }, false);
    QVERIFY(plan.groups.empty());
    QVERIFY2(plan.error.find("TCC") != std::string::npos, plan.error.c_str());
    // One SQ slot, kept for the fidelity check: none left.
    const CounterPlan sq = plan_groups({{"SQ_WAVES"}}, [](CounterBlock) { return 1u; }, true);
    QVERIFY(sq.groups.empty());
    QVERIFY2(sq.error.find("fidelity") != std::string::npos, sq.error.c_str());
}

void TstCounters::planText() {
    const CounterPlan plan = plan_groups({{"SQ_WAVES"}, {"GRBM_COUNT", "TCC_REQ"}}, nullptr, false);
    QCOMPARE(plan_text(plan.groups, 2),
             std::string("2 groups -> 2 passes: pass 0: SQ_WAVES; pass 1: GRBM_COUNT TCC_REQ"));
    QCOMPARE(plan_text({plan.groups[0]}, 3), std::string("1 group -> 3 passes: pass 0: SQ_WAVES"));
}

void TstCounters::requestRoundTrip() {
    const CounterRequest request{{"SQ_WAVES", "GRBM_COUNT"}, {"TCC_REQ"}};
    QCOMPARE(encode_request(request), std::string("SQ_WAVES,GRBM_COUNT;TCC_REQ"));
    QCOMPARE(decode_request(encode_request(request)), request);
    QCOMPARE(decode_request(";;SQ_WAVES,,;"), (CounterRequest{{"SQ_WAVES"}}));
    QVERIFY(decode_request("").empty());
}

void TstCounters::inputTextLines() {
    CounterRequest request;
    std::string error;
    QVERIFY2(parse_input_text("# counters\npmc: SQ_WAVES  GRBM_COUNT\t# two\n\n  pmc:TCC_REQ,TCC_READ\npmc: "
                              "SQ_INSTS_VALU\r\n",
                              request, error),
             error.c_str());
    QCOMPARE(request,
             (CounterRequest{{"SQ_WAVES", "GRBM_COUNT"}, {"TCC_REQ", "TCC_READ"}, {"SQ_INSTS_VALU"}}));
}

void TstCounters::inputTextErrors() {
    CounterRequest request{{"KEPT"}};
    std::string error;
    QVERIFY(!parse_input_text("pmc: SQ_WAVES\ngpu: 0\n", request, error));
    QVERIFY2(error.find("line 2") != std::string::npos, error.c_str());
    QVERIFY(!parse_input_text("pmc:   # nothing\n", request, error));
    QVERIFY2(error.find("line 1") != std::string::npos, error.c_str());
    QVERIFY(!parse_input_text("# only a comment\n", request, error));
    QCOMPARE(request, (CounterRequest{{"KEPT"}})); // untouched on error
}

void TstCounters::inputFileExtension() {
    QTemporaryDir dir;
    const std::string txt = dir.filePath("input.txt").toStdString();
    std::ofstream(txt) << "pmc: SQ_WAVES\npmc: GRBM_COUNT\n";
    CounterRequest request;
    std::string error;
    QVERIFY2(read_input_file(txt, request, error), error.c_str());
    QCOMPARE(request, (CounterRequest{{"SQ_WAVES"}, {"GRBM_COUNT"}}));
    QVERIFY(!read_input_file(dir.filePath("input.yaml").toStdString(), request, error));
    QVERIFY2(error.find(".yaml") != std::string::npos, error.c_str());
    QVERIFY(!read_input_file(dir.filePath("missing.txt").toStdString(), request, error));
    QVERIFY2(error.find("missing.txt") != std::string::npos, error.c_str());
}

void TstCounters::derivedInputsAreCatalogueCounters() {
    // Every derived metric reads only catalogue counters, evaluates when they all have a value, and has a
    // name of its own (neither a counter's nor another metric's).
    std::set<std::string_view> seen;
    for (const DerivedDef& def : gfx90a_derived()) {
        const std::string name(def.name);
        QVERIFY2(seen.insert(def.name).second, name.c_str());
        QVERIFY2(!find_counter(def.name), name.c_str());
        QVERIFY2(!def.unit.empty() && !def.description.empty(), name.c_str());
        const std::vector<std::string> inputs = expression_inputs(def.expression);
        QVERIFY2(!inputs.empty(), name.c_str());
        for (const std::string& input : inputs) {
            QVERIFY2(find_counter(input), (name + ": " + input).c_str());
        }
        QVERIFY2(evaluate_expression(def.expression, [](std::string_view) { return 3.0; }), name.c_str());
        QCOMPARE(find_derived(def.name), &def);
    }
    // The metrics rocprofv3 defines over SQ_INSTS_FLAT_LDS_ONLY or TA counters are not defined.
    for (const char* absent : {"LDSInsts", "VFetchInsts", "VWriteInsts", "FlatVMemInsts", "FETCH_SIZE"}) {
        QVERIFY2(find_derived(absent) == nullptr, absent);
    }
    QCOMPARE(expression_inputs(find_derived("L2CacheHit")->expression),
             (std::vector<std::string>{"TCC_HIT", "TCC_MISS"}));
    QCOMPARE(expression_inputs("100 * GRBM_GUI_ACTIVE / GRBM_COUNT"),
             (std::vector<std::string>{"GRBM_GUI_ACTIVE", "GRBM_COUNT"}));
}

void TstCounters::derivedValuesExact() {
    const std::map<std::string, double> values{{"SQ_WAVES", 8},
                                               {"SQ_INSTS_VALU", 100},
                                               {"SQ_INSTS_SALU", 36},
                                               {"SQ_INSTS_SMEM", 12},
                                               {"GRBM_COUNT", 2000},
                                               {"GRBM_GUI_ACTIVE", 1500},
                                               {"TCC_HIT", 30},
                                               {"TCC_MISS", 10},
                                               {"SQ_INSTS_VALU_MFMA_MOPS_F16", 2},
                                               {"SQ_INSTS_VALU_MFMA_MOPS_BF16", 1},
                                               {"SQ_INSTS_VALU_MFMA_MOPS_F32", 4},
                                               {"SQ_INSTS_VALU_MFMA_MOPS_F64", 3},
                                               {"TCC_REQ", 77}};
    const CounterLookup lookup = [&](std::string_view name) -> std::optional<double> {
        const auto it = values.find(std::string(name));
        return it == values.end() ? std::nullopt : std::optional<double>(it->second);
    };
    const auto value = [&](const char* name) {
        return evaluate_expression(find_derived(name)->expression, lookup);
    };
    QCOMPARE(value("VALUInsts"), std::optional<double>(12.5));
    QCOMPARE(value("SALUInsts"), std::optional<double>(4.5));
    QCOMPARE(value("SFetchInsts"), std::optional<double>(1.5));
    QCOMPARE(value("Wavefronts"), std::optional<double>(8));
    QCOMPARE(value("SQ_WAVES_sum"), std::optional<double>(8));
    QCOMPARE(value("GPUBusy"), std::optional<double>(75));
    QCOMPARE(value("GpuUtil"), std::optional<double>(75));
    QCOMPARE(value("L2CacheHit"), std::optional<double>(75));
    QCOMPARE(value("MfmaFlops"), std::optional<double>(5120));
    QCOMPARE(value("MfmaFlopsF64"), std::optional<double>(1536));
    QCOMPARE(value("TCC_REQ_sum"), std::optional<double>(77));
    // Precedence, parentheses, unary minus and decimals.
    QCOMPARE(evaluate_expression("2 + 3 * 4", lookup), std::optional<double>(14));
    QCOMPARE(evaluate_expression("(2 + 3) * 4 - -1", lookup), std::optional<double>(21));
    QCOMPARE(evaluate_expression("SQ_INSTS_VALU / SQ_WAVES / 2.5", lookup), std::optional<double>(5));
}

void TstCounters::derivedNoValue() {
    const CounterLookup zero_waves = [](std::string_view name) -> std::optional<double> {
        return name == "SQ_WAVES" ? 0.0 : 7.0;
    };
    // Division by zero, a missing input, a bad expression: no value, never inf or NaN.
    QCOMPARE(evaluate_expression("SQ_INSTS_VALU / SQ_WAVES", zero_waves), std::nullopt);
    QCOMPARE(evaluate_expression("0 / SQ_WAVES", zero_waves), std::nullopt);
    QCOMPARE(evaluate_expression("100 * TCC_HIT / (TCC_HIT + TCC_MISS)",
                                 [](std::string_view) -> std::optional<double> { return 0.0; }),
             std::nullopt);
    const CounterLookup only_waves = [](std::string_view name) -> std::optional<double> {
        return name == "SQ_WAVES" ? std::optional<double>(4) : std::nullopt;
    };
    QCOMPARE(evaluate_expression("SQ_INSTS_VALU / SQ_WAVES", only_waves), std::nullopt);
    QCOMPARE(evaluate_expression("SQ_WAVES", only_waves), std::optional<double>(4));
    for (const char* bad : {"", "SQ_WAVES +", "(SQ_WAVES", "SQ_WAVES)", "1.2.3", "SQ_WAVES $ 2", "* 2"}) {
        QVERIFY2(!evaluate_expression(bad, only_waves), bad);
    }
    QVERIFY(!evaluate_expression("SQ_WAVES", nullptr));
}

void TstCounters::derivedExpansion() {
    CounterRequest request{{"VALUInsts", "GRBM_COUNT", "GPUBusy"}, {"SQ_WAVES", "SALUInsts", "VALUInsts"}};
    const std::vector<std::string> derived = expand_derived(request);
    QCOMPARE(derived, (std::vector<std::string>{"VALUInsts", "GPUBusy", "SALUInsts"}));
    QCOMPARE(request,
             (CounterRequest{{"SQ_INSTS_VALU", "SQ_WAVES", "GRBM_COUNT", "GRBM_GUI_ACTIVE", "GRBM_COUNT"},
                             {"SQ_WAVES", "SQ_INSTS_SALU", "SQ_WAVES", "SQ_INSTS_VALU", "SQ_WAVES"}}));
    // The inputs share the line's groups: VALUInsts' two SQ counters and GPUBusy's two GRBM ones fit one.
    const CounterPlan plan = plan_groups(request, nullptr, false);
    QCOMPARE(plan.groups.size(), size_t{2});
    QCOMPARE(names(plan.groups[0]),
             (std::vector<std::string>{"SQ_INSTS_VALU", "SQ_WAVES", "GRBM_COUNT", "GRBM_GUI_ACTIVE"}));
    QCOMPARE(names(plan.groups[1]), (std::vector<std::string>{"SQ_INSTS_SALU"}));
    QCOMPARE(derived_text(derived),
             std::string("VALUInsts = SQ_INSTS_VALU / SQ_WAVES; GPUBusy = 100 * "
                         "GRBM_GUI_ACTIVE / GRBM_COUNT; SALUInsts = SQ_INSTS_SALU / SQ_WAVES"));
    CounterRequest plain{{"SQ_WAVES", "NOT_A_COUNTER"}};
    QVERIFY(expand_derived(plain).empty());
    QCOMPARE(plain, (CounterRequest{{"SQ_WAVES", "NOT_A_COUNTER"}}));
}

QTEST_GUILESS_MAIN(TstCounters)
#include "tst_counters.moc"
