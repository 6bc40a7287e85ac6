// SPDX-License-Identifier: MIT
// The passes of one dispatch: kernel time, restore before the pass (time, regions and bytes restored,
// skips, and from format 4 the bytes copied back over the host link and inside the device, dirty and
// total chunks, hashing time, chunks the dirty restore missed), fidelity; then, when recorded, the restore
// after the last pass (before the application's own dispatch) as a last row "final". Then one column per
// hardware counter of the session (format 7): its value in the pass that collected it, empty in the others,
// so the table shows which pass collected which counter.
#pragma once

#include "model/SessionTableModel.h"

namespace rs::app {

class PassTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    enum Column {
        Pass,
        KernelUs,
        RestoreMs,
        Regions,
        Bytes,
        Skips,
        Fidelity,
        RestoredHost,   ///< bytes copied back from the host store (over the host link)
        RestoredDevice, ///< bytes copied back from the device store (inside the device)
        DirtyChunks,    ///< "dirty / total"; SortRole: dirty
        HashMs,         ///< hashing of the current contents before the restore
        MissedChunks,   ///< chunks the fidelity check found the dirty restore had missed
        ColumnCount
    };
    explicit PassTableModel(QObject* parent = nullptr);
    void setDispatch(const SessionSnapshot& snapshot, int dispatchRow);
    /// Whether row `row` is the restore after the last pass (no pass of its own).
    bool isFinalRow(int row) const { return final_ >= 0 && row == passes_; }
    /// Index of the first counter column (counter i is column firstCounterColumn() + i).
    int firstCounterColumn() const { return fixedColumns(); }

  protected:
    QPair<QStringList, QStringList> trailingColumns(const SessionSnapshot& snapshot) const override;
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    /// The restore before row `row`'s pass (or the final restore), nullptr when none was recorded.
    const RestoreRow* restoreAt(int row) const;
    /// The value of counter column `column` in row `row`'s pass; nullptr when that pass did not collect it.
    const DispatchCounterValue* counterAt(int row, int column) const;
    int dispatch_row_ = -1;
    int first_ = 0;
    int passes_ = 0;
    int final_ = -1; ///< index in SessionData::restores of the final restore, -1 none
};

} // namespace rs::app
