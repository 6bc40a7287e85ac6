// SPDX-License-Identifier: MIT
// The output path of replayscope-run: -d/--output-directory and -o/--output-file as rocprofv3 takes them,
// and the placeholders they may hold.
#pragma once

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>

namespace rs::runner {

/// Reads an environment variable: its value, or nullptr when unset (std::getenv by default).
using EnvironmentLookup = std::function<const char*(const char*)>;

/// The launchers' rank variables, in the order they are looked at (Open MPI, PMIx, MPICH/PMI, Slurm).
inline constexpr const char* kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                                 "SLURM_PROCID"};

/// The batch systems' job id variables, in the order %j looks at them (Slurm, as rocprofv3; then PBS and
/// LSF).
inline constexpr const char* kJobVariables[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID"};

/// The name -o defaults to, as in rocprofv3: a directory per host, a file per process.
inline constexpr const char* kDefaultOutputName = "%hostname%/%pid%";

/// The rank of this process in an MPI/Slurm job: the value of the first of kRankVariables that is set and
/// not empty, when it is a non-negative decimal integer below 2^31; nullopt when none is set or the first
/// set one is not such a number (replayscope-run then records no rank in the session file).
std::optional<int> job_rank(const EnvironmentLookup& lookup = [](const char* name) {
    return std::getenv(name);
});

/// This machine's name (gethostname(2)); "UNKNOWN_HOSTNAME" when it cannot be read, as rocprofv3 writes.
std::string host_name();

/// Expands the placeholders of an output directory or file name, rocprofv3's keys in both spellings
/// (source/lib/output/output_key.cpp in rocprofiler-sdk), so that every rank or host of a job writes its
/// own file:
///   %hostname% %h   `hostname`
///   %rank% %r       the rank: the first of kRankVariables set and not empty, else the pid
///   %pid% %p        `pid` (replayscope-run's)
///   %job% %j        the first of kJobVariables set and not empty, else "0" (as rocprofv3)
///   %env{VAR}% %q{VAR}  the variable VAR ([A-Za-z0-9_]+; empty when unset), its leading spaces, tabs and
///                   '/' dropped and the others replaced by '_' (as rocprofv3), so it names no directory
///   %%              a '%'
/// Any other '%' sequence stays as written, rocprofv3's keys that are not expanded here (%ppid%, %nid%,
/// %cwd%, %argv%, %launch_time%, ...) whole (rocprofv3 leaves unknown keys as written too).
std::string expand_output_pattern(
    const std::string& pattern, pid_t pid,
    const EnvironmentLookup& lookup = [](const char* name) { return std::getenv(name); },
    const std::string& hostname = host_name());

/// The session file -d DIR and -o NAME name, placeholders expanded (expand_output_pattern with the same
/// `pid`, `lookup` and `hostname`): DIR/NAME; NAME alone without -d (the current directory), and when
/// NAME is absolute. An empty NAME is kDefaultOutputName. A NAME whose last component has no extension
/// (no '.' after its first character) gets ".rsdb". Nullopt with `error` when the path names a directory
/// (NAME empty after expansion, or ending in '/').
std::optional<std::string> output_path(
    const std::string& directory, const std::string& name, pid_t pid, std::string& error,
    const EnvironmentLookup& lookup = [](const char* variable) { return std::getenv(variable); },
    const std::string& hostname = host_name());

} // namespace rs::runner
