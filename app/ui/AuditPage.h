// SPDX-License-Identifier: MIT
// Audit of what the mechanism saw: every allocation (tracked or excluded, with the reason, lifetime,
// capture and skip counts), module variables, async copies held by replay windows, chunks a dirty restore
// missed (format 4, fidelity check), counts by reason, and what it cannot see by design.
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

class QLabel;

namespace rs::app {

class AllocationTableModel;
class AsyncCopyTableModel;
class ChartAdapter;
class ModuleVariableTableModel;
class RestoreMissTableModel;
class TablePanel;

class AuditPage : public QWidget {
    Q_OBJECT
  public:
    explicit AuditPage(QWidget* parent = nullptr);
    void setSnapshot(const SessionSnapshot& snapshot);
    AllocationTableModel* allocations() const { return allocations_; }
    ModuleVariableTableModel* variables() const { return variables_; }
    AsyncCopyTableModel* asyncCopies() const { return copies_; }
    RestoreMissTableModel* restoreMisses() const { return misses_; }
    TablePanel* missesPanel() const { return misses_panel_; }
    TablePanel* allocationsPanel() const { return allocations_panel_; }
    TablePanel* variablesPanel() const { return variables_panel_; }
    TablePanel* copiesPanel() const { return copies_panel_; }
    ChartAdapter* reasonChart() const { return reasons_; }
    ChartAdapter* outcomeChart() const { return outcomes_; }
    /// The warning banner of what the mechanism cannot see by design.
    QLabel* blindSpotsLegend() const { return legend_; }

  protected:
    /// On QEvent::PaletteChange the legend's banner colours follow the new palette.
    void changeEvent(QEvent* event) override;

  private:
    SessionSnapshot snapshot_;
    AllocationTableModel* allocations_;
    ModuleVariableTableModel* variables_;
    AsyncCopyTableModel* copies_;
    RestoreMissTableModel* misses_;
    TablePanel* allocations_panel_;
    TablePanel* misses_panel_;
    TablePanel* variables_panel_;
    TablePanel* copies_panel_;
    ChartAdapter* reasons_;
    ChartAdapter* outcomes_;
    QLabel* legend_;
};

} // namespace rs::app
