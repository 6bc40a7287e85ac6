// SPDX-License-Identifier: MIT
// HSA_SIM_DISPATCH_LOG: one line per completed kernel dispatch packet, for tests that must tell on which
// queue, with which queue settings and when a dispatch really ran.
#pragma once

#include <hsa.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sim {

/// What one line of the dispatch log records.
struct DispatchLogRecord {
    uint64_t queue_id =
        0; ///< hsa_queue_t::id the submitter sees (an intercept proxy and its lower queue share it)
    uint32_t agent_index = 0; ///< GPU agent index, 0-based (HSA_SIM_GPU_AGENTS order)
    hsa_queue_type32_t type = HSA_QUEUE_TYPE_MULTI;
    std::vector<uint32_t> cu_mask; ///< as last set by hsa_amd_queue_cu_set_mask; empty: never set or reset
    int priority = 1;              ///< hsa_amd_queue_priority_t (0 low, 1 normal, 2 high)
    std::string kernel;            ///< kernel symbol name without ".kd" (e.g. rs_fill, _Z5saxpyfPKfPfi)
    uint64_t completion = 0;       ///< completion signal handle (0: none)
    uint64_t start_ns = 0, end_ns = 0; ///< CLOCK_MONOTONIC, the same ticks profiling records
};

/// Appends `r` to the file named by HSA_SIM_DISPATCH_LOG (nothing when unset). The line is
///
///     dispatch queue=<id> agent=<index> type=<multi|single|cooperative> cu_mask=<all|w0,w1,...>
///     priority=<0|1|2> kernel=<symbol> completion=<handle> start_ns=<ns> end_ns=<ns>
///
/// on one line, fields separated by one space, numbers in decimal except the CU mask words (8 lowercase
/// hex digits each, word 0 first, as passed to hsa_amd_queue_cu_set_mask). The queue calls this before it
/// decrements the completion signal, so a thread that saw the signal complete finds the line in the file.
/// Thread-safe: lines from any queue thread are whole (one write(2) of the line under a process-wide mutex,
/// file opened O_APPEND, so processes sharing the file do not interleave within a line). Open or write
/// errors are reported once on stderr and otherwise ignored.
void append_dispatch_log(const DispatchLogRecord& r);

/// Closes the log file (the next append reopens it); called at the last hsa_shut_down.
void close_dispatch_log();

} // namespace sim
