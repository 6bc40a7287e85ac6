// SPDX-License-Identifier: MIT
// Writes any table model as CSV (RFC 4180 quoting): header row, then raw values (SortRole) where the
// model has them, else the display text.
#pragma once

#include <QString>

class QAbstractItemModel;
class QIODevice;

namespace rs::app {

class CsvExporter {
  public:
    static void write(const QAbstractItemModel& model, QIODevice& out);
    /// Writes to `path`; false with `error` set when the file cannot be written.
    static bool writeFile(const QAbstractItemModel& model, const QString& path, QString* error = nullptr);
};

} // namespace rs::app
