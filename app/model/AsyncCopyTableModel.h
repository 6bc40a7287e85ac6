// SPDX-License-Identifier: MIT
// Async copies (hsa_amd_memory_async_copy) that met a replay window: agent, range, the dispatch whose
// window they waited for, how long they were held and the outcome (session format 2).
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class AsyncCopyTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    explicit AsyncCopyTableModel(QObject* parent = nullptr);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
