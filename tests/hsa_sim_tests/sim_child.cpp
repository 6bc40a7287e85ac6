// SPDX-License-Identifier: MIT
/*
 * Helper program the suites run in a child process (QProcess) when a behaviour depends on environment
 * variables read at the first hsa_init, or ends the process. Usage: sim_child MODE [ARGS...]. It prints
 * "key value" lines on stdout for the parent to check and exits 0 unless noted.
 *
 *   tools                      hsa_init, HSA_AGENT_INFO_NAME of every agent, hsa_shut_down
 *   d2h | h2d                  a fixed sequence of hsa_memory_copy calls, statuses and data read back
 *   alloc                      a fixed sequence of pool/region allocations (with a signal/queue in between)
 *   symbols FILE | symbols-memory FILE
 *                              load the kernel library (by fd or bytes), iterate its agent symbols
 *   kernel-time FILE           profiled dispatches of rs_fill.kd and rs_record.kd, their durations
 *   intercept-writer TOOL      intercept queue whose handler calls the packet writer twice per packet
 *   queue-create TOOL          an invalid hsa_queue_create, then plain, intercept (through the saved table),
 *                              plain and cooperative creations: their statuses
 *   signal-create              hsa_signal_create, hsa_amd_signal_create, hsa_signal_create: statuses
 *   dispatch-log TOOL FILE     rs_fill.kd on a plain queue (priority high, CU mask 0xf,0x0) and on an
 *                              intercept queue (mask 0x3 and priority low set on the proxy): queue ids,
 *                              completion handles, the masks read back
 */
#include "sim_test_kernels.h"
#include "sim_test_util.h"

#include <hsa_api_trace.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace rs_test;

