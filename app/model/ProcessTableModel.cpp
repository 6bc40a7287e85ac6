// SPDX-License-Identifier: MIT
#include "model/ProcessTableModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/ThemeColors.h"

namespace rs::app {

ProcessTableModel::ProcessTableModel(QObject* parent)
    : SessionTableModel({QStringLiteral("#"), QStringLiteral("PID"), QStringLiteral("Parent"),
                         QStringLiteral("Command"), QStringLiteral("Events"), QStringLiteral("Dispatches"),
                         QStringLiteral("Replayed"), QStringLiteral("Declined"), QStringLiteral("Missing"),
                         QStringLiteral("Rejected frames"), QStringLiteral("Complete"),
                         QStringLiteral("Exit status"), QStringLiteral("Full-restore bytes"),
                         QStringLiteral("Moved (host)"), QStringLiteral("Moved (device)")},
                        {QStringLiteral("Process index (order of first connection or import)"),
                         QStringLiteral("Process id"), QStringLiteral("Parent process id"),
                         QStringLiteral("Command line of the process image that loaded the engine"),
                         QStringLiteral("Events stored"), QStringLiteral("Dispatches recorded"),
                         QStringLiteral("Dispatches replayed"), QStringLiteral("Dispatches declined"),
                         QStringLiteral("Sequence numbers never received (gaps)"),
                         QStringLiteral("Frames the collector or importer refused"),
                         QStringLiteral("Session end stored and no gap"),
                         QStringLiteral("Value passed to exit(), or 128+signal"),
                         QStringLiteral("Bytes full restores would have moved: footprint × restores"),
                         QStringLiteral("Bytes the restores copied back over the host link"),
                         QStringLiteral("Bytes the restores copied back inside the device")},
                        parent) {}

void ProcessTableModel::setSnapshot(const SessionSnapshot& snapshot) {
    install(snapshot, snapshot.isNull() ? 0 : int(snapshot->processes.size()), false);
}

QString ProcessTableModel::exitText(const ProcessInfo& p) {
    if (!p.hasExitStatus || p.exitStatus < 0) {
        return {};
    }
    return p.exitSignal > 0 ? QStringLiteral("%1 (killed by signal %2)").arg(p.exitStatus).arg(p.exitSignal)
                            : QString::number(p.exitStatus);
}

QVariant ProcessTableModel::value(int row, int column) const {
    const ProcessInfo& p = snapshot_->processes[row];
    switch (column) {
    case Process:
        return p.process;
    case Pid:
        return p.pid;
    case Parent:
        return p.parentPid;
    case Command:
        return p.argv.isEmpty() ? p.executable : p.argv;
    case Events:
        return p.eventsStored;
    case Dispatches:
        return p.dispatches;
    case Replayed:
        return p.replayed;
    case Declined:
        return p.declined;
    case Missing:
        return p.missingEvents;
    case RejectedFrames:
        return p.rejectedFrames;
    case Complete:
        return p.complete ? QStringLiteral("yes") : QStringLiteral("no");
    case ExitStatus:
        return p.hasExitStatus ? p.exitStatus : -1;
    case FullRestoreBytes:
        return p.restores > 0 ? QVariant(p.fullRestoreBytes) : QVariant();
    case MovedHost:
        return p.restores > 0 ? QVariant(p.movedHost) : QVariant();
    case MovedDevice:
        return p.restores > 0 ? QVariant(p.movedDevice) : QVariant();
    }
    return {};
}

QString ProcessTableModel::text(int row, int column) const {
    const ProcessInfo& p = snapshot_->processes[row];
    switch (column) {
    case Process:
        return QString::number(p.process);
    case Pid:
        return p.pid > 0 ? QString::number(p.pid) : QString();
    case Parent:
        return p.parentPid > 0 ? QString::number(p.parentPid) : QString();
    case Command:
        return value(row, column).toString();
    case Events:
    case Dispatches:
    case Replayed:
    case Declined:
    case Missing:
    case RejectedFrames:
        return format::count(value(row, column).toLongLong());
    case Complete:
        return p.complete ? QStringLiteral("yes")
                          : (p.ended ? QStringLiteral("no") : QStringLiteral("no end"));
    case ExitStatus:
        return exitText(p);
    case FullRestoreBytes:
        return p.restores > 0 ? format::bytes(p.fullRestoreBytes) : format::kNotRecorded;
    case MovedHost:
        return p.restores > 0 ? format::bytes(p.movedHost) : format::kNotRecorded;
    case MovedDevice:
        return p.restores > 0 ? format::bytes(p.movedDevice) : format::kNotRecorded;
    }
    return {};
}

QVariant ProcessTableModel::extra(int row, int column, int role) const {
    const ProcessInfo& p = snapshot_->processes[row];
    switch (role) {
    case ProcessRole:
        return p.process;
    case RowIdRole:
        return p.process;
    case FilterTextRole:
        return p.argv.isEmpty() ? p.executable : p.argv;
    case Qt::ForegroundRole:
        if (column == Complete) {
            return p.complete ? ThemeColors::status(ThemeColors::Status::good)
                              : ThemeColors::status(ThemeColors::Status::bad);
        }
        if ((column == Missing && p.missingEvents > 0) ||
            (column == RejectedFrames && p.rejectedFrames > 0)) {
            return ThemeColors::status(ThemeColors::Status::bad);
        }
        return {};
    case Qt::ToolTipRole:
        if (column == Command) {
            return QStringLiteral("%1\ninstance %2, end: %3")
                .arg(p.executable)
                .arg(p.instance, 16, 16, QLatin1Char('0'))
                .arg(p.endReason.isEmpty() ? QStringLiteral("none recorded") : p.endReason);
        }
        return {};
    }
    return {};
}

} // namespace rs::app
