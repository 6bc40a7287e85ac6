// SPDX-License-Identifier: MIT
// One statement of a load, stepped row by row through SQLite's C API (sqlite3_prepare_v2 / sqlite3_step /
// sqlite3_column_*). The per-table readers fetch every row of a session this way: Qt SQL's QSqlQuery
// converts each value to a QVariant through the driver, about 3-6 µs per row of a dozen columns, which was
// most of the time to first paint of a 100,000-dispatch session (docs/performance.md, "Inspector").
#pragma once

#include <QString>
#include <QVariant>

#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace rs::app {

/// A forward-only cursor over one connection. Not thread-safe: the loader's thread only.
class RowCursor {
  public:
    /// `db`: an open connection owned by the caller (it outlives the cursor). Installs the read budget's
    /// progress handler on it (readBudget()).
    explicit RowCursor(sqlite3* db);
    ~RowCursor();
    RowCursor(const RowCursor&) = delete;
    RowCursor& operator=(const RowCursor&) = delete;

    /// Prepares the single statement `sql` (finalizing the previous one) and, for a statement without
    /// result rows, runs it. False with error() set when SQLite refuses it (SQLITE_CORRUPT, SQLITE_NOTADB,
    /// a missing table...).
    bool exec(std::string_view sql);
    /// Steps to the next row: true on a row; false at the end and on an error, which then stays in
    /// error() (a page found corrupt mid-scan) until the next exec().
    bool next();
    /// SQLite's message of the last failure ("database disk image is malformed"), empty when none.
    const QString& error() const { return error_; }
    /// The first failure any next() met since the cursor was made (kept across exec(): a reader that
    /// stops at a corrupt page mid-scan cannot tell it from the end, the load checks this at its end).
    const QString& scanError() const { return scanError_; }

    /// Column `column` of the current row (0-based): integer, real, text (UTF-8) or blob as SQLite stored
    /// it; a null QVariant for NULL.
    QVariant value(int column) const;
    bool isNull(int column) const;
    /// Result columns of the current statement (0 when none is prepared).
    int columnCount() const;
    /// The column as a 64-bit integer (SQLite's conversion: NULL is 0, text is parsed as a number).
    qint64 int64(int column) const;
    /// The column as text (NULL: an empty string), as every stored string is shown: at most
    /// rs::session::kShownTextBytes (4 KiB) of it, a longer one ending in "… (N bytes)", its control
    /// characters as visible escapes (`\x1b`; rs::session::shown_text). `keepNewlines`: '\n' stays (the
    /// interned strings, of which some are multi-line; ReadContext::text escapes it for one-line uses).
    QString text(int column, bool keepNewlines = false) const;

    /// The budget of one statement: at most `milliseconds` of SQLite's work (a progress handler interrupts
    /// it) and `rows` result rows; exceeding either fails the statement like a read error. Defaults 60 s
    /// and 50,000,000 rows (the largest session measured, docs/performance.md, reads 1,048,333 rows in its
    /// largest query and loads entirely in under 15 s on a loaded machine); REPLAYSCOPE_READ_BUDGET_MS and
    /// REPLAYSCOPE_READ_BUDGET_ROWS set them (tests lower them).
    struct Budget {
        qint64 milliseconds = 60000;
        qint64 rows = 50000000;
    };
    static Budget readBudget();

  private:
    static int progress(void* cursor);
    bool overBudget();
    void finalize();
    Budget budget_;
    qint64 started_ = 0; ///< steady-clock ms when the current statement was prepared
    qint64 rows_ = 0;    ///< rows the current statement returned
    bool interrupted_ = false;
    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
    bool pendingRow_ = false; ///< exec() stepped onto the first row already
    QString error_;
    QString scanError_;
};

} // namespace rs::app