namespace {

int fail(const char* what) {
    std::fprintf(stderr, "sim_child: %s\n", what);
    return 2;
}

void print_copy(const char* label, hsa_status_t st, const uint32_t* data) {
    std::printf("%s %d %u,%u,%u,%u\n", label, static_cast<int>(st), data[0], data[1], data[2], data[3]);
}

int run_tools() {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    for (hsa_agent_t a : list_agents().all) {
        char name[64] = {};
        hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name);
        std::printf("agent %s\n", name);
    }
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

int run_copies(bool d2h) {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    const Agents agents = list_agents();
    const hsa_amd_memory_pool_t coarse =
        find_pool(agents.gpus.at(0), HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    void* dev = nullptr;
    void* dev2 = nullptr;
    if (hsa_amd_memory_pool_allocate(coarse, 16, 0, &dev) != HSA_STATUS_SUCCESS ||
        hsa_amd_memory_pool_allocate(coarse, 16, 0, &dev2) != HSA_STATUS_SUCCESS) {
        return fail("allocate");
    }
    const uint32_t v1[4] = {1, 2, 3, 4};
    const uint32_t v2[4] = {5, 6, 7, 8};
    const uint32_t v3[4] = {9, 10, 11, 12};
    uint32_t back[4];
    auto reset = [&back] { std::fill(back, back + 4, 0xffffffffu); };
    if (d2h) {
        // Device-to-host copies are numbered d2h1..3; H2D and D2D copies in between must not count.
        print_copy("h2d", hsa_memory_copy(dev, v1, 16), v1);
        reset();
        print_copy("d2h1", hsa_memory_copy(back, dev, 16), back);
        print_copy("d2d", hsa_memory_copy(dev2, dev, 16), v1);
        print_copy("h2d", hsa_memory_copy(dev, v2, 16), v2);
        reset();
        print_copy("d2h2", hsa_memory_copy(back, dev, 16), back);
        reset();
        print_copy("d2h3", hsa_memory_copy(back, dev2, 16), back);
    } else {
        // Host-to-device copies are numbered h2d1..3, each read back (the read-backs must not count).
        const uint32_t* values[3] = {v1, v2, v3};
        for (int i = 0; i < 3; ++i) {
            const std::string label = "h2d" + std::to_string(i + 1);
            print_copy(label.c_str(), hsa_memory_copy(dev, values[i], 16), values[i]);
            reset();
            const std::string read = "read" + std::to_string(i + 1);
            print_copy(read.c_str(), hsa_memory_copy(back, dev, 16), back);
        }
        print_copy("d2d", hsa_memory_copy(dev2, dev, 16), v3);
    }
    hsa_amd_memory_pool_free(dev);
    hsa_amd_memory_pool_free(dev2);
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

int run_alloc() {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    const Agents agents = list_agents();
    const hsa_agent_t gpu = agents.gpus.at(0);
    const hsa_agent_t cpu = agents.cpus.at(0);
    void* p = nullptr;
    hsa_status_t st = hsa_amd_memory_pool_allocate(
        find_pool(gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED), 4096, 0, &p);
    std::printf("alloc1 %d %d\n", static_cast<int>(st), p != nullptr);
    // Not allocations through the two counted entry points.
    hsa_signal_t sig;
    hsa_signal_create(1, 0, nullptr, &sig);
    hsa_queue_t* q = nullptr;
    std::printf("queue %d\n", static_cast<int>(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr,
                                                                nullptr, UINT32_MAX, UINT32_MAX, &q)));
    p = nullptr;
    st = hsa_memory_allocate(list_regions(gpu).at(0), 4096, &p);
    std::printf("alloc2 %d %d\n", static_cast<int>(st), p != nullptr);
    p = nullptr;
    st = hsa_amd_memory_pool_allocate(find_pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED), 4096, 0,
                                      &p);
    std::printf("alloc3 %d %d\n", static_cast<int>(st), p != nullptr);
    p = nullptr;
    st = hsa_amd_memory_pool_allocate(find_pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                                         HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED),
                                      64, 0, &p);
    std::printf("alloc4 %d %d\n", static_cast<int>(st), p != nullptr);
    if (q) {
        hsa_queue_destroy(q);
    }
    hsa_signal_destroy(sig);
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

int run_symbols(const char* path, bool from_memory) {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    const hsa_agent_t gpu = list_agents().gpus.at(0);
    LoadedCode code;
    const hsa_status_t load = load_code(path, gpu, from_memory, true, &code);
    std::printf("load %d\n", static_cast<int>(load));
    int count = 0;
    const hsa_status_t st = hsa_executable_iterate_agent_symbols(
        code.exe, gpu,
        [](hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void* data) {
            ++*static_cast<int*>(data);
            return HSA_STATUS_SUCCESS;
        },
        &count);
    std::printf("iterate %d %d\n", static_cast<int>(st), count);
    std::printf("lookup %d\n", find_symbol(code.exe, gpu, kFillKernel).handle != 0);
    unload_code(&code);
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

int run_kernel_time(const char* path) {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    const Agents agents = list_agents();
    const hsa_agent_t gpu = agents.gpus.at(0);
    LoadedCode code;
    if (load_code(path, gpu, false, true, &code) != HSA_STATUS_SUCCESS) {
        return fail("load");
    }
    hsa_queue_t* q = nullptr;
    if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q) !=
        HSA_STATUS_SUCCESS) {
        return fail("queue");
    }
    hsa_amd_profiling_set_profiler_enabled(q, 1);
    uint32_t out[8] = {};
    auto* fill_args = alloc_kernarg<FillArgs>(agents.cpus.at(0));
    *fill_args = FillArgs{out, 1, 0};
    RecordShared shared;
    auto* record_args = alloc_kernarg<RecordArgs>(agents.cpus.at(0));
    *record_args = RecordArgs{&shared, 0, 0, 0};
    struct Job {
        const char* label;
        const char* kernel;
        void* args;
    };
    const Job jobs[2] = {{"fill", kFillKernel, fill_args}, {"record", kRecordKernel, record_args}};
    for (const Job& job : jobs) {
        hsa_signal_t done;
        hsa_signal_create(1, 0, nullptr, &done);
        const uint64_t t0 = system_timestamp();
        dispatch(q, kernel_object(code.exe, gpu, job.kernel), job.args, 8, 8, done, true);
        const hsa_signal_value_t v = wait_below_one(done, 10000);
        const uint64_t wall = system_timestamp() - t0;
        hsa_amd_profiling_dispatch_time_t t{};
        hsa_amd_profiling_get_dispatch_time(gpu, done, &t);
        std::printf("%s %" PRId64 " %" PRIu64 " %" PRIu64 "\n", job.label, static_cast<int64_t>(v),
                    t.end - t.start, wall);
        hsa_signal_destroy(done);
    }
    hsa_queue_destroy(q);
    unload_code(&code);
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

struct WriterState {
    hsa_signal_t done{0};
};

void double_writer_handler(const void* pkts, uint64_t pkt_count, uint64_t, void*,
                           hsa_amd_queue_intercept_packet_writer writer) {
    writer(pkts, pkt_count);
    writer(pkts, pkt_count); // a second call in one invocation: only legal with HSA_SIM_INTERCEPT_SEMANTICS=6
}

int run_intercept_writer(const char* tool_path) {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    void* tool = dlopen(tool_path, RTLD_LAZY | RTLD_NOLOAD);
    if (!tool) {
        return fail("table tool not loaded (HSA_TOOLS_LIB?)");
    }
    const auto* amd = static_cast<const AmdExtTable*>(dlsym(tool, "rs_saved_amd_ext"));
    if (!amd || !amd->hsa_amd_queue_intercept_create_fn || !amd->hsa_amd_queue_intercept_register_fn) {
        return fail("no intercept entry points");
    }
    const hsa_agent_t gpu = list_agents().gpus.at(0);
    hsa_queue_t* q = nullptr;
    if (amd->hsa_amd_queue_intercept_create_fn(gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                               UINT32_MAX, &q) != HSA_STATUS_SUCCESS ||
        amd->hsa_amd_queue_intercept_register_fn(q, double_writer_handler, nullptr) != HSA_STATUS_SUCCESS) {
        return fail("intercept queue");
    }
    hsa_signal_t done;
    hsa_signal_create(2, 0, nullptr, &done);
    std::printf("submitting\n");
    std::fflush(stdout);
    submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
    const hsa_signal_value_t v = wait_below_one(done, 5000);
    std::printf("completion %" PRId64 "\n", static_cast<int64_t>(v));
    hsa_signal_destroy(done);
    hsa_queue_destroy(q);
    hsa_shut_down();
    return v == 0 ? 0 : 3;
}

const AmdExtTable* saved_amd_ext(const char* tool_path) {
    void* tool = dlopen(tool_path, RTLD_LAZY | RTLD_NOLOAD);
    if (!tool) {
        return nullptr;
    }
    const auto* amd = static_cast<const AmdExtTable*>(dlsym(tool, "rs_saved_amd_ext"));
    return (amd && amd->hsa_amd_queue_intercept_create_fn && amd->hsa_amd_queue_intercept_register_fn)
               ? amd
               : nullptr;
}

int run_queue_create(const char* tool_path) {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    const AmdExtTable* amd = saved_amd_ext(tool_path);
    if (!amd) {
        return fail("table tool not loaded (HSA_TOOLS_LIB?)");
    }
    const hsa_agent_t gpu = list_agents().gpus.at(0);
    hsa_queue_t* q[5] = {};
    // Not counted: invalid arguments (size not a power of two).
    std::printf("invalid %d\n", static_cast<int>(hsa_queue_create(gpu, 100, HSA_QUEUE_TYPE_MULTI, nullptr,
                                                                  nullptr, UINT32_MAX, UINT32_MAX, &q[0])));
    std::printf("plain1 %d\n", static_cast<int>(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr,
                                                                 nullptr, UINT32_MAX, UINT32_MAX, &q[1])));
    std::printf("intercept %d\n",
                static_cast<int>(amd->hsa_amd_queue_intercept_create_fn(
                    gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &q[2])));
    std::printf("plain2 %d\n", static_cast<int>(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, nullptr,
                                                                 nullptr, UINT32_MAX, UINT32_MAX, &q[3])));
    std::printf("cooperative %d\n",
                static_cast<int>(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr,
                                                  UINT32_MAX, UINT32_MAX, &q[4])));
    for (int i = 1; i < 5; ++i) {
        if (q[i]) {
            hsa_queue_destroy(q[i]);
        }
    }
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

