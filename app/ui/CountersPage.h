// SPDX-License-Identifier: MIT
// The hardware counters of a session (format 7, docs/counters.md): per kernel, agent and counter the
// dispatches it was collected for and the minimum, median and maximum of its values, in a sortable,
// filterable table. The statistics are computed only while the page is shown (a live session's snapshots
// do not recompute them in the background).
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

class QLabel;

namespace rs::app {

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

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    SessionSnapshot pending_;
    bool dirty_ = false;
    QLabel* status_;
    CounterTableModel* model_;
    TablePanel* panel_;
};

} // namespace rs::app
