// SPDX-License-Identifier: MIT
// Restore benchmark (docs/performance.md, "Restore: bytes moved"): what a restore moves, and what that
// would cost on hardware, for full and dirty-chunk restore side by side in one run of this program.
//
// It runs the HIP program workloads/hip/partial_write (one hipMalloc buffer of --mib MiB; one launch per
// fraction, each updating that fraction of the buffer in place) under `replayscope-run --simulate` once
// per restore configuration (--restore full|dirty|dirty-host x --snapshot-store host|device) and reads
// the session file each run writes: per replayed launch the snapshot (footprint, store, hash path, pinned
// host store) and every restore of the `restores` table (bytes moved over the host link and inside the
// device, dirty and total chunks, hashing and restore wall time). The engine is measured as it runs in an
// application, through the session it records; nothing is driven directly. Each figure is printed beside
// its baseline, a full restore from pageable host memory (what the engine did before dirty-chunk
// restore), and beside what partial_write says the launch wrote (the bytes of the chunks it touched).
//
// The modelled time on hardware applies the link rates measured on a real GPU (PCIe Gen5 x16, HBM3e) to
// the bytes the session reports (see model_ns()); the host hash rate is measured here, in this process,
// with the engine's own host implementation of the chunk hash.
//
//   restore_bench [--mib N] [--passes N] [--patterns slice,scatter] [--fractions 1,0.1,0.01,0.001]
//                 [--configs LIST] [--keep DIR]
// Exit status 0 when every run passed and, at the 1% fraction, every dirty restore moved at most 2% of
// the footprint plus one chunk per dirty run; 1 otherwise.
#include "chunk_hash_math.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// ---- link rates of the hardware model (bytes per second), measured on a real GPU ----------------------
// Full restore of 1 GiB: 167 ms from pageable host memory (ROCr pins and unpins per call), 19.4 ms from
// pinned host memory, 0.51 ms device to device; hash every 64 KiB chunk on the device and copy back the
// 1% dirty chunks device to device: 0.30 ms.
constexpr double kGiB = 1073741824.0;
constexpr double kPageableH2D = 6.4e9;
constexpr double kPinnedH2D = 55e9;
constexpr double kPinnedD2H = kPinnedH2D; ///< assumed symmetric (no D2H figure was measured)
constexpr double kDeviceCopy = 2.1e12;    ///< D2D copy, bytes copied per second (2.1 TB/s each way)
/// One read of the footprint by the hash kernel: calibrated on the 1%-dirty D2D measurement, 0.30 ms for
/// 1 GiB of which the 1% copy takes 1% of 0.51 ms, i.e. 1 GiB / 0.2949 ms = 3.64 TB/s. (Reading at the
/// copy rate, 2.1 TB/s, would make that case 0.52 ms, not the 0.30 ms measured: a read-only kernel uses
/// the bandwidth a copy splits between its read and its write.)
const double kDeviceRead = kGiB / (0.30e-3 - 0.01 * kGiB / kDeviceCopy);

// ---- configurations ---------------------------------------------------------------------------------

struct Config {
    const char* name;    ///< as listed by --configs
    const char* restore; ///< --restore
    const char* store;   ///< --snapshot-store
    const char* label;   ///< printed
};
const Config kConfigs[] = {
    {"full-host", "full", "host", "full, host store"},
    {"full-device", "full", "device", "full, device store"},
    {"dirty-device", "dirty", "device", "dirty (device hash), device store"},
    {"dirty-host-store", "dirty", "host", "dirty (device hash), host store"},
    {"dirtyhost-device", "dirty-host", "device", "dirty-host (host hash), device store"},
    {"dirtyhost-host", "dirty-host", "host", "dirty-host (host hash), host store"},
};

/// What partial_write printed for one launch ("write K fraction F bytes W runs R chunk_runs N
/// chunk_bytes D").
struct Launch {
    double fraction = 0;
    uint64_t written = 0, runs = 0, chunk_runs = 0, chunk_bytes = 0;
};