int run_signal_create() {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    hsa_signal_t s[3] = {};
    std::printf("signal1 %d\n", static_cast<int>(hsa_signal_create(1, 0, nullptr, &s[0])));
    std::printf("signal2 %d\n", static_cast<int>(hsa_amd_signal_create(1, 0, nullptr, 0, &s[1])));
    std::printf("signal3 %d\n", static_cast<int>(hsa_signal_create(1, 0, nullptr, &s[2])));
    for (hsa_signal_t x : s) {
        if (x.handle) {
            hsa_signal_destroy(x);
        }
    }
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

int run_dispatch_log(const char* tool_path, const char* kernels) {
    if (hsa_init() != HSA_STATUS_SUCCESS) {
        return fail("hsa_init");
    }
    const AmdExtTable* amd = saved_amd_ext(tool_path);
    if (!amd) {
        return fail("table tool not loaded (HSA_TOOLS_LIB?)");
    }
    const Agents agents = list_agents();
    const hsa_agent_t gpu = agents.gpus.at(0);
    LoadedCode code;
    if (load_code(kernels, gpu, false, true, &code) != HSA_STATUS_SUCCESS) {
        return fail("load");
    }
    hsa_queue_t* plain = nullptr;
    hsa_queue_t* proxy = nullptr;
    if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &plain) !=
            HSA_STATUS_SUCCESS ||
        amd->hsa_amd_queue_intercept_create_fn(gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                                               UINT32_MAX, &proxy) != HSA_STATUS_SUCCESS) {
        return fail("queues");
    }
    const uint32_t plain_mask[2] = {0xf, 0x0};
    const uint32_t proxy_mask[1] = {0x3};
    std::printf("set %d %d %d %d\n",
                static_cast<int>(hsa_amd_queue_set_priority(plain, HSA_AMD_QUEUE_PRIORITY_HIGH)),
                static_cast<int>(hsa_amd_queue_cu_set_mask(plain, 64, plain_mask)),
                static_cast<int>(hsa_amd_queue_set_priority(proxy, HSA_AMD_QUEUE_PRIORITY_LOW)),
                static_cast<int>(hsa_amd_queue_cu_set_mask(proxy, 32, proxy_mask)));
    uint32_t read_back[2] = {};
    hsa_amd_queue_cu_get_mask(proxy, 64, read_back);
    std::printf("proxy-mask %x,%x\n", read_back[0], read_back[1]);
    uint32_t out[8] = {};
    auto* args = alloc_kernarg<FillArgs>(agents.cpus.at(0));
    *args = FillArgs{out, 1, 0};
    const uint64_t object = kernel_object(code.exe, gpu, kFillKernel);
    hsa_queue_t* queues[2] = {plain, proxy};
    const char* labels[2] = {"plain", "proxy"};
    for (int i = 0; i < 2; ++i) {
        hsa_signal_t done;
        hsa_signal_create(1, 0, nullptr, &done);
        dispatch(queues[i], object, args, 8, 8, done, true);
        const hsa_signal_value_t v = wait_below_one(done, 10000);
        std::printf("%s %" PRIu64 " %" PRIu64 " %" PRId64 "\n", labels[i], queues[i]->id, done.handle,
                    static_cast<int64_t>(v));
        hsa_signal_destroy(done);
    }
    hsa_queue_destroy(proxy);
    hsa_queue_destroy(plain);
    unload_code(&code);
    return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : fail("hsa_shut_down");
}

} // namespace

int main(int argc, char** argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    if (argc < 2) {
        return fail("usage: sim_child MODE [ARGS]");
    }
    const std::string mode = argv[1];
    if (mode == "tools") {
        return run_tools();
    }
    if (mode == "d2h" || mode == "h2d") {
        return run_copies(mode == "d2h");
    }
    if (mode == "alloc") {
        return run_alloc();
    }
    if ((mode == "symbols" || mode == "symbols-memory") && argc > 2) {
        return run_symbols(argv[2], mode == "symbols-memory");
    }
    if (mode == "kernel-time" && argc > 2) {
        return run_kernel_time(argv[2]);
    }
    if (mode == "intercept-writer" && argc > 2) {
        return run_intercept_writer(argv[2]);
    }
    if (mode == "queue-create" && argc > 2) {
        return run_queue_create(argv[2]);
    }
    if (mode == "signal-create") {
        return run_signal_create();
    }
    if (mode == "dispatch-log" && argc > 3) {
        return run_dispatch_log(argv[2], argv[3]);
    }
    return fail("unknown mode");
}
