#include "run_support.hpp"

#include "replayscope/ipc/environment.hpp"
#include "replayscope/ipc/session_store.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rs::runner {

namespace {
bool isFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}
} // namespace

InstallLayout InstallLayout::fromRunningBinary() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    std::string exe = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string(".");
    const auto slash = exe.rfind('/');
    return InstallLayout(slash == std::string::npos ? std::string(".") : exe.substr(0, slash));
}

std::string InstallLayout::defaultEnginePath() const {
    return exe_dir_ + "/../lib/replayscope/libreplayscope_engine.so";
}

std::vector<std::string> InstallLayout::simulatorCandidates() const {
    return {exe_dir_ + "/../lib/replayscope/sim", exe_dir_ + "/../sim/lib"};
}

std::string InstallLayout::simulatorDirectory() const {
    for (const auto& dir : simulatorCandidates()) {
        if (isFile(dir + "/libhsa-runtime64.so.1")) {
            char resolved[PATH_MAX];
            return ::realpath(dir.c_str(), resolved) ? std::string(resolved) : dir;
        }
    }
    return {};
}

TargetEnvironment::TargetEnvironment() {
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string entry(*e);
        const bool passed_through = startsWith(entry, std::string(rs::ipc::env::kLog) + "=") ||
                                    startsWith(entry, std::string(rs::ipc::env::kDrainTimeoutMs) + "=") ||
                                    startsWith(entry, std::string(rs::ipc::env::kPassTimeoutMs) + "=");
        if (!passed_through &&
            (startsWith(entry, rs::ipc::env::kPrefix) || startsWith(entry, "HSA_TOOLS_LIB=") ||
             startsWith(entry, "HSA_TOOLS_ROCPROFILER_V1_TOOLS="))) {
            continue; // stale settings of an outer session never leak into this one
        }
        entries_.push_back(entry);
    }
}

void TargetEnvironment::set(const std::string& name, const std::string& value) {
    const std::string prefix = name + "=";
    for (auto& entry : entries_) {
        if (startsWith(entry, prefix)) {
            entry = prefix + value;
            return;
        }
    }
    entries_.push_back(prefix + value);
}

std::optional<std::string> TargetEnvironment::get(const std::string& name) const {
    const std::string prefix = name + "=";
    for (const auto& entry : entries_) {
        if (startsWith(entry, prefix)) {
            return entry.substr(prefix.size());
        }
    }
    return std::nullopt;
}

void TargetEnvironment::prepend(const std::string& name, const std::string& entry) {
    const auto current = get(name);
    set(name, current && !current->empty() ? entry + ":" + *current : entry);
}

void TargetEnvironment::setReplayOptions(const ReplayOptions& o) {
    namespace env = rs::ipc::env;
    set(env::kPasses, std::to_string(o.passes));
    if (!o.kernel_include_regex.empty()) {
        set(env::kKernelIncludeRegex, o.kernel_include_regex);
    }
    if (!o.kernel_exclude_regex.empty()) {
        set(env::kKernelExcludeRegex, o.kernel_exclude_regex);
    }
    set(env::kDispatchSkip, std::to_string(o.dispatch_skip));
    set(env::kDispatchCount, std::to_string(o.dispatch_count));
    if (!o.agent_filter.empty()) {
        set(env::kAgentFilter, o.agent_filter);
    }
    set(env::kHostMemoryBudget, std::to_string(o.host_memory_budget));
    set(env::kFidelityCheck, o.fidelity_check ? "1" : "0");
    if (!o.track_vmem) {
        set(env::kTrackVmem, "0");
    }
    if (o.drain_timeout_ms) {
        set(env::kDrainTimeoutMs, std::to_string(*o.drain_timeout_ms));
    }
    if (o.pass_timeout_ms) {
        set(env::kPassTimeoutMs, std::to_string(*o.pass_timeout_ms));
    }
    set(env::kSnapshotStore, o.snapshot_store);
    set(env::kRestore, o.restore);
    if (o.device_store_reserve) {
        set(env::kDeviceStoreReserve, std::to_string(*o.device_store_reserve));
    }
    if (o.restore_chunk_size) {
        set(env::kRestoreChunkSize, std::to_string(*o.restore_chunk_size));
    }
}

