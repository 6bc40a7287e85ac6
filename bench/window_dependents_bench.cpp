// SPDX-License-Identifier: MIT
// Window dependents benchmark (docs/performance.md, "Dependents of a window"): does work that waits for a
// replayed kernel cost the application more than the replay itself?
//
// It runs workloads/hip/hip_event_dependents (each round: a 200 ms filtered kernel, then the kernel
// `update`, 50 ms, on stream A; on stream B, behind update's event, a filtered kernel, a device-to-host
// copy and a fill) plainly on the simulated runtime and under `replayscope-run --simulate --passes N
// --kernel-include-regex update`, in two shapes: a normal launch (replayed) and a cooperative launch
// (hipLaunchCooperativeKernel; declined, it runs once). Per shape it prints the median round time plain,
// the median round time under the engine, and the replay's own time per round read from the session
// file (every pass's kernel ticks, agent ticks in ns on the simulator, plus every restore's wall time),
// side by side. Before the engine recognised packets waiting on a window's dispatch, a round lasted the
// drain timeout (20 s here).
//
//   window_dependents_bench [--runs N] [--passes N] [--keep DIR]
// Exit status 0 when, for every shape, no window was declined drain-timeout and the median replayed round
// is within the plain median plus the replay's own time plus 25% of the plain median; 1 otherwise.
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace {

/// stdout of `/bin/sh -c command` (stderr discarded), or nullopt-like empty with ok false.
struct Output {
    std::string text;
    bool ok = false;
};

Output run_shell(const std::string& command) {
    Output out;
    FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
    if (!pipe) {
        return out;
    }
    char buffer[4096];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        out.text.append(buffer, n);
    }
    out.ok = pclose(pipe) == 0;
    return out;
}

/// "round N: done in T ms" values of one run.
std::vector<double> round_times(const std::string& text) {
    std::vector<double> ms;
    const std::regex line("round [0-9]+: done in ([0-9.]+) ms");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
        ms.push_back(std::strtod((*it)[1].str().c_str(), nullptr));
    }
    return ms;
}

double median(std::vector<double> v) {
    if (v.empty()) {
        return -1;
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// One integer from a query of the session file (-1 on any error).
long long query(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    long long value = -1;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
            value = sqlite3_column_int64(st, 0);
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return value;
}

struct Shape {
    const char* name;
    const char* argument;
};

} // namespace

int main(int argc, char** argv) {
    int runs = 3, passes = 3;
    std::string keep;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--passes" && i + 1 < argc) {
            passes = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--keep" && i + 1 < argc) {
            keep = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--runs N] [--passes N] [--keep DIR]\n", argv[0]);
            return 2;
        }
    }
    const std::string dir = keep.empty() ? "/tmp" : keep;
    const std::string kernel_time =
        "HSA_SIM_KERNEL_TIME_NS=_Z7preparePiii.kd=200000000,_Z6updatePii.kd=50000000 ";
    const std::string program = RS_EVENT_DEPENDENTS;
    const Shape shapes[] = {{"event-dependent stream", ""}, {"cooperative launch", " --cooperative"}};
    std::printf("%-24s %12s %12s %16s %12s %14s\n", "shape", "plain ms", "replayed ms", "replay own ms",
                "excess ms", "drain-timeouts");
    bool good = true;
    for (const Shape& shape : shapes) {
        std::vector<double> plain, replayed, own;
        long long timeouts = 0;
        for (int r = 0; r < runs; ++r) {
            const Output p =
                run_shell(kernel_time + "LD_LIBRARY_PATH=" RS_SIM_LIBRARY_DIR " " + program + shape.argument);
            const std::vector<double> pm = round_times(p.text);
            plain.insert(plain.end(), pm.begin(), pm.end());
            const std::string session = dir + "/window_dependents_" + std::to_string(r) + ".rsdb";
            const Output e = run_shell(
                kernel_time + RS_RUNNER_PATH " --simulate --no-progress --passes " + std::to_string(passes) +
                " --kernel-include-regex update --replay-drain-timeout-ms 20000 -f -o " + session + " -- " +
                program + shape.argument);
            const std::vector<double> em = round_times(e.text);
            replayed.insert(replayed.end(), em.begin(), em.end());
            if (!p.ok || !e.ok || pm.empty() || em.size() != pm.size()) {
                std::fprintf(stderr, "%s: run %d failed\nplain:\n%s\nreplayed:\n%s\n", shape.name, r,
                             p.text.c_str(), e.text.c_str());
                good = false;
                continue;
            }
            const long long pass_ns =
                query(session, "SELECT coalesce(sum(end_tick - start_tick), 0) FROM passes");
            const long long restore_ns = query(session, "SELECT coalesce(sum(restore_ns), 0) FROM restores");
            own.push_back(static_cast<double>(pass_ns + restore_ns) / 1e6 / static_cast<double>(em.size()));
            timeouts += query(session, "SELECT count(*) FROM warnings w JOIN enum_names n ON n.enum = "
                                       "'warning' AND n.code = w.code WHERE n.name = 'drain-timeout'");
            if (keep.empty()) {
                std::remove(session.c_str());
            }
        }
        const double p = median(plain), e = median(replayed), o = median(own);
        std::printf("%-24s %12.1f %12.1f %16.1f %12.1f %14lld\n", shape.name, p, e, o, e - p - o, timeouts);
        if (timeouts != 0 || e < 0 || e > p + o + 0.25 * p) {
            good = false;
        }
    }
    std::printf("%s\n", good ? "within plain + replay's own time" : "OVER plain + replay's own time");
    return good ? 0 : 1;
}
