// SPDX-License-Identifier: MIT
// Every allocation seen: tracked or excluded with the reason, lifetime, how often captured and skipped.
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class AllocationTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    explicit AllocationTableModel(QObject* parent = nullptr);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