bool parseStoreOptions(const StoreOptionText& text, ReplayOptions& options, std::string& error) {
    static constexpr const char* kSizeForm =
        "bytes with an optional K, M, G or T suffix, or KiB, MiB, GiB, TiB: powers of 1024; e.g. 64K";
    if (text.snapshot_store != "auto" && text.snapshot_store != "host" && text.snapshot_store != "device") {
        error = "--snapshot-store: '" + text.snapshot_store + "' is not one of auto, host, device";
        return false;
    }
    if (text.restore != "full" && text.restore != "dirty" && text.restore != "dirty-host") {
        error = "--restore: '" + text.restore + "' is not one of full, dirty, dirty-host";
        return false;
    }
    std::optional<std::uint64_t> reserve, chunk;
    if (!text.device_store_reserve.empty()) {
        reserve = parseBytes(text.device_store_reserve);
        if (!reserve) {
            error = "--device-store-reserve: '" + text.device_store_reserve + "' is not a size (" +
                    kSizeForm + ")";
            return false;
        }
    }
    if (!text.restore_chunk_size.empty()) {
        chunk = parseBytes(text.restore_chunk_size);
        if (!chunk) {
            error =
                "--restore-chunk-size: '" + text.restore_chunk_size + "' is not a size (" + kSizeForm + ")";
            return false;
        }
        if (*chunk < kMinRestoreChunk || *chunk > kMaxRestoreChunk || (*chunk & (*chunk - 1)) != 0) {
            const std::string bytes = std::to_string(*chunk);
            error = "--restore-chunk-size: " + text.restore_chunk_size +
                    (bytes == text.restore_chunk_size ? "" : " (" + bytes + " bytes)") +
                    " is not a power of two from 4K (4096) to 1G (1073741824)";
            return false;
        }
    }
    options.snapshot_store = text.snapshot_store;
    options.restore = text.restore;
    options.device_store_reserve = reserve;
    options.restore_chunk_size = chunk;
    return true;
}

std::string chunkHashStandin(const std::string& engine_path) {
    const auto slash = engine_path.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : engine_path.substr(0, slash);
    const std::string path = dir + "/libreplayscope_chunk_hash_standins.so";
    char resolved[PATH_MAX];
    if (!isFile(path) || ::realpath(path.c_str(), resolved) == nullptr) {
        return {};
    }
    return resolved;
}

std::string withChunkHashStandin(const std::string& current, const std::string& chunk_hash_standin) {
    if (chunk_hash_standin.empty()) {
        return current;
    }
    std::size_t start = 0;
    while (start <= current.size()) {
        const std::size_t colon = std::min(current.find(':', start), current.size());
        if (current.compare(start, colon - start, chunk_hash_standin) == 0 &&
            colon - start == chunk_hash_standin.size()) {
            return current;
        }
        start = colon + 1;
    }
    return current.empty() ? chunk_hash_standin : current + ":" + chunk_hash_standin;
}

std::string formatBytes(std::uint64_t bytes) {
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        return std::to_string(bytes) + " B";
    }
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

std::string restoreSummary(const rs::ipc::RestoreTotals& t) {
    if (t.snapshots == 0) {
        return {};
    }
    using ull = unsigned long long;
    char line[512];
    std::string stores;
    for (const auto& [count, name] :
         {std::pair{t.device_snapshots, "device"}, std::pair{t.host_snapshots, "host"},
          std::pair{t.mixed_snapshots, "mixed"}}) {
        if (count > 0) {
            stores += (stores.empty() ? "" : ", ") + std::to_string(count) + " " + name;
        }
    }
    std::snprintf(line, sizeof line, "snapshots: %llu, footprint %s; stores: %s%s\n", ull(t.snapshots),
                  formatBytes(t.footprint_bytes).c_str(), stores.empty() ? "none" : stores.c_str(),
                  t.pageable_snapshots > 0 ? (", " + std::to_string(t.pageable_snapshots) +
                                              " with a pageable (not page-locked) host store")
                                                 .c_str()
                                           : "");
    std::string out = line;
    if (t.restores == 0) {
        return out + "restores: none\n";
    }
    const std::uint64_t moved = t.restored_bytes_host + t.restored_bytes_device;
    const double share = t.full_restore_bytes > 0
                             ? 100.0 * static_cast<double>(moved) / static_cast<double>(t.full_restore_bytes)
                             : 0.0;
    std::snprintf(
        line, sizeof line,
        "restores: %llu, footprint x restores %s, moved %s (%.1f%%): %s over the host link, %s inside "
        "the device\n",
        ull(t.restores), formatBytes(t.full_restore_bytes).c_str(), formatBytes(moved).c_str(), share,
        formatBytes(t.restored_bytes_host).c_str(), formatBytes(t.restored_bytes_device).c_str());
    out += line;
    if (t.total_chunks > 0) {
        std::snprintf(line, sizeof line,
                      "chunks: %llu of %llu dirty, %llu missed; hashing %.3f ms of %.3f ms restoring\n",
                      ull(t.dirty_chunks), ull(t.total_chunks), ull(t.missed_chunks),
                      static_cast<double>(t.hash_ns) / 1e6, static_cast<double>(t.restore_ns) / 1e6);
    } else {
        std::snprintf(line, sizeof line, "chunks: none hashed (full restores); %.3f ms restoring\n",
                      static_cast<double>(t.restore_ns) / 1e6);
    }
    return out + line;
}

std::string TargetEnvironment::describeReplayOptions() const {
    std::string text;
    for (const auto& entry : entries_) {
        if (startsWith(entry, rs::ipc::env::kPrefix) &&
            !startsWith(entry, std::string(rs::ipc::env::kToken) + "=")) {
            text += entry + "\n";
        }
    }
    return text;
}