/// Averages over the restores of one replayed launch, and its snapshot.
struct Measured {
    uint64_t footprint = 0, snapshot_host = 0, snapshot_device = 0, total_chunks = 0;
    std::string store, hash_path;
    bool pinned = false;
    double snapshot_hash_ns = 0;
    int restores = 0;
    double host = 0, device = 0, dirty = 0, hash_ns = 0, restore_ns = 0; // per restore (mean)
    double max_host = 0, max_device = 0;                                 // worst restore
};

struct Run {
    std::vector<Launch> launches;
    std::vector<Measured> measured; // one per launch, in launch order
    std::string log;                // the run's output, for failures
    bool ok = false;
};

[[noreturn]] void die(const char* format, const std::string& detail = {}) {
    std::fprintf(stderr, "restore_bench: %s%s%s\n", format, detail.empty() ? "" : "\n", detail.c_str());
    std::exit(1);
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

/// Rows of `sql` on the session file `db`, each column as text (NULL as ""); empty on an error, with
/// the error in `error`.
std::vector<std::vector<std::string>> query(sqlite3* db, const std::string& sql,
                                            std::string* error = nullptr) {
    std::vector<std::vector<std::string>> rows;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        if (error) {
            *error = sqlite3_errmsg(db);
        }
        return rows;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            row.emplace_back(t ? t : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return rows;
}

double num(const std::string& s) {
    return s.empty() ? 0.0 : std::strtod(s.c_str(), nullptr);
}

/// Runs partial_write under replayscope-run with `config`, and reads its session.
Run run_config(const Config& config, const std::string& dir, const std::string& pattern, uint64_t mib,
               int passes, const std::string& fractions) {
    Run run;
    const std::string base = dir + "/" + config.name + "-" + pattern;
    const std::string session = base + ".rsdb";
    std::string command =
        quote(RS_RUNNER_PATH) + " --simulate --no-progress -f --standins " +
        quote(RS_PARTIAL_WRITE_STANDINS) + " --passes " + std::to_string(passes) + " --restore " +
        config.restore + " --snapshot-store " + config.store + " --kernel-include-regex write_part -o " +
        quote(session) + " -- " + quote(RS_PARTIAL_WRITE) + " --mib " + std::to_string(mib) + " --pattern " +
        pattern + " --fractions " + fractions + " > " + quote(base + ".out") + " 2> " + quote(base + ".err");
    const int status = std::system(command.c_str());
    const std::string out = slurp(base + ".out");
    run.log = "$ " + command + "\n" + out + slurp(base + ".err");
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        out.find("\nPASS") == std::string::npos) {
        return run;
    }
    static const std::regex kWriteLine(
        R"(write \d+ fraction (\S+) bytes (\d+) runs (\d+) chunk_runs (\d+) chunk_bytes (\d+))");
    for (std::sregex_iterator it(out.begin(), out.end(), kWriteLine), end; it != end; ++it) {
        run.launches.push_back({std::stod((*it)[1]), std::stoull((*it)[2]), std::stoull((*it)[3]),
                                std::stoull((*it)[4]), std::stoull((*it)[5])});
    }
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(session.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        die("cannot open the session ", session);
    }
    std::string error;
    const auto dispatches = query(db,
                                  "SELECT d.process, d.id FROM dispatches d JOIN strings s ON s.process = "
                                  "d.process AND s.id = d.kernel_name_id JOIN enum_names e ON e.enum = "
                                  "'decision' AND e.code = d.decision WHERE s.text LIKE '%write_part%' AND "
                                  "e.name = 'replayed' ORDER BY d.process, d.id",
                                  &error);
    if (dispatches.size() != run.launches.size()) {
        run.log += "\nrestore_bench: " + std::to_string(dispatches.size()) +
                   " replayed write_part dispatches for " + std::to_string(run.launches.size()) +
                   " launches " + error;
        sqlite3_close(db);
        return run;
    }
    for (const auto& d : dispatches) {
        Measured m;
        const std::string key = " WHERE process = " + d[0] + " AND dispatch_id = " + d[1];
        const auto snap = query(db,
                                "SELECT bytes, store, host_bytes, device_bytes, hash_path, host_pinned, "
                                "hash_ns, total_chunks FROM snapshots" +
                                    key,
                                &error);
        if (snap.size() != 1) {
            die("no snapshot row with the columns of session format 4: ", error);
        }
        m.footprint = std::stoull(snap[0][0]);
        m.store = snap[0][1];
        m.snapshot_host = std::stoull("0" + snap[0][2]);
        m.snapshot_device = std::stoull("0" + snap[0][3]);
        m.hash_path = snap[0][4];
        m.pinned = snap[0][5] == "1";
        m.snapshot_hash_ns = num(snap[0][6]);
        m.total_chunks = std::stoull("0" + snap[0][7]);
        const auto restores =
            query(db,
                  "SELECT restored_bytes_host, restored_bytes_device, dirty_chunks, hash_ns, "
                  "restore_ns FROM restores WHERE process = " +
                      d[0] + " AND dispatch = " + d[1],
                  &error);
        if (restores.empty()) {
            die("no restores rows: ", error);
        }
        for (const auto& r : restores) {
            const double host = num(r[0]), device = num(r[1]);
            m.host += host;
            m.device += device;
            m.dirty += num(r[2]);
            m.hash_ns += num(r[3]);
            m.restore_ns += num(r[4]);
            m.max_host = std::max(m.max_host, host);
            m.max_device = std::max(m.max_device, device);
        }
        m.restores = static_cast<int>(restores.size());
        for (double* v : {&m.host, &m.device, &m.dirty, &m.hash_ns, &m.restore_ns}) {
            *v /= m.restores;
        }
        run.measured.push_back(m);
    }
    sqlite3_close(db);
    run.ok = true;
    return run;
}

/// Host hash rate of the engine's host implementation (rs_chunk_hash_host), bytes per second: best of 3
/// passes over `bytes` of warm memory in 64 KiB chunks.
double host_hash_rate(uint64_t bytes) {
    std::unique_ptr<unsigned char[]> buffer(new unsigned char[bytes]);
    for (uint64_t i = 0; i < bytes; ++i) {
        buffer[i] = static_cast<unsigned char>(i * 131u + (i >> 12));
    }
    double best = 0;
    volatile uint64_t sink = 0; // keeps the hashes computed
    for (int round = 0; round < 3; ++round) {
        const auto t0 = Clock::now();
        for (uint64_t offset = 0; offset < bytes; offset += 65536) {
            sink =
                sink + rs_chunk_hash_host(buffer.get() + offset, std::min<uint64_t>(65536, bytes - offset));
        }
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        best = std::max(best, static_cast<double>(bytes) / s);
    }
    return best;
}

/// Modelled time of one restore on hardware, ns: the bytes the session reports at the link rates above.
///  - full: host-store bytes at the pinned (or, when the store is not page-locked, pageable) H2D rate,
///    device-store bytes at the D2D copy rate;
///  - dirty: one read of the footprint by the hash kernel at kDeviceRead, plus the dirty runs copied back
///    as above;
///  - dirty-host: the footprint read back to the host at the pinned D2H rate and hashed at `host_hash`,
///    plus the dirty runs copied back.
/// No per-copy cost is modelled (none was measured), so many small dirty runs are modelled optimistically.
double model_ns(const Config& c, const Measured& m, double host_hash) {
    const double h2d = m.pinned ? kPinnedH2D : kPageableH2D;
    double s = m.host / h2d + m.device / kDeviceCopy;
    const std::string restore = c.restore;
    if (restore == "dirty") {
        s += static_cast<double>(m.footprint) / kDeviceRead;
    } else if (restore == "dirty-host") {
        s += static_cast<double>(m.footprint) / kPinnedD2H + static_cast<double>(m.footprint) / host_hash;
    }
    return s * 1e9;
}

std::string mib(double bytes) {
    char b[32];
    if (bytes >= 1024.0 * 1024.0 * 10) {
        std::snprintf(b, sizeof b, "%.1f MiB", bytes / 1048576.0);
    } else if (bytes >= 1024.0 * 1024.0) {
        std::snprintf(b, sizeof b, "%.2f MiB", bytes / 1048576.0);
    } else if (bytes >= 1024) {
        std::snprintf(b, sizeof b, "%.0f KiB", bytes / 1024.0);
    } else {
        std::snprintf(b, sizeof b, "%.0f B", bytes);
    }
    return b;
}

std::string ms(double ns) {
    char b[32];
    if (ns >= 1e7) {
        std::snprintf(b, sizeof b, "%.1f ms", ns / 1e6);
    } else if (ns >= 1e5) {
        std::snprintf(b, sizeof b, "%.2f ms", ns / 1e6);
    } else {
        std::snprintf(b, sizeof b, "%.1f us", ns / 1e3);
    }
    return b;
}

std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream s(list);
    for (std::string item; std::getline(s, item, ',');) {
        if (!item.empty()) {
            out.push_back(item);
        }
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    uint64_t mib_arg = 256;
    int passes = 3;
    std::string patterns = "slice,scatter", fractions = "1,0.1,0.01,0.001", configs, keep;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string flag = argv[a], value = argv[a + 1];
        if (flag == "--mib") {
            mib_arg = std::stoull(value);
        } else if (flag == "--passes") {
            passes = std::stoi(value);
        } else if (flag == "--patterns") {
            patterns = value;
        } else if (flag == "--fractions") {
            fractions = value;
        } else if (flag == "--configs") {
            configs = value;
        } else if (flag == "--keep") {
            keep = value;
        } else {
            die("unknown argument ", flag);
        }
    }
    if (argc % 2 == 0) {
        die("every argument takes a value");
    }
    std::vector<const Config*> selected;
    for (const Config& c : kConfigs) {
        if (configs.empty() ||
            ("," + configs + ",").find("," + std::string(c.name) + ",") != std::string::npos) {
            selected.push_back(&c);
        }
    }
    if (selected.empty()) {
        die("no configuration selected");
    }

    std::string dir = keep;
    if (dir.empty()) {
        char temp[] = "/tmp/restore_bench.XXXXXX";
        if (!::mkdtemp(temp)) {
            die("mkdtemp failed");
        }
        dir = temp;
    }
    utsname u{};
    ::uname(&u);
    const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    double load[3] = {};
    ::getloadavg(load, 3);
    std::printf("restore_bench: %s %s, %ld CPUs, load average %.2f; runner %s\n", u.sysname, u.release, cpus,
                load[0], RS_RUNNER_PATH);
    std::printf(
        "partial_write --mib %llu, %d passes (a restore before each pass after the first and one after "
        "the last: %d per launch)\n",
        static_cast<unsigned long long>(mib_arg), passes, passes);
    const double host_hash = host_hash_rate(mib_arg << 20);
    std::printf("host hash rate (rs_chunk_hash_host, 64 KiB chunks, best of 3, this process): %.2f GB/s\n",
                host_hash / 1e9);
    std::printf(
        "model rates: pageable H2D %.1f GB/s, pinned H2D/D2H %.0f GB/s, D2D copy %.1f TB/s, hash-kernel "
        "read %.2f TB/s\n",
        kPageableH2D / 1e9, kPinnedH2D / 1e9, kDeviceCopy / 1e12, kDeviceRead / 1e12);
    // The model against the table it comes from (1 GiB).
    std::printf(
        "model at 1 GiB: full pageable %.1f ms, full pinned %.1f ms, full D2D %.2f ms, dirty 1%% D2D %.2f "
        "ms, dirty 1%% pinned host store %.2f ms (measured 167 / 19.4 / 0.51 / 0.30 / 1.04 ms)\n",
        kGiB / kPageableH2D * 1e3, kGiB / kPinnedH2D * 1e3, kGiB / kDeviceCopy * 1e3,
        (kGiB / kDeviceRead + 0.01 * kGiB / kDeviceCopy) * 1e3,
        (kGiB / kDeviceRead + 0.01 * kGiB / kPinnedH2D) * 1e3);

    bool all_ok = true;
    for (const std::string& pattern : split(patterns)) {
        std::vector<Run> runs;
        for (const Config* c : selected) {
            runs.push_back(run_config(*c, dir, pattern, mib_arg, passes, fractions));
            if (!runs.back().ok) {
                std::fprintf(stderr, "restore_bench: the %s run failed:\n%s\n", c->name,
                             runs.back().log.c_str());
                return 1;
            }
        }
        const Run& first = runs.front();
        uint64_t chunks = 0; // a full restore's snapshot has no chunk table: take a dirty run's
        for (const Run& r : runs) {
            chunks = std::max(chunks, r.measured[0].total_chunks);
        }
        std::printf("\n== pattern %s: footprint %s (snapshot bytes), %llu chunks\n", pattern.c_str(),
                    mib(static_cast<double>(first.measured[0].footprint)).c_str(),
                    static_cast<unsigned long long>(chunks));
        for (size_t l = 0; l < first.launches.size(); ++l) {
            const Launch& launch = first.launches[l];
            const double footprint = static_cast<double>(first.measured[l].footprint);
            // Baseline: the old engine, a full restore of the footprint from pageable host memory.
            const double baseline_ns = footprint / kPageableH2D * 1e9;
            std::printf(
                "\n-- kernel writes %g%%: %s in %llu range(s); the chunks it touches: %s in %llu run(s)\n",
                launch.fraction * 100, mib(static_cast<double>(launch.written)).c_str(),
                static_cast<unsigned long long>(launch.runs),
                mib(static_cast<double>(launch.chunk_bytes)).c_str(),
                static_cast<unsigned long long>(launch.chunk_runs));
            std::printf("   %-38s %6s %11s %11s %9s %8s %10s %10s %10s %9s\n", "per restore", "store",
                        "host link", "in device", "% of fp", "dirty", "wall", "hash wall", "model hw",
                        "vs old");
            std::printf("   %-38s %6s %11s %11s %8.1f%% %8s %10s %10s %10s %9s\n",
                        "old engine: full from pageable host", "host", mib(footprint).c_str(), "0 B", 100.0,
                        "-", "-", "-", ms(baseline_ns).c_str(), "1x");
            for (size_t c = 0; c < runs.size(); ++c) {
                const Measured& m = runs[c].measured[l];
                const double moved = m.host + m.device;
                const double model = model_ns(*selected[c], m, host_hash);
                char dirty[32];
                std::snprintf(dirty, sizeof dirty, "%.0f/%llu", m.dirty,
                              static_cast<unsigned long long>(m.total_chunks));
                char ratio[32];
                std::snprintf(ratio, sizeof ratio, baseline_ns / model < 10 ? "%.2fx" : "%.0fx",
                              baseline_ns / model);
                std::string store = m.store;
                if (m.store != "device" && !m.pinned) {
                    store += "(p)";
                }
                std::printf("   %-38s %6s %11s %11s %8.2f%% %8s %10s %10s %10s %9s\n", selected[c]->label,
                            store.c_str(), mib(m.host).c_str(), mib(m.device).c_str(),
                            moved / footprint * 100,
                            std::string(selected[c]->restore) == "full" ? "-" : dirty,
                            ms(m.restore_ns).c_str(), ms(m.hash_ns).c_str(), ms(model).c_str(), ratio);
                if (std::string(selected[c]->restore) != "full") {
                    // Every restore of a dirty configuration must move exactly the chunks the kernel touched
                    // in that run (the buffer's address, and so its chunk boundaries, differ between runs).
                    const Launch& own = runs[c].launches[l];
                    const double worst = m.max_host + m.max_device;
                    const double expected = static_cast<double>(own.chunk_bytes);
                    if (worst != expected || moved != expected || m.hash_path == "none") {
                        std::printf(
                            "      ^ moved %.0f bytes (mean %.0f), the chunks written are %.0f bytes (hash "
                            "path %s)\n",
                            worst, moved, expected, m.hash_path.c_str());
                        all_ok = false;
                    }
                    if (own.fraction == 0.01) {
                        const double bound = 0.02 * footprint + 65536.0 * static_cast<double>(own.chunk_runs);
                        std::printf("      1%%: moved %s <= 2%% of the footprint + one chunk per dirty run "
                                    "(%s): %s\n",
                                    mib(worst).c_str(), mib(bound).c_str(),
                                    worst <= bound ? "met" : "NOT MET");
                        all_ok = all_ok && worst <= bound;
                    }
                }
            }
        }
    }
    std::printf("\nsessions and outputs in %s\n", dir.c_str());
    std::printf("%s\n", all_ok ? "restore_bench: every check met" : "restore_bench: a check was NOT met");
    return all_ok ? 0 : 1;
}
