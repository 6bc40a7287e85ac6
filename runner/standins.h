// SPDX-License-Identifier: MIT
// HSA_SIM_STANDINS under --simulate: the program's kernel stand-ins (--standins) and the engine's
// chunk-hash stand-in, which the simulated runtime runs in place of device code.
#pragma once

#include <optional>
#include <string>

namespace rs::runner {

/// The engine's chunk-hash kernel stand-in beside `engine_path` (libreplayscope_chunk_hash_standins.so in
/// the engine's directory, where the build and the install put it), realpath'd. Empty when there is none.
std::string chunk_hash_standin(const std::string& engine_path);

/// HSA_SIM_STANDINS under --simulate: `current` (the variable as the target would get it, from
/// --standins or the caller's environment; may be empty) with `chunk_hash_standin` appended (so that the
/// engine's hash kernel runs on the simulated runtime), unless it is empty or already in the list.
std::string with_chunk_hash_standin(const std::string& current, const std::string& chunk_hash_standin);

/// The value of HSA_SIM_STANDINS for `--standins LIB[,LIB...]`: each comma-separated path made absolute
/// (realpath) and joined with ':' in the given order. Returns nullopt with `error` naming the entry when
/// one is not an existing regular file, contains ':' (the variable's separator), or the list is empty.
std::optional<std::string> standins_variable(const std::string& list, std::string& error);

} // namespace rs::runner
