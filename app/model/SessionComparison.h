// SPDX-License-Identifier: MIT
// Two sessions compared kernel by kernel (matched by kernel name): per kernel the base and new value of
// each figure, their difference and its share of the base, and per kernel and hardware counter collected in
// both the median of its values. Kernel time is judged against a noise band derived from the sessions'
// own pass-to-pass spread, and is never called a change when a session ran on the simulated runtime
// (docs/inspector.md, "Compare"). Pure data, no widgets: the comparison table models, the compare page and
// `replayscope --compare` show it.
#pragma once

#include "model/ChartSeriesBuilder.h"
#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <vector>

namespace rs::app {

/// What one session recorded for one kernel (summed over every process of the session).
struct KernelFigures {
    qint64 dispatches = 0, replayed = 0;
    qint64 passes = 0;                    ///< passes run, over the replayed dispatches
    QMap<QString, qint64> declined;       ///< decline reason (name from the file's vocabulary) -> dispatches
    qint64 snapshotBytes = 0;             ///< sum of the snapshots' bytes
    qint64 movedHost = -1;                ///< bytes restores copied back over the host link; -1 not recorded
    qint64 movedDevice = -1;              ///< bytes restores copied back inside the device; -1 not recorded
    qint64 snapshotNs = 0, restoreNs = 0; ///< snapshot and restore time, ns
    double kernelMedianNs = -1; ///< median over the dispatches of their median pass time, ns; -1 none
    double kernelSpread = -1;   ///< median over the dispatches of max/min - 1 of their passes; -1 none
    /// The largest max/min - 1 of one dispatch's passes (the widest pass-to-pass spread); -1 none.
    double kernelSpreadMax = -1;
    /// The smallest and largest of the dispatches' median pass times, ns; -1 none.
    double dispatchMedianMinNs = -1, dispatchMedianMaxNs = -1;
    qint64 timedDispatches = 0; ///< dispatches with a median pass time
    qint64 mismatches = 0;      ///< fidelity mismatches (regions whose output differed from pass 1)
    /// Passes whose output the fidelity check compared with pass 1 (0: the session ran without
    /// --fidelity-check for this kernel, so `mismatches` is not a recorded figure).
    qint64 fidelityCheckedPasses = 0;
    /// Figures of every kernel of `snapshot`, by kernel name.
    static QMap<QString, KernelFigures> of(const SessionSnapshot& snapshot);
};

class SessionComparison {
  public:
    /// Agent timestamp ticks per nanosecond: the inspector shows kernel times assuming a 1 GHz timestamp
    /// (what ROCr on Linux and the simulator report), so one tick is one ns.
    static constexpr double kNsPerTick = 1.0;

    /// count; bytes; ns (shown as ms); kernelNs (kernel time, ns shown as µs); ratio (shown as %).
    enum class Unit { count, bytes, ns, kernelNs, ratio };
    enum class Side { both, baseOnly, newOnly };
    /// What a comparable figure did: kernel time is "faster" / "slower" only outside its noise band,
    /// "withinNoise" inside it, and "simulated" whenever a session ran on the simulated runtime.
    enum class Verdict { same, changed, faster, slower, withinNoise, simulated, notRecorded };
    /// How a kernel time's noise band was derived.
    enum class BandBasis { none, passSpread, dispatchSpread };

    /// One figure of one kernel on both sides. A side that did not record it (a kernel of one side only,
    /// a restore figure of a file before format 4) has `recorded` false and shows "—".
    struct Metric {
        QString name;
        Unit unit = Unit::count;
        double base = 0, now = 0;
        bool baseRecorded = false, newRecorded = false;
        /// Kernel time measured by the simulated runtime's interpreter in either session: the host's time,
        /// never a change of the kernel.
        bool simulatedTime = false;
        /// Kernel time median: the relative noise band s (0.25: new/base between 1/1.25 and 1.25 is
        /// noise); -1 when the sessions give none.
        double noiseBand = -1;
        BandBasis bandBasis = BandBasis::none;
        bool comparable() const { return baseRecorded && newRecorded; }
        /// new - base (0 when not comparable).
        double difference() const { return comparable() ? now - base : 0; }
        /// Difference as a percentage of base; NaN when not comparable or base is 0 and new is not.
        double percent() const;
        /// Comparable and different, and for a kernel time neither simulated nor within its noise band.
        bool changed() const;
        /// Comparable, different and new/base outside [1/(1 + noiseBand), 1 + noiseBand].
        bool outsideBand() const;
        Verdict verdict() const;
    };
    /// One hardware counter of one kernel collected in both sessions: the median of its values over the
    /// dispatches it was collected for on each side (of an even count the mean of the middle two). The
    /// values are counts of what the kernel did, so any difference is a change.
    struct Counter {
        QString kernel; ///< the kernel name, as in Kernel::name
        QString counter, unit;
        qint64 baseDispatches = 0, newDispatches = 0;
        double baseMedian = 0, newMedian = 0;
        QString baseMedianText, newMedianText; ///< exact ("120.5")
        quint64 baseMin = 0, baseMax = 0, newMin = 0, newMax = 0;
        double difference() const { return newMedian - baseMedian; }
        /// new / base; NaN when base is 0.
        double ratio() const;
        bool changed() const { return newMedian != baseMedian; }
    };
    struct Kernel {
        QString name;
        Side side = Side::both;
        std::vector<Metric> metrics;
        /// One-sided, or any comparable metric changed.
        bool changed() const;
        /// The metric called `name`, nullptr when the kernel has none.
        const Metric* metric(const QString& metricName) const;
    };

