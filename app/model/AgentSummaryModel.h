// Per agent: tracked footprint, dispatches replayed and declined, snapshot and restore time.
#pragma once

#include "model/SessionTableModel.h"

#include <QVector>

namespace rs::app {

class AgentSummaryModel : public SessionTableModel {
    Q_OBJECT
  public:
    explicit AgentSummaryModel(QObject* parent = nullptr);
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Aggregates of one agent.
    struct Row {
        qint64 handle = 0;
        qint64 trackedBytes = 0, peakTrackedBytes = 0, snapshotBytes = 0;
        int replayed = 0, declined = 0;
        qint64 snapshotNs = 0, restoreNs = 0;
    };
    const QVector<Row>& rows() const { return rows_; }

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    QVector<Row> rows_;
};

} // namespace rs::app
