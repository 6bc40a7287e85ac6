// SPDX-License-Identifier: MIT
// The kernels of a session (KernelTableModel): per kernel its dispatches, what replay did with them
// (replayed, declined and why), its pass times, what snapshot and restore cost, and the median of each
// collected counter, in a sortable table filtered by name or symbol. Computed only while the page is shown (a
// live session's snapshots do not recompute it in the background).
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

class QLabel;

namespace rs::app {

class KernelTableModel;
class TablePanel;

class KernelsPage : public QWidget {
    Q_OBJECT
  public:
    explicit KernelsPage(QWidget* parent = nullptr);
    /// Shows `snapshot`: at once when the page is visible, else when it is next shown.
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Applies the last snapshot now, shown or not (headless export, tests).
    void flush();
    KernelTableModel* model() const { return model_; }
    TablePanel* panel() const { return panel_; }
    /// The line above the table: kernels, dispatches, and how many were declined.
    QLabel* status() const { return status_; }

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    SessionSnapshot pending_;
    bool dirty_ = false;
    QLabel* status_;
    KernelTableModel* model_;
    TablePanel* panel_;
};

} // namespace rs::app
