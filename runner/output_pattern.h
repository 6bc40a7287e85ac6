// SPDX-License-Identifier: MIT
// The per-process placeholders of the session path (-o).
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

/// The rank of this process in an MPI/Slurm job: the value of the first of kRankVariables that is set and
/// not empty, when it is a non-negative decimal integer below 2^31; nullopt when none is set or the first
/// set one is not such a number (replayscope-run then records no rank in the session file).
std::optional<int> job_rank(const EnvironmentLookup& lookup = [](const char* name) {
    return std::getenv(name);
});

/// Expands the per-process placeholders of a session path (-o), so that every rank of a job launched
/// through mpirun/srun writes its own file: %r the rank (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK,
/// SLURM_PROCID, the first one set; the pid when none is), %p the pid of replayscope-run, %% a '%'.
/// Any other '%' sequence stays as written.
std::string expand_output_pattern(
    const std::string& pattern, pid_t pid,
    const EnvironmentLookup& lookup = [](const char* name) { return std::getenv(name); });

} // namespace rs::runner
