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

  private:
    void showCurrent();

    SessionSnapshot snapshot_;
    DispatchTableModel* model_;
    TablePanel* panel_;
    DispatchDetailWidget* detail_;
};

} // namespace rs::app
