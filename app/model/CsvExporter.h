// SPDX-License-Identifier: MIT
// Writes any table model as CSV (RFC 4180 quoting): header row, then raw values (SortRole) where the
// model has them, else the display text. Also writes a session's hardware counters in the layout of
// rocprofv3's counter_collection.csv (docs/counters.md).
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QIODevice;

namespace rs::app {

class CsvExporter {
  public:
    static void write(const QAbstractItemModel& model, QIODevice& out);
    /// Writes to `path`; false with `error` set when the file cannot be written.
    static bool writeFile(const QAbstractItemModel& model, const QString& path, QString* error = nullptr);

    /// The columns of rocprofv3's counter_collection.csv, in its order (rocprofiler-sdk's CSV generator;
    /// docs/counters.md names the source).
    static const QStringList& counterCollectionColumns();
    /// Writes the counter values of `snapshot` as rocprofv3's counter_collection.csv: one row per dispatch
    /// and counter, in dispatch order (process, dispatch id) then counter name; strings quoted as rocprofv3
    /// quotes them. Columns the session does not record (Correlation_Id, Thread_Id, Kernel_Id, the kernel's
    /// register and segment sizes) are empty; Start/End_Timestamp are the ticks of the pass that collected
    /// the value. After a dispatch's counters, one row per derived metric it has a value of (Counter_Name the
    /// metric, Counter_Value as rocprofv3 prints a floating-point value, no timestamps). Only the header
    /// for a session without counter values.
    static void writeCounterCollection(const SessionSnapshot& snapshot, QIODevice& out);
    /// writeCounterCollection into `path` (atomically); false with `error` set when it cannot be written.
    static bool writeCounterCollectionFile(const SessionSnapshot& snapshot, const QString& path,
                                           QString* error = nullptr);
};

} // namespace rs::app
