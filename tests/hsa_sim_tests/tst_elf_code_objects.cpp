// SPDX-License-Identifier: MIT
/*
 * Real AMDGPU ELF code objects on the simulated runtime: a hipcc-built gfx90a object (elf/elf_kernels.hip)
 * loaded from a file and from memory, its symbols and attributes checked against what readelf and
 * llvm-readelf report of the same file, module-scope variables bound to the hand-written stand-in library
 * (elf/elf_standins.cpp) with their initial values, dispatches through the stand-ins, the queue error of
 * a kernel without a stand-in and of a failing stand-in, malformed images, objects for another ISA,
 * code object URIs and the loader extension, and ROCclr's blit kernels (compiled from the source the
 * installed libamdhip64 carries) run by the built-in stand-ins.
 */
#include "hsa_sim/standin.h"
#include "sim_test_util.h"
#include "stderr_capture.h"

#include <hsa_ven_amd_loader.h>

#include <QProcess>
#include <QTest>

#include <elf.h>

#include <atomic>
#include <map>
#include <random>

using namespace rs_test;

namespace {

QByteArray read_all(const char* path) {
    QFile f(QString::fromUtf8(path));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return f.readAll();
}

/// Output of a tool run on a file (empty when it cannot run).
QString tool_output(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput());
}

/// What readelf -sW says of one symbol.
struct ElfFact {
    uint64_t size = 0;
    QString type;
    QString bind;
};

/// Non-local OBJECT symbols of the full symbol table, by name (readelf -sW).
std::map<QString, ElfFact> readelf_objects(const char* path) {
    std::map<QString, ElfFact> out;
    const QString text = tool_output(QStringLiteral(RS_READELF), {"-sW", QString::fromUtf8(path)});
    bool in_symtab = false;
    for (const QString& line : text.split('\n')) {
        if (line.startsWith("Symbol table")) {
            in_symtab = line.contains("'.symtab'");
            continue;
        }
        const QStringList f = line.simplified().split(' ');
        // Num: Value Size Type Bind Vis Ndx Name
        if (!in_symtab || f.size() < 8 || f[3] != "OBJECT" || f[4] == "LOCAL" || f[6] == "UND") {
            continue;
        }
        out[f[7]] = {f[2].toULongLong(nullptr, 0), f[3], f[4]};
    }
    return out;
}

/// `.kernarg_segment_size` etc. of each kernel from llvm-readelf --notes (the metadata as YAML), by .symbol.
std::map<QString, std::map<QString, uint64_t>> metadata_facts(const char* path) {
    std::map<QString, std::map<QString, uint64_t>> out;
    const QString text = tool_output(QStringLiteral(RS_LLVM_READELF), {"--notes", QString::fromUtf8(path)});
    std::map<QString, uint64_t> current;
    // Each kernel's top-level keys are indented by four spaces; ".symbol" is among them.
    const QRegularExpression key(QStringLiteral("^    (?:- )?\\.(\\w+):\\s+(\\S+)$"));
    QString symbol;
    for (const QString& line : text.split('\n')) {
        if (line.startsWith("  - .")) { // a new kernel map (".agpr_count" or similar first key)
            if (!symbol.isEmpty()) {
                out[symbol] = current;
            }
            current.clear();
            symbol.clear();
        }
        const QString l = line.startsWith("  - .") ? "    " + line.mid(4) : line;
        const auto m = key.match(l);
        if (!m.hasMatch()) {
            continue;
        }
        if (m.captured(1) == "symbol") {
            symbol = m.captured(2);
        } else {
            current[m.captured(1)] = m.captured(2).toULongLong();
        }
    }
    if (!symbol.isEmpty()) {
        out[symbol] = current;
    }
    return out;
}

template <typename T>
T sym_info(hsa_executable_symbol_t s, hsa_executable_symbol_info_t attribute,
           hsa_status_t* status = nullptr) {
    T v{};
    const hsa_status_t st = hsa_executable_symbol_get_info(s, attribute, &v);
    if (status) {
        *status = st;
    }
    return v;
}

QByteArray sym_name(hsa_executable_symbol_t s) {
    const auto len = sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH);
    QByteArray name(static_cast<int>(len), '\0');
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name.data());
    return name;
}

struct QueueError {
    std::atomic<int> count{0};
    std::atomic<int> status{0};
};

void on_queue_error(hsa_status_t status, hsa_queue_t*, void* data) {
    auto* e = static_cast<QueueError*>(data);
    e->status.store(static_cast<int>(status));
    e->count.fetch_add(1);
}

} // namespace