std::optional<std::string> standinsVariable(const std::string& list, std::string& error) {
    std::string joined;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string entry = list.substr(start, comma - start);
        start = comma + 1;
        if (entry.empty()) {
            error = "--standins: empty entry in \"" + list + "\"";
            return std::nullopt;
        }
        char resolved[PATH_MAX];
        if (!isFile(entry) || ::realpath(entry.c_str(), resolved) == nullptr) {
            error = "--standins: stand-in library not found: " + entry;
            return std::nullopt;
        }
        if (std::strchr(resolved, ':') != nullptr) {
            error =
                std::string("--standins: path contains ':' (the HSA_SIM_STANDINS separator): ") + resolved;
            return std::nullopt;
        }
        // Appended piece by piece (a `"" + std::string` temporary makes GCC 12 -O3 report a false
        // -Wrestrict inside std::string).
        if (!joined.empty())
            joined += ':';
        joined += resolved;
    }
    return joined;
}

bool programUsesHip(const std::string& program_path) {
    std::ifstream in(program_path, std::ios::binary);
    if (!in) {
        return false;
    }
    static const std::string needle = "libamdhip64.so";
    std::string window;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        window.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (window.find(needle) != std::string::npos) {
            return true;
        }
        window.erase(0, window.size() > needle.size() ? window.size() - needle.size() : 0);
    }
    return false;
}

bool commandUsesHip(const std::string& program_path, const std::vector<std::string>& arguments) {
    if (programUsesHip(program_path)) {
        return true;
    }
    for (const std::string& argument : arguments) {
        const std::string candidate = resolveProgram(argument);
        if (!candidate.empty() && programUsesHip(candidate)) {
            return true;
        }
    }
    return false;
}

std::string resolveProgram(const std::string& program) {
    if (program.find('/') != std::string::npos) {
        return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const auto end = dirs.find(':', start);
        std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
        if (isFile(candidate) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return {};
}

bool ProgramLauncher::launch(const std::string& path, const std::vector<std::string>& argv,
                             const TargetEnvironment& env, std::string& error) {
    std::vector<char*> args, envp;
    for (const auto& a : argv) {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    for (const auto& e : env.entries()) {
        envp.push_back(const_cast<char*>(e.c_str()));
    }
    envp.push_back(nullptr);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGQUIT);
    sigaddset(&defaults, SIGPIPE);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const int rc = ::posix_spawn(&pid_, path.c_str(), nullptr, &attr, args.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        error = "cannot start " + path + ": " + std::strerror(rc);
        pid_ = -1;
        return false;
    }
    return true;
}

std::optional<int> ProgramLauncher::poll() {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
        if (WIFEXITED(status)) {
            return WEXITSTATUS(status);
        }
        if (WIFSIGNALED(status)) {
            signal_ = WTERMSIG(status);
            return 128 + WTERMSIG(status);
        }
    }
    if (r < 0 && errno != EINTR) {
        return 127; // lost the child: report like a shell that cannot find the status
    }
    return std::nullopt;
}

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled && ::isatty(STDERR_FILENO) == 1) {}

void ProgressLine::update(std::uint64_t events, std::uint64_t dispatches, double seconds) {
    if (!enabled_) {
        return;
    }
    std::fprintf(stderr, "\r\033[Kreplayscope-run: %.1f s, %llu events, %llu dispatches", seconds,
                 static_cast<unsigned long long>(events), static_cast<unsigned long long>(dispatches));
    std::fflush(stderr);
    shown_ = true;
}

void ProgressLine::clear() {
    if (shown_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        shown_ = false;
    }
}

std::string expandOutputPattern(const std::string& pattern, pid_t pid, const EnvironmentLookup& lookup) {
    std::string rank = std::to_string(pid);
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
        const char* value = lookup(name);
        if (value != nullptr && *value != '\0') {
            rank = value;
            break;
        }
    }
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (pattern[i] != '%' || (next != 'r' && next != 'p' && next != '%')) {
            out += pattern[i];
            continue;
        }
        out += next == 'r' ? rank : next == 'p' ? std::to_string(pid) : std::string("%");
        ++i;
    }
    return out;
}

std::optional<std::uint64_t> parseBytes(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || text[0] == '-') {
        return std::nullopt;
    }
    std::uint64_t scale = 1;
    const std::string suffix(end);
    if (!suffix.empty() && suffix.front() == ' ') {
        return std::nullopt;
    }
    if (suffix.empty() || suffix == "B") {
        scale = 1;
    } else if (suffix == "K" || suffix == "KiB") {
        scale = 1ull << 10;
    } else if (suffix == "M" || suffix == "MiB") {
        scale = 1ull << 20;
    } else if (suffix == "G" || suffix == "GiB") {
        scale = 1ull << 30;
    } else if (suffix == "T" || suffix == "TiB") {
        scale = 1ull << 40;
    } else {
        return std::nullopt;
    }
    if (value > UINT64_MAX / scale) {
        return std::nullopt;
    }
    return value * scale;
}

} // namespace rs::runner
