// Building blocks of replayscope-run: where the engine and the simulator are, the target's
// environment, launching and waiting for the program, and the terminal progress line.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rs::ipc {
struct RestoreTotals;
}

namespace rs::runner {

/// Locations relative to the replayscope-run binary (never a compile-time path):
/// engine `<exe_dir>/../lib/replayscope/libreplayscope_engine.so`; simulated runtime
/// `<exe_dir>/../lib/replayscope/sim` (installed) or `<exe_dir>/../sim/lib` (build tree).
class InstallLayout {
  public:
    /// From /proc/self/exe.
    static InstallLayout fromRunningBinary();
    explicit InstallLayout(std::string exe_dir) : exe_dir_(std::move(exe_dir)) {}
    const std::string& exeDir() const noexcept { return exe_dir_; }
    std::string defaultEnginePath() const;
    /// First candidate directory holding libhsa-runtime64.so.1; empty when none does.
    std::string simulatorDirectory() const;
    /// The candidates searched by simulatorDirectory(), for error messages.
    std::vector<std::string> simulatorCandidates() const;

  private:
    std::string exe_dir_;
};

/// Replay options passed to the engine (REPLAYSCOPE_* variables, ipc/environment.hpp).
struct ReplayOptions {
    unsigned passes = 2;
    std::string kernel_include_regex;
    std::string kernel_exclude_regex;
    std::uint64_t dispatch_skip = 0;
    std::uint64_t dispatch_count = 0; ///< 0 = no limit
    std::string agent_filter;
    std::uint64_t host_memory_budget = 0; ///< bytes, 0 = none
    bool fidelity_check = false;
    bool track_vmem = true;                            ///< false: REPLAYSCOPE_TRACK_VMEM=0
    std::optional<unsigned> drain_timeout_ms;          ///< REPLAYSCOPE_DRAIN_TIMEOUT_MS when set
    std::optional<unsigned> pass_timeout_ms;           ///< REPLAYSCOPE_PASS_TIMEOUT_MS when set
    std::string snapshot_store = "auto";               ///< REPLAYSCOPE_SNAPSHOT_STORE: auto, host or device
    std::optional<std::uint64_t> device_store_reserve; ///< REPLAYSCOPE_DEVICE_STORE_RESERVE (bytes) when set
    std::string restore = "dirty";                     ///< REPLAYSCOPE_RESTORE: full, dirty or dirty-host
    std::optional<std::uint64_t> restore_chunk_size;   ///< REPLAYSCOPE_RESTORE_CHUNK_SIZE (bytes) when set
};

/// The store and restore options as given on the command line (empty: not given).
struct StoreOptionText {
    std::string snapshot_store = "auto"; ///< --snapshot-store
    std::string device_store_reserve;    ///< --device-store-reserve SIZE
    std::string restore = "dirty";       ///< --restore
    std::string restore_chunk_size;      ///< --restore-chunk-size SIZE
};

/// Smallest and largest chunk of a dirty restore (bytes; the engine's bounds, docs/replay-window.md).
inline constexpr std::uint64_t kMinRestoreChunk = 4096;
inline constexpr std::uint64_t kMaxRestoreChunk = std::uint64_t{1} << 30;

/// Validates `text` into `options`: --snapshot-store auto|host|device, --restore full|dirty|dirty-host,
/// --device-store-reserve a byte count (parseBytes), --restore-chunk-size a byte count that is a power of
/// two in [kMinRestoreChunk, kMaxRestoreChunk]. False with `error` naming the option, the value and what
/// it should be; `options` is then unchanged.
bool parseStoreOptions(const StoreOptionText& text, ReplayOptions& options, std::string& error);

/// The engine's chunk-hash kernel stand-in beside `engine_path` (libreplayscope_chunk_hash_standins.so in
/// the engine's directory, where the build and the install put it). Empty when there is none.
std::string chunkHashStandin(const std::string& engine_path);

/// HSA_SIM_STANDINS under --simulate: `current` (the variable as the target would get it, from
/// --standins or the caller's environment; may be empty) with `chunk_hash_standin` appended (so that the
/// engine's hash kernel runs on the simulated runtime), unless it is empty or already in the list.
std::string withChunkHashStandin(const std::string& current, const std::string& chunk_hash_standin);

/// "1.5 MiB"-style size (B, KiB, MiB, GiB, TiB; one decimal above bytes).
std::string formatBytes(std::uint64_t bytes);

/// The terminal summary of a session's snapshots and restores: the snapshot count, footprint and stores
/// used, then the bytes full restores would have moved (footprint x restores) against the bytes actually
/// moved over the host link and inside the device, dirty/total chunks, missed chunks and the hashing and
/// restore time. Lines without the "replayscope-run: " prefix, each ending in '\n'; empty when the
/// session took no snapshot.
std::string restoreSummary(const rs::ipc::RestoreTotals& totals);

/// The environment of the target: the current environment minus any stale ReplayScope/HSA tool
/// variables (REPLAYSCOPE_LOG, REPLAYSCOPE_DRAIN_TIMEOUT_MS and REPLAYSCOPE_PASS_TIMEOUT_MS of the caller
/// are kept), plus the tool library, connection and replay variables.
class TargetEnvironment {
  public:
    TargetEnvironment();
    void set(const std::string& name, const std::string& value);
    /// Prepends `entry` to a ':'-separated list variable (LD_LIBRARY_PATH, LD_PRELOAD).
    void prepend(const std::string& name, const std::string& entry);
    void setReplayOptions(const ReplayOptions& options);
    std::optional<std::string> get(const std::string& name) const;
    /// "KEY=value" lines of the REPLAYSCOPE_* replay variables (recorded in the session).
    std::string describeReplayOptions() const;
    /// NAME=VALUE strings for execve/posix_spawn.
    const std::vector<std::string>& entries() const noexcept { return entries_; }

