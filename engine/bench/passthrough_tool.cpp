// SPDX-License-Identifier: MIT
// engine_bench_passthrough.so: the baseline of engine_bench's handler figure. An HSA tool that turns
// every queue into an intercept queue whose handler only forwards (writer(packets, count)), so that
// engine_bench can subtract the runtime's own intercept cost from the engine's handler.
#include <hsa_api_trace.h>

namespace {

CoreApiTable g_core;
AmdExtTable g_amd;

void forward(const void* packets, uint64_t count, uint64_t, void*,
             hsa_amd_queue_intercept_packet_writer writer) {
    writer(packets, count);
}

hsa_status_t queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                          void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                          uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t** queue) {
    hsa_status_t st = g_amd.hsa_amd_queue_intercept_create_fn(
        agent, size, type, callback, data, private_segment_size, group_segment_size, queue);
    if (st == HSA_STATUS_SUCCESS) {
        st = g_amd.hsa_amd_queue_intercept_register_fn(*queue, forward, nullptr);
    }
    return st;
}

} // namespace

extern "C" __attribute__((visibility("default"))) bool OnLoad(HsaApiTable* table, uint64_t, uint64_t,
                                                              const char* const*) {
    g_core = *table->core_;
    g_amd = *table->amd_ext_;
    table->core_->hsa_queue_create_fn = queue_create;
    return true;
}

extern "C" __attribute__((visibility("default"))) void OnUnload() {}
