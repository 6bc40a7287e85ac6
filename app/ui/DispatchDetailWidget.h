// SPDX-License-Identifier: MIT
// Detail of one dispatch: its snapshot's region inventory, per-pass results (kernel time, restore) and
// every region skipped at restore with the reason.
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

class QLabel;
class QTabWidget;

namespace rs::app {

class PassTableModel;
class RegionTableModel;
class RestoreSkipTableModel;
class TablePanel;

class DispatchDetailWidget : public QWidget {
    Q_OBJECT
  public:
    explicit DispatchDetailWidget(QWidget* parent = nullptr);
    /// Shows dispatch row `row` of `snapshot` (-1: nothing selected).
    void setDispatch(const SessionSnapshot& snapshot, int row);
    int dispatchRow() const { return row_; }
    RegionTableModel* regions() const { return regions_; }
    PassTableModel* passes() const { return passes_; }
    RestoreSkipTableModel* skips() const { return skips_; }
    QTabWidget* tabs() const { return tabs_; }

  protected:
    /// On QEvent::PaletteChange the title line is written again in the new palette's colours.
    void changeEvent(QEvent* event) override;

  private:
    /// The line above the tabs for row_ of snapshot_.
    void updateTitle();

    SessionSnapshot snapshot_;
    int row_ = -1;
    QLabel* title_;
    QTabWidget* tabs_;
    RegionTableModel* regions_;
    PassTableModel* passes_;
    RestoreSkipTableModel* skips_;
    TablePanel* regions_panel_;
    TablePanel* passes_panel_;
    TablePanel* skips_panel_;
};

} // namespace rs::app
