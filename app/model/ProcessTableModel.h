// SPDX-License-Identifier: MIT
// The instrumented processes of a session with their totals (pid, parent, command, events, dispatches,
// replayed, declined, missing events, rejected frames, complete, exit status; from format 4 the bytes full
// restores would have moved and the bytes moved over the host link and inside the device): the summary page's
// per-process table and the process list of `replayscope --summary`.
#pragma once

#include "model/SessionTableModel.h"

namespace rs::app {

class ProcessTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    enum Column {
        Process,
        Pid,
        Parent,
        Command,
        Events,
        Dispatches,
        Replayed,
        Declined,
        Missing,
        RejectedFrames,
        Complete,
        ExitStatus,
        FullRestoreBytes, ///< footprint × restores over the process's dispatches
        MovedHost,        ///< bytes its restores copied back over the host link
        MovedDevice,      ///< bytes its restores copied back inside the device
        ColumnCount
    };
    explicit ProcessTableModel(QObject* parent = nullptr);
    /// Shows the processes of `snapshot` (one row per SessionData::processes entry).
    void setSnapshot(const SessionSnapshot& snapshot);
    /// "0", "1 (killed by signal 9)" or "" when not recorded: the exit status column's text.
    static QString exitText(const ProcessInfo& p);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
