// SPDX-License-Identifier: MIT
/*
 * Code objects, executables and symbols, with the test kernel library (test_kernels.cpp): loading from a
 * file descriptor and from memory, kernel symbol properties (kind, name, kernel object, segment sizes),
 * variable symbols (kind, size, address 0 until frozen, storage initialised from the library and
 * shared with the kernels), dispatching the kernel, and the AMD loader extension (iterate executables,
 * loaded code objects and their executable, kind, agent and URI).
 */
#include "sim_test_kernels.h"
#include "sim_test_util.h"

#include <hsa_ven_amd_loader.h>

#include <QTest>

#include <map>

using namespace rs_test;

namespace {

struct SymbolInfo {
    hsa_symbol_kind_t kind;
    QByteArray name;
    uint64_t address = 0;
    uint32_t size = 0;
};

std::map<QByteArray, SymbolInfo> symbols_of(hsa_executable_t exe, hsa_agent_t agent, hsa_status_t* status) {
    std::map<QByteArray, SymbolInfo> out;
    *status = hsa_executable_iterate_agent_symbols(
        exe, agent,
        [](hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t sym, void* data) {
            SymbolInfo info{};
            hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &info.kind);
            uint32_t len = 0;
            hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
            info.name = QByteArray(static_cast<int>(len), '\0');
            hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME, info.name.data());
            if (info.kind == HSA_SYMBOL_KIND_VARIABLE) {
                hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                               &info.address);
                hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &info.size);
            }
            (*static_cast<std::map<QByteArray, SymbolInfo>*>(data))[info.name] = info;
            return HSA_STATUS_SUCCESS;
        },
        &out);
    return out;
}

} // namespace

