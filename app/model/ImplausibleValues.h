// SPDX-License-Identifier: MIT
// Values a session file can hold but no recording produces: negative times, sizes and counts, a pass that
// ends before it starts, a duration of more than a week, a size beyond any agent's memory. The collector
// never writes them; a file that holds them was damaged or edited. The inspector and `replayscope
// --summary` show such values as stored and flag them (the banner, a summary line), so that nothing on
// screen is trusted silently.
#pragma once

#include <QString>
#include <QStringList>

namespace rs::app {

struct SessionData;

struct ImplausibleValues {
    /// Values found implausible, over every table the load read.
    qint64 count = 0;
    /// The first few, each as "dispatch 12 (process 1): snapshot duration -5 ns".
    QStringList examples;
    bool isEmpty() const { return count == 0; }
    /// One line: "3 implausible values (negative or out-of-range times, sizes or counts), e.g. …".
    QString summary() const;

    /// Longest plausible duration: 7 days in ns.
    static constexpr qint64 kMaxDurationNs = 7LL * 24 * 3600 * 1000000000LL;
    /// Largest plausible size: 2^50 bytes (1 PiB), beyond any agent's or host's memory.
    static constexpr qint64 kMaxBytes = qint64(1) << 50;
    /// Examples kept.
    static constexpr int kMaxExamples = 5;
};

/// Scans what `data` holds (the session and process rows, dispatches, passes, restores, allocations and
/// async copies): O(rows). Fields whose -1 means "not recorded" accept -1.
ImplausibleValues findImplausibleValues(const SessionData& data);

} // namespace rs::app
