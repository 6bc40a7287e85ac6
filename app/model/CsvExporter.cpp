// SPDX-License-Identifier: MIT
#include "model/CsvExporter.h"

#include "model/ModelRoles.h"

#include <QAbstractItemModel>
#include <QSaveFile>

namespace rs::app {

namespace {
QByteArray field(const QString& text) {
    QString t = text;
    if (t.contains(QLatin1Char(',')) || t.contains(QLatin1Char('"')) || t.contains(QLatin1Char('\n'))) {
        t.replace(QLatin1String("\""), QLatin1String("\"\""));
        t = QLatin1Char('"') + t + QLatin1Char('"');
    }
    return t.toUtf8();
}
/// A string field as rocprofv3 writes one: always between double quotes (a quote inside doubled).
QByteArray quoted(const QString& text) {
    QString t = text;
    t.replace(QLatin1String("\""), QLatin1String("\"\""));
    return (QLatin1Char('"') + t + QLatin1Char('"')).toUtf8();
}

/// A floating-point value as rocprofv3's CSV writer prints one (its numerical_formatter): 6 decimals from
/// 1 on ("10.000000"), else scientific with 8 ("5.00000000e-01").
QByteArray derivedValueText(double value) {
    return value >= 1 ? QByteArray::number(value, 'f', 6) : QByteArray::number(value, 'e', 8);
}

} // namespace

const QStringList& CsvExporter::counterCollectionColumns() {
    static const QStringList columns{QStringLiteral("Correlation_Id"), QStringLiteral("Dispatch_Id"),
                                     QStringLiteral("Agent_Id"),       QStringLiteral("Queue_Id"),
                                     QStringLiteral("Process_Id"),     QStringLiteral("Thread_Id"),
                                     QStringLiteral("Grid_Size"),      QStringLiteral("Kernel_Id"),
                                     QStringLiteral("Kernel_Name"),    QStringLiteral("Workgroup_Size"),
                                     QStringLiteral("LDS_Block_Size"), QStringLiteral("Scratch_Size"),
                                     QStringLiteral("VGPR_Count"),     QStringLiteral("Accum_VGPR_Count"),
                                     QStringLiteral("SGPR_Count"),     QStringLiteral("Counter_Name"),
                                     QStringLiteral("Counter_Value"),  QStringLiteral("Start_Timestamp"),
                                     QStringLiteral("End_Timestamp")};
    return columns;
}

void CsvExporter::writeCounterCollection(const SessionSnapshot& s, QIODevice& out) {
    QByteArray line;
    for (const QString& c : counterCollectionColumns()) {
        line += (line.isEmpty() ? "" : ",") + quoted(c);
    }
    out.write(line + "\n");
    if (s.isNull() || s->counterBegin.empty()) {
        return;
    }
    const SessionData& d = s.data();
    for (std::size_t r = 0; r < d.dispatches.size(); ++r) {
        const int first = d.counterBegin[r], end = d.counterBegin[r + 1];
        if (first == end) {
            continue;
        }
        const DispatchRow& row = d.dispatches[r];
        const ProcessInfo* process = s.process(row.process);
        const int agent = s.agentIndex(row.process, row.agent);
        const QByteArray agentId = agent >= 0 ? QByteArray::number(d.agents[agent].node) : QByteArray();
        const quint64 grid = quint64(row.grid[0]) * row.grid[1] * row.grid[2];
        const quint64 workgroup = quint64(row.workgroup[0]) * row.workgroup[1] * row.workgroup[2];
        // Correlation_Id .. Kernel_Name, Workgroup_Size; then five kernel figures the session does not hold.
        const QByteArray head =
            "," + QByteArray::number(row.id) + "," + agentId + "," + QByteArray::number(quint64(row.queue)) +
            "," + (process && process->pid > 0 ? QByteArray::number(process->pid) : QByteArray()) + ",," +
            QByteArray::number(grid) + ",," + quoted(d.kernelNames.value(row.kernel)) + "," +
            QByteArray::number(workgroup) + ",,,,,,";
        int previous = -1;
        for (int i = first; i < end; ++i) {
            const DispatchCounterValue& v = d.dispatchCounters[std::size_t(i)];
            if (v.counter == previous) {
                continue; // one row per dispatch and counter, the value of the first pass that collected it
            }
            previous = v.counter;
            QByteArray start, stop;
            for (int p = d.passBegin[r]; p < d.passBegin[r + 1]; ++p) {
                const PassRow& pass = d.passes[std::size_t(p)];
                if (pass.index == v.passIndex) {
                    start = QByteArray::number(pass.startTick);
                    stop = QByteArray::number(pass.endTick);
                    break;
                }
            }
            out.write(head + quoted(d.counterNames.value(v.counter)) + "," + QByteArray::number(v.value) +
                      "," + start + "," + stop + "\n");
        }
        // Then the derived metrics, as rocprofv3 writes them: rows of their own named by the metric; none
        // where the dispatch has no value. Their inputs may come from several passes: no timestamps.
        for (int m = 0; m < d.derivedNames.size(); ++m) {
            if (const std::optional<double> v = s.derivedValue(int(r), m)) {
                out.write(head + quoted(d.derivedNames[m]) + "," + derivedValueText(*v) + ",,\n");
            }
        }
    }
}

bool CsvExporter::writeCounterCollectionFile(const SessionSnapshot& snapshot, const QString& path,
                                             QString* error) {
    QSaveFile f(path);
    // 0600 like the session it is read from (kernel names, command lines).
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        if (error) {
            *error = f.errorString();
        }
        return false;
    }
    writeCounterCollection(snapshot, f);
    if (!f.commit()) {
        if (error) {
            *error = f.errorString();
        }
        return false;
    }
    return true;
}

void CsvExporter::write(const QAbstractItemModel& model, QIODevice& out) {
    const int columns = model.columnCount();
    QByteArray line;
    for (int c = 0; c < columns; ++c) {
        line += (c ? "," : "") + field(model.headerData(c, Qt::Horizontal).toString());
    }
    out.write(line + "\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        line.clear();
        for (int c = 0; c < columns; ++c) {
            const QModelIndex i = model.index(r, c);
            QVariant v = i.data(SortRole);
            if (!v.isValid()) {
                v = i.data(Qt::DisplayRole);
            }
            line += (c ? "," : "") + field(v.toString());
        }
        out.write(line + "\n");
    }
}

bool CsvExporter::writeFile(const QAbstractItemModel& model, const QString& path, QString* error) {
    QSaveFile f(path);
    // 0600 like the session it is read from (kernel names, command lines).
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        if (error) {
            *error = f.errorString();
        }
        return false;
    }
    write(model, f);
    if (!f.commit()) {
        if (error) {
            *error = f.errorString();
        }
        return false;
    }
    return true;
}

} // namespace rs::app
