// SPDX-License-Identifier: MIT
// The charts page's list of the dispatches whose kernel time differs from pass to pass by more than a
// threshold (a spin box, default 5 %): kernel, dispatch id, passes, fastest and slowest pass, spread.
// "The ones whose counters a user should not trust." Selecting a row selects that dispatch (the session's
// dispatches page follows); activating it (double click, Enter) also shows the dispatches page.
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;

namespace rs::app {

class PassSpreadModel;
class TablePanel;

class PassSpreadPanel : public QWidget {
    Q_OBJECT
  public:
    explicit PassSpreadPanel(QWidget* parent = nullptr);
    /// Lists the dispatches of `snapshot` (process `process` only when not 0) above the threshold.
    void setSnapshot(const SessionSnapshot& snapshot, int process = 0);
    /// The threshold in percent (spread > threshold is listed).
    void setThresholdPercent(double percent);
    double thresholdPercent() const;
    PassSpreadModel* model() const { return model_; }
    TablePanel* panel() const { return panel_; }
    QDoubleSpinBox* thresholdBox() const { return threshold_; }

  signals:
    /// Row `dispatchRow` (index into SessionData::dispatches) was selected in the list.
    void dispatchSelected(int dispatchRow);
    /// Row `dispatchRow` was activated (double click, Enter): show it.
    void dispatchActivated(int dispatchRow);

  private:
    void updateSummary();

    PassSpreadModel* model_;
    TablePanel* panel_;
    QDoubleSpinBox* threshold_;
    QLabel* summary_;
};

} // namespace rs::app
