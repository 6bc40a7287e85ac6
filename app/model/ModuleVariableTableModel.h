// SPDX-License-Identifier: MIT
// Module-scope variables found at snapshot time: captured, or skipped with the reason.
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class ModuleVariableTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    explicit ModuleVariableTableModel(QObject* parent = nullptr);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
