// SPDX-License-Identifier: MIT
// Two sessions compared (File > Compare with…): the comparison table (kernel, metric, base, new,
// difference, %, status) with a "changed only" filter and a kernel filter, and a bar chart of each
// kernel's difference in the chosen metric.
#pragma once

#include "model/SessionComparison.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace rs::app {

class ChartAdapter;
class ComparisonTableModel;
class TablePanel;

class ComparePage : public QWidget {
    Q_OBJECT
  public:
    explicit ComparePage(QWidget* parent = nullptr);
    /// Shows `comparison` (table, header line, chart).
    void setComparison(const SessionComparison& comparison);
    ComparisonTableModel* model() const { return model_; }
    TablePanel* panel() const { return panel_; }
    QCheckBox* changedOnly() const { return changed_only_; }
    /// The metric the chart shows (SessionComparison::chartMetrics()).
    QComboBox* chartMetric() const { return metric_; }
    ChartAdapter* chart() const { return chart_; }
    /// Writes one difference chart per SessionComparison::chartMetrics() entry into `dir`
    /// ("compare-1-kernel-time-median.png", ...); returns the files written.
    QStringList exportPngs(const QString& dir) const;

  private:
    void updateChart();

    ComparisonTableModel* model_;
    TablePanel* panel_;
    QCheckBox* changed_only_;
    QComboBox* metric_;
    QLabel* header_;
    ChartAdapter* chart_;
};

} // namespace rs::app
