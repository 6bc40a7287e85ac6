// SPDX-License-Identifier: MIT
// Kernarg layouts of window_kernels.so, shared by the replay-window workloads (cross_queue_wait,
// second_thread_write, early_completion, own_queue, vmem_window) and the code object's kernels.
#ifndef RS_WORKLOADS_KERNELS_WINDOW_KERNELS_H
#define RS_WORKLOADS_KERNELS_WINDOW_KERNELS_H

#include <cstdint>

namespace rs::workloads {

/** late_fill.kd: sleeps `delay_ns` ns first, then writes data[i] = value + i for i < n. Its output is
 *  complete only when the dispatch has finished, so a completion signal fired too early is observable. */
struct LateFillArgs {
    uint32_t* data;
    uint32_t n;
    uint32_t value;
    uint64_t delay_ns;
};

/** add_one.kd: data[i] += 1 for i < n (in place, not idempotent). */
struct AddOneArgs {
    uint32_t* data;
    uint32_t n;
};

/** set_values.kd: data[i] = value + i for i < n. */
struct SetValuesArgs {
    uint32_t* data;
    uint32_t n;
    uint32_t value;
};

} // namespace rs::workloads

#endif // RS_WORKLOADS_KERNELS_WINDOW_KERNELS_H
