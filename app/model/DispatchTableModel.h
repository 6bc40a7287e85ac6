// Every dispatch of the session: kernel, agent, outcome, passes, snapshot size and time, restore time,
// kernel time per pass (min / median / max; agent ticks at 1 GHz shown as microseconds).
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class DispatchTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    enum Column {
        Id,
        Kernel,
        Agent,
        Outcome,
        Passes,
        SnapshotBytes,
        RegionsCaptured,
        RegionsSkipped,
        SnapshotMs,
        RestoreMs,
        KernelMin,
        KernelMedian,
        KernelMax,
        Process, ///< appended by SessionListTableModel
        ColumnCount
    };
    explicit DispatchTableModel(QObject* parent = nullptr);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
