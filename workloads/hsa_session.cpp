// SPDX-License-Identifier: MIT
#include "hsa_session.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace rs::workloads {

void fail(const char* format, ...) {
    std::fflush(stdout); // keep the program's progress lines before the failure
    std::va_list args;
    va_start(args, format);
    std::fputs("FAIL: ", stderr);
    std::vfprintf(stderr, format, args);
    std::fputc('\n', stderr);
    va_end(args);
    std::exit(1);
}

void check(hsa_status_t status, const char* what) {
    if (status == HSA_STATUS_SUCCESS || status == HSA_STATUS_INFO_BREAK) {
        return;
    }
    const char* text = nullptr;
    if (hsa_status_string(status, &text) != HSA_STATUS_SUCCESS || text == nullptr) {
        text = "(no status string)";
    }
    fail("%s returned 0x%x: %s", what, static_cast<unsigned>(status), text);
}

// ---- packets ---------------------------------------------------------------------------------------

KernelDispatch make_dispatch(const Kernel& kernel, void* kernarg, uint32_t grid_size) {
    KernelDispatch dispatch;
    dispatch.kernel_object = kernel.object;
    dispatch.kernarg = kernarg;
    dispatch.grid_size = grid_size;
    return dispatch;
}

uint64_t reserve_packets(hsa_queue_t* queue, uint32_t count) {
    const uint64_t index = hsa_queue_add_write_index_scacq_screl(queue, count);
    while (index + count - hsa_queue_load_read_index_scacquire(queue) > queue->size) {
        // Queue full: wait for the packet processor to consume packets.
    }
    return index;
}

void write_dispatch_packet(hsa_queue_t* queue, uint64_t index, const KernelDispatch& dispatch) {
    auto* packets = static_cast<hsa_kernel_dispatch_packet_t*>(queue->base_address);
    hsa_kernel_dispatch_packet_t* packet = &packets[index & (queue->size - 1)];

    // Body first (everything after the header/setup word).
    packet->workgroup_size_x = dispatch.workgroup_size;
    packet->workgroup_size_y = 1;
    packet->workgroup_size_z = 1;
    packet->reserved0 = 0;
    packet->grid_size_x = dispatch.grid_size;
    packet->grid_size_y = 1;
    packet->grid_size_z = 1;
    packet->private_segment_size = dispatch.private_segment_size;
    packet->group_segment_size = dispatch.group_segment_size;
    packet->kernel_object = dispatch.kernel_object;
    packet->kernarg_address = dispatch.kernarg;
    packet->reserved2 = 0;
    packet->completion_signal = dispatch.completion_signal;

    const uint16_t header = static_cast<uint16_t>(
        (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
    const uint16_t setup = static_cast<uint16_t>(1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
    const uint32_t header_and_setup = static_cast<uint32_t>(header) | (static_cast<uint32_t>(setup) << 16);
    __atomic_store_n(reinterpret_cast<uint32_t*>(packet), header_and_setup, __ATOMIC_RELEASE);
}

void ring_doorbell(hsa_queue_t* queue, uint64_t last_index) {
    hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(last_index));
}

void wait_for_completion(hsa_signal_t signal) {
    while (hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                     HSA_WAIT_STATE_BLOCKED) >= 1) {
        // Spurious wake-up: keep waiting.
    }
}

uint64_t submit_dispatch(hsa_queue_t* queue, const KernelDispatch& dispatch) {
    const uint64_t index = reserve_packets(queue, 1);
    write_dispatch_packet(queue, index, dispatch);
    ring_doorbell(queue, index);
    return index;
}

void write_barrier_and(hsa_queue_t* queue, uint64_t index, hsa_signal_t dependency) {
    auto* packets = static_cast<hsa_barrier_and_packet_t*>(queue->base_address);
    hsa_barrier_and_packet_t* packet = &packets[index & (queue->size - 1)];
    packet->reserved0 = 0;
    packet->reserved1 = 0;
    for (hsa_signal_t& s : packet->dep_signal) {
        s.handle = 0;
    }
    packet->dep_signal[0] = dependency;
    packet->reserved2 = 0;
    packet->completion_signal.handle = 0;
    const uint16_t header = static_cast<uint16_t>(
        (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
    __atomic_store_n(reinterpret_cast<uint32_t*>(packet), static_cast<uint32_t>(header), __ATOMIC_RELEASE);
}

std::vector<const char*> program_arguments(int argc, char** argv) {
    std::vector<const char*> arguments;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--code-object-dir") == 0) {
            ++i;
        } else {
            arguments.push_back(argv[i]);
        }
    }
    return arguments;
}

const char* program_argument(int argc, char** argv, const char* fallback) {
    const std::vector<const char*> arguments = program_arguments(argc, argv);
    return arguments.empty() ? fallback : arguments.back();
}

std::vector<uint32_t> linear_values(uint32_t count, uint32_t first, uint32_t step) {
    std::vector<uint32_t> values(count);
    for (uint32_t i = 0; i < count; ++i) {
        values[i] = first + step * i;
    }
    return values;
}

void expect_added(const std::vector<uint32_t>& result, const std::vector<uint32_t>& initial, uint32_t times,
                  const char* name, const char* what) {
    for (std::size_t i = 0; i < result.size(); ++i) {
        const uint32_t expected = initial[i] + times;
        if (result[i] == expected) {
            continue;
        }
        const char* how = result[i] > expected ? (times == 1 ? "more than once" : "more often than that")
                                               : (times == 1 ? "not at all" : "fewer times than that");
        fail("%s[%zu] = %u, expected %u (initial %u + %u): %s ran %s", name, i, result[i], expected,
             initial[i], times, what, how);
    }
}

void expect_incremented(const std::vector<uint32_t>& result, const std::vector<uint32_t>& initial,
                        const char* name, const char* what) {
    expect_added(result, initial, 1, name, what);
}

// ---- Executable ------------------------------------------------------------------------------------

Executable::Executable(const std::filesystem::path& path, std::span<const hsa_agent_t> agents) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
        fail("cannot open code object %s: %s", path.c_str(), std::strerror(errno));
    }
    check(hsa_code_object_reader_create_from_file(fd_, &reader_), "hsa_code_object_reader_create_from_file");
    check(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                    &executable_),
          "hsa_executable_create_alt");
    for (hsa_agent_t agent : agents) {
        check(hsa_executable_load_agent_code_object(executable_, agent, reader_, nullptr, nullptr),
              "hsa_executable_load_agent_code_object");
    }
    check(hsa_executable_freeze(executable_, nullptr), "hsa_executable_freeze");
}

