// SPDX-License-Identifier: MIT
// What the per-table readers of one load share: the open connection and its query, the file's layout
// (which queries to run), the interned texts, and the partial results one reader leaves for the next.
#pragma once

#include "model/SessionError.h"
#include "model/SessionSnapshot.h"
#include "model/reading/RowCursor.h"

#include <replayscope/session/read_queries.h>

#include <QSqlDatabase>
#include <QString>
#include <QVariant>

#include <string>
#include <utility>
#include <vector>

namespace rs::app {

/// One load of one session file: the connections (read-only; the rows are read inside the load's read
/// transaction on `rows`), its FileLayout and the state the readers pass on. Not thread-safe: one per
/// load, on the loader's thread.
class ReadContext {
  public:
    /// `db`: the loader's Qt SQL connection (layout probes); `rows`: its SQLite connection to the same file,
    /// which every reader's rows come through; `path`: the session file as the user named it (messages).
    ReadContext(const QSqlDatabase& db, sqlite3* rows, const QString& path);

    /// Probes the file's layout (rs::session::detect_file_layout) for `formatVersion` (its user_version).
    void detectLayout(int formatVersion);
    const rs::session::FileLayout& layout() const { return layout_; }
    /// The layout a previous load of the same file found (the second phase reuses it).
    void setLayout(const rs::session::FileLayout& layout) { layout_ = layout; }

    /// The cursor every reader runs its statements on (one, forward-only).
    RowCursor& query() { return q_; }
    /// Runs `sql` on query(); false with SQLite's message kept for queryError().
    bool run(std::string_view sql);
    /// `sql` on the readers' connection (a statement of its own, outside the rows-per-query budget): the
    /// first column of every row as text (empty on error).
    std::vector<std::string> firstColumn(const std::string& sql);

    /// The error of the last failed run(), in words: corrupt (SQLite says malformed/corrupt), foreign
    /// (not a database), else a read error naming `what` ("dispatches").
    SessionError queryError(const QString& what) const;
    /// queryError() for a driver message of the caller's.
    SessionError queryError(const QString& what, const QString& driverText) const;
    SessionError fail(SessionError::Kind kind, const QString& message) const;

    /// Interned text `id` of `process` (formats 1-2: every id is process 1's) on one line: capped, its
    /// control characters and newlines as visible escapes (`\x0a`); empty when unknown.
    QString text(int process, const QVariant& id) const {
        QString t = strings.value({process, id.toLongLong()});
        return t.contains(QLatin1Char('\n')) ? t.replace(QLatin1Char('\n'), QStringLiteral("\\x0a")) : t;
    }
    /// text() with its newlines kept (a multi-line text: the engine configuration).
    QString multiLineText(int process, const QVariant& id) const {
        return strings.value({process, id.toLongLong()});
    }

    /// (process, id) -> text, filled by StringReader (ids are per process from format 3).
    QHash<ProcessKey, QString> strings;
    /// process -> (gap ranges, missing sequence numbers), from SessionInfoReader for ProcessReader.
    QHash<int, QPair<int, qint64>> gapsByProcess;
    /// Passes 0 and 1 folded into the dispatch rows (format 2+), by dispatch row, from DispatchReader
    /// for PassReader.
    std::vector<std::pair<int, PassRow>> foldedPasses;
    /// Restores folded into the dispatch rows (FileLayout::folded_parts), by dispatch row, from
    /// DispatchReader for RestoreReader.
    std::vector<std::pair<int, RestoreRow>> foldedRestores;
    /// (process, allocation id) -> restore skips naming it, from RestoreSkipReader for AllocationReader.
    QHash<ProcessKey, int> skippedByAllocation;

  private:
    QSqlDatabase db_;
    QString path_;
    sqlite3* rows_; ///< the readers' connection (not owned)
    RowCursor q_;
    QString lastError_;
    rs::session::FileLayout layout_;
};

/// Result column `column` (a column enum of read_queries.h) of the current row.
template <typename Column>
QVariant value(const RowCursor& q, Column column) {
    return q.value(static_cast<int>(column));
}
template <typename Column>
qint64 i64(const RowCursor& q, Column column) {
    return q.int64(static_cast<int>(column));
}
template <typename Column>
int i32(const RowCursor& q, Column column) {
    return static_cast<int>(q.int64(static_cast<int>(column)));
}

/// A failed query of the session file `path` in words: corrupt (SQLite says malformed/corrupt), foreign
/// (not a database), else a read error naming `what` ("dispatches") and the driver's text.
SessionError readError(const QString& path, const QString& what, const QString& driverText);

/// The process index a row names, with placeholder ProcessInfo entries up to it: a row of a process the
/// `processes` table does not list (a writer stopped between the two) still gets one. Out of range
/// (< 1 or > 2^20) reads as process 1.
int ensureProcess(SessionData& out, int process);

/// Row of dispatch `dispatchId` of `process` in out.dispatches, -1 when unknown.
inline int rowOf(const SessionData& out, int process, qint64 dispatchId) {
    return out.dispatchRow.value({process, dispatchId}, -1);
}

} // namespace rs::app
