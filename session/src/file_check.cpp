// SPDX-License-Identifier: MIT
// The one validation of a session file (file_check.h).
#include "replayscope/session/file_check.h"

#include "replayscope/session/format.h"
#include "replayscope/session/regular_file.h"
#include "replayscope/session/schema_check.h"
#include "replayscope/session/sqlite_scalar.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rs::session {

namespace {

/// What open_regular_file says a refused session file was needed as.
constexpr const char* kRefusal = "not a session file (refused before reading)";

/// Opens the regular file `path` as a session file to read (open_regular_file with the check's refusal).
int open_regular_file(const std::string& path, std::string& error) {
    struct stat identity{};
    return rs::session::open_regular_file(path, kRefusal, identity, error);
}

/// Copies the regular file `from` to `to` (created 0600). False with `error` set.
bool copy_file(const std::string& from, const std::string& to, std::string& error) {
    const int in = open_regular_file(from, error);
    if (in < 0) {
        return false;
    }
    const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        error = to + ": cannot be created: " + std::strerror(errno);
        ::close(in);
        return false;
    }
    char buffer[1 << 16];
    bool ok = true;
    for (;;) {
        const ssize_t n = ::read(in, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        for (ssize_t done = 0; ok && done < n;) {
            const ssize_t w = ::write(out, buffer + done, static_cast<std::size_t>(n - done));
            if (w < 0 && errno == EINTR) {
                continue;
            }
            ok = w > 0;
            done += w > 0 ? w : 0;
        }
        if (!ok) {
            break;
        }
    }
    if (!ok) {
        error = to + ": copy of " + from + " failed: " + std::strerror(errno);
    }
    ::close(in);
    ::close(out);
    return ok;
}

/// The checks of check_session_file after the header: SQLite opens `db_path` read-only (the name used in
/// messages is `path`).
FileCheck check_database(const std::string& path, const std::string& db_path, bool& cannot_open) {
    FileCheck check;
    cannot_open = false;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        check.message = path + ": cannot be opened by SQLite: " + sqlite3_errmsg(db);
        check.kind = FileCheckKind::unreadable;
        cannot_open = true;
        sqlite3_close(db);
        return check;
    }
    sqlite3_int64 value = 0;
    std::string text;
    if (!query_scalar(db, "PRAGMA quick_check", value, text) || text != "ok") {
        const int code = sqlite3_extended_errcode(db) & 0xff;
        // A WAL that needs recovery in a directory this reader cannot write: not the file's fault.
        cannot_open = code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_BUSY;
        check.message = path + ": corrupt session file (SQLite integrity check: " + text + ")";
        check.kind = FileCheckKind::corrupt;
        check.integrity = text;
    } else if (!query_scalar(db, "PRAGMA application_id", value, text) || value != kApplicationId) {
        check.kind = FileCheckKind::foreign_database;
        check.application_id = value;
        check.message = path + ": foreign SQLite database (application_id " + std::to_string(value) +
                        ", not a ReplayScope session)";
    } else if (!query_scalar(db, "PRAGMA user_version", value, text)) {
        check.message = path + ": cannot read the session format version: " + text;
        check.kind = FileCheckKind::corrupt;
        check.integrity = text;
    } else {
        // user_version is a signed 32-bit value: reported as stored (-1 stays -1).
        check.format_version = static_cast<int>(static_cast<std::int32_t>(value));
        if (check.format_version > kFormatVersion) {
            check.message = path + ": session format version " + std::to_string(check.format_version) +
                            " is newer than this ReplayScope supports (" + std::to_string(kFormatVersion) +
                            "); use a newer ReplayScope";
            check.kind = FileCheckKind::too_new;
        } else if (check.format_version < kOldestReadableVersion) {
            check.message = path + ": session format version " + std::to_string(check.format_version) +
                            " is not valid (this ReplayScope reads versions " +
                            std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) +
                            ")";
            check.kind = FileCheckKind::too_old;
        } else if (const SchemaCheck schema = check_session_schema(db, check.format_version); !schema.ok) {
            // A view or trigger where the schema has a table could make any read of it run forever.
            check.message = path + ": session file refused: " + schema.message;
            check.kind = FileCheckKind::corrupt;
            check.integrity = schema.message;
        } else {
            check.ok = true;
            check.kind = FileCheckKind::ok;
        }
    }
    sqlite3_close(db);
    return check;
}

} // namespace

