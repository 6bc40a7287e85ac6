// SPDX-License-Identifier: MIT
// Two sessions compared (File > Compare with…): the comparison table (kernel, metric, base, new,
// difference, %, status) with a "changed only" filter and a kernel filter, the hardware counters collected
// in both (CounterComparisonModel), and a bar chart of each kernel's difference in the chosen metric.
// openFiles() reads both sessions on reader threads and shows the comparison as soon as both first phases are
// there, again when both are complete.
#pragma once

#include "model/SessionComparison.h"
#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace rs::app {

class ChartAdapter;
class ComparisonTableModel;
class CounterComparisonModel;
class SessionReader;
class TablePanel;

class ComparePage : public QWidget {
    Q_OBJECT
  public:
    explicit ComparePage(QWidget* parent = nullptr);
    /// Shows `comparison` (table, header line, chart).
    void setComparison(const SessionComparison& comparison);
    /// Reads `base` and `now` at once, each on a SessionReader's thread without the inventory regions
    /// (asynchronous), and compares them when both first phases are in (they have every figure of a
    /// comparison): compared(). A file that cannot be read: failed(), and the page says why.
    void openFiles(const QString& base, const QString& now);
    /// The sessions as last read (null before their first phase).
    SessionSnapshot baseSnapshot() const { return base_; }
    SessionSnapshot newSnapshot() const { return now_; }
    ComparisonTableModel* model() const { return model_; }
    TablePanel* panel() const { return panel_; }
    /// The hardware counters collected in both sessions, per kernel (hidden when there are none).
    CounterComparisonModel* counterModel() const { return counter_model_; }
    TablePanel* counterPanel() const { return counter_panel_; }
    QCheckBox* changedOnly() const { return changed_only_; }
    /// The metric the chart shows (SessionComparison::allChartMetrics(): the counters' after the others).
    QComboBox* chartMetric() const { return metric_; }
    ChartAdapter* chart() const { return chart_; }
    /// Writes one difference chart per SessionComparison::allChartMetrics() entry into `dir`
    /// ("compare-1-kernel-time-median.png", ..., "compare-8-counter-SQ_INSTS_VALU.png"); returns the files
    /// written.
    QStringList exportPngs(const QString& dir) const;

  signals:
    /// The comparison of the files of openFiles() is shown.
    void compared();
    void failed(const rs::app::SessionError& error);

  private:
    void updateChart();
    void onSnapshot();

    ComparisonTableModel* model_;
    TablePanel* panel_;
    CounterComparisonModel* counter_model_;
    TablePanel* counter_panel_;
    QCheckBox* changed_only_;
    QComboBox* metric_;
    QLabel* header_;
    ChartAdapter* chart_;
    SessionReader* base_reader_ = nullptr;
    SessionReader* new_reader_ = nullptr;
    SessionSnapshot base_, now_;
    bool compared_ = false; ///< the files of openFiles() are compared
};

} // namespace rs::app
