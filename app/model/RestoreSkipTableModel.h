// SPDX-License-Identifier: MIT
// Regions of one dispatch that were not restored before a pass (skipped with the reason, or given up by a
// failed restore with the pass whose output they hold), snapshot failures, and then the regions whose
// output differed from pass 1 (fidelity mismatches), and the chunks a dirty restore missed (format 4,
// found by the fidelity check and copied back).
#pragma once

#include "model/SessionTableModel.h"

#include <vector>

namespace rs::app {

class RestoreSkipTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    explicit RestoreSkipTableModel(QObject* parent = nullptr);
    void setDispatch(const SessionSnapshot& snapshot, int dispatchRow);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    const SkipRow& rowAt(int row) const;
    int first_ = 0;
    int skip_rows_ = 0;
    int first_mismatch_ = 0;
    int mismatch_rows_ = 0;
    std::vector<SkipRow> misses_; ///< the dispatch's restore misses
};

} // namespace rs::app
