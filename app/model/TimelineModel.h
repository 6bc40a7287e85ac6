// SPDX-License-Identifier: MIT
// The replay timeline of a session: one lane per agent with a window per replayed dispatch (its fence wait,
// snapshot, passes and restores laid end to end), one lane per queue with the application's dispatches
// (declined ones as marks carrying the decline reason), and a level-of-detail query that bounds what a view
// draws. Plain data over a SessionSnapshot (no widgets, no Qt item model); docs/inspector.md, "Timeline".
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace rs::app {

/// One part of a replay window. Durations are measured (recorded by the engine), positions derived.
struct TimelinePart {
    enum class Kind : quint8 {
        fenceWait,    ///< the drain before the snapshot (snapshots.fence_wait_ns; format 5, else left out)
        snapshot,     ///< the snapshot of the tracked memory (snapshots.duration_ns)
        pass,         ///< one kernel pass (end_tick - start_tick, agent ticks at 1 GHz = ns)
        restore,      ///< the restore before pass `pass` (restores.restore_ns, else passes.restore_ns)
        finalRestore, ///< the restore after the last pass (restores.final; format 4)
    };
    Kind kind = Kind::snapshot;
    int pass = 0;          ///< pass index (pass, restore: the pass it precedes; finalRestore: passes run)
    qint64 startNs = 0;    ///< CLOCK_MONOTONIC ns of the dispatch's process (derived)
    qint64 durationNs = 0; ///< measured
    qint64 endNs() const { return startNs + durationNs; }
    /// "fence wait", "snapshot", "pass 2", "restore 2", "final restore".
    QString name() const;
};

/// One replayed dispatch's window: its parts end to end, ending at the dispatch's recorded time.
struct TimelineWindow {
    int row = -1;          ///< row in SessionData::dispatches
    qint64 startNs = 0;    ///< derived: endNs() - durationNs
    qint64 durationNs = 0; ///< sum of the parts' durations
    int firstPart = 0;     ///< index in TimelineModel::parts()
    int partCount = 0;
    qint64 endNs() const { return startNs + durationNs; }
};

/// One application dispatch on its queue: declined (a mark with its reason) or released after its replay.
struct TimelineMark {
    int row = -1;    ///< row in SessionData::dispatches
    qint64 tsNs = 0; ///< the dispatch's recorded time (dispatches.ts_ns)
    int decision = int(rs::ipc::DispatchDecision::replayed); ///< rs::ipc::DispatchDecision code (replayed,
                                                             ///< else the decline reason)
    bool declined() const { return decision != int(rs::ipc::DispatchDecision::replayed); }
};

/// A lane: an agent's replay windows, or a queue's application dispatches; items sorted by time.
struct TimelineLane {
    enum class Kind : quint8 { agent, queue };
    Kind kind = Kind::agent;
    int process = 1;
    qint64 handle = 0; ///< agent handle or queue id
    QString label;
    std::vector<TimelineWindow> windows; ///< agent lanes, by start
    std::vector<qint64> maxEndNs;        ///< running maximum of windows[0..i].endNs() (range search)
    std::vector<TimelineMark> marks;     ///< queue lanes, by time
};

/// What a view draws for one lane and one pixel range: a window, a mark, or several of them merged.
struct TimelineItem {
    enum class Kind : quint8 { window, mark };
    Kind kind = Kind::window;
    int first = 0;      ///< index of the first window / mark in the lane
    int count = 1;      ///< windows / marks merged into this item (1: a single one)
    qint64 startNs = 0; ///< earliest start
    qint64 endNs = 0;   ///< latest end (marks: equal to startNs for a single one)
    qint64 busyNs = 0;  ///< windows: sum of the merged windows' durations
    int declined = 0;   ///< marks: how many of the merged marks are declined dispatches
};

class TimelineModel {
  public:
    TimelineModel() = default;
    /// Builds the lanes of `snapshot` (any format; parts missing from older files are left out).
    explicit TimelineModel(const SessionSnapshot& snapshot);

    const SessionSnapshot& snapshot() const { return snapshot_; }
    const std::vector<TimelineLane>& lanes() const { return lanes_; }
    const std::vector<TimelinePart>& parts() const { return parts_; }
    /// Parts of `window`, in order.
    const TimelinePart* partsOf(const TimelineWindow& window) const {
        return parts_.data() + window.firstPart;
    }

    /// Earliest window start or mark, latest window end or mark (ns); both 0 when the session is empty.
    qint64 beginNs() const { return beginNs_; }
    qint64 endNs() const { return endNs_; }
    qint64 windowCount() const { return windowCount_; }
    qint64 declinedCount() const { return declinedCount_; }

    /// (lane, window index) of dispatch row `row`'s window; {-1, -1} for a declined or unknown row.
    QPair<int, int> windowOfRow(int row) const;

    /// Level of detail: the items of lane `lane` between `fromNs` and `toNs` drawn `pixels` wide.
    /// Windows whose pixel columns touch merge while either side is narrower than two columns, marks that
    /// fall into one column merge: at most two window items and one mark item per column, whatever the
    /// number of dispatches. Empty for an invalid lane, an empty range or `pixels` < 1.
    std::vector<TimelineItem> visibleItems(int lane, qint64 fromNs, qint64 toNs, int pixels) const;

    /// Index of the first window of `lane` whose end is at or after `ns` (windows.size() if none).
    int firstWindowEndingAfter(int lane, qint64 ns) const;

    /// Index of the window of `lane` at `ns`, or the nearest one within `toleranceNs`; -1 if none.
    int windowAt(int lane, qint64 ns, qint64 toleranceNs) const;
    /// Index of the mark of `lane` nearest to `ns` within `toleranceNs`; -1 if none.
    int markAt(int lane, qint64 ns, qint64 toleranceNs) const;
    /// The part of `window` of `lane` that covers `ns`, nullptr outside it.
    const TimelinePart* partAt(int lane, int window, qint64 ns) const;

    /// Kernel name of dispatch row `row` ("" when unknown).
    QString kernelName(int row) const;
    /// Name of decision code `decision` in the session's vocabulary ("replayed", "filtered", ...).
    QString decisionName(int decision) const;

  private:
    SessionSnapshot snapshot_;
    std::vector<TimelineLane> lanes_;
    std::vector<TimelinePart> parts_;
    std::vector<QPair<int, int>> rowWindow_; ///< dispatch row -> (lane, window)
    qint64 beginNs_ = 0, endNs_ = 0, windowCount_ = 0, declinedCount_ = 0;
};

} // namespace rs::app
