// SPDX-License-Identifier: MIT
// The hardware counters of a session (format 7, docs/counters.md): per kernel, agent and counter the
// dispatches it was collected for and the minimum, median and maximum of its values, in a sortable,
// filterable table, and under it the chart of the current row's counter over the kernel's dispatches on that
// agent (ChartSeriesBuilder::counterPerDispatch). The statistics are computed only while the page is shown (a
// live session's snapshots do not recompute them in the background).
#pragma once

#include "model/CounterSummary.h"
#include "model/SessionSnapshot.h"

#include <QWidget>

class QLabel;
class QModelIndex;

namespace rs::app {

class ChartAdapter;
class CounterTableModel;
class TablePanel;

class CountersPage : public QWidget {
    Q_OBJECT
  public:
    explicit CountersPage(QWidget* parent = nullptr);
    /// Shows `snapshot`: at once when the page is visible, else when it is next shown.
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Applies the last snapshot now, shown or not (headless export, tests).
    void flush();
    CounterTableModel* model() const { return model_; }
    TablePanel* panel() const { return panel_; }
    /// The line above the table ("no hardware counters ..." when the session has none).
    QLabel* status() const { return status_; }
    /// The chart under the table: the current row's counter per dispatch of its kernel on its agent (x =
    /// dispatch order among all the session's dispatches); a placeholder while no row is current.
    ChartAdapter* chart() const { return chart_; }

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    /// Charts the counter of the table's row `current` (an index of the panel's proxy).
    void showCurrent(const QModelIndex& current);
    /// Makes the row of the last charted kernel, agent and counter current again after a reset (the first
    /// row when it is gone).
    void restoreCurrent();

    SessionSnapshot pending_, shown_;
    /// The kernel, process, agent and counter charted last: the row kept current across snapshots.
    CounterSummary::Stat current_;
    bool hasCurrent_ = false;
    bool dirty_ = false;
    QLabel* status_;
    CounterTableModel* model_;
    TablePanel* panel_;
    ChartAdapter* chart_;
};

} // namespace rs::app