  private:
    std::vector<std::string> entries_;
};

/// True when the program file names libamdhip64 among its bytes (a direct HIP dependency): then the
/// engine is also LD_PRELOADed so that its hipGraphLaunch interposer precedes HIP's.
bool programUsesHip(const std::string& program_path);

/// --preload-engine auto: true when the program, or any of its arguments that names an executable file
/// (the program a wrapper such as `timeout 60 ./app`, `env X=1 ./app`, `numactl ... ./app` or `mpirun
/// ./app` starts), uses HIP (programUsesHip). A program started from a shell command line or a script
/// is not found; the engine then warns in the session that its interposer is not in front of HIP.
bool commandUsesHip(const std::string& program_path, const std::vector<std::string>& arguments);

/// The value of HSA_SIM_STANDINS for `--standins LIB[,LIB...]`: each comma-separated path made absolute
/// (realpath) and joined with ':' in the given order. Returns nullopt with `error` naming the entry when
/// one is not an existing regular file, contains ':' (the variable's separator), or the list is empty.
std::optional<std::string> standinsVariable(const std::string& list, std::string& error);

/// Resolves `program` like execvp (contains '/': as is; else searched in PATH). Empty when not found.
std::string resolveProgram(const std::string& program);

/// Starts the program with posix_spawn (SIGINT/SIGQUIT default in the child, as with system()).
class ProgramLauncher {
  public:
    /// Returns false with `error` set when the program cannot be started.
    bool launch(const std::string& path, const std::vector<std::string>& argv, const TargetEnvironment& env,
                std::string& error);
    pid_t pid() const noexcept { return pid_; }
    /// Non-blocking: the exit status when the program has ended (exit code, or 128+signal).
    std::optional<int> poll();
    /// Signal that ended the program (0 when it exited, or has not ended).
    int termSignal() const noexcept { return signal_; }

  private:
    pid_t pid_ = -1;
    int signal_ = 0;
};

/// A single self-overwriting status line on stderr, only when stderr is a terminal.
class ProgressLine {
  public:
    explicit ProgressLine(bool enabled);
    void update(std::uint64_t events, std::uint64_t dispatches, double seconds);
    void clear();

  private:
    bool enabled_;
    bool shown_ = false;
};

/// Reads an environment variable: its value, or nullptr when unset (std::getenv by default).
using EnvironmentLookup = std::function<const char*(const char*)>;

/// Expands the per-process placeholders of a session path (-o), so that every rank of a job launched
/// through mpirun/srun writes its own file: %r the rank (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK,
/// SLURM_PROCID, the first one set; the pid when none is), %p the pid of replayscope-run, %% a '%'.
/// Any other '%' sequence stays as written.
std::string expandOutputPattern(
    const std::string& pattern, pid_t pid,
    const EnvironmentLookup& lookup = [](const char* name) { return std::getenv(name); });

/// Parses a byte count with an optional K/M/G/T or KiB/MiB/GiB/TiB suffix (powers of 1024; "B" or none:
/// bytes). Nullopt when malformed or above 2^64 - 1.
std::optional<std::uint64_t> parseBytes(const std::string& text);

} // namespace rs::runner