    /// Metric names (stable: tests, charts and the page's metric menu use them).
    static const QString kDispatches, kReplayed, kPasses, kPassesPerReplayed, kSnapshotBytes, kMovedHost,
        kMovedDevice, kSnapshotTime, kRestoreTime, kKernelMedian, kKernelSpread, kMismatches;
    /// "declined: <reason>", one metric per reason that occurs for the kernel on either side.
    static QString declinedMetric(const QString& reason);
    /// "counter: <name>", the chart metric of a hardware counter's difference.
    static QString counterMetric(const QString& counter);

    /// Compares `base` with `now`: kernels in name order, those of both sides first, then "only in base",
    /// then "only in new". Files of any format the loader reads compare; figures one side did not
    /// record are not comparable.
    static SessionComparison compare(const SessionSnapshot& base, const SessionSnapshot& now);
    /// Loads both files at once, on two threads (SessionLoader::loadAll, without the inventory regions a
    /// comparison does not use), and compares them; on a refused file `error` is set (with its path; the
    /// base's error first) and the result is empty.
    static SessionComparison compareFiles(const QString& base, const QString& now, SessionError& error);

    const std::vector<Kernel>& kernels() const { return kernels_; }
    QString basePath() const { return base_path_; }
    QString newPath() const { return new_path_; }
    int baseFormat() const { return base_format_; }
    int newFormat() const { return new_format_; }
    int count(Side side) const;
    int changedKernels() const;
    /// Per kernel of both sides and counter collected in both, by kernel then counter name.
    const std::vector<Counter>& counters() const { return counters_; }
    /// (kernel, counter) pairs collected in one session only (not in counters()).
    int oneSidedCounters() const { return one_sided_counters_; }
    int changedCounters() const;
    /// Processes of each session that ran on the simulated runtime (SimulatedRuntime).
    int baseSimulatedProcesses() const { return base_simulated_; }
    int newSimulatedProcesses() const { return new_simulated_; }
    bool simulated() const { return base_simulated_ > 0 || new_simulated_ > 0; }
    /// The verdict as the table and terminal show it: "same", "changed", "faster", "slower",
    /// "within noise", "simulated time", "not recorded".
    static QString verdictText(Verdict verdict);
    /// The status column of the terminal table: verdictText(), for a kernel time with its band
    /// ("simulated, ±37.0 %", "within ±12.5 %", "slower, ±12.5 %"); empty when not recorded.
    static QString statusText(const Metric& m);
    /// How the band of `m` was derived ("±12.5 %, widest pass spread"), empty without a band.
    static QString bandText(const Metric& m);
    /// The median of a counter ("120.5"), its difference with sign ("+12", "-0.5", "0") and ratio
    /// ("1.2500×"; "new" when base is 0, "—" when both are).
    static QString counterDifferenceText(const Counter& c);
    static QString counterRatioText(const Counter& c);
    /// The lines stating how kernel times were judged (runtime, noise band rule), as the terminal header and
    /// the compare page show them.
    QStringList kernelTimeRule() const;

    /// A value in its unit for tables and the terminal: count "1,200", bytes "1.50 MiB", ns "0.120 ms",
    /// kernelNs "5.2 µs", ratio "3.2 %"; "—" when not recorded.
    static QString valueText(Unit unit, double value, bool recorded = true);
    /// The difference with its sign ("+1.50 MiB", "-3", "0").
    static QString differenceText(const Metric& m);
    /// The percentage with its sign ("+12.5 %"), "—" when not comparable, "new" when base is 0.
    static QString percentText(const Metric& m);
    /// The terminal table: a header, then per kernel its name and one line per metric (metric, base, new,
    /// difference, %), aligned within `width` columns; kernels of one side only are labelled as such.
    QString text(int width = 110) const;
    /// The metrics a difference chart is drawn for (kernel time, snapshot and restore time, bytes, ...).
    static QStringList chartMetrics();
    /// chartMetrics(), then counterMetric() of every counter collected in both sessions.
    QStringList allChartMetrics() const;
    /// One bar per kernel of both sides whose `metric` is comparable: the difference as a percentage of
    /// base, signed and unrounded (value: -12.3 for 12.3 % less), labelled "kernel (-12.3 %)"; kernels
    /// whose base is 0 and new is not are left out (no percentage). Largest difference first, either sign.
    /// For a counterMetric(), the median's difference per kernel that collected it in both sessions.
    QVector<ChartSeriesBuilder::Bar> differenceBars(const QString& metric) const;

  private:
    std::vector<Kernel> kernels_;
    std::vector<Counter> counters_;
    QString base_path_, new_path_;
    int base_format_ = 0, new_format_ = 0;
    int base_simulated_ = 0, new_simulated_ = 0;
    int one_sided_counters_ = 0;
};

} // namespace rs::app