class CodeObjectsTest : public QObject {
    Q_OBJECT

    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};
    hsa_ven_amd_loader_1_03_pfn_t loader_{};

    std::vector<hsa_executable_t> executables() {
        std::vector<hsa_executable_t> out;
        loader_.hsa_ven_amd_loader_iterate_executables(
            [](hsa_executable_t exe, void* data) {
                static_cast<std::vector<hsa_executable_t>*>(data)->push_back(exe);
                return HSA_STATUS_SUCCESS;
            },
            &out);
        return out;
    }

    std::vector<hsa_loaded_code_object_t> loadedCodeObjects(hsa_executable_t exe, hsa_status_t* status) {
        std::vector<hsa_loaded_code_object_t> out;
        *status = loader_.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
            exe,
            [](hsa_executable_t, hsa_loaded_code_object_t lco, void* data) {
                static_cast<std::vector<hsa_loaded_code_object_t>*>(data)->push_back(lco);
                return HSA_STATUS_SUCCESS;
            },
            &out);
        return out;
    }

    QByteArray uriOf(hsa_loaded_code_object_t lco) {
        uint32_t len = 0;
        if (loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
                lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &len) != HSA_STATUS_SUCCESS) {
            return "(no length)";
        }
        QByteArray uri(static_cast<int>(len) + 1, '\0');
        if (loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
                lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri.data()) != HSA_STATUS_SUCCESS) {
            return "(no uri)";
        }
        const QByteArray text(uri.constData());
        return text.size() == static_cast<int>(len) ? text : "(length mismatch) " + text;
    }

  private Q_SLOTS:
    void initTestCase() {
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.cpus.empty() && !agents.gpus.empty());
        cpu_ = agents.cpus[0];
        gpu_ = agents.gpus[0];
        QCOMPARE(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1,
                                                      sizeof(hsa_ven_amd_loader_1_03_pfn_t), &loader_),
                 HSA_STATUS_SUCCESS);
        QVERIFY(loader_.hsa_ven_amd_loader_iterate_executables);
        QVERIFY(loader_.hsa_ven_amd_loader_executable_iterate_loaded_code_objects);
        QVERIFY(loader_.hsa_ven_amd_loader_loaded_code_object_get_info);
    }
    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }

    void kernelSymbol_data() {
        QTest::addColumn<bool>("from_memory");
        QTest::newRow("file") << false;
        QTest::newRow("memory") << true;
    }
    void kernelSymbol() {
        QFETCH(bool, from_memory);
        LoadedCode code;
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, from_memory, true, &code), HSA_STATUS_SUCCESS);
        const hsa_executable_symbol_t sym = find_symbol(code.exe, gpu_, kFillKernel);
        QVERIFY(sym.handle != 0);
        hsa_symbol_kind_t kind{};
        QCOMPARE(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(kind, HSA_SYMBOL_KIND_KERNEL);
        uint64_t object = 0;
        uint32_t kernarg = 0, group = 0, priv = 0;
        QCOMPARE(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object),
                 HSA_STATUS_SUCCESS);
        QVERIFY(object != 0);
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg);
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group);
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv);
        QCOMPARE(kernarg, uint32_t{sizeof(FillArgs)});
        QCOMPARE(group, kFillGroupSegment);
        QCOMPARE(priv, kFillPrivateSegment);
        hsa_agent_t owner{0};
        QCOMPARE(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &owner),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(owner.handle, gpu_.handle);
        QVERIFY(kernel_object(code.exe, gpu_, kRecordKernel) != 0);
        QVERIFY(kernel_object(code.exe, gpu_, kRecordKernel) != object);
        // Unknown names are not found.
        hsa_executable_symbol_t none{0};
        QCOMPARE(hsa_executable_get_symbol_by_name(code.exe, "no_such_kernel.kd", &gpu_, &none),
                 HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
        unload_code(&code);
    }

    void variablesBeforeAndAfterFreeze() {
        LoadedCode code;
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, false, false, &code), HSA_STATUS_SUCCESS);
        hsa_status_t st;
        auto before = symbols_of(code.exe, gpu_, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(before.size(), size_t{5});
        for (const char* v : {kCounterVariable, kTableVariable, kEmptyVariable}) {
            QVERIFY2(before.count(v), v);
            QCOMPARE(before[v].kind, HSA_SYMBOL_KIND_VARIABLE);
            QCOMPARE(before[v].address, uint64_t{0});
        }
        QCOMPARE(before[kFillKernel].kind, HSA_SYMBOL_KIND_KERNEL);
        QCOMPARE(before[kRecordKernel].kind, HSA_SYMBOL_KIND_KERNEL);

        QCOMPARE(hsa_executable_freeze(code.exe, nullptr), HSA_STATUS_SUCCESS);
        auto after = symbols_of(code.exe, gpu_, &st);
        QCOMPARE(st, HSA_STATUS_SUCCESS);
        QCOMPARE(after[kCounterVariable].size, uint32_t{sizeof(uint64_t)});
        QCOMPARE(after[kTableVariable].size, uint32_t{sizeof(kTableInitial)});
        QCOMPARE(after[kEmptyVariable].size, uint32_t{0});
        QVERIFY(after[kCounterVariable].address != 0);
        QVERIFY(after[kTableVariable].address != 0);
        QVERIFY(after[kCounterVariable].address != after[kTableVariable].address);
        // Storage initialised from the library's initial bytes; read it through hsa_memory_copy.
        uint64_t counter = 0;
        QCOMPARE(hsa_memory_copy(&counter, reinterpret_cast<void*>(after[kCounterVariable].address),
                                 sizeof(counter)),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(counter, kCounterInitial);
        uint32_t table[4] = {};
        QCOMPARE(
            hsa_memory_copy(table, reinterpret_cast<void*>(after[kTableVariable].address), sizeof(table)),
            HSA_STATUS_SUCCESS);
        QVERIFY(std::equal(table, table + 4, kTableInitial));
        // Lookup by name finds variables too.
        const hsa_executable_symbol_t sym = find_symbol(code.exe, gpu_, kCounterVariable);
        QVERIFY(sym.handle != 0);
        unload_code(&code);
    }

    void dispatchUsesVariables() {
        LoadedCode code;
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, false, true, &code), HSA_STATUS_SUCCESS);
        hsa_status_t st;
        auto syms = symbols_of(code.exe, gpu_, &st);
        const uint64_t counter_addr = syms[kCounterVariable].address;
        const uint64_t table_addr = syms[kTableVariable].address;
        QVERIFY(counter_addr && table_addr);
        // Change the constant table from the host before the dispatch; the kernel must see it.
        const uint32_t table[4] = {10, 20, 30, 40};
        QCOMPARE(hsa_memory_copy(reinterpret_cast<void*>(table_addr), table, sizeof(table)),
                 HSA_STATUS_SUCCESS);
        hsa_queue_t* q = nullptr;
        QCOMPARE(
            hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
        constexpr uint32_t n = 257;
        std::vector<uint32_t> out(n, 0);
        auto* args = alloc_kernarg<FillArgs>(cpu_);
        *args = FillArgs{out.data(), 3, 0};
        hsa_signal_t done;
        hsa_signal_create(2, 0, nullptr, &done);
        const uint64_t object = kernel_object(code.exe, gpu_, kFillKernel);
        dispatch(q, object, args, n, 64, done, true);
        dispatch(q, object, args, n, 64, done, true);
        QCOMPARE(wait_below_one(done, 3000), hsa_signal_value_t{0});
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(out[i], table[i % 4] * 3 + i);
        }
        uint64_t counter = 0;
        QCOMPARE(hsa_memory_copy(&counter, reinterpret_cast<void*>(counter_addr), sizeof(counter)),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(counter, kCounterInitial + 2 * n);
        hsa_signal_destroy(done);
        hsa_amd_memory_pool_free(args);
        hsa_queue_destroy(q);
        // Separate executables have separate variable storage.
        LoadedCode other;
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, true, true, &other), HSA_STATUS_SUCCESS);
        auto other_syms = symbols_of(other.exe, gpu_, &st);
        QVERIFY(other_syms[kCounterVariable].address != counter_addr);
        QCOMPARE(hsa_memory_copy(&counter, reinterpret_cast<void*>(other_syms[kCounterVariable].address),
                                 sizeof(counter)),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(counter, kCounterInitial);
        unload_code(&other);
        unload_code(&code);
    }

    void loaderExtension() {
        LoadedCode from_file, from_memory;
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, false, true, &from_file), HSA_STATUS_SUCCESS);
        QCOMPARE(load_code(RS_TEST_KERNELS_PATH, gpu_, true, true, &from_memory), HSA_STATUS_SUCCESS);
        auto exes = executables();
        auto contains = [&exes](hsa_executable_t e) {
            return std::any_of(exes.begin(), exes.end(),
                               [e](hsa_executable_t x) { return x.handle == e.handle; });
        };
        QVERIFY(contains(from_file.exe));
        QVERIFY(contains(from_memory.exe));

        const QByteArray file_path = QFileInfo(RS_TEST_KERNELS_PATH).canonicalFilePath().toUtf8();
        for (LoadedCode* code : {&from_file, &from_memory}) {
            hsa_status_t st;
            const auto lcos = loadedCodeObjects(code->exe, &st);
            QCOMPARE(st, HSA_STATUS_SUCCESS);
            QCOMPARE(lcos.size(), size_t{1});
            QCOMPARE(lcos[0].handle, code->loaded.handle);
            hsa_executable_t owner{0};
            QCOMPARE(loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
                         lcos[0], HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE, &owner),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(owner.handle, code->exe.handle);
            uint32_t kind = 0;
            QCOMPARE(loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
                         lcos[0], HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(kind, uint32_t{HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT});
            hsa_agent_t agent{0};
            QCOMPARE(loader_.hsa_ven_amd_loader_loaded_code_object_get_info(
                         lcos[0], HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &agent),
                     HSA_STATUS_SUCCESS);
            QCOMPARE(agent.handle, gpu_.handle);
            const QByteArray uri = uriOf(lcos[0]);
            if (code == &from_file) {
                QVERIFY2(uri.startsWith("file://"), uri.constData());
                QVERIFY2(uri.contains(QFileInfo(RS_TEST_KERNELS_PATH).fileName().toUtf8()), uri.constData());
                QVERIFY2(uri.mid(7).startsWith(file_path) ||
                             uri.mid(7).startsWith(QByteArray(RS_TEST_KERNELS_PATH)),
                         uri.constData());
            } else {
                const QByteArray prefix =
                    "memory://" + QByteArray::number(QCoreApplication::applicationPid());
                QVERIFY2(uri.startsWith(prefix), uri.constData());
                QVERIFY2(uri.contains("offset=") && uri.contains("size="), uri.constData());
                QVERIFY2(uri.contains("size=" + QByteArray::number(qulonglong(from_memory.bytes.size()))) ||
                             uri.contains("size=0x" +
                                          QByteArray::number(qulonglong(from_memory.bytes.size()), 16)),
                         uri.constData());
            }
        }
        const hsa_executable_t gone = from_memory.exe;
        unload_code(&from_memory);
        exes = executables();
        QVERIFY(!contains(gone));
        QVERIFY(contains(from_file.exe));
        unload_code(&from_file);
    }
};

QTEST_GUILESS_MAIN(CodeObjectsTest)
#include "tst_code_objects.moc"
