// SPDX-License-Identifier: MIT
// Warnings the engine raised (category, dispatch, text).
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class WarningTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    explicit WarningTableModel(QObject* parent = nullptr);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
