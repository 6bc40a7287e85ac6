// SPDX-License-Identifier: MIT
/*
 * HSA_TOOLS_LIB tool loading, as in ROCr 5.2.3. In process: "toolA refuse toolB" is loaded at the first
 * hsa_init (not again at a nested one); OnLoad gets the API table (root/core/amd/finalizer/image versions:
 * major 1, minor == sizeof(table), step 0; on ROCr 6.1.2 headers 3/2/2/2/2 with AMD step 1),
 * runtime_version (the root major: 1, or 3 on 6.1.2) and the failed-tool count and names; a tool
 * that returns false is closed and counted; patched hsa_agent_get_info entries intercept the program's
 * calls, newest tool first; OnUnload runs in reverse order at the final hsa_shut_down. In child processes:
 * the list's quoting rules (double quotes, backslash escapes) and HSA_TOOLS_REPORT_LOAD_FAILURE.
 */
#include "child_process.h"
#include "sim_test_util.h"

#include <hsa_api_trace.h>

#include <QTest>

#include <dlfcn.h>

using namespace rs_test;

namespace {
/// runtime_version the simulator passes to OnLoad: the HsaApiTable major of its header generation (1 on
/// ROCr 5.2.3, 3 on ROCr 6.1.2).
const QString kRuntime = QString::number(HSA_API_TABLE_MAJOR_VERSION);

QStringList read_log(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
}

constexpr uint32_t kProbeAttributeBase = 0x7fff0000;

} // namespace

class ToolLoadingTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString log_;
    hsa_agent_t gpu_{0};

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        log_ = dir_.filePath("probe.log");
        qputenv("RS_PROBE_LOG", log_.toUtf8());
        qputenv("HSA_TOOLS_LIB", QByteArray(RS_PROBE_TOOL_A) + " " + RS_REFUSE_TOOL + " " + RS_PROBE_TOOL_B);
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.gpus.empty());
        gpu_ = agents.gpus[0];
    }

    void loadOrderAndFailedTools() {
        const QStringList loads = read_log(log_).filter(QRegularExpression("^load "));
        QCOMPARE(loads, QStringList({"load A runtime " + kRuntime + " failed 0",
                                     "load R runtime " + kRuntime + " failed 0",
                                     "load B runtime " + kRuntime + " failed 1"}));
        const QStringList names = read_log(log_).filter(QRegularExpression("^failed-name "));
        QCOMPARE(names, QStringList({QStringLiteral("failed-name B ") + RS_REFUSE_TOOL}));
    }

    void tableVersions_data() {
        QTest::addColumn<QString>("tool");
        QTest::newRow("A") << "A";
        QTest::newRow("R") << "R";
        QTest::newRow("B") << "B";
    }
    void tableVersions() {
        QFETCH(QString, tool);
        const QStringList lines = read_log(log_);
        struct Expected {
            const char* name;
            unsigned major;
            size_t size;
            unsigned step;
        };
        // The generation of the headers the simulator was built against
        // (docs/rocm-behaviour.md#table-layout-and-versions, #rocr-612-differences: HsaApiTable 3, the others
        // 2, AMD extension step 1).
#if HSA_API_TABLE_MAJOR_VERSION >= 3
        const Expected tables[] = {{"root", 3, sizeof(HsaApiTable), 0},
                                   {"core", 2, sizeof(CoreApiTable), 0},
                                   {"amd", 2, sizeof(AmdExtTable), 1},
                                   {"finalizer", 2, sizeof(FinalizerExtTable), 0},
                                   {"image", 2, sizeof(ImageExtTable), 0}};
#else
        const Expected tables[] = {{"root", 1, sizeof(HsaApiTable), 0},
                                   {"core", 1, sizeof(CoreApiTable), 0},
                                   {"amd", 1, sizeof(AmdExtTable), 0},
                                   {"finalizer", 1, sizeof(FinalizerExtTable), 0},
                                   {"image", 1, sizeof(ImageExtTable), 0}};
#endif
        for (const auto& [name, major, size, step] : tables) {
            const QString prefix = QStringLiteral("version %1 %2 ").arg(tool, name);
            const QStringList found =
                lines.filter(QRegularExpression("^" + QRegularExpression::escape(prefix)));
            QCOMPARE(found.size(), 1);
            QCOMPARE(found[0], prefix + QStringLiteral("%1 %2 %3").arg(major).arg(size).arg(step));
        }
    }

    void refusedToolIsClosed() {
        void* handle = dlopen(RS_REFUSE_TOOL, RTLD_LAZY | RTLD_NOLOAD);
        QVERIFY2(handle == nullptr, "the tool whose OnLoad returned false is still loaded");
        void* a = dlopen(RS_PROBE_TOOL_A, RTLD_LAZY | RTLD_NOLOAD);
        QVERIFY(a != nullptr);
        dlclose(a);
    }

    void patchedEntriesIntercept() {
        // Each tool answers its own private attribute; the program reaches both through the exported
        // hsa_agent_get_info, so both patches sit in the call chain.
        char value[64] = {};
        QCOMPARE(hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(kProbeAttributeBase + 'A'), value),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(QByteArray(value), QByteArray("A"));
        QCOMPARE(hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(kProbeAttributeBase + 'B'), value),
                 HSA_STATUS_SUCCESS);
        QCOMPARE(QByteArray(value), QByteArray("B"));
        // The refused tool's patch (it never made one) is not there.
        QVERIFY(hsa_agent_get_info(gpu_, static_cast<hsa_agent_info_t>(kProbeAttributeBase + 'R'), value) !=
                HSA_STATUS_SUCCESS);
        // Pass-through calls go B (loaded last) -> A -> runtime, and still return the real value.
        const int before = read_log(log_).filter(QRegularExpression("^call ")).size();
        char name[64] = {};
        QCOMPARE(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
        QCOMPARE(QByteArray(name), QByteArray("gfx90a"));
        const QStringList calls = read_log(log_).filter(QRegularExpression("^call ")).mid(before);
        QCOMPARE(calls, QStringList({"call B", "call A"}));
    }

    void nestedInitDoesNotReload() {
        const int lines = read_log(log_).size();
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
        const QStringList added = read_log(log_).mid(lines);
        QVERIFY2(added.filter(QRegularExpression("^(load|unload) ")).isEmpty(), qPrintable(added.join('\n')));
    }

    void unloadInReverseOrder() {
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
        const QStringList unloads = read_log(log_).filter(QRegularExpression("^unload "));
        QCOMPARE(unloads, QStringList({"unload B", "unload A"}));
    }

    void quotedAndEscapedPaths_data() {
        QTest::addColumn<QString>("form");
        QTest::newRow("double quotes") << "quoted";
        QTest::newRow("backslash escapes") << "escaped";
    }
    void quotedAndEscapedPaths() {
        QFETCH(QString, form);
        const QString spaced = dir_.filePath("dir with space");
        QVERIFY(QDir().mkpath(spaced));
        const QString copy = spaced + "/probe tool.so";
        if (!QFile::exists(copy)) {
            QVERIFY(QFile::copy(RS_PROBE_TOOL_A, copy));
        }
        QString list;
        if (form == "quoted") {
            list = "\"" + copy + "\" " + RS_PROBE_TOOL_B;
        } else {
            list = QString(copy).replace(" ", "\\ ") + " " + RS_PROBE_TOOL_B;
        }
        const QString log = dir_.filePath(form + ".log");
        const ChildResult r =
            run_child(RS_SIM_CHILD_PATH, {"tools"}, {{"HSA_TOOLS_LIB", list}, {"RS_PROBE_LOG", log}});
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(read_log(log).filter(QRegularExpression("^(load|unload) ")),
                 QStringList({"load A runtime " + kRuntime + " failed 0",
                              "load B runtime " + kRuntime + " failed 0", "unload B", "unload A"}));
    }

    void reportLoadFailures() {
        const QString missing = dir_.filePath("no-such-tool.so");
        const QString log = dir_.filePath("report.log");
        const QString list = missing + " " + RS_REFUSE_TOOL + " " + RS_PROBE_TOOL_B;
        ChildResult r = run_child(
            RS_SIM_CHILD_PATH, {"tools"},
            {{"HSA_TOOLS_LIB", list}, {"RS_PROBE_LOG", log}, {"HSA_TOOLS_REPORT_LOAD_FAILURE", "1"}});
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QVERIFY2(r.err.contains(missing), qPrintable(r.err));
        QVERIFY2(r.err.contains(RS_REFUSE_TOOL), qPrintable(r.err));
        // Tools after the failures still load, and are told about the refused one.
        const QStringList lines = read_log(log);
        QVERIFY2(lines.filter(QRegularExpression("^load B runtime " + kRuntime + " failed [12]$")).size() ==
                     1,
                 qPrintable(lines.join('\n')));
        QVERIFY2(lines.contains(QStringLiteral("failed-name B ") + RS_REFUSE_TOOL),
                 qPrintable(lines.join('\n')));
        // Without the reporting switch nothing is printed about them.
        r = run_child(RS_SIM_CHILD_PATH, {"tools"}, {{"HSA_TOOLS_LIB", list}, {"RS_PROBE_LOG", log}});
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(r.describe()));
        QVERIFY2(!r.err.contains(missing) && !r.err.contains(RS_REFUSE_TOOL), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(ToolLoadingTest)
#include "tst_tool_loading.moc"
