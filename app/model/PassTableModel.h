// The passes of one dispatch: kernel time, restore before the pass, regions and bytes restored, skips.
#pragma once

#include "model/SessionTableModel.h"

namespace rs::app {

class PassTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    explicit PassTableModel(QObject* parent = nullptr);
    void setDispatch(const SessionSnapshot& snapshot, int dispatchRow);

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    int first_ = 0;
};

} // namespace rs::app
