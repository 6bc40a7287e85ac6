// SPDX-License-Identifier: MIT
// The region inventory a dispatch's snapshot copied: address, size, allocation or module variable, symbol,
// owner agent, API.
#pragma once

#include "model/SessionTableModel.h"

#include <QHash>

namespace rs::app {

class RegionTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    explicit RegionTableModel(QObject* parent = nullptr);
    /// Shows the inventory of dispatch row `dispatchRow` (-1: none).
    void setDispatch(const SessionSnapshot& snapshot, int dispatchRow);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    int first_ = 0;
    QHash<ProcessKey, int> allocationRow_; ///< (process, allocation id) -> allocation row
    QHash<ProcessKey, QString> symbolAt_;  ///< (process, address) -> module variable symbol
};

} // namespace rs::app