class ElfCodeObjectsTest : public QObject {
    Q_OBJECT

    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};
    hsa_ven_amd_loader_1_03_pfn_t loader_{};

    hsa_executable_symbol_t symbol(hsa_executable_t exe, const char* name) {
        return find_symbol(exe, gpu_, name);
    }

    /// Loads `bytes` from memory into a new executable for the GPU; returns the load status.
    hsa_status_t load_bytes(const QByteArray& bytes, LoadedCode* out) {
        out->bytes.assign(bytes.begin(), bytes.end());
        hsa_status_t st =
            hsa_code_object_reader_create_from_memory(out->bytes.data(), out->bytes.size(), &out->reader);
        if (st != HSA_STATUS_SUCCESS) {
            return st;
        }
        st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                       &out->exe);
        if (st != HSA_STATUS_SUCCESS) {
            return st;
        }
        return hsa_executable_load_agent_code_object(out->exe, gpu_, out->reader, nullptr, &out->loaded);
    }

    QByteArray uri_of(hsa_loaded_code_object_t lco) {
        uint32_t len = 0;
        loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
            lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &len);
        QByteArray uri(static_cast<int>(len), '\0');
        loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
            lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri.data());
        return uri;
    }

    /// Runs one 1-D dispatch of `object` on a fresh queue and waits for it; false on timeout.
    bool run(uint64_t object, void* kernarg, uint32_t grid, uint16_t workgroup = 64,
             uint32_t group_segment_size = 0) {
        hsa_queue_t* q = nullptr;
        if (hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q) !=
            HSA_STATUS_SUCCESS) {
            return false;
        }
        hsa_signal_t done{0};
        hsa_signal_create(1, 0, nullptr, &done);
        const uint64_t index = reserve_slot(q);
        fill_dispatch(q, index, object, kernarg, grid, workgroup, done);
        slot<hsa_kernel_dispatch_packet_t>(q, index)->group_segment_size = group_segment_size;
        publish(q, index, packet_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false),
                1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
        const bool ok = wait_below_one(done, 10000) == 0;
        hsa_signal_destroy(done);
        hsa_queue_destroy(q);
        return ok;
    }

  private Q_SLOTS:
    void initTestCase() {
        qputenv(HSA_SIM_STANDINS_ENV, RS_ELF_STANDINS_PATH);
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.cpus.empty() && !agents.gpus.empty());
        cpu_ = agents.cpus.front();
        gpu_ = agents.gpus.front();
        QCOMPARE(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(loader_), &loader_),
                 HSA_STATUS_SUCCESS);
    }

    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }

    // Every non-local OBJECT symbol readelf lists is a symbol of the executable: ".kd" ones are kernels
    // named with the suffix (as ROCr 5.2.3 names them), the rest variables of the ELF size.
    void symbolsMatchReadelf() {
        const std::map<QString, ElfFact> facts = readelf_objects(RS_ELF_KERNELS_CO);
        QVERIFY2(facts.size() >= 9, "readelf listed too few symbols");
        LoadedCode code;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, false, true, &code), HSA_STATUS_SUCCESS);
        std::map<QString, hsa_executable_symbol_t> seen;
        QCOMPARE(hsa_executable_iterate_agent_symbols(
                     code.exe, gpu_,
                     [](hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t s, void* data) {
                         (*static_cast<std::map<QString, hsa_executable_symbol_t>*>(data))[sym_name(s)] = s;
                         return HSA_STATUS_SUCCESS;
                     },
                     &seen),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(seen.size(), facts.size());
        for (const auto& [name, fact] : facts) {
            QVERIFY2(seen.count(name), qPrintable(name));
            const hsa_executable_symbol_t s = seen[name];
            const auto kind = sym_info<hsa_symbol_kind_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE);
            QCOMPARE(kind, name.endsWith(".kd") ? HSA_SYMBOL_KIND_KERNEL : HSA_SYMBOL_KIND_VARIABLE);
            QCOMPARE(sym_info<hsa_symbol_linkage_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE),
                     fact.bind == "GLOBAL" ? HSA_SYMBOL_LINKAGE_PROGRAM : HSA_SYMBOL_LINKAGE_MODULE);
            QCOMPARE(sym_info<hsa_agent_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_AGENT).handle, gpu_.handle);
            QCOMPARE(sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH), 0u);
            QCOMPARE(sym_info<bool>(s, HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION), true);
            if (kind == HSA_SYMBOL_KIND_VARIABLE) {
                QCOMPARE(uint64_t{sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE)},
                         fact.size);
                QVERIFY(sym_info<uint64_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS) != 0);
                // A kernel attribute of a variable is an invalid argument, as in ROCr.
                hsa_status_t st;
                sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &st);
                QCOMPARE(st, HSA_STATUS_ERROR_INVALID_ARGUMENT);
            }
        }
        // Kernels are found by their descriptor symbol only, and only with an agent (ROCr keeps them per
        // agent).
        QVERIFY(symbol(code.exe, "vadd.kd").handle != 0);
        QCOMPARE(symbol(code.exe, "vadd").handle, uint64_t{0});
        hsa_executable_symbol_t s{0};
        QCOMPARE(hsa_executable_get_symbol_by_name(code.exe, "vadd.kd", nullptr, &s),
                 HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
        unload_code(&code);
    }

    // Kernel attributes as ROCr 5.2.3 reports them: segment sizes from the kernel descriptor (which the
    // metadata repeats), kernarg alignment 16, no dynamic call stack, kernel object = descriptor address.
    void kernelAttributes() {
        const auto md = metadata_facts(RS_ELF_KERNELS_CO);
        QVERIFY2(md.count("vadd.kd") && md.count("_Z6scaledPfi.kd"), "llvm-readelf --notes gave no metadata");
        LoadedCode code;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, false, true, &code), HSA_STATUS_SUCCESS);
        for (const char* k : {"vadd.kd", "bump.kd", "failing.kd", "no_standin.kd", "_Z6scaledPfi.kd"}) {
            const hsa_executable_symbol_t s = symbol(code.exe, k);
            QVERIFY2(s.handle, k);
            const auto facts = md.at(k);
            QCOMPARE(uint64_t{sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE)},
                     facts.at("kernarg_segment_size"));
            QCOMPARE(uint64_t{sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE)},
                     facts.at("group_segment_fixed_size"));
            QCOMPARE(uint64_t{sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE)},
                     facts.at("private_segment_fixed_size"));
            QCOMPARE(sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT), 16u);
            QCOMPARE(sym_info<bool>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK), false);
            const auto object = sym_info<uint64_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
            QVERIFY(object != 0 && object % 64 == 0);
            // The descriptor is readable through the loader extension (ROCclr reads it this way).
            const void* host = nullptr;
            QCOMPARE(
                loader_.hsa_ven_amd_loader_query_host_address(reinterpret_cast<const void*>(object), &host),
                HSA_STATUS_SUCCESS);
            uint32_t kernarg_size = 0;
            std::memcpy(&kernarg_size, static_cast<const char*>(host) + 8, 4);
            QCOMPARE(uint64_t{kernarg_size}, facts.at("kernarg_segment_size"));
            // The descriptor lies in memory of the agent.
            hsa_amd_pointer_info_t info{};
            info.size = sizeof(info);
            QCOMPARE(hsa_amd_pointer_info(reinterpret_cast<void*>(object), &info, nullptr, nullptr, nullptr),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_HSA);
            QCOMPARE(info.agentOwner.handle, gpu_.handle);
            hsa_status_t st;
            sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &st);
            QCOMPARE(st, HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        QCOMPARE(md.at("vadd.kd").at("kernarg_segment_size"), uint64_t{28});
        unload_code(&code);
    }

    // Variables: bound to the stand-in instance, initialised from the object, known as agent memory;
    // ROCr's variable attributes (allocation PROGRAM, segment GLOBAL, alignment of the section, and
    // is_const true for a writable section, as ROCr 5.2.3's Symbol::IsConst computes it).
    void variables() {
        LoadedCode code;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, true, false, &code), HSA_STATUS_SUCCESS);
        auto address = [&](const char* name) {
            return reinterpret_cast<void*>(
                sym_info<uint64_t>(symbol(code.exe, name), HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS));
        };
        // Reported before freezing, as ROCr does.
        auto* counter = static_cast<int*>(address("counter"));
        QVERIFY(counter);
        QCOMPARE(*counter, 7);
        const auto* scale = static_cast<const float*>(address("scale"));
        QCOMPARE(scale[0], 1.0f);
        QCOMPARE(scale[3], 4.0f);
        const auto* table = static_cast<const double*>(address("table"));
        QCOMPARE(table[2], 2.5);
        const auto* zeroed = static_cast<const int*>(address("zeroed"));
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(zeroed[i], 0);
        }
        // The relocated pointer follows the bound variable.
        QCOMPARE(*static_cast<int* const*>(address("counter_ptr")), counter);
        const hsa_executable_symbol_t s = symbol(code.exe, "counter");
        QCOMPARE(sym_info<hsa_variable_allocation_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION),
                 HSA_VARIABLE_ALLOCATION_PROGRAM);
        QCOMPARE(sym_info<hsa_variable_segment_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT),
                 HSA_VARIABLE_SEGMENT_GLOBAL);
        QCOMPARE(sym_info<bool>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST), true);
        QCOMPARE(sym_info<uint32_t>(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT), 16u);
        for (const char* name : {"counter", "zeroed"}) {
            hsa_amd_pointer_info_t info{};
            info.size = sizeof(info);
            QCOMPARE(hsa_amd_pointer_info(address(name), &info, nullptr, nullptr, nullptr),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(info.type, HSA_EXT_POINTER_TYPE_HSA);
            QCOMPARE(info.agentOwner.handle, gpu_.handle);
        }
        // A second load has its own instance: its own storage with fresh initial values.
        LoadedCode other;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, false, true, &other), HSA_STATUS_SUCCESS);
        auto* other_counter = reinterpret_cast<int*>(
            sym_info<uint64_t>(symbol(other.exe, "counter"), HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS));
        QVERIFY(other_counter && other_counter != counter);
        *counter = 100;
        QCOMPARE(*other_counter, 7);
        unload_code(&other);
        unload_code(&code);
    }

    // Dispatches run the stand-ins, which share the variables' storage.
    void dispatchThroughStandins() {
        LoadedCode code;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, false, true, &code), HSA_STATUS_SUCCESS);
        auto* counter = reinterpret_cast<int*>(
            sym_info<uint64_t>(symbol(code.exe, "counter"), HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS));
        auto* zeroed = reinterpret_cast<int*>(
            sym_info<uint64_t>(symbol(code.exe, "zeroed"), HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS));
        std::vector<float> a(100), b(100), out(100, -1.0f);
        for (int i = 0; i < 100; ++i) {
            a[i] = static_cast<float>(i);
            b[i] = 0.5f;
        }
        struct VaddArgs {
            float* out;
            const float* a;
            const float* b;
            int n;
        };
        auto* args = alloc_kernarg<VaddArgs>(cpu_);
        *args = {out.data(), a.data(), b.data(), 90};
        QVERIFY(run(sym_info<uint64_t>(symbol(code.exe, "vadd.kd"), HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT),
                    args, 128));
        QCOMPARE(out[0], 7.5f);
        QCOMPARE(out[89], 89.0f + 0.5f + 7.0f);
        QCOMPARE(out[90], -1.0f);
        auto* by = alloc_kernarg<int>(cpu_);
        *by = 5;
        QVERIFY(run(sym_info<uint64_t>(symbol(code.exe, "bump.kd"), HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT),
                    by, 1));
        QCOMPARE(*counter, 12);
        QCOMPARE(zeroed[0], 12);
        // Dynamic LDS: packet group segment size minus the kernel's fixed size.
        std::vector<float> p(4, 0.0f);
        struct ScaledArgs {
            float* p;
            int n;
        };
        auto* sargs = alloc_kernarg<ScaledArgs>(cpu_);
        *sargs = {p.data(), 4};
        const hsa_executable_symbol_t scaled = symbol(code.exe, "_Z6scaledPfi.kd");
        const auto fixed = sym_info<uint32_t>(scaled, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE);
        QVERIFY(run(sym_info<uint64_t>(scaled, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT), sargs, 64, 64,
                    fixed + 256));
        QCOMPARE(p[0], 256.0f * 1.5f);
        hsa_memory_free(args);
        hsa_memory_free(by);
        hsa_memory_free(sargs);
        unload_code(&code);
    }

    // A kernel no stand-in defines, and a stand-in that fails: a queue error naming the kernel, and the
    // packet never completes.
    void queueErrors_data() {
        QTest::addColumn<QByteArray>("kernel");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("no stand-in") << QByteArray("no_standin.kd")
                                     << int(HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
                                     << QByteArray("kernel no_standin has no stand-in");
        QTest::newRow("failing stand-in") << QByteArray("failing.kd") << int(HSA_STATUS_ERROR_EXCEPTION)
                                          << QByteArray("failing: refused 32 work-items on purpose");
    }
    void queueErrors() {
        QFETCH(QByteArray, kernel);
        QFETCH(int, status);
        QFETCH(QByteArray, message);
        LoadedCode code;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, false, true, &code), HSA_STATUS_SUCCESS);
        const auto object = sym_info<uint64_t>(symbol(code.exe, kernel.constData()),
                                               HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
        QVERIFY(object);
        QueueError error;
        hsa_queue_t* q = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, &on_queue_error, &error, UINT32_MAX,
                                  UINT32_MAX, &q),
                 HSA_STATUS_SUCCESS);
        hsa_signal_t done{0};
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
        std::vector<int> buffer(64, 0);
        auto* args = alloc_kernarg<int*>(cpu_);
        *args = buffer.data();
        QByteArray text;
        {
            rs::test::StderrCapture capture;
            dispatch(q, object, args, 32, 32, done, false);
            for (int i = 0; i < 500 && error.count.load() == 0; ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            text = capture.text();
        }
        QCOMPARE(error.count.load(), 1);
        QCOMPARE(error.status.load(), status);
        QVERIFY2(text.contains(message), text.constData());
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        QCOMPARE(buffer[0], 0);
        hsa_signal_destroy(done);
        hsa_queue_destroy(q);
        hsa_memory_free(args);
        unload_code(&code);
    }

    // Malformed images: every truncation and a set of corrupted offsets are refused with
    // HSA_STATUS_ERROR_INVALID_CODE_OBJECT, never a crash.
    void malformed() {
        const QByteArray good = read_all(RS_ELF_KERNELS_CO);
        QVERIFY(good.size() > 1024);
        rs::test::StderrCapture quiet; // one LoaderError line per refused image
        int refused = 0;
        for (int length = 64; length < good.size(); length += (length < 1024 ? 7 : 61)) {
            LoadedCode code;
            const hsa_status_t st = load_bytes(good.left(length), &code);
            // The section headers are at the end of the file: no prefix holds them all.
            QCOMPARE(st, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
            ++refused;
            unload_code(&code);
        }
        QVERIFY(refused > 50);
        Elf64_Ehdr eh;
        std::memcpy(&eh, good.constData(), sizeof(eh));
        auto patched = [&](size_t offset, uint64_t value, size_t width) {
            QByteArray b = good;
            std::memcpy(b.data() + offset, &value, width);
            return b;
        };
        const size_t ph0 = eh.e_phoff;
        std::vector<std::pair<const char*, QByteArray>> cases = {
            {"program headers past the end", patched(offsetof(Elf64_Ehdr, e_phoff), 1ull << 40, 8)},
            {"section headers past the end", patched(offsetof(Elf64_Ehdr, e_shoff), 1ull << 40, 8)},
            {"huge section count", patched(offsetof(Elf64_Ehdr, e_shnum), 0xfff0, 2)},
            {"bad string table index", patched(offsetof(Elf64_Ehdr, e_shstrndx), 0x7777, 2)},
            {"code object version 9", patched(EI_ABIVERSION, 9, 1)},
            {"not ET_DYN", patched(offsetof(Elf64_Ehdr, e_type), ET_REL, 2)},
            {"unknown processor", patched(offsetof(Elf64_Ehdr, e_flags), 0x5ff, 4)},
        };
        for (uint16_t i = 0; i < eh.e_phnum; ++i) {
            Elf64_Phdr ph;
            std::memcpy(&ph, good.constData() + ph0 + i * sizeof(ph), sizeof(ph));
            if (ph.p_type != PT_LOAD) {
                continue;
            }
            const size_t at = ph0 + i * sizeof(ph);
            cases.push_back(
                {"PT_LOAD offset past the end", patched(at + offsetof(Elf64_Phdr, p_offset), 1ull << 33, 8)});
            cases.push_back({"PT_LOAD file size past the end",
                             patched(at + offsetof(Elf64_Phdr, p_filesz), 1ull << 33, 8)});
            cases.push_back({"PT_LOAD of 1 TiB", patched(at + offsetof(Elf64_Phdr, p_memsz), 1ull << 40, 8)});
        }
        for (uint16_t i = 1; i < eh.e_shnum; ++i) {
            const size_t at = eh.e_shoff + i * sizeof(Elf64_Shdr);
            Elf64_Shdr sh;
            std::memcpy(&sh, good.constData() + at, sizeof(sh));
            if (sh.sh_type == SHT_NOBITS) {
                continue; // .bss has no file range
            }
            cases.push_back({"section offset past the end",
                             patched(at + offsetof(Elf64_Shdr, sh_offset), 1ull << 36, 8)});
        }
        for (const auto& [what, bytes] : cases) {
            LoadedCode code;
            const hsa_status_t st = load_bytes(bytes, &code);
            QVERIFY2(st == HSA_STATUS_ERROR_INVALID_CODE_OBJECT, what);
            unload_code(&code);
        }
        // Random corruption of the headers and tables (deterministic): any answer but a crash or an
        // out-of-range read (the AddressSanitizer build checks those) is acceptable.
        std::mt19937 random(20260101);
        const int header_bytes = std::min<int>(good.size(), 0x1000);
        for (int round = 0; round < 150; ++round) {
            QByteArray b = good;
            const int flips = 1 + static_cast<int>(random() % 8);
            for (int f = 0; f < flips; ++f) {
                // Mostly the ELF/program headers, notes and symbol tables; sometimes the section headers.
                const int at = (random() % 4 == 0)
                                   ? static_cast<int>(eh.e_shoff + random() % (good.size() - eh.e_shoff))
                                   : static_cast<int>(random() % header_bytes);
                b[at] = static_cast<char>(random());
            }
            LoadedCode code;
            const hsa_status_t st = load_bytes(b, &code);
            QVERIFY2(st == HSA_STATUS_SUCCESS || st == HSA_STATUS_ERROR_INVALID_CODE_OBJECT ||
                         st == HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS ||
                         st == HSA_STATUS_ERROR_VARIABLE_UNDEFINED || st == HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                     qPrintable(QString::number(st, 16)));
            unload_code(&code);
        }
        // The intact image still loads (so the cases above failed for their corruption).
        LoadedCode code;
        QCOMPARE(load_bytes(good, &code), HSA_STATUS_SUCCESS);
        unload_code(&code);
    }

    // ISA: a plain gfx90a object ("any" features) and a v3 gfx90a:sramecc+:xnack- object load on the
    // gfx90a:sramecc+:xnack- agent; gfx908 or xnack+ objects are incompatible, as in ROCr.
    void isaCompatibility_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::newRow("gfx90a v4 any") << RS_ELF_KERNELS_CO << int(HSA_STATUS_SUCCESS);
        QTest::newRow("gfx90a:sramecc+:xnack- v3") << RS_ELF_KERNELS_V3_CO << int(HSA_STATUS_SUCCESS);
        QTest::newRow("gfx90a:xnack+")
            << RS_ELF_KERNELS_XNACK_CO << int(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
        QTest::newRow("gfx908") << RS_ELF_KERNELS_GFX908_CO << int(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
    }
    void isaCompatibility() {
        QFETCH(QString, path);
        QFETCH(int, status);
        LoadedCode code;
        QCOMPARE(int(load_code(path.toUtf8().constData(), gpu_, false, false, &code)), status);
        unload_code(&code);
    }

    // URIs as ROCr 5.2.3 forms them, over the real bytes; load base/size/delta of the loaded segment.
    void urisAndLoaderExtension() {
        // A whole file: the path alone.
        LoadedCode file;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, false, true, &file), HSA_STATUS_SUCCESS);
        const QByteArray canonical =
            QFileInfo(QStringLiteral(RS_ELF_KERNELS_CO)).canonicalFilePath().toUtf8();
        QCOMPARE(uri_of(file.loaded), "file://" + canonical);
        uint64_t base = 0, size = 0;
        int64_t delta = -1;
        QCOMPARE(loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
                     file.loaded, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base),
                 HSA_STATUS_SUCCESS);
        loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
            file.loaded, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &size);
        loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
            file.loaded, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta);
        const auto kd =
            sym_info<uint64_t>(symbol(file.exe, "vadd.kd"), HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
        QVERIFY(kd >= base && kd + 64 <= base + size);
        QCOMPARE(static_cast<uint64_t>(delta), base);
        hsa_executable_t owner{0};
        QCOMPARE(loader_.hsa_ven_amd_loader_query_executable(reinterpret_cast<const void*>(kd), &owner),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(owner.handle, file.exe.handle);

        // Memory: memory://PID#offset=0xADDRESS&size=BYTES.
        LoadedCode memory;
        QCOMPARE(load_code(RS_ELF_KERNELS_CO, gpu_, true, true, &memory), HSA_STATUS_SUCCESS);
        const QByteArray expected = "memory://" + QByteArray::number(QCoreApplication::applicationPid()) +
                                    "#offset=0x" +
                                    QByteArray::number(reinterpret_cast<quintptr>(memory.bytes.data()), 16) +
                                    "&size=" + QByteArray::number(qulonglong(memory.bytes.size()));
        QCOMPARE(uri_of(memory.loaded), expected);

        // Part of a file (an object embedded at an offset): file://PATH#offset=N&size=M.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile bundle(dir.filePath(QStringLiteral("bundle with space.bin")));
        QVERIFY(bundle.open(QIODevice::ReadWrite));
        const QByteArray object = read_all(RS_ELF_KERNELS_CO);
        bundle.write(QByteArray(4096, 'x'));
        bundle.write(object);
        bundle.write(QByteArray(100, 'y'));
        bundle.flush();
        hsa_code_object_reader_t reader{0};
        QCOMPARE(loader_.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
                     bundle.handle(), 4096, static_cast<size_t>(object.size()), &reader),
                 HSA_STATUS_SUCCESS);
        hsa_executable_t exe{0};
        QCOMPARE(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                           &exe),
                 HSA_STATUS_SUCCESS);
        hsa_loaded_code_object_t lco{0};
        QCOMPARE(hsa_executable_load_agent_code_object(exe, gpu_, reader, nullptr, &lco), HSA_STATUS_SUCCESS);
        // Characters outside [A-Za-z0-9/-_.~] are percent-encoded, as ROCr encodes them.
        QByteArray path = QFileInfo(bundle.fileName()).canonicalFilePath().toUtf8();
        path.replace(" ", "%20");
        QCOMPARE(uri_of(lco), "file://" + path + "#offset=4096&size=" + QByteArray::number(object.size()));
        hsa_executable_destroy(exe);
        hsa_code_object_reader_destroy(reader);
        unload_code(&memory);
        unload_code(&file);
    }

    // ROCclr's buffer blit kernels, compiled from the source libamdhip64 carries, run by the interpreter
    // (with either executor: no stand-in library covers the blit program).
    void blitKernels() {
#ifndef RS_BLIT_CO
        QSKIP("no ROCclr blit source (libamdhip64) or clang-15 at build time");
#else
        LoadedCode code;
        QCOMPARE(load_code(RS_BLIT_CO, gpu_, false, true, &code), HSA_STATUS_SUCCESS);
        auto object = [&](const char* name) {
            return sym_info<uint64_t>(symbol(code.exe, name), HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
        };
        // The kernarg layouts below are the OpenCL ones (pointers 8 bytes, ulong4 32-byte aligned).
        struct alignas(16) Kernarg {
            unsigned char bytes[256];
        };
        auto* ka = alloc_kernarg<Kernarg>(cpu_);
        auto put = [&](size_t offset, auto value) { std::memcpy(ka->bytes + offset, &value, sizeof(value)); };
        auto clear = [&] { std::memset(ka->bytes, 0, sizeof(ka->bytes)); };

        // fillBufferAligned: uint elements, pattern of 2 uints, offset 1 element, 3 repetitions.
        std::vector<uint32_t> buf(16, 0);
        const uint32_t pattern[2] = {0xaaaa0001u, 0xbbbb0002u};
        clear();
        put(16, buf.data());
        put(32, &pattern[0]);
        put(40, uint32_t{2});
        put(48, uint64_t{1});
        put(56, uint64_t{3});
        QVERIFY(run(object("__amd_rocclr_fillBufferAligned.kd"), ka, 64));
        const std::vector<uint32_t> filled = {0,           0xaaaa0001u, 0xbbbb0002u, 0xaaaa0001u,
                                              0xbbbb0002u, 0xaaaa0001u, 0xbbbb0002u, 0};
        QCOMPARE(std::vector<uint32_t>(buf.begin(), buf.begin() + 8), filled);

        // fillBufferAligned2D: uchar elements, 1-byte pattern, 3 x 2 region with pitch 5, offset 1.
        std::vector<unsigned char> img(16, 0);
        const unsigned char one = 0x5a;
        clear();
        put(0, img.data());
        put(32, &one);
        put(40, uint32_t{1});
        put(48, uint64_t{1});
        put(56, uint64_t{3});
        put(64, uint64_t{2});
        put(72, uint64_t{5});
        {
            hsa_queue_t* q = nullptr;
            QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                      UINT32_MAX, &q),
                     HSA_STATUS_SUCCESS);
            hsa_signal_t done{0};
            hsa_signal_create(1, 0, nullptr, &done);
            const uint64_t index = reserve_slot(q);
            fill_dispatch(q, index, object("__amd_rocclr_fillBufferAligned2D.kd"), ka, 4, 4, done);
            auto* p = slot<hsa_kernel_dispatch_packet_t>(q, index);
            p->grid_size_y = 4;
            p->workgroup_size_y = 1;
            publish(q, index, packet_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false),
                    2u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
            QCOMPARE(wait_below_one(done, 10000), hsa_signal_value_t{0});
            hsa_signal_destroy(done);
            hsa_queue_destroy(q);
        }
        const std::vector<unsigned char> filled2d = {0, 0x5a, 0x5a, 0x5a, 0, 0, 0x5a, 0x5a, 0x5a, 0, 0};
        QCOMPARE(std::vector<unsigned char>(img.begin(), img.begin() + 11), filled2d);

        // copyBuffer: 10 bytes as 2 uints and a 2-byte remainder, byte origins 1 and 3.
        std::vector<unsigned char> src(32), dst(32, 0);
        for (int i = 0; i < 32; ++i) {
            src[i] = static_cast<unsigned char>(i + 1);
        }
        clear();
        put(0, src.data());
        put(8, dst.data());
        put(16, uint64_t{1});
        put(24, uint64_t{3});
        put(32, uint64_t{3});
        put(40, uint32_t{2});
        QVERIFY(run(object("__amd_rocclr_copyBuffer.kd"), ka, 64));
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(int(dst[i]), (i >= 3 && i < 13) ? i - 1 : 0);
        }

        // copyBufferAligned: 16-byte elements, origins in elements.
        std::vector<uint32_t> s32(16), d32(16, 0);
        for (int i = 0; i < 16; ++i) {
            s32[i] = 100u + static_cast<uint32_t>(i);
        }
        clear();
        put(0, s32.data());
        put(8, d32.data());
        put(16, uint64_t{1});
        put(24, uint64_t{2});
        put(32, uint64_t{1});
        put(40, uint32_t{16});
        QVERIFY(run(object("__amd_rocclr_copyBufferAligned.kd"), ka, 64));
        QCOMPARE(d32[8], 104u);
        QCOMPARE(d32[11], 107u);
        QCOMPARE(d32[7], 0u);
        QCOMPARE(d32[12], 0u);

        // copyBufferRect: a 2 x 2 byte rectangle; rect = (row pitch, slice pitch, origin).
        std::fill(dst.begin(), dst.end(), 0);
        clear();
        put(0, src.data());
        put(8, dst.data());
        const uint64_t src_rect[4] = {8, 64, 1, 0}, dst_rect[4] = {4, 64, 2, 0}, rsize[4] = {2, 2, 1, 0};
        std::memcpy(ka->bytes + 32, src_rect, 32);
        std::memcpy(ka->bytes + 64, dst_rect, 32);
        std::memcpy(ka->bytes + 96, rsize, 32);
        {
            hsa_queue_t* q = nullptr;
            QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                      UINT32_MAX, &q),
                     HSA_STATUS_SUCCESS);
            hsa_signal_t done{0};
            hsa_signal_create(1, 0, nullptr, &done);
            const uint64_t index = reserve_slot(q);
            fill_dispatch(q, index, object("__amd_rocclr_copyBufferRect.kd"), ka, 2, 2, done);
            auto* p = slot<hsa_kernel_dispatch_packet_t>(q, index);
            p->grid_size_y = 2;
            publish(q, index, packet_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false),
                    2u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
            QCOMPARE(wait_below_one(done, 10000), hsa_signal_value_t{0});
            hsa_signal_destroy(done);
            hsa_queue_destroy(q);
        }
        // src bytes 1,2 and 9,10 (values 2,3 and 10,11) land at dst 2,3 and 6,7.
        QCOMPARE(int(dst[2]), 2);
        QCOMPARE(int(dst[3]), 3);
        QCOMPARE(int(dst[6]), 10);
        QCOMPARE(int(dst[7]), 11);
        QCOMPARE(int(dst[4]), 0);

        // streamOpsWrite (64-bit) then streamOpsWait (EQ, 32-bit) released by a host write.
        uint64_t word64 = 0;
        clear();
        put(0, static_cast<uint32_t*>(nullptr));
        put(8, &word64);
        put(16, uint64_t{0x1234567890ull});
        QVERIFY(run(object("__amd_rocclr_streamOpsWrite.kd"), ka, 1, 1));
        QCOMPARE(word64, uint64_t{0x1234567890ull});

        uint32_t flag = 0;
        clear();
        put(0, &flag);
        put(16, uint64_t{3});
        put(24, uint64_t{1}); // EQ
        put(32, uint64_t{0xffffffffu});
        hsa_queue_t* q = nullptr;
        QCOMPARE(
            hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
        hsa_signal_t done{0};
        hsa_signal_create(1, 0, nullptr, &done);
        dispatch(q, object("__amd_rocclr_streamOpsWait.kd"), ka, 1, 1, done, false);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1}); // still waiting
        // Another queue is not blocked meanwhile: it fills a buffer (fillBufferAligned, as above).
        {
            auto* fill_args = alloc_kernarg<Kernarg>(cpu_);
            std::memset(fill_args->bytes, 0, sizeof(fill_args->bytes));
            std::vector<uint32_t> other(4, 0);
            const uint32_t word = 0x600dcafeu;
            auto put_fill = [&](size_t offset, auto value) {
                std::memcpy(fill_args->bytes + offset, &value, sizeof(value));
            };
            put_fill(16, other.data());
            put_fill(32, &word);
            put_fill(40, uint32_t{1});
            put_fill(48, uint64_t{0});
            put_fill(56, uint64_t{4});
            QVERIFY(run(object("__amd_rocclr_fillBufferAligned.kd"), fill_args, 64));
            QCOMPARE(other, std::vector<uint32_t>(4, word));
            QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1}); // the wait still holds
            hsa_memory_free(fill_args);
        }
        __atomic_store_n(&flag, 3u, __ATOMIC_SEQ_CST);
        QCOMPARE(wait_below_one(done, 10000), hsa_signal_value_t{0});
        // A wait that is never satisfied is abandoned when its queue is destroyed.
        put(16, uint64_t{99});
        hsa_signal_store_screlease(done, 1);
        dispatch(q, object("__amd_rocclr_streamOpsWait.kd"), ka, 1, 1, done, false);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const auto start = std::chrono::steady_clock::now();
        QCOMPARE(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_destroy(done);
        hsa_memory_free(ka);
        unload_code(&code);
#endif
    }
};

QTEST_GUILESS_MAIN(ElfCodeObjectsTest)
#include "tst_elf_code_objects.moc"
