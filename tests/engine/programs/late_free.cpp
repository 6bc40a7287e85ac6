// SPDX-License-Identifier: MIT
// Test program engine_late_free: frees device memory after the engine's static objects are destroyed
// (docs/mechanism.md#teardown-guard). The atexit handler is registered before hsa_init loads the engine, so
// exit() runs it after the engine's static destructors; the runtime is never shut down, so the free still
// goes through the table to the engine's wrapper, which must only forward it.
#include "hsa_session.h"

#include <cstdio>
#include <cstdlib>

using namespace rs::workloads;

namespace {

void* g_buffer = nullptr;
constexpr std::size_t kLateBytes = 3 * 4096; // distinctive size: the test finds its allocation row

void free_late() {
    const hsa_status_t status = hsa_amd_memory_pool_free(g_buffer);
    std::printf("engine_late_free: late free returned %d\n", static_cast<int>(status));
    std::fflush(stdout);
    if (status != HSA_STATUS_SUCCESS) {
        std::_Exit(3);
    }
}

} // namespace

int main(int argc, char** argv) {
    std::atexit(free_late);
    // Never destroyed: no hsa_shut_down, as with a HIP program whose runtime outlives main.
    auto* session = new HsaSession(argc, argv);
    g_buffer = session->allocate(session->gpu_pools().coarse, kLateBytes);
    std::printf("engine_late_free: allocated %p; exiting without hsa_shut_down\nPASS\n", g_buffer);
    return 0;
}
