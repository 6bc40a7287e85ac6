// SPDX-License-Identifier: MIT
// Byte counts as replayscope-run reads them on its command line and prints them on the terminal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rs::runner {

/// Parses a byte count with an optional K/M/G/T or KiB/MiB/GiB/TiB suffix (powers of 1024; "B" or none:
/// bytes). Nullopt when malformed (empty, negative, a space before the suffix, an unknown suffix) or
/// above 2^64 - 1.
std::optional<std::uint64_t> parse_bytes(const std::string& text);

/// "1.5 MiB"-style size (B, KiB, MiB, GiB, TiB; one decimal above bytes).
std::string format_bytes(std::uint64_t bytes);

} // namespace rs::runner
