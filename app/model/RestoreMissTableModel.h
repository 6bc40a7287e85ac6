// SPDX-License-Identifier: MIT
// Chunks a dirty restore left different from the snapshot (format 4, `restore_misses`): found by the
// fidelity check (--fidelity-check) after the restore before pass `Pass`, named by dispatch, kernel,
// address, size and allocation, and copied back then, so the pass still saw the snapshot. A miss means the
// chunk hash did not see a change: the audit lists every one.
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class RestoreMissTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    enum Column { Dispatch, Kernel, Agent, Pass, Address, Size, Allocation, ColumnCount };
    explicit RestoreMissTableModel(QObject* parent = nullptr);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
