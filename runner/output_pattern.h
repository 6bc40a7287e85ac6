// SPDX-License-Identifier: MIT
// The per-process placeholders of the session path (-o).
#pragma once

#include <cstdlib>
#include <functional>
#include <string>
#include <sys/types.h>

namespace rs::runner {

/// Reads an environment variable: its value, or nullptr when unset (std::getenv by default).
using EnvironmentLookup = std::function<const char*(const char*)>;

/// Expands the per-process placeholders of a session path (-o), so that every rank of a job launched
/// through mpirun/srun writes its own file: %r the rank (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK,
/// SLURM_PROCID, the first one set; the pid when none is), %p the pid of replayscope-run, %% a '%'.
/// Any other '%' sequence stays as written.
std::string expand_output_pattern(
    const std::string& pattern, pid_t pid,
    const EnvironmentLookup& lookup = [](const char* name) { return std::getenv(name); });

} // namespace rs::runner
