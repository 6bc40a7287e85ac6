// SPDX-License-Identifier: MIT
// rocprofv3's text input file (`-i FILE.txt`): one `pmc: NAME NAME ...` line per group.
#pragma once

#include "counter_plan.h"

#include <string>
#include <string_view>

namespace rs::counters {

/// Parses the text of an input file into `request`, one entry per `pmc:` line, as rocprofv3 reads it
/// (rocprofiler-sdk source/bin/rocprofv3.py, parse_text): `#` starts a comment, names are separated by
/// blanks (commas are accepted too), blank lines are skipped. Unlike rocprofv3, which ignores any line
/// without `pmc:`, another non-blank line is an error, as is a `pmc:` line naming nothing. False with
/// `error` ("line 3: ...") on the first bad line; names are not checked against the catalogue here.
bool parse_input_text(std::string_view text, CounterRequest& request, std::string& error);

/// Reads and parses the file `path` (parse_input_text). rocprofv3 also takes .json and .yaml input: those
/// are refused, naming the extension. False with `error` naming the path.
bool read_input_file(const std::string& path, CounterRequest& request, std::string& error);

} // namespace rs::counters
