// SPDX-License-Identifier: MIT
// The dispatch table (sortable, filterable by kernel, agent and outcome) above the selected
// dispatch's detail.
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

namespace rs::app {

class DispatchDetailWidget;
class DispatchTableModel;
class TablePanel;

class DispatchesPage : public QWidget {
    Q_OBJECT
  public:
    explicit DispatchesPage(QWidget* parent = nullptr);
    void setSnapshot(const SessionSnapshot& snapshot);
    DispatchTableModel* model() const { return model_; }
    TablePanel* panel() const { return panel_; }
    DispatchDetailWidget* detail() const { return detail_; }
    /// Selects the first visible row (screenshots, keyboard users).
    void selectRow(int proxyRow);
    /// Selects dispatch row `row` of the session (SessionData::dispatches); false for an unknown row or one
    /// the table's filters hide (the selection is left as it was).
    bool selectDispatch(int row);

  signals:
    /// The current dispatch changed: its row in SessionData::dispatches, -1 when none is current.
    void currentDispatchChanged(int row);

  private:
    void showCurrent();

    SessionSnapshot snapshot_;
    DispatchTableModel* model_;
    TablePanel* panel_;
    DispatchDetailWidget* detail_;
};

} // namespace rs::app