Executable::Executable(Executable&& other) noexcept
    : executable_(std::exchange(other.executable_, hsa_executable_t{})),
      reader_(std::exchange(other.reader_, hsa_code_object_reader_t{})), fd_(std::exchange(other.fd_, -1)) {}

Executable::~Executable() {
    if (executable_.handle != 0) {
        check(hsa_executable_destroy(executable_), "hsa_executable_destroy");
    }
    if (reader_.handle != 0) {
        check(hsa_code_object_reader_destroy(reader_), "hsa_code_object_reader_destroy");
    }
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

namespace {

hsa_executable_symbol_t find_symbol(hsa_executable_t executable, const char* name, hsa_agent_t agent) {
    hsa_executable_symbol_t symbol{};
    const hsa_status_t status = hsa_executable_get_symbol_by_name(executable, name, &agent, &symbol);
    if (status != HSA_STATUS_SUCCESS) {
        const std::string what = std::string("hsa_executable_get_symbol_by_name(\"") + name + "\")";
        check(status, what.c_str());
    }
    return symbol;
}

template <typename T>
T symbol_info(hsa_executable_symbol_t symbol, hsa_executable_symbol_info_t attribute, const char* what) {
    T value{};
    check(hsa_executable_symbol_get_info(symbol, attribute, &value), what);
    return value;
}

} // namespace

Kernel Executable::kernel(const char* name, hsa_agent_t agent) const {
    const hsa_executable_symbol_t symbol = find_symbol(executable_, name, agent);
    const auto type = symbol_info<hsa_symbol_kind_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, "symbol TYPE");
    if (type != HSA_SYMBOL_KIND_KERNEL) {
        fail("symbol %s is not a kernel (kind %d)", name, static_cast<int>(type));
    }
    Kernel kernel;
    kernel.object = symbol_info<uint64_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, "KERNEL_OBJECT");
    kernel.kernarg_segment_size = symbol_info<uint32_t>(
        symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, "KERNEL_KERNARG_SEGMENT_SIZE");
    kernel.group_segment_size = symbol_info<uint32_t>(
        symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, "KERNEL_GROUP_SEGMENT_SIZE");
    kernel.private_segment_size = symbol_info<uint32_t>(
        symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, "KERNEL_PRIVATE_SEGMENT_SIZE");
    if (kernel.object == 0) {
        fail("kernel %s has a null kernel object", name);
    }
    return kernel;
}

