// SPDX-License-Identifier: MIT
// The session's charts, x = dispatch order: snapshot bytes stacked by agent, snapshot and restore time,
// the pass-to-pass spread of kernel time (histogram, and the list of dispatches above a threshold), skipped
// regions, declines by reason; tracked footprint per agent over time; bytes restored per dispatch, full
// restore (footprint × restores) against bytes actually moved. Live sessions redraw at most ten times a
// second. With more than one process a process selector restricts every chart to one process.
#pragma once

#include "model/SessionSnapshot.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QTimer;

namespace rs::app {

class ChartAdapter;
class PassSpreadPanel;

class ChartsPage : public QWidget {
    Q_OBJECT
  public:
    explicit ChartsPage(QWidget* parent = nullptr);
    /// Queues `snapshot`; charts are rebuilt at most every 100 ms.
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Rebuilds now (headless export, tests).
    void flush();
    const QList<ChartAdapter*>& charts() const { return charts_; }
    /// Writes every chart as DIR/<n>-<name>.png; returns the files written.
    QStringList exportPngs(const QString& dir) const;
    /// Number of rebuilds so far (tests check the batching).
    int rebuilds() const { return rebuilds_; }
    /// Shows process `process` only (1-based), 0: every process. Rebuilds now.
    void setProcessFilter(int process);
    int processFilter() const { return process_; }
    QComboBox* processSelector() const { return selector_; }
    /// The threshold list of the pass-to-pass spread (beside the charts).
    PassSpreadPanel* spreadPanel() const { return spread_; }

  signals:
    /// A row of the spread list was selected: `dispatchRow` indexes SessionData::dispatches.
    void dispatchSelected(int dispatchRow);
    /// A row of the spread list was activated (double click, Enter).
    void dispatchActivated(int dispatchRow);

  private:
    void rebuild();

    SessionSnapshot pending_;
    QTimer* timer_;
    QComboBox* selector_;
    PassSpreadPanel* spread_ = nullptr;
    int process_ = 0;
    QList<ChartAdapter*> charts_;
    QList<QString> files_;
    int rebuilds_ = 0;
};

} // namespace rs::app
