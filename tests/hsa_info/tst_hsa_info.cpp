// SPDX-License-Identifier: MIT
/*
 * Runs hsa-info on the simulator (QProcess, LD_LIBRARY_PATH at the simulator) with HSA_SIM_GPU_AGENTS
 * unset, =1 and =2, parses its output and checks the agents (count, order, type, node, name, ISA, timestamp
 * frequency) and the pools of each agent (count, segment, global flags spelled out, allocation allowed).
 */
#include <QTest>

#include <QProcess>
#include <QRegularExpression>

namespace {

struct Block {
    QMap<QString, QString> fields;
};

struct Agent {
    Block info;
    QList<Block> pools;
};

struct Output {
    QMap<QString, QString> system;
    QList<Agent> agents;
};

Output parse(const QString& text) {
    static const QRegularExpression field_re(QStringLiteral("^( *)([^:]+):\\s*(.*)$"));
    static const QRegularExpression agent_re(QStringLiteral("^Agent \\d+$"));
    static const QRegularExpression pool_re(QStringLiteral("^ +pool \\d+$"));
    Output out;
    for (const QString& line : text.split(u'\n')) {
        if (agent_re.match(line).hasMatch()) {
            out.agents.append(Agent{});
            continue;
        }
        if (pool_re.match(line).hasMatch() && !out.agents.isEmpty()) {
            out.agents.last().pools.append(Block{});
            continue;
        }
        const auto m = field_re.match(line);
        if (!m.hasMatch() || m.captured(3).isEmpty()) {
            continue;
        }
        const QString key = m.captured(2).trimmed();
        const QString value = m.captured(3).trimmed();
        if (out.agents.isEmpty()) {
            out.system[key] = value;
        } else if (m.captured(1).size() >= 6 && !out.agents.last().pools.isEmpty()) {
            out.agents.last().pools.last().fields[key] = value;
        } else {
            out.agents.last().info.fields[key] = value;
        }
    }
    return out;
}

} // namespace

class HsaInfoTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void agentsAndPools_data() {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<int>("gpus");
        QTest::newRow("default") << QString() << 1;
        QTest::newRow("1") << "1" << 1;
        QTest::newRow("2") << "2" << 2;
    }
    void agentsAndPools() {
        QFETCH(QString, setting);
        QFETCH(int, gpus);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString old_path = env.value("LD_LIBRARY_PATH");
        env.insert("LD_LIBRARY_PATH",
                   QStringLiteral(RS_SIM_LIBRARY_DIR) + (old_path.isEmpty() ? "" : ":" + old_path));
        for (const QString& key : env.keys()) {
            if (key.startsWith("HSA_SIM_") || key.startsWith("HSA_TOOLS")) {
                env.remove(key);
            }
        }
        if (!setting.isNull()) {
            env.insert("HSA_SIM_GPU_AGENTS", setting);
        }
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(RS_HSA_INFO_PATH), {});
        QVERIFY(p.waitForStarted(5000));
        QVERIFY(p.waitForFinished(20000));
        const QString text = QString::fromLocal8Bit(p.readAllStandardOutput());
        const QString err = QString::fromLocal8Bit(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(text + err));
        QVERIFY2(text.contains("*** Done ***"), qPrintable(text));

        const Output out = parse(text);
        QCOMPARE(out.system.value("Timestamp Frequency"), QString("1000000000 Hz"));
        QCOMPARE(out.system.value("Runtime Version"), QString("1.1"));
        QCOMPARE(out.agents.size(), 1 + gpus);

        const Agent& cpu = out.agents[0];
        QCOMPARE(cpu.info.fields.value("Device Type"), QString("CPU"));
        QCOMPARE(cpu.info.fields.value("Node"), QString("0"));
        QCOMPARE(cpu.pools.size(), 2);
        QCOMPARE(cpu.pools[0].fields.value("Global Flags"), QString("KERNARG, FINE GRAINED"));
        QCOMPARE(cpu.pools[1].fields.value("Global Flags"), QString("FINE GRAINED"));

        for (int i = 1; i <= gpus; ++i) {
            const Agent& gpu = out.agents[i];
            QCOMPARE(gpu.info.fields.value("Device Type"), QString("GPU"));
            QCOMPARE(gpu.info.fields.value("Node"), QString::number(i));
            QCOMPARE(gpu.info.fields.value("Name"), QString("gfx90a"));
            QCOMPARE(gpu.info.fields.value("Marketing Name"), QString("ReplayScope simulated GPU"));
            QCOMPARE(gpu.info.fields.value("ISA"), QString("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"));
            QCOMPARE(gpu.info.fields.value("Features"), QString("KERNEL_DISPATCH"));
            QCOMPARE(gpu.info.fields.value("Timestamp Frequency"), QString("100000000 Hz"));
            QCOMPARE(gpu.pools.size(), 3);
            QCOMPARE(gpu.pools[0].fields.value("Global Flags"), QString("COARSE GRAINED"));
            QCOMPARE(gpu.pools[1].fields.value("Global Flags"), QString("FINE GRAINED"));
            // The LDS: GROUP segment, 64 KiB, not allocatable.
            QCOMPARE(gpu.pools[2].fields.value("Segment"), QString("GROUP"));
            QCOMPARE(gpu.pools[2].fields.value("Size"), QString("64(KB)"));
            QCOMPARE(gpu.pools[2].fields.value("Runtime Alloc Allowed"), QString("FALSE"));
        }
        for (const Agent& agent : out.agents) {
            for (const Block& pool : agent.pools) {
                if (pool.fields.value("Segment") == "GROUP") {
                    continue;
                }
                QCOMPARE(pool.fields.value("Segment"), QString("GLOBAL"));
                QCOMPARE(pool.fields.value("Runtime Alloc Allowed"), QString("TRUE"));
                QVERIFY2(pool.fields.value("Size").endsWith("(KB)") &&
                             !pool.fields.value("Size").startsWith("0("),
                         qPrintable(pool.fields.value("Size")));
                QVERIFY(pool.fields.contains("Alloc Granule"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(HsaInfoTest)
#include "tst_hsa_info.moc"