Variable Executable::variable(const char* name, hsa_agent_t agent) const {
    const hsa_executable_symbol_t symbol = find_symbol(executable_, name, agent);
    const auto type = symbol_info<hsa_symbol_kind_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, "symbol TYPE");
    if (type != HSA_SYMBOL_KIND_VARIABLE) {
        fail("symbol %s is not a variable (kind %d)", name, static_cast<int>(type));
    }
    Variable variable;
    const auto address =
        symbol_info<uint64_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, "VARIABLE_ADDRESS");
    variable.address = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
    variable.size = symbol_info<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, "VARIABLE_SIZE");
    if (variable.address == nullptr) {
        fail("variable %s has a null address", name);
    }
    return variable;
}

// ---- Queue -----------------------------------------------------------------------------------------

Queue::Queue(hsa_agent_t agent, uint32_t size) {
    check(hsa_queue_create(agent, size, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX,
                           &queue_),
          "hsa_queue_create");
}

Queue::Queue(Queue&& other) noexcept : queue_(std::exchange(other.queue_, nullptr)) {}

Queue::~Queue() {
    if (queue_ != nullptr) {
        check(hsa_queue_destroy(queue_), "hsa_queue_destroy");
    }
}

void Queue::dispatch_and_wait(KernelDispatch dispatch) {
    check(hsa_signal_create(1, 0, nullptr, &dispatch.completion_signal), "hsa_signal_create");
    submit_dispatch(queue_, dispatch);
    wait_for_completion(dispatch.completion_signal);
    check(hsa_signal_destroy(dispatch.completion_signal), "hsa_signal_destroy");
}

// ---- HsaSession ------------------------------------------------------------------------------------

namespace {

struct Discovery {
    bool have_cpu = false;
    hsa_agent_t cpu{};
    std::vector<hsa_agent_t> gpus;
};

hsa_status_t collect_agent(hsa_agent_t agent, void* data) {
    auto* discovery = static_cast<Discovery*>(data);
    hsa_device_type_t type{};
    const hsa_status_t status = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    if (type == HSA_DEVICE_TYPE_CPU && !discovery->have_cpu) {
        discovery->cpu = agent;
        discovery->have_cpu = true;
    } else if (type == HSA_DEVICE_TYPE_GPU) {
        discovery->gpus.push_back(agent);
    }
    return HSA_STATUS_SUCCESS;
}

struct PoolSearch {
    uint32_t required_flags = 0;
    uint32_t forbidden_flags = 0;
    bool found = false;
    hsa_amd_memory_pool_t pool{};
};

hsa_status_t match_pool(hsa_amd_memory_pool_t pool, void* data) {
    auto* search = static_cast<PoolSearch*>(data);
    hsa_amd_segment_t segment{};
    hsa_status_t status = hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    if (segment != HSA_AMD_SEGMENT_GLOBAL) {
        return HSA_STATUS_SUCCESS;
    }
    bool alloc_allowed = false;
    status =
        hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_allowed);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    uint32_t flags = 0;
    status = hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
    if (status != HSA_STATUS_SUCCESS) {
        return status;
    }
    if (alloc_allowed && (flags & search->required_flags) == search->required_flags &&
        (flags & search->forbidden_flags) == 0) {
        search->pool = pool;
        search->found = true;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

hsa_amd_memory_pool_t find_pool(hsa_agent_t agent, uint32_t required, uint32_t forbidden, const char* what) {
    PoolSearch search;
    search.required_flags = required;
    search.forbidden_flags = forbidden;
    check(hsa_amd_agent_iterate_memory_pools(agent, match_pool, &search),
          "hsa_amd_agent_iterate_memory_pools");
    if (!search.found) {
        fail("no %s memory pool found", what);
    }
    return search.pool;
}

std::filesystem::path choose_code_object_dir(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--code-object-dir") == 0) {
            return argv[i + 1];
        }
    }
    if (const char* dir = std::getenv("RS_WORKLOAD_CODE_OBJECT_DIR"); dir != nullptr && *dir != '\0') {
        return dir;
    }
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) {
        fail("cannot resolve /proc/self/exe: %s", error.message().c_str());
    }
    return exe.parent_path();
}

} // namespace

