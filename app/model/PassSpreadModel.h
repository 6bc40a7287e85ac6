// SPDX-License-Identifier: MIT
// Pass-to-pass spread of kernel time: per replayed dispatch with two or more timed passes, how much its
// slowest pass took longer than its fastest, (max / min - 1). A dispatch whose passes differ by a few
// percent ran under different conditions (clocks, contention, caches): counters read in one pass are not
// representative of the others. The model lists the dispatches above a threshold; the charts page shows
// the distribution of every dispatch's spread (histogram()).
#pragma once

#include "model/SessionTableModel.h"

#include <QStringList>
#include <QVector>

#include <vector>

namespace rs::app {

class PassSpreadModel : public SessionTableModel {
    Q_OBJECT
  public:
    /// One replayed dispatch with >= 2 timed passes (end tick >= start tick, end tick > 0) and a fastest
    /// pass of at least one tick. Times are agent timestamp ticks, shown as ns assuming 1 GHz (ROCr on
    /// Linux and the simulator).
    struct Entry {
        int row = -1;   ///< index into SessionData::dispatches
        int passes = 0; ///< timed passes
        qint64 minTicks = 0, maxTicks = 0;
        double spread = 0; ///< maxTicks / minTicks - 1 (0.05 = 5 %)
    };
    /// The histogram of spreads: bins of 1/2/5 x 10^n percent, from "0–0.1" to "≥ 100" percent.
    struct Histogram {
        QStringList labels;      ///< one per bin, in percent ("0.1–0.2", ...)
        QVector<qint64> counts;  ///< dispatches per bin
        QVector<double> percent; ///< counts as a share of every entry (0..100); all 0 without entries
        qint64 total = 0;        ///< entries counted
    };

    explicit PassSpreadModel(QObject* parent = nullptr);

    /// Every entry of `snapshot` (of process `process` only when it is not 0), in dispatch order. Empty for
    /// a null snapshot.
    static std::vector<Entry> entries(const SessionSnapshot& snapshot, int process = 0);
    /// Upper bin edges in percent (the last bin is open): 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100.
    static QVector<double> binEdges();
    /// Bin of a spread (fraction, 0.05 = 5 %): index into binEdges() of the first edge above it, or
    /// binEdges().size() for >= 100 %.
    static int binOf(double spread);
    static Histogram histogram(const std::vector<Entry>& entries);

    /// Shows the entries of `snapshot` (process filter as entries()) whose spread exceeds the threshold.
    void setSnapshot(const SessionSnapshot& snapshot, int process = 0);
    /// Lists the entries with spread > `fraction` (0.05 = 5 %; the default). Resets the model.
    void setThreshold(double fraction);
    double threshold() const { return threshold_; }
    /// Entries of the current snapshot whatever the threshold (the histogram's data).
    const std::vector<Entry>& allEntries() const { return all_; }
    /// The entry shown in model row `row`.
    const Entry& entry(int row) const { return all_[std::size_t(shown_[std::size_t(row)])]; }
    /// Dispatch row (index into SessionData::dispatches) of model row `row`, -1 when out of range.
    int dispatchRow(int row) const;

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

  private:
    void apply(const SessionSnapshot& snapshot, std::vector<Entry> all);

    std::vector<Entry> all_;
    std::vector<int> shown_; ///< indexes into all_
    double threshold_ = 0.05;
};

} // namespace rs::app
