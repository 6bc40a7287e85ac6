// SPDX-License-Identifier: MIT
#include "kernel_stats.h"

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <unistd.h>

namespace rs::runner {

namespace {

/// `value` with `decimals` (2 or 6) decimals.
std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace

double KernelStats::average_ns() const {
    return calls == 0 ? 0.0 : static_cast<double>(total_ns) / static_cast<double>(calls);
}

double KernelStats::stddev_ns() const {
    if (calls < 2) {
        return 0.0;
    }
    const double n = static_cast<double>(calls);
    const double sum = static_cast<double>(total_ns);
    return std::sqrt(std::abs((sum_squares - sum * sum / n) / (n - 1)));
}

bool read_kernel_stats(const std::string& session, KernelNameStyle style, std::vector<KernelStats>& stats,
                       std::string& error) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(session.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        error = session + ": " + (db != nullptr ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return false;
    }
    sqlite3_busy_timeout(db, 5000);
    // Per symbol in SQL; symbols whose names are equal in `style` are merged below.
    static constexpr const char* kQuery =
        "SELECT s.text, count(*), sum(p.end_tick - p.start_tick), min(p.end_tick - p.start_tick), "
        "max(p.end_tick - p.start_tick), sum(CAST(p.end_tick - p.start_tick AS REAL) * "
        "(p.end_tick - p.start_tick)) "
        "FROM passes p JOIN dispatches d ON d.process = p.process AND d.id = p.dispatch_id "
        "JOIN strings s ON s.process = d.process AND s.id = d.kernel_name_id "
        "WHERE p.end_tick >= p.start_tick AND p.end_tick > 0 GROUP BY s.text";
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, kQuery, -1, &st, nullptr) != SQLITE_OK) {
        error = session + ": not a readable session (" + sqlite3_errmsg(db) + ")";
        sqlite3_close(db);
        return false;
    }
    std::map<std::string, KernelStats> by_name;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        const std::string name = kernel_display_name(text != nullptr ? text : "", style);
        const auto calls = static_cast<std::uint64_t>(sqlite3_column_int64(st, 1));
        const auto total = static_cast<std::uint64_t>(sqlite3_column_int64(st, 2));
        const auto min = static_cast<std::uint64_t>(sqlite3_column_int64(st, 3));
        const auto max = static_cast<std::uint64_t>(sqlite3_column_int64(st, 4));
        const double squares = sqlite3_column_double(st, 5);
        auto [it, fresh] = by_name.try_emplace(name, KernelStats{name, calls, total, min, max, squares});
        if (!fresh) {
            KernelStats& k = it->second;
            k.calls += calls;
            k.total_ns += total;
            k.min_ns = std::min(k.min_ns, min);
            k.max_ns = std::max(k.max_ns, max);
            k.sum_squares += squares;
        }
    }
    if (rc != SQLITE_DONE) {
        error = session + ": " + sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (rc != SQLITE_DONE) {
        return false;
    }
    stats.clear();
    for (auto& [name, k] : by_name) {
        stats.push_back(std::move(k));
    }
    std::sort(stats.begin(), stats.end(), [](const KernelStats& a, const KernelStats& b) {
        return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
    });
    return true;
}

std::string kernel_stats_csv(const std::vector<KernelStats>& stats) {
    double all = 0;
    for (const auto& k : stats) {
        all += static_cast<double>(k.total_ns);
    }
    std::string out = std::string(kKernelStatsHeader) + "\n";
    for (const auto& k : stats) {
        std::string name;
        for (const char c : k.name) {
            name += c == '"' ? std::string("\"\"") : std::string(1, c);
        }
        out += "\"" + name + "\"," + std::to_string(k.calls) + "," + std::to_string(k.total_ns) + "," +
               fixed(k.average_ns(), 6) + "," +
               fixed(all > 0 ? static_cast<double>(k.total_ns) / all * 100.0 : 0.0, 2) + "," +
               std::to_string(k.min_ns) + "," + std::to_string(k.max_ns) + "," + fixed(k.stddev_ns(), 6) +
               "\n";
    }
    return out;
}

bool write_kernel_stats_csv(const std::vector<KernelStats>& stats, const std::string& path,
                            std::string& error) {
    // A new file of mode 0600, as the session it is made from (never through a link left at the path).
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        error = "cannot replace " + path + ": " + std::strerror(errno);
        return false;
    }
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        error = "cannot create " + path + ": " + std::strerror(errno);
        return false;
    }
    const std::string text = kernel_stats_csv(stats);
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            error = "cannot write " + path + ": " + std::strerror(errno);
            ::close(fd);
            return false;
        }
        written += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
        error = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace rs::runner