std::string_view file_check_kind_name(FileCheckKind kind) noexcept {
    switch (kind) {
    case FileCheckKind::ok:
        return "ok";
    case FileCheckKind::missing:
        return "missing";
    case FileCheckKind::unreadable:
        return "unreadable";
    case FileCheckKind::directory:
        return "directory";
    case FileCheckKind::not_regular:
        return "not-regular";
    case FileCheckKind::empty:
        return "empty";
    case FileCheckKind::foreign_file:
        return "foreign-file";
    case FileCheckKind::truncated:
        return "truncated";
    case FileCheckKind::corrupt:
        return "corrupt";
    case FileCheckKind::foreign_database:
        return "foreign-database";
    case FileCheckKind::too_new:
        return "too-new";
    case FileCheckKind::too_old:
        return "too-old";
    }
    return "unknown";
}

FileCheck check_session_header(const std::string& path) {
    FileCheck check;
    // stat(2) first: a FIFO or device must be refused before anything opens it (an open for reading
    // blocks on a FIFO without a writer, and reads from a device never end).
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        check.error_number = errno;
        check.kind = errno == ENOENT || errno == ENOTDIR ? FileCheckKind::missing : FileCheckKind::unreadable;
        check.message = path + ": cannot be opened: " + std::strerror(check.error_number);
        return check;
    }
    if (!S_ISREG(st.st_mode)) {
        check.kind = S_ISDIR(st.st_mode) ? FileCheckKind::directory : FileCheckKind::not_regular;
        check.file_kind = file_kind(st.st_mode);
        check.message = path + ": " + check.file_kind + ", " + kRefusal;
        return check;
    }
    // SQLite opens the -wal beside the file too: it must be a regular file as well.
    struct stat wal{};
    if (::stat((path + "-wal").c_str(), &wal) == 0) {
        if (!S_ISREG(wal.st_mode)) {
            check.kind = FileCheckKind::not_regular;
            check.file_kind = file_kind(wal.st_mode);
            check.wal_refused = true;
            check.message = path + "-wal: " + check.file_kind + ", not a session file's write-ahead log (" +
                            path + " refused before reading)";
            return check;
        }
        check.has_wal = wal.st_size > 0;
    }
    // O_NONBLOCK and fstat: a file swapped for a FIFO after the stat above still cannot block the open.
    struct stat identity{};
    const int fd = open_regular_file(path, kRefusal, identity, check.message);
    if (fd < 0) {
        check.error_number = errno;
        check.kind = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) ? FileCheckKind::not_regular
                                                                            : FileCheckKind::unreadable;
        return check;
    }
    check.file_size = static_cast<std::uint64_t>(identity.st_size);
    unsigned char header[100] = {};
    std::size_t got = 0;
    while (got < sizeof header) {
        const ssize_t n = ::read(fd, header + got, sizeof header - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (check.file_size == 0) {
        check.kind = FileCheckKind::empty;
        check.message = path + ": empty file (0 bytes): the session was never written or was truncated";
        return check;
    }
    if (got < 16 || std::memcmp(header, "SQLite format 3", 16) != 0) {
        check.kind = FileCheckKind::foreign_file;
        check.message = path + ": not a SQLite database (foreign file), refusing to use it as a session file";
        return check;
    }
    if (got < sizeof header) {
        check.kind = FileCheckKind::truncated;
        check.message = path + ": truncated session file: only " + std::to_string(check.file_size) +
                        " bytes, less than a SQLite header";
        return check;
    }
    // The header (big-endian fields): page size at 16 (1 means 65536), change counter at 24, page count at
    // 28, version-valid-for at 92; the page count is valid only when the last two agree. With a WAL beside
    // the file the page count may describe pages still in the WAL only (a checkpoint stopped by a full
    // disk): SQLite judges such a file, not its size.
    auto be16 = [&](std::size_t at) { return std::uint32_t{header[at]} << 8 | header[at + 1]; };
    auto be32 = [&](std::size_t at) { return be16(at) << 16 | be16(at + 2); };
    std::uint64_t page_size = be16(16);
    if (page_size == 1) {
        page_size = 65536;
    }
    const std::uint32_t pages = be32(28);
    if (!check.has_wal && page_size >= 512 && be32(92) == be32(24) && pages > 0 &&
        check.file_size < page_size * pages) {
        check.kind = FileCheckKind::truncated;
        check.announced_pages = pages;
        check.announced_bytes = page_size * pages;
        check.message = path + ": truncated session file: " + std::to_string(check.file_size) +
                        " bytes of the " + std::to_string(check.announced_bytes) + " its header announces (" +
                        std::to_string(pages) + " pages)";
        return check;
    }
    check.ok = true;
    check.kind = FileCheckKind::ok;
    return check;
}

FileCheck check_session_file(const std::string& path) {
    FileCheck check = check_session_header(path);
    if (!check.ok) {
        return check;
    }
    // Whether a WAL lies beside it: then the database file alone says nothing about the content (its
    // header's page count may already be the checkpointed one, or not yet); SQLite judges.
    const bool has_wal = file_has_content(path + "-wal");
    bool cannot_open = false;
    const std::uint64_t size = check.file_size;
    check = check_database(path, path, cannot_open);
    check.has_wal = has_wal;
    check.file_size = size;
    if (!check.ok && cannot_open && has_wal) {
        std::string error;
        const std::string copy = openable_session_copy(path, error);
        if (copy.empty()) {
            check.message += "; " + error;
            return check;
        }
        check = check_database(path, copy, cannot_open);
        check.has_wal = has_wal;
        check.file_size = size;
        remove_session_copy(path, copy);
    }
    return check;
}

std::string openable_session_copy(const std::string& path, std::string& error, bool always_copy) {
    const int fd = open_regular_file(path, error);
    if (fd < 0) {
        return {};
    }
    ::close(fd);
    const bool has_wal = file_has_content(path + "-wal");
    if (!has_wal) {
        return path;
    }
    // Can SQLite read it in place? (It can when it may create or use the -shm beside it.)
    if (!always_copy) {
        sqlite3* db = nullptr;
        sqlite3_int64 value = 0;
        std::string text;
        const bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
                        query_scalar(db, "SELECT count(*) FROM sqlite_master", value, text);
        sqlite3_close(db);
        if (ok) {
            return path;
        }
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/replayscope-copy-XXXXXX";
    if (::mkdtemp(dir.data()) == nullptr) {
        error = dir + ": cannot create a directory for a copy: " + std::strerror(errno);
        return {};
    }
    const std::string copy = dir + "/session.rsdb";
    if (!copy_file(path, copy, error) || !copy_file(path + "-wal", copy + "-wal", error)) {
        ::unlink(copy.c_str());
        ::unlink((copy + "-wal").c_str());
        ::rmdir(dir.c_str());
        return {};
    }
    // Recover and checkpoint the WAL into the copy, which is then a self-contained file.
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        error = path + ": the copy's write-ahead log cannot be recovered: " + sqlite3_errmsg(db);
    }
    sqlite3_close(db);
    if (!ok) {
        remove_session_copy(path, copy);
        return {};
    }
    return copy;
}

void remove_session_copy(const std::string& path, const std::string& copy) {
    if (copy.empty() || copy == path) {
        return;
    }
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        ::unlink((copy + suffix).c_str());
    }
    const auto slash = copy.rfind('/');
    if (slash != std::string::npos) {
        ::rmdir(copy.substr(0, slash).c_str());
    }
}

} // namespace rs::session
