// SPDX-License-Identifier: MIT
// Test support of the session pipeline (Qt-free; linked by the ipc suites and the frame decoder's
// fuzzer as rs::ipc_test_support): comparing records field by field.
#pragma once

#include "replayscope/ipc/records.h"

namespace rs::ipc {

/// Field-by-field equality of two records of the same type (payload fields, sequence, timestamp). Records
/// of different types are unequal. Never throws.
bool records_equal(const Record& a, const Record& b) noexcept;

} // namespace rs::ipc