HsaSession::HsaSession(int argc, char** argv) : code_object_dir_(choose_code_object_dir(argc, argv)) {
    check(hsa_init(), "hsa_init");

    Discovery discovery;
    check(hsa_iterate_agents(collect_agent, &discovery), "hsa_iterate_agents");
    if (!discovery.have_cpu) {
        fail("no CPU agent");
    }
    if (discovery.gpus.empty()) {
        fail("no GPU agent");
    }
    cpu_ = discovery.cpu;
    gpus_ = std::move(discovery.gpus);

    for (hsa_agent_t gpu : gpus_) {
        GpuPools pools;
        pools.coarse =
            find_pool(gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, 0, "GPU coarse-grained");
        pools.fine = find_pool(gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, 0, "GPU fine-grained");
        gpu_pools_.push_back(pools);
    }
    kernarg_pool_ = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, 0, "CPU kernarg");
    system_pool_ = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
                             HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, "CPU fine-grained system");
}

HsaSession::~HsaSession() {
    check(hsa_shut_down(), "hsa_shut_down");
}

hsa_agent_t HsaSession::gpu(std::size_t index) const {
    if (index >= gpus_.size()) {
        fail("GPU agent %zu requested but only %zu exist", index, gpus_.size());
    }
    return gpus_[index];
}

const GpuPools& HsaSession::gpu_pools(std::size_t index) const {
    if (index >= gpu_pools_.size()) {
        fail("GPU agent %zu requested but only %zu exist", index, gpu_pools_.size());
    }
    return gpu_pools_[index];
}

std::filesystem::path HsaSession::code_object_path(const std::string& file_name) const {
    return code_object_dir_ / file_name;
}

Executable HsaSession::load(const std::string& file_name, std::span<const hsa_agent_t> agents) const {
    if (agents.empty()) {
        agents = std::span<const hsa_agent_t>(gpus_.data(), 1);
    }
    return Executable(code_object_path(file_name), agents);
}

void* HsaSession::allocate(hsa_amd_memory_pool_t pool, std::size_t bytes, uint32_t flags) const {
    void* ptr = nullptr;
    check(hsa_amd_memory_pool_allocate(pool, bytes, flags, &ptr), "hsa_amd_memory_pool_allocate");
    if (ptr == nullptr) {
        fail("hsa_amd_memory_pool_allocate(%zu bytes) succeeded with a null pointer", bytes);
    }
    return ptr;
}

void HsaSession::free(void* ptr) const {
    check(hsa_amd_memory_pool_free(ptr), "hsa_amd_memory_pool_free");
}

void* HsaSession::make_kernarg(const void* args, std::size_t args_bytes, std::size_t bytes) const {
    if (bytes < args_bytes) {
        bytes = args_bytes;
    }
    void* kernarg = allocate(kernarg_pool_, bytes);
    std::memset(kernarg, 0, bytes);
    std::memcpy(kernarg, args, args_bytes);
    return kernarg;
}

void HsaSession::copy_to_device(void* dst, const void* src, std::size_t bytes) const {
    void* staging = allocate(system_pool_, bytes);
    std::memcpy(staging, src, bytes);
    check(hsa_memory_copy(dst, staging, bytes), "hsa_memory_copy (to device)");
    free(staging);
}

void HsaSession::copy_to_host(void* dst, const void* src, std::size_t bytes) const {
    void* staging = allocate(system_pool_, bytes);
    check(hsa_memory_copy(staging, src, bytes), "hsa_memory_copy (to host)");
    std::memcpy(dst, staging, bytes);
    free(staging);
}

std::string agent_label(const HsaSession& session, hsa_agent_t agent) {
    if (agent.handle == session.cpu().handle) {
        return "CPU";
    }
    for (std::size_t i = 0; i < session.gpus().size(); ++i) {
        if (session.gpus()[i].handle == agent.handle) {
            return "GPU" + std::to_string(i);
        }
    }
    char text[32];
    std::snprintf(text, sizeof text, "agent 0x%llx", static_cast<unsigned long long>(agent.handle));
    return text;
}

} // namespace rs::workloads
