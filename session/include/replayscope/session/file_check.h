// SPDX-License-Identifier: MIT
// The one validation of a session file, used by the writer (before appending to a file) and by every reader
// (the inspector, replayscope-run --summary): what the file is, whether this build can read it, and a
// private readable copy when its write-ahead log needs a recovery the reader cannot do in place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rs::session {

/// Why a file is refused (FileCheck::kind); `ok` when it is not.
enum class FileCheckKind : int {
    ok,
    missing,          ///< no such file (stat: ENOENT or ENOTDIR)
    unreadable,       ///< exists but cannot be examined or opened (permissions, I/O; SQLite cannot open it)
    directory,        ///< a directory
    not_regular,      ///< a FIFO, device or socket (or its -wal is one): refused before anything opens it
    empty,            ///< 0 bytes: never written, or truncated to nothing
    foreign_file,     ///< not a SQLite database
    truncated,        ///< shorter than a SQLite header, or than the pages its header announces (no WAL)
    corrupt,          ///< SQLite's quick_check fails, the format version cannot be read, or the schema
                      ///< objects its version requires are missing or of another type
    foreign_database, ///< a SQLite database of another application (application_id is not kApplicationId)
    too_new,          ///< user_version above kFormatVersion: written by a newer ReplayScope
    too_old,          ///< user_version below kOldestReadableVersion (0: never completely created; negative)
};

/// Name of a kind ("ok", "missing", "foreign-database", ...), for logs and tests.
std::string_view file_check_kind_name(FileCheckKind kind) noexcept;

/// Result of checking a file before use. `message` is a complete sentence naming the path; the other fields
/// let a reader word its own message.
struct FileCheck {
    bool ok = false;
    FileCheckKind kind = FileCheckKind::unreadable;
    /// user_version as stored (also when refused for it; -1 stays -1); 0 before the database is read.
    int format_version = 0;
    std::string message; ///< why the file is refused (empty when ok)
    /// The file has a non-empty `-wal` beside it (a live or unfinished session): SQLite judges its content.
    bool has_wal = false;
    /// kind directory / not_regular: "a directory", "a FIFO", ... (of the -wal when `wal_refused`).
    std::string file_kind;
    bool wal_refused = false;          ///< not_regular: the -wal beside the file is the one refused
    int error_number = 0;              ///< missing / unreadable: errno of the stat or open
    std::uint64_t file_size = 0;       ///< bytes of the file (once it has been opened)
    std::uint64_t announced_bytes = 0; ///< truncated: bytes its SQLite header announces (0: a short header)
    std::uint32_t announced_pages = 0; ///< truncated: pages its SQLite header announces
    std::int64_t application_id = 0;   ///< foreign_database: the application_id found
    std::string integrity;             ///< corrupt: what quick_check answered (or SQLite's error)
};

/// The file-level part of check_session_file, without SQLite: `path` and a `-wal` beside it are regular
/// files (stat first: a FIFO or device is never opened, so the check never blocks), the file opens
/// (O_NONBLOCK, then fstat again), is not empty, starts with the SQLite header ("SQLite format 3\0", 100
/// bytes) and, without a WAL, is at least as long as the pages its header announces (when the header's
/// page count is valid: change counter == version-valid-for, SQLite's file format, section 1.3.7). Reads
/// at most 100 bytes; never modifies anything. ok means "worth opening with SQLite", not "readable".
FileCheck check_session_header(const std::string& path);

/// Checks that `path` is a ReplayScope session file this build can read: check_session_header, then
/// SQLite opens it read-only: not corrupt (PRAGMA quick_check), application_id kApplicationId (else
/// foreign_database), user_version in [kOldestReadableVersion, kFormatVersion] (else too_new / too_old,
/// format_version set), the objects that version requires present with their types and no trigger
/// (schema_check.h's check_session_schema; else corrupt, `integrity` saying what). A file with a `-wal`
/// beside it (left by a full disk or a killed writer) is judged by SQLite, which recovers the WAL; when that
/// recovery needs write access the directory does not give, the check runs on a private copy
/// (openable_session_copy). Never modifies the file.
FileCheck check_session_file(const std::string& path);

/// A path SQLite can open read-only for `path`: `path` itself when it opens as it is, else (a WAL that
/// needs recovery in a directory the reader cannot write) a temporary copy of the database and its WAL,
/// checkpointed, in $TMPDIR (or /tmp), which the caller removes with remove_session_copy(). Empty with
/// `error` set when `path` is not a regular file or cannot be copied. `always_copy`: copy whenever a WAL is
/// beside the file (a reader that must not create a -shm next to someone else's session).
std::string openable_session_copy(const std::string& path, std::string& error, bool always_copy = false);

/// Removes a copy returned by openable_session_copy (nothing when `copy` == `path`).
void remove_session_copy(const std::string& path, const std::string& copy);

} // namespace rs::session
