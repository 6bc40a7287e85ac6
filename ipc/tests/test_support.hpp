// Shared helpers of the ipc test suites: session-file queries and a thread-safe log capture.
#pragma once

#include "replayscope/ipc/collector.hpp"
#include "replayscope/ipc/emitter.hpp"
#include "replayscope/ipc/frame.hpp"

#include <QString>
#include <QStringList>
#include <QTest>

#include <flatbuffers/flatbuffers.h>
#include <sqlite3.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rs::test {

/// Read-only connection to a session file; query helpers return NULL as -1 / "".
class SessionDb {
  public:
    explicit SessionDb(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
        }
    }
    ~SessionDb() { sqlite3_close(db_); }
    bool ok() const { return error_.empty(); }
    /// First column of the first row as an integer (-1 for NULL or no row).
    long long integer(const std::string& sql) const {
        const auto rows = query(sql);
        return rows.empty() || rows[0].empty() || rows[0][0].isNull() ? -1 : rows[0][0].toLongLong();
    }
    QString text(const std::string& sql) const {
        const auto rows = query(sql);
        return rows.empty() || rows[0].empty() ? QString() : rows[0][0];
    }
    /// All rows, every column as text (NULL -> null QString).
    std::vector<QStringList> query(const std::string& sql) const {
        std::vector<QStringList> rows;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
            qWarning("SQL error in %s: %s", sql.c_str(), sqlite3_errmsg(db_));
            return rows;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            QStringList row;
            for (int i = 0; i < sqlite3_column_count(st); ++i) {
                const auto* t = sqlite3_column_text(st, i);
                row << (t ? QString::fromUtf8(reinterpret_cast<const char*>(t)) : QString());
            }
            rows.push_back(row);
        }
        sqlite3_finalize(st);
        return rows;
    }

  private:
    sqlite3* db_ = nullptr;
    std::string error_;
};

/// Collects collector log lines (the collector thread writes, the test reads).
class LogCapture {
  public:
    rs::ipc::LogFunction function() {
        return [this](const std::string& line) {
            std::lock_guard lock(mutex_);
            lines_ << QString::fromStdString(line);
        };
    }
    QStringList lines() const {
        std::lock_guard lock(mutex_);
        return lines_;
    }
    bool contains(const QString& text) const {
        for (const auto& l : lines()) {
            if (l.contains(text)) {
                return true;
            }
        }
        return false;
    }

  private:
    mutable std::mutex mutex_;
    QStringList lines_;
};

/// Encodes records as frames (sequence and timestamp as given).
inline std::vector<std::uint8_t> frames(const std::vector<rs::ipc::Record>& records) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<std::uint8_t> out;
    for (const auto& r : records) {
        rs::ipc::appendFrame(r, builder, out);
    }
    return out;
}

inline rs::ipc::Record helloRecord(const std::string& token) {
    rs::ipc::Record r{};
    r.type = rs::ipc::EventType::hello;
    std::memcpy(r.hello.token, token.data(), std::min<std::size_t>(token.size(), 64));
    r.hello.pid = 4242;
    r.hello.protocol_version = rs::ipc::kProtocolVersion;
    return r;
}

inline rs::ipc::Record dispatchRecord(std::uint64_t sequence, std::uint64_t id) {
    rs::ipc::Record r{};
    r.type = rs::ipc::EventType::dispatch;
    r.sequence = sequence;
    r.timestamp_ns = 1000 + sequence;
    r.dispatch = {id, 0x1000,      0x2000,     0x3000 + id,
                  0,  {256, 1, 1}, {64, 1, 1}, rs::ipc::DispatchDecision::replayed};
    return r;
}

} // namespace rs::test
