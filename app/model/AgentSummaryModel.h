// SPDX-License-Identifier: MIT
// Per agent (of each process): tracked footprint, dispatches replayed and declined, snapshot and restore
// time, and (format 4) the bytes full restores would have moved (footprint × restores) against the bytes
// actually moved over the host link and inside the device, and the dirty chunks of all restores; (format 5)
// the time replay windows held the agent's dispatches against the process's run time: the replay overhead.
#pragma once

#include "model/SessionTableModel.h"

#include <QVector>

namespace rs::app {

class AgentSummaryModel : public SessionTableModel {
    Q_OBJECT
  public:
    explicit AgentSummaryModel(QObject* parent = nullptr);
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Aggregates of one agent of one process (handles repeat across processes: each is its own row).
    struct Row {
        int process = 1; ///< ProcessInfo::process
        qint64 handle = 0;
        qint64 trackedBytes = 0, peakTrackedBytes = 0, snapshotBytes = 0;
        int replayed = 0, declined = 0;
        qint64 snapshotNs = 0, restoreNs = 0;
        /// Restore totals (-1: no restore recorded, an older file): restores, footprint × restores, bytes
        /// moved over the host link / inside the device, dirty and compared chunks.
        qint64 restores = 0, fullRestoreBytes = -1, movedHost = -1, movedDevice = -1;
        qint64 dirtyChunks = -1, comparedChunks = -1;
        /// Replay windows (format 5 and later): how many, and how long they held their dispatches in all
        /// (ns; -1: none recorded); runNs: the process's run from its session start to its end (ns; -1:
        /// not ended). windowNs / runNs is the share of the run spent in replay windows on this agent.
        qint64 windows = 0, windowNs = -1, runNs = -1;
        /// windowNs / runNs in percent; -1 when either is unknown.
        double runShare() const {
            return windowNs >= 0 && runNs > 0 ? 100.0 * double(windowNs) / double(runNs) : -1;
        }
    };
    enum Column {
        Agent,
        Isa,
        Tracked,
        Peak,
        Replayed,
        Declined,
        SnapshotBytes,
        SnapshotMs,
        RestoreMs,
        FullRestoreBytes,
        MovedHost,
        MovedDevice,
        DirtyChunks,
        WindowMs, ///< replay windows' time, ms
        RunShare, ///< WindowMs against the process's run, percent
        ColumnCount
    };
    const QVector<Row>& rows() const { return rows_; }

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    QVector<Row> rows_;
};

} // namespace rs::app
